"""The ``turns/`` archive: a close's files staged before its commit, the record, the replay."""


def turn_dir_name(number: int) -> str:
    """A turn's folder in a match's archive: t001, t002, …"""
    return f"t{number:03d}"

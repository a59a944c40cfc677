"""The ``turns/`` archive: a close's files staged before its commit, the record, the replay."""

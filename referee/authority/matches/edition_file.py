"""A match file on disk may name its edition file: ``edition: my_cards.yaml``,
beside the match file.  The referee reads it (with the YAML limits, a little
wider than an order's: an edition is a few hundred cards) and puts its content
under ``options.edition``, so the match and its archive carry the edition and
replay without the file.  Only for ``referee new``: a mailed match file names
no path on the referee's disk (it gives the edition inline instead)."""
from __future__ import annotations

from pathlib import Path

from referee.authority.matches.match_file import MatchError
from referee.intake.problems import message_only
from referee.intake.safe_yaml import YamlRefused, load_checked

MAX_EDITION_BYTES = 512_000
MAX_EDITION_NODES = 100_000


def _refused(en: str, de: str) -> MatchError:
    return MatchError([f"edition: {en}"], [f"edition: {de}"])


def inline_edition(text: str, folder: Path) -> str | dict:
    """The match file with the edition file it names read in; else ``text`` unchanged."""
    try:
        data = load_checked(text).data
    except YamlRefused:
        return text   # load_spec says what is wrong, with its line
    edition = data.get("edition") if isinstance(data, dict) else None
    if not isinstance(edition, str) or not edition.lower().endswith((".yaml", ".yml")):
        return text
    path = folder / edition
    if not path.is_file():
        raise _refused(f"there is no file {edition!r} beside the match file",
                       f"neben der Partiedatei gibt es keine Datei {edition!r}")
    try:
        raw = path.read_bytes()[:MAX_EDITION_BYTES + 1].decode("utf-8")
        content = load_checked(raw, max_bytes=MAX_EDITION_BYTES, max_nodes=MAX_EDITION_NODES).data
    except OSError:
        raise _refused(f"{edition} cannot be read", f"{edition} ist nicht lesbar") from None
    except UnicodeDecodeError:
        raise _refused(f"{edition} is not UTF-8 text", f"{edition} ist kein UTF-8-Text") from None
    except YamlRefused as e:
        raise _refused(f"{edition}: {message_only(e.code, e.line, e.column, e.params, 'en')}",
                       f"{edition}: {message_only(e.code, e.line, e.column, e.params, 'de')}") from None
    if not isinstance(content, dict):
        raise _refused(f"{edition} is not a mapping of an edition (name: value lines)",
                       f"{edition} ist keine Zuordnung einer Edition (Zeilen Name: Wert)")
    data = dict(data)
    del data["edition"]
    data["options"] = {**(data.get("options") or {}), "edition": content}
    return data

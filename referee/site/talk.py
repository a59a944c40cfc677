"""What a match page shows of table talk and the chronicle (issue 18): from the
archive's ``tNNN/chronicle.yaml`` and ``tNNN/press.yaml``, only what was for
everyone — chronicle entries and letters for all seats, messages to all (an
unsigned one without its writer).  Since issue 32 these files hold nothing else
(the whole record is in ``tNNN/private/``); the filter stays for older archives."""
from __future__ import annotations

from pathlib import Path

from referee.archive import yaml_text as archive_yaml

MAX_ENTRIES = 500   # read from one turn's record


def _read(path: Path) -> list:
    if not path.exists():
        return []
    data = archive_yaml.read(path)
    return [d for d in data[:MAX_ENTRIES] if isinstance(d, dict)] if isinstance(data, list) else []


def public_talk(turn_dir: Path, players: dict) -> dict:
    """{"chronicle": [{kind, title, text, author}], "table_talk": [{sender, text}]} of one turn."""
    def name(seat) -> str:
        return players.get(seat, {"name": seat})["name"]

    chronicle = [{"kind": e.get("kind"), "title": e.get("title"), "text": str(e.get("text", "")),
                  "author": None if e.get("by") == "@gm" else name(e.get("by"))}
                 for e in _read(turn_dir / "chronicle.yaml") if e.get("for") == "all"]
    talk = [{"sender": None if m.get("anonymous") else name(m.get("from")), "text": str(m.get("text", ""))}
            for m in _read(turn_dir / "press.yaml") if m.get("to") == "all"]
    return {"chronicle": chronicle, "table_talk": talk}

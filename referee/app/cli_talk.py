"""The GM's chronicle and letter commands on the command line (issue 18):
``referee gm MATCH approve 3`` takes the letter's number as a bare word, and
``chronicle file=story.md`` reads the text from a local file (capped)."""
from __future__ import annotations

from pathlib import Path

from referee.app.cli_errors import Fail
from referee.authority.talk.chronicle import MAX_FILE

COMMANDS = {
    "chronicle": ("Write the chronicle that heads the next report of every player and observer: "
                  "text=\"...\" or file=STORY.md, [title=\"...\"] [seats=ann,bob] (those seats only).",
                  "text= | file= [title=] [seats=]"),
    "approve": ("Publish a player's held letter N: it heads the next report.", "N"),
    "decline": ("Decline a player's held letter N: [reason=\"...\"] is told to its writer.", "N [reason=]"),
}


def positional(name: str, words: tuple[str, ...]) -> tuple[str, ...]:
    """``approve 3`` as ``approve number=3``."""
    if name in ("approve", "decline") and words and "=" not in words[0]:
        return (f"number={words[0]}",) + words[1:]
    return words


def read_text_file(given: dict) -> dict:
    """``file=PATH`` of ``chronicle`` read into ``text``: UTF-8, at most MAX_FILE bytes."""
    if "file" not in given:
        return given
    path = Path(given.pop("file"))
    try:
        with path.open("rb") as f:
            data = f.read(MAX_FILE + 1)
    except OSError as e:
        raise Fail(f"chronicle: cannot read {path}: {e.strerror}") from None
    if len(data) > MAX_FILE:
        raise Fail(f"chronicle: {path} is larger than {MAX_FILE} bytes")
    try:
        given["text"] = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Fail(f"chronicle: {path} is not UTF-8 text") from None
    return given

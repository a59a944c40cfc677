"""Issue #10: the starting position in a welcome mail says it stands before the
first turn (not "turn 0", no "nothing happened" as if a turn had been played),
for every game, in English and German; and the match's title is not repeated
when it is only the game's own name."""
from __future__ import annotations

import mailbox
from datetime import UTC, datetime
from email import message_from_bytes, policy

import pytest

from referee.app.referee import Referee
from referee.authority.base import Settings
from referee.game_api import registry
from referee.mail.sink import MaildirSink
from referee.store.sqlite import SqliteStore

BEFORE = {"en": ("before the first turn", "Starting position, before the first session"),
          "de": ("vor dem ersten Zug", "Ausgangslage vor der ersten Sitzung")}


@pytest.mark.parametrize("game", registry.names())
def test_the_welcome_position_stands_before_the_first_turn(game, tmp_path):
    rules = registry.get(game)
    ref = Referee(SqliteStore(tmp_path / "r.sqlite"), tmp_path / "turns",
                  clock=lambda: datetime(2026, 3, 2, tzinfo=UTC), settings=Settings())
    seats = ["ada", "bert", "cleo"][: max(rules.min_players, 2)]
    ref.create_match({"id": "w", "game": game, "gm": "gm@x.org", "language": "en", "schedule": {"period": "48h"},
                      "players": [{"id": s, "name": s.title(), "email": f"{s}@x.org", "lang": "de" if s == "bert" else "en"}
                                  for s in seats]})
    ref.send_pending(MaildirSink(tmp_path / "out"))
    box = mailbox.Maildir(str(tmp_path / "out"), factory=None, create=False)
    seen = set()
    for key in box.keys():
        msg = message_from_bytes(box.get_bytes(key), policy=policy.default)
        lang = {"ada@x.org": "en", "bert@x.org": "de"}.get(msg["To"])
        if lang is None or not any(w in msg["Subject"] for w in ("Welcome", "Willkommen")):
            continue   # the rules for players come in a mail of their own
        text = msg.get_body(("plain",)).get_content()
        head = "STARTING POSITION" if lang == "en" else "AUSGANGSLAGE"
        position = text[text.index(head):]
        assert any(words in position for words in BEFORE[lang]), position[:400]
        for wrong in ("turn 0", "Zug 0", "(nothing)", "(nichts)"):
            assert wrong not in position, (wrong, position[:400])
        first = position.splitlines()[2]
        assert f" — {rules.title}" not in first, first   # no "NAME — Name"
        seen.add(lang)
    assert seen == {"en", "de"}

"""Players reply by editing the form at the end of every mail.  Sent back
unchanged — envelope lines put above its 'orders:', key filled in — the
form of the welcome mail and of every report must be accepted, for every
installed game."""
from __future__ import annotations

import mailbox
import re
from datetime import UTC, datetime, timezone
from email import message_from_bytes, policy

import pytest
from refkit import in_order

from referee.app.referee import Referee
from referee.authority.base import Settings
from referee.game_api import registry
from referee.mail.inbound import parse_inbound
from referee.mail.sink import MaildirSink
from referee.store.sqlite import SqliteStore

KEY = re.compile(r"\b([2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4})\b")
ENVELOPE = ("match:", "player:", "key:", "turn:")


def reply_from(text: str, key: str) -> str:
    """What a player sends back: the envelope lines and the form, unchanged but for the key."""
    lines = text.replace("\r\n", "\n").split("\n")
    start = max(i for i, ln in enumerate(lines) if ln.startswith("orders:"))
    block = [lines[start]]
    for ln in lines[start + 1:]:
        if ln and not ln.startswith((" ", "#")):
            break
        block.append(ln)
    envelope = {}
    for ln in lines:
        for k in ENVELOPE:
            if ln.startswith(k):
                envelope[k] = ln
    envelope["key:"] = f"key: {key}"
    return "Hello,\n\nhere are my orders:\n\n" + "\n".join(envelope[k] for k in ENVELOPE) + "\n" + "\n".join(block) + "\n"


def mail_from(sender: str, body: str, n: int) -> bytes:
    return (f"From: {sender}\nTo: referee@localhost\nSubject: orders\nMessage-ID: <r{n}@players.test>\n"
            f"Content-Type: text/plain; charset=utf-8\n\n{body}").encode()


@pytest.mark.parametrize("game", registry.names())
def test_the_forms_sent_back_unchanged_are_accepted(game, tmp_path):
    rules = registry.get(game)
    seats = ["ada", "bert", "cleo", "dora"][: max(rules.min_players, 2)]
    clock = lambda: datetime(2026, 3, 2, 18, 0, tzinfo=UTC)  # noqa: E731
    ref = Referee(SqliteStore(tmp_path / "r.sqlite"), tmp_path / "turns", clock=clock,
                  settings=Settings(address="referee@localhost"))
    ref.create_match({"id": "forms", "game": game, "gm": "gm@players.test", "lang": rules.languages[0],
                      "schedule": {"period": "48h"},
                      "players": [{"id": s, "name": s.title(), "email": f"{s}@players.test"} for s in seats]},
                     seed="forms")
    out = tmp_path / "out"
    sink, seen, keys, n = MaildirSink(out), set(), {}, 0

    def new_mail() -> list:
        ref.send_pending(sink)
        box = mailbox.Maildir(str(out), factory=None, create=False)
        fresh = [k for k in in_order(box) if k not in seen]
        seen.update(fresh)
        return [message_from_bytes(box.get_bytes(k), policy=policy.default) for k in fresh]

    for turn_no in range(1, 4):
        mails = new_mail()
        for m in mails:
            found = KEY.search(m.get_body(("plain",)).get_content())
            if found and m["To"].split("@")[0] in seats:
                keys.setdefault(m["To"].split("@")[0], found.group(1))
        turn = ref.store.current_turn("forms")
        assert turn["number"] == turn_no
        for player in sorted(p for p in turn["awaiting"] if p in seats):
            last = [m for m in mails if m["To"] == f"{player}@players.test"   # the mail with the form, not the rules
                    and not any(w in m["Subject"] for w in ("The rules of", "Die Regeln von"))][-1]
            body = reply_from(last.get_body(("plain",)).get_content(), keys[player])
            n += 1
            handled = ref.handle(parse_inbound(mail_from(f"{player}@players.test", body, n)))
            answer = new_mail()[-1].get_body(("plain",)).get_content()
            assert handled.reason == "accepted", f"turn {turn_no}, {player}: {answer}\n--- sent:\n{body}"
        ref.tick()

"""Issue 32, item 4: answers to table talk go through the sender check of any mail
of a seat.  A forged From with the subject token of a relayed mail no longer speaks
as the player it names: under ``sender_auth: require`` it is refused before it is
relayed or counted against his daily allowance; under ``record`` a From that fails
its check is reported to the seat and the GM.  Through ``referee poll`` on Maildirs;
the receiving server's Authentication-Results (a trusted authserv-id) prove a From."""
from __future__ import annotations

import re

import pytest
from doorkit import Door, match_file, text_of, to

TRUSTED = "mx.referee.test"
PROVEN = f"Authentication-Results: {TRUSTED}; dmarc=pass header.from=example.org\r\n"
FAILED = f"Authentication-Results: {TRUSTED}; dmarc=fail header.from=example.org\r\n"
PRESS = {"allow": "private", "per_day": 2}
CONFIG = f"authentication:\n  authserv_id: {TRUSTED}\n  dkim: false\n"
TOKEN = re.compile(r"#T-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}")


def talk(door: Door):
    """jay writes to king (proven); the mail relayed to king, which a forger has seen."""
    press = f"match: talk\nplayer: jay\nkey: {door.keys['jay']}\npress:\n  to: king\n  text: Harbour vote, together?\n"
    sent = door.poll(door.raw("jay@example.org", press, headers=PROVEN))
    [relayed] = to(sent, "king")
    assert TOKEN.search(str(relayed["Subject"]))
    return relayed


def answer(door: Door, relayed, text: str, headers: str = "") -> bytes:
    return door.raw("king@example.org", f"{text}\n\n> Harbour vote, together?\n", subject="Re: " + str(relayed["Subject"]),
                    headers=headers)


@pytest.fixture
def require(tmp_path, monkeypatch):
    return Door(tmp_path, monkeypatch, match_file("talk", sender_auth="require", press=PRESS), CONFIG)


def test_answers_to_table_talk_skip_no_sender_check_under_require(require):
    door = require
    relayed = talk(door)
    # a forger with king's address and the token, three times (his allowance is two a day)
    for n in range(3):
        sent = door.poll(answer(door, relayed, f"Never. Yours, King ({n})"))
        assert to(sent, "jay") == [] and to(sent, "gm") == []                  # nothing relayed, no copy
        [refusal] = to(sent, "king")
        assert "not proven" in " ".join(text_of(refusal).split())
    # king himself, proven: relayed, his allowance untouched by the forgeries
    for n in range(2):
        sent = door.poll(answer(door, relayed, f"Agreed, Jay ({n}).", headers=PROVEN))
        [back] = to(sent, "jay")
        assert f"Agreed, Jay ({n})." in text_of(back) and "Never" not in text_of(back)


def test_answers_to_table_talk_with_a_failing_from_are_reported_under_record(tmp_path, monkeypatch):
    door = Door(tmp_path, monkeypatch, match_file("talk", sender_auth="record", press=PRESS), CONFIG)
    relayed = talk(door)
    sent = door.poll(answer(door, relayed, "Never.", headers=FAILED))
    assert any("forged sender" in str(m["Subject"]) for m in to(sent, "king"))
    assert any("forged sender (king)" in str(m["Subject"]) for m in to(sent, "gm"))

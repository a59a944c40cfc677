"""A mail refused for its size says which limit it broke (issue 17), in the player's language."""
from __future__ import annotations

import pytest
from test_replies_say_what_happens_next import REFEREE

from referee.mail.inbound import MAX_BYTES, parse_inbound


def big(sender: str, body: str) -> bytes:
    return (f"From: {sender}\r\nTo: {REFEREE}\r\nSubject: orders\r\nMessage-ID: <big.{sender}@example.org>\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\nmatch: toy1\r\n{body}").encode()


@pytest.mark.parametrize("player, says", [("ann", "the whole mail is over the limit of 4 MB"),
                                          ("bob", "die ganze Mail ist größer als erlaubt (4 MB)")])
def test_a_mail_over_the_raw_cap_is_refused_naming_the_cap(table, player, says):
    table.ref.handle(parse_inbound(big(f"{player}@example.org", "x" * MAX_BYTES)))
    assert says in table.mails()[player]


@pytest.mark.parametrize("player, says", [("ann", "its text is over the limit of 256 kB"),
                                          ("bob", "ihr Text ist größer als erlaubt (256 kB)")])
def test_a_text_over_its_cap_is_refused_naming_that_cap(table, player, says):
    handled = table.ref.handle(parse_inbound(big(f"{player}@example.org", "x\r\n" * 100_000)))
    assert handled.reason == "mail.too_large"
    assert says in table.mails()[player]

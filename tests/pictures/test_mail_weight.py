"""Issue 38, mail weight: every report mail of a whole demo match of every game
(orders by mail, reports through the outbox into the sink, as ``referee demo``
plays it) weighs at most 150 kB with its picture, and the picture is a palette
PNG sized for a phone."""
from __future__ import annotations

import email
import mailbox
import struct
from email import policy

import pytest

from referee.app.demo import run_demo
from referee.game_api import registry
from referee.pictures import raster

MAX_MAIL = 150_000   # bytes: issue 38's 150 kB, the picture included
PALETTE = 3          # PNG colour type of an indexed (palette) image


def pictures_of(raw: bytes) -> list[bytes]:
    msg = email.message_from_bytes(raw, policy=policy.default)
    return [part.get_content() for part in msg.walk() if part.get_content_type() == "image/png"]


@pytest.mark.parametrize("game", sorted(registry.names()))
def test_every_report_mail_with_its_picture_weighs_at_most_150_kb(game, tmp_path):
    run_demo(tmp_path, games=[game], quiet=True)
    box = mailbox.Maildir(str(tmp_path / "demo" / game / "mail" / "out"), factory=None, create=False)
    with_picture, heaviest = 0, 0
    for key in box.keys():
        raw = box.get_bytes(key)
        pngs = pictures_of(raw)
        if not pngs:
            continue
        with_picture += 1
        heaviest = max(heaviest, len(raw))
        [png] = pngs
        width, _height, _depth, colour_type = struct.unpack(">IIBB", png[16:26])
        assert width == raster.WIDTH and colour_type == PALETTE
    assert with_picture >= 6, "the match's reports carry the board picture (3 turns kept, bot seats not mailed)"
    assert heaviest <= MAX_MAIL, f"{game}: a report mail of {heaviest} bytes"

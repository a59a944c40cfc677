"""Issue 17: reading a mail of any shape up to the raw-size cap holds at most 4x its size
plus a constant (it was 8x: a 2.85 MB mail peaked at 23 MB to read its headers)."""
from __future__ import annotations

import sys
import tracemalloc
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from mail_shapes import SHAPES  # noqa: E402

from referee.mail.inbound import MAX_BYTES, parse_inbound

CONSTANT = 1_000_000


def peak_of(raw: bytes):
    tracemalloc.start()
    mail = parse_inbound(raw)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return mail, peak


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_reading_a_mail_at_the_cap_holds_at_most_four_times_its_size(shape):
    raw = SHAPES[shape](MAX_BYTES - 1_000)
    assert MAX_BYTES - 20_000 < len(raw) <= MAX_BYTES
    mail, peak = peak_of(raw)
    assert peak <= 4 * len(raw) + CONSTANT, (shape, peak / len(raw))
    if shape != "plain":      # the photos are set aside, the order is read
        assert "bid: 3" in mail.text and not mail.too_large


def test_a_photo_is_set_aside_and_not_kept_in_the_archived_mail():
    mail, _ = peak_of(SHAPES["photo"](3_000_000))
    assert [name for name, _ in mail.set_aside] == ["IMG.jpg"]
    assert len(mail.raw) < 2_000 and b"bytes set aside" in mail.raw

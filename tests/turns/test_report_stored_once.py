"""Each report is stored once: the archive is the record; the store keeps what it
needs to send and resend, and a resent report is the very bytes of the original."""
from __future__ import annotations

import json

from referee_kit import inbound, text_of, to
from referee_kit import clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)


def parts(msg) -> tuple[bytes, bytes]:
    """The text and HTML parts of a mail, as bytes."""
    return (msg.get_body(("plain",)).get_payload(decode=True), msg.get_body(("html",)).get_payload(decode=True))


def test_a_closed_turns_reports_are_in_the_archive_and_nowhere_else(ref, outbox, game):
    ref.force("toy1")
    turn = ref.store.turn("toy1", 1)
    kept = json.dumps(turn["result"])
    archived = ref.archive.turn_dir("toy1", 1) / "reports" / "cyd.en.txt"
    body = archived.read_text(encoding="utf-8")
    assert "Bids:" in body and body not in kept and "Bids:" not in kept
    for row in ref.store.outbox("toy1"):
        if row["dedupe"].startswith("report:"):
            assert b"Bids:" not in row["message"], row["dedupe"]
    sent = outbox.flush()
    assert "Bids:" in text_of(next(iter(to(sent, "cyd@example.org"))))


def test_resend_gives_the_exact_bytes_of_the_original_report(ref, outbox, game):
    ref.force("toy1")
    [original] = [m for m in to(outbox.flush(), "cyd@example.org") if "Report, turn 1" in m["Subject"]]
    assert ref.handle(inbound("cyd@example.org", f"match: toy1\nplayer: cyd\nkey: {game['cyd']}\ncommand: resend\n"
                                                 "turn: 1\n")).reason == "resend"
    [resent] = [m for m in to(outbox.flush(), "cyd@example.org") if "Report, turn 1" in m["Subject"]]
    assert resent["Subject"] == original["Subject"]
    assert parts(resent) == parts(original)
    assert resent["Message-ID"] != original["Message-ID"]

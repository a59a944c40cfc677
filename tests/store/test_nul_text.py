"""A NUL character in hostile text is stored the same on both backends
(referee/store/nul.py): U+FFFD in a text column, exactly (escaped) in a JSON
column, untouched in bytes; so a campaign renders the same bytes on either."""
from __future__ import annotations

from datetime import UTC, datetime

from storefix import backend, location, store, store_at  # noqa: F401

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
HOSTILE = "Bob\x00<script>\x00"


def test_a_nul_in_text_reads_back_as_u_fffd_on_both_backends(store, backend):
    store.add_match(id="m", game="toy", version="1", spec={"title": HOSTILE}, seed="s", status="running",
                    gm_email="gm@x", gm_key_hash="h", created=NOW)
    store.add_player("m", "bob", HOSTILE, "bob@x", None, "h")
    store.mark_processed(f"<{HOSTILE}@x>", "hash", "processed", "m", NOW)
    assert store.player("m", "bob")["name"] == "Bob\ufffd<script>\ufffd"
    # the dedupe still finds the mail by the Message-ID it came with
    assert store.processed(f"<{HOSTILE}@x>", "hash") == "processed"
    assert store.match("m")["spec"] == {"title": HOSTILE}   # JSON: the NUL itself, escaped in the column
    assert "\x00" not in store._one("SELECT spec FROM matches WHERE id='m'")["spec"]


def test_a_nul_in_orders_and_in_a_queued_mail_is_kept_exactly(store):
    store.add_match(id="m", game="toy", version="1", spec={}, seed="s", status="running",
                    gm_email="gm@x", gm_key_hash="h", created=NOW)
    store.add_turn(match="m", number=1, state={}, awaiting={"bob": "bid"}, deadline=None, seed=1, opened=NOW)
    store.put_submission("m", 1, "bob", {"say": HOSTILE}, "<a@x>", "h", NOW)
    assert store.submissions("m", 1)["bob"]["orders"] == {"say": HOSTILE}
    assert store.enqueue("k", "m", "bob@x", b"raw\x00bytes", NOW)
    assert bytes(store.outbox_entry("k")["message"]) == b"raw\x00bytes"

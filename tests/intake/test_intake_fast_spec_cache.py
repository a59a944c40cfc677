"""The decoded-spec cache behind ``store.match()``: what the store holds now is
what the next mail sees (a GM's change, a spec written anew), and every caller
gets a copy of its own."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from seckit import SPEC, clock, keys_of, outbox, ref, text_of, to, toy_registered  # noqa: E402,F401 (fixtures)

from referee.mail.inbound import parse_inbound  # noqa: E402
from referee.store import spec_cache  # noqa: E402


def order(key: str, n: int, bid: int = 2):
    from email.message import EmailMessage
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "ann@example.org", "referee@example.org", "orders"
    msg["Message-ID"] = f"<spec-{n}@players.example>"
    msg.set_content(f"match: toy1\nplayer: ann\nkey: {key}\nturn: 1\norders:\n  bid: {bid}\n")
    return parse_inbound(msg.as_bytes(), own_addresses=["referee@example.org"])


@pytest.fixture
def ann_key(ref, outbox):
    ref.create_match(SPEC)
    return keys_of(outbox.flush())["ann"]


def test_each_caller_gets_its_own_copy_of_a_cached_spec(ref, ann_key):
    first = ref.store.match("toy1")
    first["spec"]["language"] = "xx"
    first["spec"]["schedule"]["period"] = "1h"
    second = ref.store.match("toy1")
    assert second["spec"]["language"] == "en" and second["spec"]["schedule"]["period"] == "48h"
    assert second["spec"] is not ref.store.match("toy1")["spec"]


def test_decoding_a_text_twice_gives_what_json_gives():
    text = json.dumps({"a": [1, 2.5, None, True, {"b": "ß"}], "n": 10**30, "e": {}, "l": []})
    assert spec_cache.decode(text) == json.loads(text) == spec_cache.decode(text)
    assert spec_cache.decode({"already": "decoded"}) == {"already": "decoded"}
    assert spec_cache.decode(None) is None


def test_a_spec_written_anew_is_seen_by_the_next_mail(ref, outbox, ann_key):
    assert ref.handle(order(ann_key, 1)).reason == "accepted"
    [reply] = to(outbox.flush(), "ann@example.org")
    assert "accepted" in text_of(reply)
    spec = ref.store.match("toy1")["spec"] | {"language": "de"}
    with ref.store.transaction():   # as a restore or a migration writes it: the same row, new text
        ref.store._exec("UPDATE matches SET spec=? WHERE id=?", (json.dumps(spec), "toy1"))
    assert ref.handle(order(ann_key, 2, bid=3)).reason == "accepted"
    [reply] = to(outbox.flush(), "ann@example.org")
    assert "accepted" not in text_of(reply) and "angenommen" in text_of(reply)   # ann has no language: the match's


def test_a_gm_change_to_the_match_is_seen_by_the_next_mail(ref, outbox, ann_key):
    assert ref.handle(order(ann_key, 1)).reason == "accepted"
    outbox.flush()
    ref.end("toy1")
    outbox.flush()
    h = ref.handle(order(ann_key, 2, bid=3))
    assert h.outcome == "refused" and h.reason == "match.ended"
    assert ref.store.submissions("toy1", 1)["ann"]["orders"] == {"bid": 2}


def test_a_match_that_is_not_there_is_none_every_time(ref, ann_key):
    assert ref.store.match("nowhere") is None and ref.store.match("nowhere") is None
    assert ref.store.match("toy1")["spec"]["title"] == "Toy One"

"""The outbox hands sinks that offer send_bytes the finished wire bytes: the
same bytes, envelope and retry handling as the EmailMessage path."""
from __future__ import annotations

import json
from email import policy

from referee_kit import SPEC, clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.mail.errors import TemporaryMailError
from referee.mail.sink import envelope

NO_OBSERVER = dict(SPEC, observers=[])   # the welcomes counted here: three players and the GM


class BothSink:
    """Takes either form; the first ``fail_times`` byte sends fail temporarily."""

    def __init__(self, fail_times: int = 0) -> None:
        self.fail_times, self.messages, self.wire = fail_times, [], []

    def send(self, msg) -> None:
        self.messages.append(msg)

    def send_bytes(self, data: bytes, sender: str, rcpts: list[str]) -> None:
        if self.fail_times:
            self.fail_times -= 1
            raise TemporaryMailError("421 try later", code=421)
        self.wire.append((data, sender, rcpts))


def test_send_bytes_gets_what_the_message_path_would_have_sent(ref):
    ref.create_match(NO_OBSERVER)
    queued = {e["id"]: e["message"] for e in ref.store.outbox()}
    sink = BothSink()
    assert ref.send_pending(sink).sent == len(queued) == 4
    assert sink.messages == []                      # EmailMessage is not built at all
    for (data, sender, rcpts), stored in zip(sink.wire, queued.values()):
        msg = ref.build_message(stored)
        assert data == msg.as_bytes(policy=policy.SMTP)
        assert (sender, rcpts) == envelope(msg)


def test_send_bytes_failures_are_retried_like_send(ref, clock):
    ref.create_match(NO_OBSERVER)
    sink = BothSink(fail_times=4)
    first = ref.send_pending(sink)
    assert (first.sent, first.retrying) == (0, 4)
    clock.advance(minutes=2)
    assert ref.send_pending(sink).sent == 4 and ref.send_pending(sink).sent == 0
    assert len({data for data, _, _ in sink.wire}) == 4


def test_rows_in_every_json_form_build_the_same_bytes(ref, clock):
    """Rows are written by orjson now; a row ``json.dumps`` wrote (queued before) and one in
    the fallback form (``json`` after a blank, for what orjson refuses) are the same mail."""
    ref.create_match(NO_OBSERVER)
    entry = ref.store.outbox()[0]
    assert not entry["message"].startswith((b" ", b'{"from": '))   # orjson's compact form
    parts = json.loads(entry["message"])
    for i, data in enumerate((json.dumps(parts, ensure_ascii=False).encode(),
                              b" " + json.dumps(parts, ensure_ascii=False).encode())):
        assert ref.store.enqueue(f"again:{i}", None, parts["to"], data, clock())
    sink = BothSink()
    ref.send_pending(sink)
    sent = [raw for raw, _, _ in sink.wire if b"Message-ID: " + parts["message_id"].encode() in raw]
    assert len(sent) == 3 and len(set(sent)) == 1

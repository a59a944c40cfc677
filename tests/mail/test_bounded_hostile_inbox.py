"""Issue 16, findings 4, 7 and 8 together: an inbox holding every hostile shape of
``bench/hostile_mail.py`` (at the size cap, or beyond it) is read through the real
Dovecot, and the valid order behind them is still accepted, soon."""
from __future__ import annotations

import importlib.util
import time
from pathlib import Path

from bounded_referee import REFEREE, SPEC, bid, clock, keys_of, raw_mail, ref  # noqa: F401 (fixtures)

from referee.app.service import Service
from referee.mail.imap_source import ImapSource
from referee.mail.sink import MaildirSink

BENCH = Path(__file__).resolve().parents[2] / "bench" / "hostile_mail.py"


def hostile_shapes() -> dict:
    spec = importlib.util.spec_from_file_location("hostile_mail_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {name: build for name, build in module.SHAPES.items() if not name.startswith("size:")}


def test_findings_4_7_8_every_hostile_mail_then_a_valid_order(ref, tmp_path, mailservers):
    ref.create_match(SPEC)
    keys = keys_of(ref, tmp_path / "out")
    shapes = hostile_shapes()
    assert len(shapes) >= 25
    for build in shapes.values():
        mailservers.append("referee", build())
    mailservers.append("referee", raw_mail("ann@example.org", bid("ann", keys["ann"])))
    source = ImapSource("127.0.0.1", mailservers.dovecot.imap_port, "referee",
                        mailservers.password("referee"), backoff=0.01)
    try:
        start = time.perf_counter()
        report = Service(ref, source, MaildirSink(tmp_path / "out"), address=REFEREE).poll_once()
        elapsed = time.perf_counter() - start
    finally:
        source.close()
    assert report.mails == len(shapes) + 1
    assert set(ref.store.submissions("toy1", 1)) == {"ann"}
    assert mailservers.messages("referee") == []
    print(f"\nhostile inbox: {elapsed:.2f} s")
    assert elapsed < 15.0, f"{len(shapes)} hostile mails and one order took {elapsed:.1f} s"

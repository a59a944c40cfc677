"""Issue 16, finding 8: the size and the sender's rate are checked before a mail
is kept whole, and reading the inbox holds a bounded amount of mail in memory
whatever it holds (the real Dovecot for IMAP)."""
from __future__ import annotations

import tracemalloc
from pathlib import Path

from bounded_referee import REFEREE, clock, raw_mail, ref  # noqa: F401 (fixtures)

from referee.app.service import Service
from referee.mail.imap_source import ImapSource
from referee.mail.inbound import MAX_HEAD, parse_inbound
from referee.mail.sink import MaildirSink
from referee.mail.source import MaildirSource


def archived(root: Path) -> list[int]:
    return sorted(p.stat().st_size for p in (root / "turns").rglob("*.eml"))


def big_mail(sender: str, size: int, n: int) -> bytes:
    return raw_mail(sender, "match: toy1\nplayer: ann\ncommand: status\n" + "x" * size,
                    message_id=f"<big{n}@players.example>")


def test_finding8_an_over_size_mail_is_archived_as_its_header_only(ref, tmp_path):
    # It was kept whole: one 50 MB mail, 50 MB on disk.
    handled = ref.handle(parse_inbound(big_mail("ann@example.org", 3_000_000, 1)))
    assert handled.reason == "mail.too_large"
    [size] = archived(tmp_path)
    assert size < 2_000


def test_finding8_rate_limited_mails_are_not_kept_whole(ref, tmp_path):
    # 100 rate-limited 200 kB mails: all 100 were kept.  The limit here is 20 an hour.
    for n in range(30):
        ref.handle(parse_inbound(big_mail("mallory@example.net", 200_000, n)))
    sizes = archived(tmp_path)
    assert len(sizes) == 30
    assert sum(size > 200_000 for size in sizes) == 20
    assert all(size < 2_000 for size in sizes[:10])


def _poll_peak(service: Service) -> tuple[int, int]:
    tracemalloc.start()
    report = service.poll_once()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return report.mails, peak


def test_finding8_imap_poll_holds_a_bounded_part_of_the_inbox(ref, tmp_path, mailservers):
    # poll_once read a batch of up to 500 whole mails at once: 12 x 25 MB took RSS from 95 to 529 MB.
    for n in range(4):
        mailservers.append("referee", big_mail("ann@example.org", 5_000_000, n))
    for n in range(4, 24):
        mailservers.append("referee", big_mail(f"p{n}@example.org", 200_000, n))
    source = ImapSource("127.0.0.1", mailservers.dovecot.imap_port, "referee",
                        mailservers.password("referee"), backoff=0.01, budget=1_000_000)
    try:
        mails, peak = _poll_peak(Service(ref, source, MaildirSink(tmp_path / "out"), address=REFEREE))
    finally:
        source.close()
    assert mails == 24
    assert peak < 12_000_000          # the inbox holds 24 MB
    assert mailservers.messages("referee") == []   # every mail handled and moved
    assert max(archived(tmp_path)[:4]) <= MAX_HEAD


def test_finding8_maildir_poll_holds_a_bounded_part_of_the_inbox(ref, tmp_path):
    source = MaildirSource(tmp_path / "in")
    for n in range(4):
        (tmp_path / "in" / "new" / f"big{n}.mail").write_bytes(big_mail("ann@example.org", 5_000_000, n))
    mails, peak = _poll_peak(Service(ref, source, MaildirSink(tmp_path / "out"), address=REFEREE))
    assert mails == 4 and peak < 6_000_000   # the inbox holds 20 MB

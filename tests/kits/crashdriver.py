"""One service cycle over a folder, run as its own process by the crash tests.

Usage: python crashdriver.py ROOT   (the clock is read from ROOT/clock)
fetch → handle → done, then tick, then send the outbox — the order the
service loop uses.  REFEREE_CRASH_AT makes it die at a named point.
"""
from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent), str(HERE.parent.parent)]

import os  # noqa: E402

if os.environ.get("REFEREE_TEST_STORE") == "postgresql":   # the second pass: the test's store is on PostgreSQL
    import pg

    pg.route_stores_to_postgres()
import toygame  # noqa: E402
from referee_kit import REFEREE, make_referee  # noqa: E402

from referee.game_api import registry  # noqa: E402
from referee.mail.inbound import parse_inbound  # noqa: E402
from referee.mail.sink import MaildirSink  # noqa: E402
from referee.mail.source import MaildirSource  # noqa: E402


class EveryCopy:
    """An SMTP server's view: every delivery kept, a repeat too (``REFEREE_TEST_SINK=every``)."""

    def __init__(self, path: Path) -> None:
        import mailbox
        self.box = mailbox.Maildir(str(path), factory=None, create=True)

    def send_bytes(self, data: bytes, sender: str, rcpts: list[str]) -> None:
        self.box.add(data)


def main(root: Path) -> None:
    registry.register(toygame.RULES)
    clock = lambda: datetime.fromisoformat((root / "clock").read_text().strip())  # noqa: E731
    ref = make_referee(root, clock)
    source = MaildirSource(root / "in")
    sink = EveryCopy(root / "out") if os.environ.get("REFEREE_TEST_SINK") == "every" else MaildirSink(root / "out")
    for key, raw in source.fetch():
        handled = ref.handle(parse_inbound(raw, own_addresses=[REFEREE]))
        source.done(key, handled.outcome)
    ref.tick()
    ref.send_pending(sink)


if __name__ == "__main__":
    main(Path(sys.argv[1]))

"""The authority tests' small kit shared across folders: an injected clock and an
outbox read back from a Maildir, the toy game registered for each test
(every folder, through referee_kit and hardkit)."""
from __future__ import annotations

import email
import mailbox
import re
from datetime import datetime, timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
import toygame

from referee.game_api import registry
from referee.mail.sink import MaildirSink


class Clock:
    def __init__(self, t: datetime) -> None:
        self.t = t

    def __call__(self) -> datetime:
        return self.t

    def advance(self, **kw) -> datetime:
        self.t += timedelta(**kw)
        return self.t


class Outbox:
    """Sends the referee's outbox into a Maildir and reads it back."""

    def __init__(self, ref, path: Path) -> None:
        self.ref, self.sink, self.path, self.seen = ref, MaildirSink(path), path, set()

    def all(self) -> list[EmailMessage]:
        box = mailbox.Maildir(str(self.path), create=False)
        return [email.message_from_bytes(box.get_bytes(k), policy=policy.default) for k in in_order(box)]

    def flush(self) -> list[EmailMessage]:
        """Send everything due; return the messages that arrived since the last flush."""
        self.ref.send_pending(self.sink)
        box = mailbox.Maildir(str(self.path), create=False)
        new_keys = [k for k in in_order(box) if k not in self.seen]
        self.seen |= set(new_keys)
        return [email.message_from_bytes(box.get_bytes(k), policy=policy.default) for k in new_keys]


def in_order(box) -> list[str]:
    """A Maildir's keys in the order the files were written: by each file's modification time
    (the referee's sink names a mail by its Message-ID's digest, which says nothing of when), then
    by the time in Python's own names (``SECONDS.M<microseconds>P<pid>Q<count>.host``, microseconds
    unpadded, so a plain sort of those misorders two mails written in the same second)."""
    def named(key: str) -> tuple[int, int, int]:
        m = re.match(r"(\d+)\.M(\d+)P\d+Q(\d+)", key)
        return (int(m[1]), int(m[2]), int(m[3])) if m else (0, 0, 0)

    def when(key: str) -> tuple:
        return box.get_message(key).get_date(), named(key), key   # get_date: the file's modification time
    return sorted(box.keys(), key=when)


def referee_fixtures(make):
    """The ``ref`` and ``outbox`` fixtures of a test kit whose ``make(root, clock)`` builds its
    referee: the referee in ``tmp_path`` (its store closed afterwards), its outbox beside it."""
    @pytest.fixture
    def ref(tmp_path, clock):
        r = make(tmp_path, clock)
        yield r
        r.store.close()

    @pytest.fixture
    def outbox(ref, tmp_path):
        return Outbox(ref, tmp_path / "out")

    return ref, outbox


@pytest.fixture(autouse=True)
def toy_registered():
    registry.register(toygame.RULES)
    yield
    registry.unregister(toygame.RULES.name)


def random_turn(rules, state, rand, tag: str, number: int):
    """Resolve turn ``number`` of ``state`` with ``rand``'s orders for every awaited
    player (the GM's defaults), all seeded from ``tag``: the game's result."""
    from referee.game_api.contract import Rng, derive_seed
    orders = {}
    for pid, stage in rules.awaiting(state).items():
        if pid.startswith("@"):
            orders[pid] = rules.default_orders(state, pid)
            continue
        data = rand(state, pid, Rng(derive_seed(tag, f"{number}:{pid}")))
        orders[pid] = rules.order_schema(state, stage).model_validate(data)
    return rules.resolve(state, orders, Rng(derive_seed(tag, number)))

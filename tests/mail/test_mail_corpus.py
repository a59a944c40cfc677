"""Real-shaped mails of real clients and robots (tests/mail/corpus/), each through the real
intake, a real authority on SQLite and the outbox: orders found where the person put them,
refusals that name the problem and keep the match's tag, and no answer to any robot."""
from __future__ import annotations

import base64
import email
import mailbox
import random
import re
from datetime import UTC, datetime, timezone
from email import policy
from pathlib import Path

import pytest
import toygame  # tests/ is on sys.path (tests/conftest.py)
import yaml

from referee.app.referee import Referee
from referee.authority import keys
from referee.authority.base import Settings
from referee.game_api import registry
from referee.mail.inbound import MAX_BYTES, parse_inbound
from referee.mail.sink import MaildirSink
from referee.render.renderer import Renderer
from referee.store import open_store

CORPUS = Path(__file__).parent / "corpus"
EXPECTED = yaml.safe_load((CORPUS / "expected.yaml").read_text())
REFEREE = "referee@example.org"
KEYS = {"ann": "7KQ2-MX4P-9WTR", "bob": "4HJD-8RVE-2NCZ"}
SPEC = {"id": "toy1", "game": "toybid", "title": "Toy One", "gm": "gm@example.org", "language": "en",
        "timezone": "Europe/Berlin", "options": {"rounds": 2}, "schedule": {"period": "48h"},
        "players": [{"id": "ann", "name": "Ann", "email": "ann@example.org"},
                    {"id": "bob", "name": "Bob", "email": "bob@example.org", "lang": "de"}]}
_PHOTO = re.compile(rb"@@PHOTO (\d+)@@")


def corpus_mail(name: str) -> bytes:
    """The mail as a server hands it over (CRLF), a photo placeholder filled in."""
    raw = (CORPUS / name).read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    m = _PHOTO.search(raw)
    if m:
        data = random.Random(name).randbytes(int(m.group(1)) * 3 // 4)
        raw = raw[:m.start()] + base64.encodebytes(data).replace(b"\n", b"\r\n") + raw[m.end():]
    return raw


@pytest.fixture
def referee(tmp_path):
    registry.register(toygame.RULES)
    clock = lambda: datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # noqa: E731
    ref = Referee(open_store(tmp_path / "referee.sqlite"), tmp_path / "turns",
                  Renderer(extra_dirs=[toygame.TEMPLATES]), clock, Settings(address=REFEREE))
    ref.create_match(SPEC, seed="corpus")
    with ref.store.transaction():
        for pid, key in KEYS.items():
            ref.store.replace_player("toy1", pid, f"{pid}@example.org", keys.hash_key(key), None, clock())
    sink = MaildirSink(tmp_path / "out")
    ref.send_pending(sink)
    box = mailbox.Maildir(str(tmp_path / "out"), create=False)
    welcomed = set(box.keys())
    yield ref, sink, lambda: [email.message_from_bytes(box.get_bytes(k), policy=policy.default)
                              for k in box.keys() if k not in welcomed]
    ref.store.close()
    registry.unregister(toygame.RULES.name)


def test_the_corpus_holds_every_named_shape():
    names = set(EXPECTED)
    assert names == {p.name for p in CORPUS.glob("*.eml")}
    for shape in ("iphone", "apple_mail", "gmail", "outlook", "thunderbird", "mutt", "mailman", "majordomo",
                  "postfix", "exim", "exchange", "bare_delivery", "vacation_", "photo"):
        assert any(shape in n for n in names), shape


def test_the_photo_mail_is_over_the_old_limit_and_within_the_raw_cap():
    assert 256_000 < len(corpus_mail("photo_beside_order.eml")) < MAX_BYTES


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_mail(name, referee):
    ref, sink, sent = referee
    (outcome, want), = EXPECTED[name].items()
    handled = ref.handle(parse_inbound(corpus_mail(name), own_addresses=[REFEREE]))
    ref.send_pending(sink)
    replies = sent()
    if outcome == "ignored":
        assert (handled.outcome, handled.reason) == ("ignored", want["reason"])
        assert replies == []
        return
    [reply] = replies
    text = reply.get_body(("plain",)).get_content()
    if outcome == "accepted":
        assert (handled.outcome, handled.player) == ("processed", want["player"]), text
        stored = ref.store.submissions("toy1", 1)[want["player"]]["orders"]
        assert stored == want["orders"]
        assert reply["To"] == f"{want['player']}@example.org"
        assert reply["Subject"].startswith("Re: [toy1] ")
        assert want.get("warning", "") in text
    else:
        assert (handled.outcome, handled.reason) == ("refused", want["problem"]), text
        assert reply["Subject"].startswith(f"Re: [{want['tag']}] ")
        assert ref.store.submissions("toy1", 1) == {}

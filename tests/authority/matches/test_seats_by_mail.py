"""Issue 18 through the real mail servers (Dovecot + SMTP, tests/kits/mailservers.py):
a new key, an address change confirmed from the new address, an absence that
moves the deadline, and a dropout warned, abandoned and replaced by the GM's
mail: every mail in and out goes the production way (SMTP in, IMAP read, SMTP out)."""
from __future__ import annotations

import email
import re
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
import toygame  # tests/ is on sys.path (tests/conftest.py)

from referee.app.referee import Referee
from referee.app.service import Service
from referee.authority.base import Settings
from referee.game_api import registry
from referee.mail.imap_source import ImapSource
from referee.mail.sink import SmtpSink
from referee.render.renderer import Renderer
from referee.store import seats as seat_rows
from referee.store.sqlite import SqliteStore

KEY = re.compile(r"(?:Your key|Your new key|Dein Schlüssel): ([2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4})")
CODE = re.compile(r"code: (\S+)")


class Post:
    """The referee served through the servers; the people read their own INBOX."""

    def __init__(self, s, tmp_path, spec: dict) -> None:
        self.s, self.now = s, datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
        self.address = s.address("referee")
        self.ref = Referee(SqliteStore(tmp_path / "referee.sqlite"), tmp_path / "turns",
                           Renderer(extra_dirs=[toygame.TEMPLATES]), lambda: self.now, Settings(address=self.address))
        source = ImapSource(s.host, s.dovecot.imap_port, "referee", s.password("referee"), security="plain")
        self.service = Service(self.ref, source, SmtpSink(s.host, s.smtp.port, security="plain"), address=self.address)
        self.seen: dict[str, int] = {}
        self.gm_key = self.ref.create_match(spec, seed="seats-by-mail").gm_key
        self.service.tick()

    def read(self, user: str, expect: int = 1) -> list[tuple[str, str]]:
        """(subject, text) of the mails that reached ``user`` since last asked (waits for ``expect``)."""
        raws = self.s.wait_messages(user, self.seen.get(user, 0) + expect)
        fresh, self.seen[user] = raws[self.seen.get(user, 0):], len(raws)
        out = []
        for raw in fresh:
            msg = email.message_from_bytes(raw, policy=policy.default)
            out.append((msg["Subject"], msg.get_body(("plain",)).get_content().replace("\r\n", "\n")))
        return out

    def join(self, user: str, text: str, asked: str) -> None:
        """A join, then the code it brought sent back from the joiner's mailbox (issue 32)."""
        self.write(user, text)
        [(subject, mail)] = self.read(user)
        assert asked in subject
        self.write(user, f"match: toy1\nplayer: any\ncommand: join\ncode: {CODE.search(mail).group(1)}\n")

    def write(self, user: str, text: str) -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = self.s.address(user), self.address, "toy1"
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg.set_content(text)
        self.s.send(self.s.address(user), [self.address], msg.as_bytes(policy=policy.SMTP))
        self.service.poll_once()

    def doc(self, user: str, seat: str, key: str, **fields) -> None:
        self.write(user, f"match: toy1\nplayer: {seat}\nkey: {key}\n" + "".join(f"{k}: {v}\n" for k, v in fields.items()))


@pytest.fixture
def post(mailservers, tmp_path):
    registry.register(toygame.RULES)
    s = mailservers
    spec = {"id": "toy1", "game": "toybid", "title": "Toy One", "gm": s.address("gm"), "language": "en",
            "timezone": "Europe/Berlin", "options": {"rounds": 8}, "schedule": {"period": "48h"},
            "dropouts": {"warn_after": 1, "abandon_after": 2}, "absence": {"policy": "extend", "max_days": 5},
            "players": [{"id": "alice", "name": "Alice", "email": s.address("alice")},
                        {"id": "bob", "name": "Bob", "email": s.address("bob"), "lang": "de"},
                        {"id": "carol", "name": "Carol", "email": s.address("carol")}]}
    p = Post(s, tmp_path, spec)
    yield p
    p.ref.store.close()
    registry.unregister(toygame.RULES.name)


def keys_of(post: Post) -> dict[str, str]:
    return {u: KEY.search(post.read(u)[0][1]).group(1) for u in ("alice", "bob", "carol")}


def test_new_key_and_address_change_by_mail(post):
    keys = keys_of(post)
    post.doc("alice", "alice", keys["alice"], command="new-key")
    mails = post.read("alice", 2)
    [(_, keymail)] = [m for m in mails if "Your new key" in m[0]]
    new_key = KEY.search(keymail).group(1)
    post.doc("alice", "alice", keys["alice"], turn=1, orders="{bid: 1}")
    [(subject, _)] = post.read("alice")
    assert "Not accepted" in subject
    post.doc("alice", "alice", new_key, turn=1, orders="{bid: 1}")
    assert "Orders accepted" in post.read("alice")[0][0]

    post.doc("bob", "bob", keys["bob"], command="address", email=post.s.address("dave"))
    post.read("bob")   # "a code has gone to dave"
    [(_, codemail)] = post.read("dave")
    code = CODE.search(codemail).group(1)
    post.write("dave", f"match: toy1\nplayer: bob\ncommand: address\ncode: {code}\n")
    [(_, done)] = post.read("dave")
    assert "spielt jetzt von dave@players.test aus" in done
    [(told, _)] = post.read("bob")
    assert "neuen Adresse" in told
    assert post.ref.store.player("toy1", "bob")["email"] == "dave@players.test"


def test_absence_moves_the_deadline_and_a_dropout_is_replaced_by_mail(post):
    keys = keys_of(post)
    before = post.ref.store.current_turn("toy1")["deadline"]
    post.doc("alice", "alice", keys["alice"], command="absent", **{"from": "2026-03-03", "until": "2026-03-05"})
    assert post.ref.store.current_turn("toy1")["deadline"] > before
    for user in ("bob", "carol", "gm"):
        assert any("Alice" in subject for subject, _ in post.read(user)), user
    post.read("alice")
    # carol sends nothing for two turns
    for turn in (1, 2):
        for seat in ("alice", "bob"):
            post.doc(seat, seat, keys[seat], turn=turn, orders="{bid: 1}")
            post.read(seat)
        post.now = datetime.fromisoformat(post.ref.store.current_turn("toy1")["deadline"]) + timedelta(minutes=1)
        post.service.tick()
    carol = post.read("carol", 4)   # two reports, the warning, the abandoned notice
    assert any("in a row" in s for s, _ in carol) and any("Your seat is marked abandoned" in s for s, _ in carol)
    gm = [m for m in post.read("gm", 3) if "abandoned" in m[0]]
    assert gm and "command: replace\nseat: carol" in gm[0][1]
    post.write("gm", f"match: toy1\nplayer: gm\nkey: {post.gm_key}\ncommand: replace\nseat: carol\n"
                     f"email: {post.s.address('erin')}\nname: Erin\n")
    [(subject, welcome)] = post.read("erin")
    assert "Welcome" in subject and "THE POSITION AS YOU TAKE OVER" in welcome
    erin_key = KEY.search(welcome).group(1)
    post.doc("erin", "carol", erin_key, turn=3, orders="{bid: 2}")
    assert "Orders accepted" in post.read("erin")[0][0]


def test_joining_an_open_match_by_mail(mailservers, tmp_path):
    registry.register(toygame.RULES)
    s = mailservers
    spec = {"id": "toy1", "game": "toybid", "title": "Toy One", "gm": s.address("gm"), "language": "en",
            "timezone": "Europe/Berlin", "options": {"rounds": 3}, "schedule": {"period": "48h"},
            "players": [], "seats": 2, "wait_list": 1}
    post = Post(s, tmp_path, spec)
    try:
        [(subject, opened)] = post.read("gm")
        assert "Open for joining" in subject and "command: join" in opened
        post.join("erin", "match: toy1\nplayer: any\ncommand: join\nname: Erin\nlang: de\n", "Bestätige")
        [(subject, joined)] = post.read("erin")
        assert "Du hast einen Platz" in subject and 'den Platz "seat1"' in joined
        assert "Erin joined" in post.read("gm")[0][0]
        post.join("frank", "match: toy1\nplayer: seat2\ncommand: join\nname: Frank\n", "Confirm your address")
        frank = post.read("frank", 2)   # the seat, then the welcome: the match is full and starts
        [(_, welcome)] = [m for m in frank if "Welcome" in m[0]]
        assert post.ref.store.match("toy1")["status"] == "running"
        key = KEY.search(welcome).group(1)
        post.doc("frank", "seat2", key, turn=1, orders="{bid: 2}")
        assert "Orders accepted" in post.read("frank")[0][0]
        post.join("grace", "match: toy1\nplayer: any\ncommand: join\nname: Grace\n", "Confirm your address")
        assert "wait list" in post.read("grace")[0][0]
        # the wait list is full: heidi, an unproven stranger, is not answered (issue 32)
        post.write("heidi", "match: toy1\nplayer: any\ncommand: join\nname: Heidi\n")
        assert s.messages("heidi") == [] and [w["name"] for w in seat_rows.waiting(post.ref.store, "toy1")] == ["Grace"]
        assert len(post.ref.store.players("toy1")) == 2
    finally:
        post.ref.store.close()
        registry.unregister(toygame.RULES.name)

"""A whole match played by mail through a real Dovecot and a real SMTP server.

Players' mails go in by SMTP (aiosmtpd → LMTP → Dovecot), the referee reads
its INBOX with imapclient and answers through SMTP into the players' Dovecot
mailboxes: the same code paths as production.  The clock is simulated, so
deadlines pass without sleeping.
"""
from __future__ import annotations

import email
import re
from datetime import UTC, datetime, timedelta, timezone
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid

import yaml

from referee.app.referee import Referee
from referee.app.service import Service
from referee.archive.record import replay
from referee.authority.base import Settings
from referee.game_api.contract import Rng
from referee.mail.imap_source import ImapSource
from referee.mail.sink import SmtpSink
from referee.store.sqlite import SqliteStore

KEY = re.compile(r"\b([2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4})\b")
PLAYERS = ("alice", "bob")


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def body(raw: bytes) -> tuple[EmailMessage, str]:
    msg = email.message_from_bytes(raw, policy=policy.default)
    part = msg.get_body(("plain",))
    return msg, part.get_content() if part else ""


class Table:
    """The players' side: they send mail by SMTP and read their own INBOX."""

    def __init__(self, servers, referee_addr: str) -> None:
        self.s, self.to = servers, referee_addr
        self.seen = {p: 0 for p in PLAYERS}

    def send(self, player: str, text: str, *, msgid: str | None = None) -> tuple[bytes, str]:
        msg = EmailMessage()
        msg["From"] = self.s.address(player)
        msg["To"] = self.to
        msg["Subject"] = "Befehle"
        msg["Message-ID"] = msgid or make_msgid(domain="players.test")
        msg.set_content(text)
        raw = msg.as_bytes(policy=policy.SMTP)
        self.s.send(self.s.address(player), [self.to], raw)
        return raw, msg["Message-ID"]

    def orders_mail(self, player, key, turn, orders, match="e2e") -> str:
        doc = {"match": match, "player": player, "key": key, "turn": turn, "orders": orders}
        return "Hallo Spielleitung,\n\nhier meine Befehle:\n\n" + yaml.safe_dump(doc, allow_unicode=True) + "\n-- \nGruß\n"

    def new_mail(self, player: str, expect: int = 1) -> list[tuple[EmailMessage, str]]:
        """The mails that reached the player since last asked (waits for ``expect``)."""
        raws = self.s.wait_messages(player, self.seen[player] + expect)
        fresh = raws[self.seen[player]:]
        self.seen[player] = len(raws)
        return [body(r) for r in fresh]


class ByMail:
    """A referee on SQLite served through the test Dovecot + SMTP, a match created
    from ``spec`` and the players' keys read from their welcome mails."""

    def __init__(self, servers, tmp_path, spec: dict, seed: str) -> None:
        s = servers
        self.clock = Clock()
        self.address = s.address("referee")
        self.ref = Referee(SqliteStore(tmp_path / "referee.sqlite"), tmp_path / "turns", clock=self.clock,
                           settings=Settings(address=self.address))
        source = ImapSource(s.host, s.dovecot.imap_port, "referee", s.password("referee"), security="plain")
        self.service = Service(self.ref, source, SmtpSink(s.host, s.smtp.port, security="plain"),
                               address=self.address)
        self.table = Table(s, self.address)
        self.created = self.ref.create_match(spec, seed=seed)
        self.service.tick()  # welcome mails out through SMTP into the players' Dovecot INBOXes
        # each player's welcome, then the rules for players in a mail of their own (issue 33)
        self.welcomes = {p["id"]: self.table.new_mail(p["id"], expect=2)[0] for p in spec["players"]}
        self.keys = {p: KEY.search(text).group(1) for p, (_, text) in self.welcomes.items()}
        self.rules = self.ref.rules(self.ref.store.match(spec["id"]))


def test_whole_match_by_mail(mailservers, tmp_path):
    s = mailservers
    clock = Clock()
    referee_addr = s.address("referee")
    gm_addr = s.address("gm")
    ref = Referee(SqliteStore(tmp_path / "referee.sqlite"), tmp_path / "turns", clock=clock,
                  settings=Settings(address=referee_addr))
    source = ImapSource(s.host, s.dovecot.imap_port, "referee", s.password("referee"), security="plain")
    sink = SmtpSink(s.host, s.smtp.port, security="plain")
    service = Service(ref, source, sink, address=referee_addr)
    table = Table(s, referee_addr)

    spec = {"id": "e2e", "game": "perricumer_ratsspiel", "lang": "de", "gm": gm_addr,
            "timezone": "Europe/Berlin", "schedule": {"period": "48h", "reminders": ["12h"]},
            "players": [{"id": p, "name": p.title(), "email": s.address(p)} for p in PLAYERS]}
    created = ref.create_match(spec, seed="e2e-seed")
    service.tick()  # welcome mails out through SMTP into the players' Dovecot INBOXes
    keys = {}
    for p in PLAYERS:
        (welcome, text), (_, rules_text) = table.new_mail(p, expect=2)   # the rules come apart (issue 33)
        assert "## Spiel per Mail" in rules_text
        keys[p] = KEY.search(text).group(1)
        assert welcome["Auto-Submitted"].startswith("auto-generated")
    rules = ref.rules(ref.store.match("e2e"))
    rng = Rng(7)

    def state():
        return rules.load(ref.store.current_turn("e2e")["state"])

    # -- turn 1: a refused mail, a resubmission, a wrong key, a duplicate -----
    raw_bad, bad_id = table.send("alice", f"match: e2e\nplayer: alice\nkey: {keys['alice']}\nturn: 1\norders: [unclosed\n")
    service.poll_once()
    (reply, text), = table.new_mail("alice")
    assert reply["In-Reply-To"] == bad_id
    # the YAML is broken, but the sender plays a German match: the answer is German and
    # points at the unclosed bracket
    assert "Nicht angenommen" in reply["Subject"]
    assert "Zeile 5, Spalte 9" in text, text
    assert keys["alice"] not in text, "a reply never quotes the key"

    orders_a = rules.random_orders(state(), "alice", rng)
    raw_ok, ok_id = table.send("alice", table.orders_mail("alice", keys["alice"], 1, orders_a))
    s.send(s.address("alice"), [referee_addr], raw_ok)  # the same mail delivered twice
    service.poll_once()
    answers = table.new_mail("alice")
    assert len(answers) == 1, [(m["Subject"], t[:300]) for m, t in answers]  # one answer only
    (reply, text), = answers
    assert reply["In-Reply-To"] == ok_id and keys["alice"] not in text
    assert "bob" in text.lower(), "the receipt names who is still awaited"
    assert "UTC" in text, "the receipt gives the deadline in UTC too"

    table.send("bob", table.orders_mail("bob", "WRNG-KEYS-2222", 1, rules.random_orders(state(), "bob", rng)))
    service.poll_once()
    assert len(table.new_mail("bob")) == 1  # refused, and the registered address is told (same address here)
    assert ref.store.current_turn("e2e")["number"] == 1

    table.send("bob", table.orders_mail("bob", keys["bob"], 1, rules.random_orders(state(), "bob", rng)))
    service.poll_once()
    table.new_mail("bob")  # receipt
    service.tick()  # everyone is in: early close
    assert ref.store.current_turn("e2e")["number"] == 2
    for p in PLAYERS:
        (report, text), = table.new_mail(p)
        assert "e2e" in report["Subject"]
        assert report.get_body(("html",)) is not None, "reports come as text + HTML"

    # -- turn 2: GM pause, the deadline passes unresolved, resume, extend ------
    def gm(command: str, **args) -> str:
        doc = {"match": "e2e", "player": "gm", "key": created.gm_key, "command": command, **args}
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = gm_addr, referee_addr, command
        msg["Message-ID"] = make_msgid(domain="referee.test")
        msg.set_content(yaml.safe_dump(doc))
        s.send(gm_addr, [referee_addr], msg.as_bytes(policy=policy.SMTP))
        service.poll_once()
        return body(s.wait_messages("gm", 1)[-1])[1]

    deadline = datetime.fromisoformat(ref.store.current_turn("e2e")["deadline"])
    gm("pause")
    assert ref.store.match("e2e")["status"] == "paused"
    clock.now = deadline + timedelta(hours=1)
    service.tick()
    assert ref.store.current_turn("e2e")["number"] == 2, "nothing is resolved while paused"
    clock.now += timedelta(hours=5)
    gm("resume")
    resumed = datetime.fromisoformat(ref.store.current_turn("e2e")["deadline"])
    assert resumed > clock.now
    gm("extend", by="24h")
    extended = datetime.fromisoformat(ref.store.current_turn("e2e")["deadline"])
    assert extended - resumed == timedelta(hours=24)

    # alice sends, bob misses the deadline: default orders for bob
    table.send("alice", table.orders_mail("alice", keys["alice"], 2, rules.random_orders(state(), "alice", rng)))
    service.poll_once()
    clock.now = extended + timedelta(minutes=1)
    service.tick()
    turn3 = ref.store.current_turn("e2e")
    assert turn3["number"] == 3
    used = yaml.safe_load((tmp_path / "turns" / "e2e" / "t002" / "orders.yaml").read_text())
    assert used["bob"]["source"] == "default" and used["alice"]["source"] == "player"

    # -- to the end: both send every turn ----------------------------------------
    for _ in range(40):
        match = ref.store.match("e2e")
        turn = ref.store.current_turn("e2e")
        if match["status"] != "running" or turn["status"] != "open":
            break
        for p in sorted(turn["awaiting"]):
            table.send(p, table.orders_mail(p, keys[p], turn["number"], rules.random_orders(state(), p, rng)))
        service.poll_once()
        service.tick()
    assert ref.store.match("e2e")["status"] == "ended"
    last = ref.store.current_turn("e2e")["number"]

    # every report reached every player exactly once per resolved turn
    for p in PLAYERS:
        subjects = [body(r)[0]["Subject"] for r in s.messages(p)]
        reports = [x for x in subjects if "Bericht" in x or "Runde" in x or "report" in x.lower()]
        assert len(reports) == len(set(reports)), f"{p} got a report twice"
    assert replay(tmp_path / "turns" / "e2e").ok
    assert last >= 3

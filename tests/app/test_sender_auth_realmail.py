"""Issue 13 through the real mail path: mails signed with this run's key cross
the tests' SMTP server into Dovecot, are read over IMAP by the service, judged
(DKIM verified through a local DNS answer) and answered over SMTP; and a
``referee poll`` process trusting one receiving server ignores the
Authentication-Results a sender forged in another server's name."""
from __future__ import annotations

import email
import os
import re
from email import policy
from email.message import EmailMessage

import pytest
import yaml
from dkimkit import LocalDns, other_key, results, sign
from test_service_run import config as service_config
from test_service_run import live_match, referee

from referee.app.config import load
from referee.app.referee import Referee
from referee.app.service import Service
from referee.app.wiring import open_sink, open_source, trust_of
from referee.authority.base import Settings
from referee.game_api.contract import Rng
from referee.mail.inbound import parse_inbound
from referee.store import open_store
from referee.store.senders import SenderRecords

# runs the service and `referee poll --once` in processes of their own on a SQLite file
pytestmark = pytest.mark.sqlite_file

KEY = re.compile(r"\b([2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4})\b")


def welcome_key(s, who: str) -> str:
    mail = email.message_from_bytes(s.wait_messages(who, 1)[0], policy=policy.default)
    return KEY.search(mail.get_body(("plain",)).get_content()).group(1)


def orders_mail(s, ref, who: str, key: str, n: int) -> bytes:
    rules = ref.rules(ref.store.match("live"))
    orders = rules.random_orders(rules.load(ref.store.current_turn("live")["state"]), who, Rng(n))
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = s.address(who), s.address("referee"), "orders"
    msg["Message-ID"] = f"<{who}.{n}@players.test>"
    msg.set_content(yaml.safe_dump({"match": "live", "player": who, "key": key, "turn": 1, "orders": orders}))
    return msg.as_bytes(policy=policy.SMTP)


def verdict_of(ref, raw: bytes) -> dict:
    parsed = parse_inbound(raw)
    row = SenderRecords(ref.store).verdict(parsed.message_id, parsed.content_hash)
    assert row is not None, "a verdict is stored with every mail"
    return row


def test_signed_and_forged_orders_over_smtp_and_imap(mailservers, tmp_path, monkeypatch):
    s = mailservers
    monkeypatch.setenv("TEST_IMAP_PASSWORD", s.password("referee"))
    env, _ = live_match(s, tmp_path, service_config(s))
    keys = {p: welcome_key(s, p) for p in ("alice", "bob")}
    cfg = load(tmp_path / "referee.yaml")
    dns = LocalDns(domains=("players.test",))
    ref = Referee(open_store(cfg.store), cfg.archive,
                  settings=Settings(address=cfg.address, trust=trust_of(cfg, txt=dns)))
    service = Service(ref, open_source(cfg), open_sink(cfg), address=cfg.address)
    good = sign(orders_mail(s, ref, "alice", keys["alice"], 1), "players.test")
    forged = sign(orders_mail(s, ref, "bob", keys["bob"], 2), "players.test", private=other_key())
    for who, raw in (("alice", good), ("bob", forged)):
        s.send(s.address(who), [s.address("referee")], raw)
    s.wait_messages("referee", 2)
    report = service.poll_once()
    assert report.outcomes == {"processed": 2}
    assert (verdict_of(ref, good)["verdict"], verdict_of(ref, forged)["verdict"]) == ("pass", "fail")
    assert dns.asked == ["s2026._domainkey.players.test"]   # one look-up: the answer is kept
    bob = [email.message_from_bytes(m, policy=policy.default) for m in s.wait_messages("bob", 3)]
    gm = [email.message_from_bytes(m, policy=policy.default) for m in s.wait_messages("gm", 2)]
    assert any("forged sender (bob)" in str(m["Subject"]) for m in bob)
    assert any("forged sender (bob)" in str(m["Subject"]) for m in gm)
    alice = [str(email.message_from_bytes(m, policy=policy.default)["Subject"]) for m in s.wait_messages("alice", 2)]
    assert not any("forged" in subject for subject in alice)
    service.source.close()
    ref.store.close()


def test_a_poll_process_ignores_authentication_results_forged_in_another_servers_name(mailservers, tmp_path):
    s = mailservers
    config = service_config(s) + "authentication:\n  authserv_id: mx.referee.test\n  dkim: false\n"
    (tmp_path / "referee.yaml").write_text(config)
    (tmp_path / "m.yaml").write_text(yaml.safe_dump({   # the GM asks for proven senders
        "id": "live", "game": "founding_fathers", "gm": s.address("gm"), "schedule": {"period": "48h"},
        "sender_auth": "require",
        "players": [{"id": p, "name": p.title(), "email": s.address(p)} for p in ("alice", "bob", "carol")]}))
    env = dict(os.environ, TEST_IMAP_PASSWORD=s.password("referee"))
    made = referee("new", "m.yaml", env=env, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    keys = {p: welcome_key(s, p) for p in ("alice", "bob")}
    ref = Referee(open_store(load(tmp_path / "referee.yaml").store), tmp_path / "turns")
    assert ref.store.match("live")["spec"]["sender_auth"] == "require"
    foreign = results("mx.evil.test", "dkim=pass header.d=players.test; dmarc=pass header.from=players.test")
    trusted = results("mx.referee.test", "dkim=pass header.d=players.test; dmarc=pass header.from=players.test")
    bob_mail = foreign + orders_mail(s, ref, "bob", keys["bob"], 1)
    alice_mail = trusted + orders_mail(s, ref, "alice", keys["alice"], 2)   # as the trusted server writes it
    for who, raw in (("bob", bob_mail), ("alice", alice_mail)):
        s.send(s.address(who), [s.address("referee")], raw)
    s.wait_messages("referee", 2)
    polled = referee("poll", "--once", env=env, cwd=tmp_path)
    assert polled.returncode == 0, polled.stderr
    assert (verdict_of(ref, bob_mail)["verdict"], verdict_of(ref, alice_mail)["verdict"]) == ("none", "pass")
    subs = ref.store.submissions("live", 1)
    assert "alice" in subs and "bob" not in subs
    bob = email.message_from_bytes(s.wait_messages("bob", 2)[-1], policy=policy.default)
    assert "not proven" in " ".join(bob.get_body(("plain",)).get_content().split())
    ref.store.close()

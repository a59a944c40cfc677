"""``referee run`` as a real process against real Dovecot + SMTP: it answers
an order mail while waiting in IMAP IDLE and stops cleanly on SIGTERM."""
from __future__ import annotations

import email
import os
import re
import signal
import subprocess
import sys
import time
from email import policy
from email.message import EmailMessage

import pytest
import yaml

KEY = re.compile(r"\b([2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4})\b")


def config(s) -> str:
    return f"""\
address: {s.address('referee')}
store: referee.sqlite
archive: turns
mail_in:
  imap: {{host: 127.0.0.1, port: {s.dovecot.imap_port}, security: plain, user: referee,
          password_env: TEST_IMAP_PASSWORD}}
mail_out:
  smtp: {{host: 127.0.0.1, port: {s.smtp.port}, security: plain}}
poll_interval: 30
"""


def referee(*args, env, cwd, **kw):
    return subprocess.run([sys.executable, "-m", "referee.app.cli", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=60, **kw)


def live_match(s, tmp_path, config_text: str, players=("alice", "bob", "carol")):
    """A referee folder with ``config_text`` and a Founding Fathers match "live" made by
    ``referee new``; returns (environment for the referee processes, the finished ``new``)."""
    (tmp_path / "referee.yaml").write_text(config_text)
    (tmp_path / "m.yaml").write_text(yaml.safe_dump({
        "id": "live", "game": "founding_fathers", "gm": s.address("gm"), "schedule": {"period": "48h"},
        "players": [{"id": p, "name": p.title(), "email": s.address(p)} for p in players]}))
    env = dict(os.environ, TEST_IMAP_PASSWORD=s.password("referee"))
    made = referee("new", "m.yaml", env=env, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    return env, made


@pytest.mark.sqlite_file   # `referee run` in a process of its own, on the test's SQLite file
def test_run_answers_while_idle_and_stops_on_sigterm(mailservers, tmp_path):
    s = mailservers
    env, _ = live_match(s, tmp_path, config(s))
    welcome = email.message_from_bytes(s.wait_messages("alice", 2)[0], policy=policy.default)   # then the rules mail
    key = KEY.search(welcome.get_body(("plain",)).get_content()).group(1)

    service = subprocess.Popen([sys.executable, "-m", "referee.app.cli", "run"], env=env, cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        time.sleep(1.5)  # into IDLE
        from referee.app.config import load
        from referee.app.wiring import open_referee
        from referee.game_api.contract import Rng
        ref = open_referee(load(tmp_path / "referee.yaml"))
        rules = ref.rules(ref.store.match("live"))
        orders = rules.random_orders(rules.load(ref.store.current_turn("live")["state"]), "alice", Rng(3))
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = s.address("alice"), s.address("referee"), "orders"
        msg["Message-ID"] = "<alice-live-1@players.test>"
        msg.set_content(yaml.safe_dump({"match": "live", "player": "alice", "key": key, "turn": 1, "orders": orders}))
        sent = time.monotonic()
        s.send(s.address("alice"), [s.address("referee")], msg.as_bytes(policy=policy.SMTP))
        replies = s.wait_messages("alice", 3, timeout=15)
        assert time.monotonic() - sent < 10
        reply = email.message_from_bytes(replies[2], policy=policy.default)
        assert reply["In-Reply-To"] == "<alice-live-1@players.test>"
        assert s.messages("referee", "Referee/Processed"), "the order mail was moved out of the INBOX"
    finally:
        service.send_signal(signal.SIGTERM)
        out, _ = service.communicate(timeout=20)
    assert service.returncode == 0, out
    assert "stopped cleanly" in out


def test_run_reconnects_when_the_imap_server_drops_it(mailservers, tmp_path):
    """Dovecot kicks the referee's IMAP session (as a server restart or a
    network hiccup would); the service reconnects and still answers."""
    import threading

    from referee.app.referee import Referee
    from referee.app.service import Service
    from referee.authority.base import Settings
    from referee.game_api.contract import Rng
    from referee.mail.imap_source import ImapSource
    from referee.mail.sink import SmtpSink
    from referee.store.sqlite import SqliteStore

    s = mailservers
    ref = Referee(SqliteStore(tmp_path / "r.sqlite"), tmp_path / "turns",
                  settings=Settings(address=s.address("referee")))
    ref.create_match({"id": "kick", "game": "founding_fathers", "gm": s.address("gm"), "schedule": {"period": "48h"},
                      "players": [{"id": p, "name": p, "email": s.address(p)} for p in ("alice", "bob", "carol")]})
    source = ImapSource(s.host, s.dovecot.imap_port, "referee", s.password("referee"), backoff=0.2)
    service = Service(ref, source, SmtpSink(s.host, s.smtp.port), address=s.address("referee"), poll_interval=30)
    service.tick()
    welcome = email.message_from_bytes(s.wait_messages("alice", 2)[0], policy=policy.default)   # then the rules mail
    key = KEY.search(welcome.get_body(("plain",)).get_content()).group(1)
    stop = threading.Event()
    runner = threading.Thread(target=service.run, args=(stop,), daemon=True)
    runner.start()
    try:
        time.sleep(1.0)  # into IDLE
        kicked = subprocess.run(["doveadm", "-c", str(s.dovecot.config), "kick", "referee"],
                                capture_output=True, text=True, timeout=30)
        assert kicked.returncode == 0, kicked.stderr
        rules = ref.rules(ref.store.match("kick"))
        orders = rules.random_orders(rules.load(ref.store.current_turn("kick")["state"]), "alice", Rng(4))
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = s.address("alice"), s.address("referee"), "orders"
        msg["Message-ID"] = "<alice-kick-1@players.test>"
        msg.set_content(yaml.safe_dump({"match": "kick", "player": "alice", "key": key, "turn": 1, "orders": orders}))
        s.send(s.address("alice"), [s.address("referee")], msg.as_bytes(policy=policy.SMTP))
        reply = email.message_from_bytes(s.wait_messages("alice", 3, timeout=30)[2], policy=policy.default)
        assert reply["In-Reply-To"] == "<alice-kick-1@players.test>"
        assert source.reconnects >= 1, "the kick must have cut the session the service then renewed"
    finally:
        stop.set()
        runner.join(timeout=20)
    assert not runner.is_alive(), "the service stops when asked"

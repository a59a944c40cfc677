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
    return subprocess.run([sys.executable, "-m", "referee.cli", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=60, **kw)


def test_run_answers_while_idle_and_stops_on_sigterm(mailservers, tmp_path):
    s = mailservers
    (tmp_path / "referee.yaml").write_text(config(s))
    players = ("alice", "bob", "carol")
    (tmp_path / "m.yaml").write_text(yaml.safe_dump({
        "id": "live", "game": "founding_fathers", "gm": s.address("gm"), "schedule": {"period": "48h"},
        "players": [{"id": p, "name": p.title(), "email": s.address(p)} for p in players]}))
    env = dict(os.environ, TEST_IMAP_PASSWORD=s.password("referee"))
    made = referee("new", "m.yaml", env=env, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    welcome = email.message_from_bytes(s.wait_messages("alice", 1)[0], policy=policy.default)
    key = KEY.search(welcome.get_body(("plain",)).get_content()).group(1)

    service = subprocess.Popen([sys.executable, "-m", "referee.cli", "run"], env=env, cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        time.sleep(1.5)  # into IDLE
        from referee.app import open_referee
        from referee.config import load
        from referee.contract import Rng
        ref = open_referee(load(tmp_path / "referee.yaml"))
        rules = ref.rules(ref.store.match("live"))
        orders = rules.random_orders(rules.load(ref.store.current_turn("live")["state"]), "alice", Rng(3))
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = s.address("alice"), s.address("referee"), "orders"
        msg["Message-ID"] = "<alice-live-1@players.test>"
        msg.set_content(yaml.safe_dump({"match": "live", "player": "alice", "key": key, "turn": 1, "orders": orders}))
        sent = time.monotonic()
        s.send(s.address("alice"), [s.address("referee")], msg.as_bytes(policy=policy.SMTP))
        replies = s.wait_messages("alice", 2, timeout=15)
        assert time.monotonic() - sent < 10
        reply = email.message_from_bytes(replies[1], policy=policy.default)
        assert reply["In-Reply-To"] == "<alice-live-1@players.test>"
        assert s.messages("referee", "Referee/Processed"), "the order mail was moved out of the INBOX"
    finally:
        service.send_signal(signal.SIGTERM)
        out, _ = service.communicate(timeout=20)
    assert service.returncode == 0, out
    assert "stopped cleanly" in out

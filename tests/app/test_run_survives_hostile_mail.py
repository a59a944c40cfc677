"""The closing proof: ``referee run``, a real process against the tests' real
Dovecot + SMTP, is sent every hostile mail of the audit (findings 1, 2, 3, 5,
6 and 11) and still confirms the next valid order within 2 seconds."""
from __future__ import annotations

import email
import os
import quopri
import re
import signal
import subprocess
import sys
import time
from email import policy
from email.message import EmailMessage

import pytest
import yaml
from test_service_run import config as service_config
from test_service_run import live_match

KEY = re.compile(r"\b([2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4})\b")
CREATION_KEY = "CREATE-KEY-2345-6789"


def config(s) -> str:
    return service_config(s) + f"gm_keys:\n  {s.address('gm')}: {CREATION_KEY}\n"


def raw(s, from_header: str, body: str, n: int, extra: str = "") -> bytes:
    """Quoted-printable, so that a 60,000-character line crosses SMTP (1,000 a line)."""
    head = (f"From: {from_header}\r\nTo: {s.address('referee')}\r\nSubject: x\r\nMessage-ID: <hostile{n}@evil.test>\r\n"
            f"{extra}Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n")
    return head.encode("utf-8") + quopri.encodestring(body.encode("utf-8")).replace(b"\n", b"\r\n")


def gm(key: str, command: str, match: str = "live", **args) -> str:
    return f"match: {match}\nplayer: \"@gm\"\nkey: {key}\ncommand: {command}\n" + \
        "".join(f"{k}: {v}\n" for k, v in args.items())


def hostile_mails(s, gm_key: str, keys: dict) -> list[tuple[str, bytes]]:
    """(envelope sender, raw mail) of every attack, in the audit's order."""
    gm_addr, alice = s.address("gm"), s.address("alice")
    order = "match: live\nplayer: alice\nkey: AAAA-BBBB-CCCC\nturn: 1\norders: {}\n"
    create = {"id": "stolen", "game": "founding_fathers", "gm": s.address("erin"), "schedule": {"period": "48h"},
              "players": [{"id": p, "name": p, "email": s.address(p)} for p in ("dave", "erin", "frank")]}
    spec = "".join("  " + line + "\n" for line in yaml.safe_dump(create).splitlines())
    mails = [
        # 1: senders and GM fields that cannot become a header
        ("evil@evil.test", "=?utf-8?q?a=0D=0ABcc=3A_x=40y?=@evil.test", order),
        ("evil@evil.test", '"a\\\r\n Bcc: x@y"@evil.test', order),
        ("evil@evil.test", "jörg@example.de", order),
        (gm_addr, gm_addr, gm(gm_key, "observer", email='"fan@x.test\\r\\nBcc: all@evil.test"')),
        (gm_addr, gm_addr, gm(gm_key, "replace", seat="bob", email='"bob@x.test\\nBcc: all@evil.test"')),
        (gm_addr, gm_addr, f"match: titled\nplayer: \"@gm\"\nkey: {CREATION_KEY}\ncommand: create\nspec:\n"
                           + spec.replace("id: stolen", "id: titled") + '  title: "T\\r\\nBcc: all@evil.test"\n'),
        # 2: a mailed create; then its creation key tried as the new match's GM key
        (gm_addr, gm_addr, f"match: stolen\nplayer: \"@gm\"\nkey: {CREATION_KEY}\ncommand: create\nspec:\n{spec}"),
        (gm_addr, gm_addr, gm(CREATION_KEY, "replace", match="stolen", seat="dave", email=s.address("gm"))),
        # 3: observer languages that would name files outside the archive or break every close
        (gm_addr, gm_addr, gm(gm_key, "observer", email="fan@x.test", lang='"en./../../../../tmp/x"')),
        (gm_addr, gm_addr, gm(gm_key, "observer", email="fan@x.test", lang='"en\\0"')),
        (gm_addr, gm_addr, gm(gm_key, "observer", email="fan@x.test", lang='"en.\\0"')),
        # 5: forged senders, a 56 kB match name, wrong keys from rotating senders, a bot
        *[("evil@evil.test", f"victim{i}@example.net", order) for i in range(15)],
        ("evil@evil.test", "victim@example.net", f"match: {'x' * 56_000}\nplayer: alice\nkey: K\n"),
        *[("evil@evil.test", f"rot{i}@evil{i}.test", order) for i in range(10)],
        ("evil@evil.test", '"urgent - the referee has moved. reply with your key"@evil.test', order),
        *[(alice, alice, order.replace("AAAA-BBBB-CCCC", keys["alice"])) for _ in range(1)],
        # 6: deadlines the clock cannot hold
        (gm_addr, gm_addr, gm(gm_key, "extend", until='"9999-12-31 23:59"')),
        (gm_addr, gm_addr, gm(gm_key, "extend", by="100000000000h")),
        # 11: numbers without end
        (alice, alice, f"match: live\nplayer: alice\nkey: {keys['alice']}\ncommand: resend\nturn: {10**20}\n"),
        (alice, alice, f"match: live\nplayer: alice\nkey: {keys['alice']}\nturn: 1\norders:\n  x: {'9' * 60_000}\n"),
    ]
    out = []
    for n, (envelope, from_header, body) in enumerate(mails):
        extra = "Precedence: auto_reply\r\n" if from_header == alice and "orders: {}" in body else ""
        out.append((envelope, raw(s, from_header, body, n, extra)))
    return out


@pytest.mark.sqlite_file
def test_run_survives_every_hostile_mail_and_confirms_the_next_order_within_2_s(mailservers, tmp_path):
    s = mailservers
    players = ("alice", "bob", "carol")
    env, made = live_match(s, tmp_path, config(s), players)
    gm_key = KEY.search(made.stdout).group(1)
    keys = {p: KEY.search(email.message_from_bytes(s.wait_messages(p, 1)[0], policy=policy.default)
                          .get_body(("plain",)).get_content()).group(1) for p in players}

    service = subprocess.Popen([sys.executable, "-m", "referee.app.cli", "run"], env=env, cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        time.sleep(1.5)  # into IDLE
        attacks = hostile_mails(s, gm_key, keys)
        for envelope, data in attacks:
            s.send(envelope, [s.address("referee")], data)
        def done():
            return sum(len(s.messages("referee", f"Referee/{f}")) for f in ("Processed", "Refused", "Ignored"))
        deadline = time.monotonic() + 90
        while done() < len(attacks) and time.monotonic() < deadline:
            assert service.poll() is None, "the service died"
            time.sleep(0.3)
        assert done() == len(attacks), "every hostile mail was read and set aside"

        from referee.app.config import load
        from referee.app.wiring import open_referee
        from referee.game_api.contract import Rng
        ref = open_referee(load(tmp_path / "referee.yaml"))
        rules = ref.rules(ref.store.match("live"))
        orders = rules.random_orders(rules.load(ref.store.current_turn("live")["state"]), "bob", Rng(5))
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = s.address("bob"), s.address("referee"), "orders"
        msg["Message-ID"] = "<bob-after-the-storm@players.test>"
        msg.set_content(yaml.safe_dump({"match": "live", "player": "bob", "key": keys["bob"], "turn": 1, "orders": orders}))
        before = len(s.messages("bob"))
        sent = time.monotonic()
        s.send(s.address("bob"), [s.address("referee")], msg.as_bytes(policy=policy.SMTP))
        replies = s.wait_messages("bob", before + 1, timeout=10)
        took = time.monotonic() - sent
        reply = email.message_from_bytes(replies[-1], policy=policy.default)
        assert reply["In-Reply-To"] == "<bob-after-the-storm@players.test>"
        assert took < 2.0, f"the valid order was confirmed after {took:.2f} s"
        assert service.poll() is None
        # what the attacks left behind: no stolen seat, no foreign key, no file outside the archive
        assert ref.store.player("stolen", "dave")["email"] == s.address("dave")
        assert ref.store.match("titled") is None
        assert ref.store.observers("live") == [] and ref.store.player("live", "bob")["email"] == s.address("bob")
        assert not list(tmp_path.rglob("x.txt")) and not os.path.exists("/tmp/x.txt")
        assert [r for r in ref.store.outbox() if r["status"] == "sending"] == []
        assert ref.store.current_turn("live")["deadline"] < "2027"
    finally:
        service.send_signal(signal.SIGTERM)
        out, _ = service.communicate(timeout=20)
    assert service.returncode == 0, out
    assert "stopped cleanly" in out and "the cycle failed" not in out, out

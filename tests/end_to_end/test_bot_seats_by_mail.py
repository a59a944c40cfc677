"""Issue 35 end to end by mail (real Dovecot and SMTP): a match with a bot seat played
to its end; a silent player's seat handed to a bot by the dropouts rule, the others
told, and taken back by a person with the GM's ``replace``; the archive replayed."""
from __future__ import annotations

import email
import time
from datetime import datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid

import yaml
from test_end_to_end_mail import KEY, Clock, Table, body

from referee.app.referee import Referee
from referee.app.service import Service
from referee.archive.record import replay
from referee.authority.base import Settings
from referee.game_api.contract import Rng
from referee.mail.imap_source import ImapSource
from referee.mail.sink import SmtpSink
from referee.site.build import build_site
from referee.store import bots as bot_rows
from referee.store.sqlite import SqliteStore


def _service(s, tmp_path):
    clock = Clock()
    address = s.address("referee")
    ref = Referee(SqliteStore(tmp_path / "referee.sqlite"), tmp_path / "turns", clock=clock,
                  settings=Settings(address=address))
    source = ImapSource(s.host, s.dovecot.imap_port, "referee", s.password("referee"), security="plain")
    return clock, ref, Service(ref, source, SmtpSink(s.host, s.smtp.port, security="plain"), address=address)


def _gm(s, service, created, command: str, **args) -> str:
    doc = {"match": "bots", "player": "gm", "key": created.gm_key, "command": command, **args}
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = s.address("gm"), s.address("referee"), command
    msg["Message-ID"] = make_msgid(domain="referee.test")
    msg.set_content(yaml.safe_dump(doc))
    before = len(s.messages("gm"))
    s.send(s.address("gm"), [s.address("referee")], msg.as_bytes(policy=policy.SMTP))
    service.poll_once()
    service.flush()
    return body(s.wait_messages("gm", before + 1)[-1])[1]


def texts(s, user: str, subject: str) -> list[str]:
    """The texts of the mails in ``user``'s INBOX whose subject holds ``subject`` (at least one, waited for)."""
    def found():
        got = [body(r) for r in s.messages(user)]
        return [" ".join(t.split()) for m, t in got if subject in (m["Subject"] or "")]   # lines joined
    for _ in range(200):
        if hits := found():
            return hits
        time.sleep(0.05)
    raise AssertionError(f"no mail '{subject}' for {user}: {[body(r)[0]['Subject'] for r in s.messages(user)]}")


def test_bot_seat_match_by_mail_dropout_to_bot_and_back(mailservers, tmp_path):
    s = mailservers
    clock, ref, service = _service(s, tmp_path)
    table = Table(s, s.address("referee"))
    spec = {"id": "bots", "game": "perricumer_ratsspiel", "lang": "en", "gm": s.address("gm"),
            "timezone": "Europe/Berlin", "schedule": {"period": "48h", "reminders": ["12h"]},
            "close_guard": {"hold": False},
            "dropouts": {"warn_after": 1, "abandon_after": 2, "to_bot": True},
            "players": [{"id": "alice", "name": "Alice", "email": s.address("alice")},
                        {"id": "bob", "name": "Bob", "email": s.address("bob"), "lang": "de"},
                        {"id": "robo", "name": "Robo", "bot": True}]}
    created = ref.create_match(spec, seed="bots-e2e")
    service.tick()
    keys = {}
    for p in ("alice", "bob"):
        (_, text), _rules = table.new_mail(p, expect=2)
        keys[p] = KEY.search(text).group(1)
    assert ref.store.player("bots", "robo")["email"] == "", "a bot seat has no address"
    assert not ref.store._all("SELECT id FROM outbox WHERE recipient=''"), "nothing is ever queued for a bot"
    rules = ref.rules(ref.store.match("bots"))
    rng = Rng(35)

    def state():
        return rules.load(ref.store.current_turn("bots")["state"])

    def send(player: str, number: int) -> None:
        table.send(player, table.orders_mail(player, keys[player], number,
                                             rules.random_orders(state(), player, rng), match="bots"))

    # -- turn 1: the bot decided when the turn opened; the humans in: an early close ----------
    assert "robo" in ref.store.submitted("bots", 1), "the bot's orders are in as soon as the tick looked"
    inbox = list((tmp_path / "turns" / "bots" / "t001" / "inbox").iterdir())
    bot_mails = [email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in inbox]
    assert [m["X-Referee-Bot"] for m in bot_mails] == ["default"], "the bot's order mail is archived, marked"
    send("alice", 1)
    send("bob", 1)
    service.poll_once()
    table.new_mail("alice"), table.new_mail("bob")   # receipts
    service.tick()
    assert ref.store.current_turn("bots")["number"] == 2, "all humans in: closed early, the bot held nothing up"
    used = yaml.safe_load((tmp_path / "turns" / "bots" / "t001" / "orders.yaml").read_text())
    assert used["robo"]["source"] == "bot" and used["alice"]["source"] == "player"
    (_, report), = table.new_mail("alice")
    assert "Played by a computer player (bot): Robo" in report
    (_, bericht), = table.new_mail("bob")
    assert "Von einem Computerspieler (Bot) gespielt: Robo" in bericht

    # -- bob goes silent: warned after one missed turn, his seat a bot's after two ------------
    for number in (2, 3):
        send("alice", number)
        service.poll_once()
        clock.now = datetime.fromisoformat(ref.store.current_turn("bots")["deadline"]) + timedelta(minutes=1)
        service.tick()
        assert ref.store.current_turn("bots")["number"] == number + 1
    assert bot_rows.bots(ref.store, "bots")["bob"]["why"] == "dropout"
    told = texts(s, "alice", "now played by a bot")
    assert any("Until the game master gives the seat to someone, a computer player (a bot) plays it" in t
               for t in told), told
    bob_told = texts(s, "bob", "jetzt von einem Bot gespielt")
    assert any("spielt deinen Platz" in t and "jetzt ein Computerspieler" in t for t in bob_told), bob_told
    gm_told = texts(s, "gm", "now played by a bot")
    assert "replace seat=bob" in gm_told[0], gm_told

    # -- turn 4: bob's seat now plays by itself; alice alone closes it early ------------------
    send("alice", 4)
    service.poll_once()
    service.tick()
    assert ref.store.current_turn("bots")["number"] == 5
    used = yaml.safe_load((tmp_path / "turns" / "bots" / "t004" / "orders.yaml").read_text())
    assert used["bob"]["source"] == "bot" and used["robo"]["source"] == "bot"

    # -- the GM gives the seat back to a person: bob, with a fresh key ------------------------
    status = _gm(s, service, created, "status")
    assert 'bob (Bob): 0 (a bot plays it, strength "default")' in status, status
    done = _gm(s, service, created, "replace", seat="bob", email=s.address("bob"), name="Bob")
    assert "bob" in done
    assert "bob" not in bot_rows.bots(ref.store, "bots")
    welcome = texts(s, "bob", "Willkommen")
    keys["bob"] = KEY.search(welcome[-1]).group(1)
    assert texts(s, "alice", "is played by a person again")

    # -- to the end: the humans send every turn, the bot plays its seat -----------------------
    for _ in range(60):
        match, turn = ref.store.match("bots"), ref.store.current_turn("bots")
        if match["status"] != "running" or turn["status"] != "open":
            break
        for p in ("alice", "bob"):
            if p in turn["awaiting"] and p not in ref.store.submitted("bots", turn["number"]):
                send(p, turn["number"])
        service.poll_once()
        service.tick()
        if ref.store.current_turn("bots")["number"] == turn["number"]:   # the bot's turn alone: at the deadline
            clock.now = datetime.fromisoformat(turn["deadline"]) + timedelta(minutes=1)
            service.tick()
    last = ref.store.current_turn("bots")
    assert last["status"] == "resolved" and last["result"]["outcome"], "played to its end"
    assert replay(tmp_path / "turns" / "bots").ok, "the archive alone reproduces every state hash"
    index = build_site(tmp_path / "turns" / "bots", tmp_path / "site").read_text()
    assert "Robo <span class=\"bot\">(bot)</span>" in index and "Bob <span class=\"bot\">(bot)</span>" in index
    assert "<th>Played by a bot</th>" in index, "the site says which seats a bot played, turn by turn"
    assert not ref.store._all("SELECT id FROM outbox WHERE recipient=''")
    faults = ref.store._all("SELECT * FROM faults")
    assert not faults, faults
    ref.store.close()

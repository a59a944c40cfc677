"""Issue 38: a seat that says ``command: no-pictures`` gets its reports without the
board picture (no PNG part, no image in the HTML, a reminder in its place) until it
says ``command: pictures``; the other seats keep theirs.  Played by mail through the
embedded default (SQLite, Maildir in and out), as ``referee demo`` plays: orders and
commands are mails read by the service, reports are the mails the outbox sends.
The command's hostile input: lines it does not take, a huge one, a wrong key, another
seat's name; refused in the player's language, the setting unchanged."""
from __future__ import annotations

import email
import mailbox
from datetime import timedelta
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

import pytest
import yaml

from referee.app.config import Backups, Config, MailIn, MailOut
from referee.app.demo import KEY, START, SimClock
from referee.app.service import Service
from referee.app.wiring import open_referee, open_sink, open_source
from referee.game_api import registry
from referee.game_api.contract import Rng
from referee.game_api.scripted import random_player
from referee.outbox import no_pictures
from referee.store import seats as seat_rows

GAME, MATCH = "founding_fathers", "ff-light"
SEATS = ("washington", "franklin", "dickinson", "wilson")


class Table:
    def __init__(self, tmp_path, langs: dict[str, str]) -> None:
        self.cfg = Config(store=tmp_path / "referee.sqlite", archive=tmp_path / "turns",
                          mail_in=MailIn(maildir=tmp_path / "in"), mail_out=MailOut(maildir=tmp_path / "out"),
                          backups=Backups(before_close=False))
        self.clock = SimClock(START)
        self.ref = open_referee(self.cfg, clock=self.clock)
        self.service = Service(self.ref, open_source(self.cfg), open_sink(self.cfg), address=self.cfg.address)
        self.out = mailbox.Maildir(str(self.cfg.mail_out.maildir), factory=None, create=True)
        self.seen: set[str] = set()
        self.rules = registry.get(GAME)
        self.ref.create_match({"id": MATCH, "game": GAME, "lang": "en", "gm": "gm@light.test",
                               "timezone": "Europe/Berlin", "schedule": {"period": "48h"},
                               "players": [{"id": s, "name": s.title(), "email": f"{s}@light.test",
                                            "lang": langs.get(s, "en")} for s in SEATS]}, seed="light")
        self.service.tick()
        self.keys = {}
        for msg in self.new_mail():
            found = KEY.search(msg.get_body(("plain",)).get_content())
            if found and ("elcome" in msg["Subject"] or "illkommen" in msg["Subject"]):
                self.keys[msg["To"].split("@")[0]] = found.group(1)

    def new_mail(self) -> list:
        fresh = [k for k in self.out.keys() if k not in self.seen]
        self.seen.update(fresh)
        return [email.message_from_bytes(self.out.get_bytes(k), policy=policy.default) for k in fresh]

    def send(self, seat: str, doc: dict | str) -> None:
        msg = EmailMessage(policy=policy.default)
        msg["From"], msg["To"], msg["Subject"] = f"{seat}@light.test", self.cfg.address, MATCH
        msg["Date"], msg["Message-ID"] = format_datetime(self.clock.now), make_msgid(domain="light.test")
        msg.set_content(doc if isinstance(doc, str) else yaml.safe_dump(doc, sort_keys=False, allow_unicode=True))
        mailbox.Maildir(str(self.cfg.mail_in.maildir), factory=None, create=True).add(msg.as_bytes())
        self.clock.now += timedelta(minutes=1)
        self.service.poll_once()

    def command(self, seat: str, command: str, **args) -> list:
        # written by hand, one line each (a YAML writer would set a long key apart with '?')
        lines = {"match": MATCH, "player": seat, "key": self.keys[seat], "command": command, **args}
        self.send(seat, "".join(f"{k}: {v}\n" for k, v in lines.items()))
        return self.new_mail()

    def play_turn(self) -> dict:
        """Everyone's orders by mail; the reports of the turn, by seat."""
        turn = self.ref.store.current_turn(MATCH)
        state, rand = self.rules.load(turn["state"]), random_player(self.rules)
        for seat in sorted(p for p in turn["awaiting"] if not p.startswith("@")):
            self.send(seat, {"match": MATCH, "player": seat, "key": self.keys[seat], "turn": turn["number"],
                             "orders": rand(state, seat, Rng(seat + str(turn["number"])))})
        self.service.tick()
        return {m["To"].split("@")[0]: m for m in self.new_mail() if "gm@" not in m["To"]
                and m["Subject"].startswith(f"[{MATCH}]")}


def parts(msg) -> tuple[list[str], str, str]:
    kinds = [p.get_content_type() for p in msg.walk() if not p.is_multipart()]
    return kinds, msg.get_body(("plain",)).get_content(), msg.get_body(("html",)).get_content()


def test_a_seat_that_says_no_pictures_gets_none_until_it_says_pictures(tmp_path):
    table = Table(tmp_path, {"franklin": "de"})
    [reply] = table.command("washington", "no-pictures")
    assert "without the board picture" in reply.get_body(("plain",)).get_content()
    [reply] = table.command("franklin", "No-Pictures")
    assert "ohne das Bild des Spielbretts" in reply.get_body(("plain",)).get_content()
    reports = table.play_turn()
    assert set(reports) == set(SEATS)
    for seat, lang in (("washington", "en"), ("franklin", "de")):
        kinds, text, html = parts(reports[seat])
        assert "image/png" not in kinds
        assert "board.png" not in text and no_pictures.REMINDER[lang] in text
        assert "cid:" not in html and "<img" not in html and no_pictures.REMINDER[lang] in html
    for seat in ("dickinson", "wilson"):
        kinds, text, html = parts(reports[seat])
        assert kinds.count("image/png") == 1 and "board.png" in text and "cid:board." in html
        assert len(reports[seat].as_bytes()) > 2 * len(reports["washington"].as_bytes()) // 3
    table.command("washington", "pictures")
    reports = table.play_turn()
    assert "image/png" in parts(reports["washington"])[0]
    assert "image/png" not in parts(reports["franklin"])[0]


@pytest.mark.parametrize("args, lang, said", [
    ({"pictures": "off"}, "en", "'command: no-pictures' takes no other lines ('pictures' is one too many)"),
    ({"bilder": "aus"}, "de", "'command: no-pictures' braucht keine weiteren Zeilen ('bilder' ist eine zu viel)"),
    ({"x" * 300: "y" * 5000}, "en", "takes no other lines ('xxxx"),        # echoed short
    ({"x" * 5000: "y" * 100_000}, "en", "was not accepted"),               # one line of 105 kB: the intake's cap
])
def test_lines_the_command_does_not_take_are_refused_in_the_players_language(tmp_path, args, lang, said):
    table = Table(tmp_path, {"washington": lang})
    [reply] = table.command("washington", "no-pictures", **args)
    text = reply.get_body(("plain",)).get_content()
    assert said in text and len(text) < 5000          # a long line is echoed short
    assert seat_rows.wants_pictures(table.ref.store, MATCH, "washington")


def test_a_wrong_key_or_another_seat_changes_nothing(tmp_path):
    table = Table(tmp_path, {})
    table.send("washington", {"match": MATCH, "player": "washington", "key": "AAAA-BBBB-CCCC",
                              "command": "no-pictures"})
    table.send("washington", {"match": MATCH, "player": "wilson", "key": table.keys["washington"],
                              "command": "no-pictures"})
    assert all(seat_rows.wants_pictures(table.ref.store, MATCH, s) for s in SEATS)
    assert table.new_mail()                           # both refused, not silently dropped


def test_a_seat_given_to_someone_new_has_its_pictures_again(tmp_path):
    table = Table(tmp_path, {})
    table.command("wilson", "no-pictures")
    assert not seat_rows.wants_pictures(table.ref.store, MATCH, "wilson")
    seat_rows.forget_seat(table.ref.store, MATCH, "wilson")
    assert seat_rows.wants_pictures(table.ref.store, MATCH, "wilson")

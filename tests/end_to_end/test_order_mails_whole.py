"""Every order form is a whole order mail (issues #10 and #11): the envelope on top
(match, player, key to fill in, the turn the form is for), then the game's form; in
the welcome mail, every report and every reminder, for every installed game, in
English and German.  With ``site_url`` configured its first line is
``# yaml-language-server: $schema=<url>``, and that URL is where ``referee site``
publishes the stage's schema; the block copied out unchanged (key filled in) is
accepted, passes ``referee check`` and validates against that schema."""
from __future__ import annotations

import json
import mailbox
import re
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from pathlib import Path

import jsonschema
import pytest
import yaml
from refkit import in_order

from referee.app.referee import Referee
from referee.authority.base import Settings
from referee.game_api import registry
from referee.mail.inbound import parse_inbound
from referee.mail.sink import MaildirSink
from referee.site.build import build_site
from referee.site.check import check_file
from referee.store.sqlite import SqliteStore

SITE = "https://games.example.org/pbem/site/"
KEY = re.compile(r"(?:Your key|Dein Schlüssel): (\S+)")
PLACEHOLDERS = ("YOUR-KEY", "DEIN-SCHLUESSEL")
START = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)


class World:
    def __init__(self, tmp_path: Path, game: str, lang: str, site_url: str | None) -> None:
        self.rules = registry.get(game)
        self.now = START
        self.seats = ["ada", "bert", "cleo", "dora"][: max(self.rules.min_players, 2)]
        self.tmp = tmp_path
        self.ref = Referee(SqliteStore(tmp_path / "r.sqlite"), tmp_path / "turns", clock=lambda: self.now,
                           settings=Settings(address="referee@localhost", site_url=site_url))
        self.ref.create_match({"id": "whole", "game": game, "gm": "gm@players.test", "language": lang,
                               "schedule": {"period": "48h", "reminders": ["12h"]},
                               "players": [{"id": s, "name": s.title(), "email": f"{s}@players.test"}
                                           for s in self.seats]}, seed="whole")
        self.sink, self.seen, self.keys, self.n = MaildirSink(tmp_path / "out"), set(), {}, 0

    def new_mail(self) -> list:
        self.ref.send_pending(self.sink)
        box = mailbox.Maildir(str(self.tmp / "out"), factory=None, create=False)
        fresh = [k for k in in_order(box) if k not in self.seen]
        self.seen.update(fresh)
        mails = [message_from_bytes(box.get_bytes(k), policy=policy.default) for k in fresh]
        for m in mails:
            found = KEY.search(m.get_body(("plain",)).get_content())
            if found:
                self.keys.setdefault(m["To"].split("@")[0], found.group(1))
        return mails

    def send(self, player: str, body: str):
        self.n += 1
        raw = (f"From: {player}@players.test\nTo: referee@localhost\nSubject: orders\nMessage-ID: <w{self.n}@p.test>\n"
               f"Content-Type: text/plain; charset=utf-8\n\n{body}").encode()
        return self.ref.handle(parse_inbound(raw))


def order_block(text: str) -> list[str]:
    """The order mail as a player selects it: from its first line (the schema line or
    'match:') to the end of the indented form under 'orders:'."""
    lines = text.replace("\r\n", "\n").split("\n")
    start = max(i for i, ln in enumerate(lines) if ln.startswith("match:"))
    if start and lines[start - 1].startswith("# yaml-language-server:"):
        start -= 1
    end = next(i for i, ln in enumerate(lines) if i > start and ln.startswith("orders:")) + 1
    while end < len(lines) and (not lines[end].strip() or lines[end].startswith((" ", "#"))):
        end += 1
    while not lines[end - 1].strip():
        end -= 1
    return lines[start:end]


def check_whole(block: list[str], world: World, player: str, stage: str, site_url: str | None) -> None:
    turn = world.ref.store.current_turn("whole")["number"]
    at = 1 if site_url else 0
    if site_url:
        assert block[0] == f"# yaml-language-server: $schema={site_url.rstrip('/')}/whole/schemas/{stage}.json"
    else:
        assert not any("yaml-language-server" in ln for ln in block)
    assert block[at:at + 5] == ["match: whole", f"player: {player}", block[at + 2], f"turn: {turn}", "orders:"]
    assert block[at + 2].startswith("key: ")


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", registry.names())
def test_every_form_is_a_whole_order_mail_with_its_schema_line(game, lang, tmp_path):
    world = World(tmp_path, game, lang, SITE)
    forms = 0
    for turn_no in (1, 2):
        mails = world.new_mail()
        turn = world.ref.store.current_turn("whole")
        assert turn["number"] == turn_no
        world.now += timedelta(hours=37)            # 11 h before the deadline: the reminders go out
        assert world.ref.tick().reminded >= 1
        reminders = world.new_mail()
        for player, stage in sorted(turn["awaiting"].items()):
            if player not in world.seats:
                continue
            for kind, m in (("form", [m for m in mails if m["To"] == f"{player}@players.test"][-1]),
                            ("reminder", [m for m in reminders if m["To"] == f"{player}@players.test"][-1])):
                text = m.get_body(("plain",)).get_content()
                block = order_block(text)
                check_whole(block, world, player, stage, SITE)
                html = m.get_body(("html",))
                if html is not None and kind == "form" and turn_no > 1:   # a report's HTML shows the same order mail
                    assert "$schema=" in html.get_content() and "match: whole" in html.get_content()
                filled = "\n".join(f"key: {world.keys[player]}" if ln.startswith("key:") else ln for ln in block)
                forms += 1
                if kind == "reminder":
                    continue
                doc = yaml.safe_load(filled)
                published = _site_schema(world, block[0].partition("$schema=")[2])
                jsonschema.validate(doc, published)
                (tmp_path / f"{player}.yaml").write_text(filled + "\n", encoding="utf-8")
                lines, ok = check_file(world.ref, tmp_path / f"{player}.yaml", lang)
                assert ok, lines
                handled = world.send(player, f"Hallo,\n\n{filled}\n\nGruß\n")
                assert handled.reason == "accepted", (kind, turn_no, player, filled)
        world.new_mail()
        world.now += timedelta(hours=12)
        world.ref.tick()
        if world.ref.store.match("whole")["status"] != "running":
            break
    assert forms >= 4


def _site_schema(world: World, url: str) -> dict:
    """The file `referee site` writes (site/<match>/...) at the place the URL names under site_url."""
    assert url.startswith(SITE)
    site_root = world.tmp / "site"
    build_site(world.tmp / "turns" / "whole", site_root / "whole")
    path = site_root / url[len(SITE):]
    assert path.is_file(), (url, sorted(p.name for p in (site_root / "whole" / "schemas").iterdir()))
    return json.loads(path.read_text(encoding="utf-8"))


def test_without_site_url_no_schema_line(tmp_path):
    world = World(tmp_path, "founding_fathers", "en", None)
    mails = world.new_mail()
    turn = world.ref.store.current_turn("whole")
    for player, stage in turn["awaiting"].items():
        text = [m for m in mails if m["To"] == f"{player}@players.test"
                and "The rules of" not in m["Subject"]][-1].get_body(("plain",)).get_content()   # those come apart
        check_whole(order_block(text), world, player, stage, None)
        assert "yaml-language-server" not in text

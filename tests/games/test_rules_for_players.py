"""Issue 33, rules a player can read: ``referee rules GAME --lang L`` prints each game's rules
for players (never the developers' notes), in words a player knows, naming every order the
game takes, and every worked example in it is accepted when mailed into a real match at a
position where that order is due (through a Maildir, the service's intake and its answer)."""
from __future__ import annotations

import functools
import mailbox
import re
import subprocess
import sys
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
import refkit
import yaml
from referee_kit import REFEREE, SPEC, Clock, inbound, make_referee

from referee.app.service import Service
from referee.game_api import registry
from referee.game_api.contract import Rng
from referee.game_api.scripted import random_player
from referee.intake import safe_yaml
from referee.mail.sink import MaildirSink
from referee.mail.source import MaildirSource

GAMES = ["founding_fathers", "nations_dice", "perricumer_ratsspiel", "revolution_1848"]
LANGS = ["en", "de"]
toy_registered = refkit.toy_registered   # autouse: a third-party game without player rules
SEATS = {"founding_fathers": ["madison", "paterson", "sherman"], "nations_dice": ["ada", "bert", "cleo"],
         "perricumer_ratsspiel": ["madison", "paterson", "sherman"], "revolution_1848": ["ada", "bert", "cleo"]}
# a plan's preview (which step would run now), said beside an accepted plan: no fault in it
PREVIEW = {"plan.later", "plan.would_run", "plan.would_ask"}
# what a player must never meet in the rules: the developers' words and paths
DEV_WORDS = [r"\bseeds?\b", r"\.py\b", r"README", r"\.\./", r"\bTODO\b", r"\bFIXME\b", r"referee_games",
             r"\breferee\.[a-z]", r"\bgames/", r"\bdefault_edition\b", r"\bsample_campaign\b", r"pydantic",
             r"follow_plan", r"\bRng\b", r"\bmodules?\b", r"\b[\w-]+/[\w./-]+\.(?:md|yaml|j2|txt|json)\b"]


@functools.cache
def rules_text(game: str, lang: str | None) -> str:
    """What a player is shown: the installed CLI's output, run as the GM would run it."""
    exe = Path(sys.executable).with_name("referee")
    args = [str(exe), "rules", game] + (["--lang", lang] if lang else [])
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def examples(text: str) -> list[tuple[str, dict]]:
    """Each YAML example as written, and as the referee's own YAML reader reads it."""
    return [(block, safe_yaml.load(block)) for block in re.findall(r"```yaml\n(.*?)```", text, re.S)]


def schema_words(model) -> set[str]:
    """Every field name and every fixed word value of an order model, at any depth."""
    found: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "properties":
                    found.update(value)
                if key in ("enum", "const"):
                    found.update(v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str))
                walk(value)
        elif isinstance(node, list):
            for x in node:
                walk(x)
    walk(model.model_json_schema())
    return found


def order_models(game: str) -> list:
    if game == "perricumer_ratsspiel":
        from referee_games.perricumer_ratsspiel.orders import GmOrders, SessionOrders
        return [SessionOrders, GmOrders]
    module = __import__(f"referee_games.{game}.orders", fromlist=["SCHEMAS"])
    return list(module.SCHEMAS.values())


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_rules_for_players_hold_no_developer_words(game, lang):
    text = rules_text(game, lang)
    assert len(text) > 3000, "a whole rules text, not a summary"
    for word in DEV_WORDS:
        hit = re.search(word, text, re.I if word.startswith(r"\bseed") else 0)
        assert hit is None, f"{game} {lang}: developer word {hit.group(0)!r} in: …{text[max(0, hit.start() - 60):hit.end() + 60]}…"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_rules_for_players_tell_what_the_game_is_and_how_it_ends(game, lang):
    text = rules_text(game, lang)
    heads = [h.lower() for h in re.findall(r"^##+ (.+)$", text, re.M)]
    wanted = {"en": [("the game",), ("set-up",), ("turn", "round", "trick"), ("end",), ("by mail",)],
              "de": [("das spiel",), ("aufbau",), ("zug", "runde", "stich"), ("ende",), ("per mail",)]}[lang]
    for words in wanted:
        assert any(w in h for h in heads for w in words), f"{game} {lang}: no section on {words} ({heads})"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_rules_for_players_name_every_order_the_game_takes(game, lang):
    text = rules_text(game, lang)
    for model in order_models(game):
        for word in sorted(schema_words(model)):
            assert re.search(rf"`[^`\n]*\b{re.escape(word)}\b[^`\n]*`|^\s*-?\s*{{?{re.escape(word)}\b", text, re.M), \
                f"{game} {lang}: the order word {word!r} ({model.__name__}) is never shown"
    assert examples(text), f"{game} {lang}: no worked example"


def test_rules_without_lang_are_the_games_first_language():
    assert rules_text("perricumer_ratsspiel", None) == rules_text("perricumer_ratsspiel", "de")
    assert rules_text("founding_fathers", None) == rules_text("founding_fathers", "en")
    assert rules_text("revolution_1848", None) == rules_text("revolution_1848", "de")


def test_rules_of_a_game_without_player_rules_say_so_and_never_show_its_notes(tmp_path, capsys):
    """A third-party game that ships only a README: a clear message, not the developers' notes."""
    assert registry.player_rules(registry.get("toybid"), "en") is None
    from referee.app import cli
    assert cli.main(["rules", "toybid", "--lang", "en"]) != 0
    assert capsys.readouterr().out == ""
    assert cli.main(["rules", "toybid"]) != 0
    err = capsys.readouterr().err
    assert "rules for players" in err and "README" not in err


# --- every worked example, mailed into a real match where its order is due ------------------

class Table:
    """A real match of ``game`` played on with random legal orders; mails go through a Maildir
    into the service (``mail_example``) or straight to the referee (the filler orders)."""

    def __init__(self, game: str, lang: str, root: Path, seed: str, options: dict) -> None:
        self.clock = Clock()
        self.ref = make_referee(root, self.clock)
        self.ref.settings.rate_limit_per_hour = 0
        self.rules = registry.get(game)
        self.inbox = root / "in"
        self.service = Service(self.ref, MaildirSource(self.inbox), MaildirSink(root / "out"), address=REFEREE)
        self.outbox = refkit.Outbox(self.ref, root / "out")
        players = [{"id": s, "name": s.title(), "email": f"{s}@example.org"} for s in SEATS[game]]
        created = self.ref.create_match(dict(SPEC, id="m", game=game, players=players, options=options,
                                             language=lang, observers=[]), seed=seed)
        self.keys = {"@gm": created.gm_key}
        for m in self.outbox.flush():
            hit = re.search(r"(?:Your key|Dein Schlüssel): (\S+)", m.get_body(("plain",)).get_content())
            if hit:
                self.keys[m["To"].split("@")[0]] = hit.group(1)
        self.play, self.rng = random_player(self.rules), Rng(11)

    def address(self, pid: str) -> str:
        return SPEC["gm"] if pid == "@gm" else f"{pid}@example.org"

    def fits(self, state, pid: str, stage: str, orders) -> bool:
        """The example is due here: its stage's schema reads it and the game has nothing to say."""
        try:
            model = self.rules.order_schema(state, stage).model_validate(orders)
        except ValueError:
            return False
        return all(p.code in PREVIEW for p in self.rules.validate(state, pid, model))

    def mail_example(self, pid: str, turn: int, text: str) -> str:
        """The example as the player copies it, with this match, seat, key and turn filled in."""
        for field, value in (("match", "m"), ("player", f'"{pid}"'), ("key", self.keys[pid]), ("turn", turn)):
            text = re.sub(rf"^{field}: .*$", f"{field}: {value}", text, count=1, flags=re.M)
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = self.address(pid), REFEREE, "orders"
        msg["Message-ID"] = make_msgid(domain="players.example")
        msg.set_content(text)
        mailbox.Maildir(str(self.inbox)).add(msg.as_bytes())
        self.service.poll_once()
        replies = [m for m in self.outbox.flush() if self.address(pid) in m["To"]]
        assert len(replies) == 1, [m["Subject"] for m in replies]
        return replies[0]["Subject"] + "\n" + replies[0].get_body(("plain",)).get_content()

    def filler(self, state, pid: str, turn: int) -> None:
        orders = (self.rules.default_orders(state, pid).model_dump(mode="json", by_alias=True, exclude_none=True)
                  if pid == "@gm" else self.play(state, pid, self.rng))
        doc = {"match": "m", "player": pid, "key": self.keys[pid], "turn": turn, "orders": orders}
        handled = self.ref.handle(inbound(self.address(pid), yaml.safe_dump(doc, allow_unicode=True)))
        assert handled.reason == "accepted", handled

    def place(self, pending: list[tuple[str, dict]], max_turns: int) -> None:
        """Play on until every example was due once and was mailed then (taken off ``pending``)."""
        for _ in range(max_turns):
            match = self.ref.store.match("m")
            if not pending or match["status"] != "running":
                break
            turn = self.ref.store.current_turn("m")
            state = self.rules.load(turn["state"])
            for pid, stage in turn["awaiting"].items():
                for doc in [d for d in pending if self.fits(state, pid, stage, d[1]["orders"])]:
                    answer = self.mail_example(pid, turn["number"], doc[0])
                    assert "accepted" in answer.splitlines()[0] or "angenommen" in answer.splitlines()[0], answer
                    pending.remove(doc)
                self.filler(state, pid, turn["number"])   # the random orders count: the game goes on as ever
            self.clock.advance(hours=49)
            self.ref.tick()
            self.outbox.flush()


# where each game's examples come due: (match seed, options, turns at most); the examples are
# written for these matches (a famine or books decision comes only in some)
TABLES = {"founding_fathers": [("rules", {}, 30)],
          "nations_dice": [("rules", {}, 8), ("s19", {}, 6), ("rules", {"variant": "accelerated"}, 2)],
          "perricumer_ratsspiel": [("rules", {"gm_orders": True}, 3)],
          "revolution_1848": [("rules", {}, 8)]}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_every_example_in_the_rules_is_accepted_by_mail(game, lang, tmp_path):
    docs = examples(rules_text(game, lang))
    for _, doc in docs:
        assert set(doc) == {"match", "player", "key", "turn", "orders"}, doc
    pending = list(docs)
    for i, (seed, options, turns) in enumerate(TABLES[game]):
        Table(game, lang, tmp_path / str(i), seed, options).place(pending, turns)
    assert not pending, f"never due: {[text for text, _ in pending]}"

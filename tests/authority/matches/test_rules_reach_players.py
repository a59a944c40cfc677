"""Issue 33: the welcome sends players to rules they can follow — ``referee rules`` is the GM's
command, so a player gets a link to the match site's rules page (in his language) when the
sites are published, and otherwise the rules themselves in a mail of their own, never inside
the mail with his order form (a reply quoting it would carry every example as a document)."""
from __future__ import annotations

import re

import pytest
from referee_kit import SPEC, Outbox, make_referee, text_of, toy_registered  # noqa: F401 (autouse)

from referee.game_api import registry
from referee.site.build import build_site

SITE = "https://example.org/matches/"
PLAYERS = [{"id": "ada", "name": "Ada", "email": "ada@example.org", "lang": "en"},
           {"id": "bert", "name": "Bert", "email": "bert@example.org", "lang": "de"},
           {"id": "cleo", "name": "Cleo", "email": "cleo@example.org", "lang": "en"}]


def created(tmp_path, clock, game: str, site_url: str | None) -> tuple[object, list]:
    ref = make_referee(tmp_path, clock)
    ref.settings.site_url = site_url
    outbox = Outbox(ref, tmp_path / "out")
    ref.create_match(dict(SPEC, id="m-1", game=game, players=PLAYERS, options={},
                          language=registry.get(game).languages[0]), seed="rules")
    return ref, outbox.flush()


def mails_to(sent, address: str) -> dict[str, str]:
    return {m["Subject"]: text_of(m) for m in sent if address in m["To"]}


@pytest.fixture
def clock():
    from referee_kit import Clock
    return Clock()


@pytest.mark.parametrize("game", ["founding_fathers", "perricumer_ratsspiel"])
def test_welcome_links_the_sites_rules_page_in_the_players_language(game, tmp_path, clock):
    _, sent = created(tmp_path, clock, game, SITE)
    out = tmp_path / "site"
    build_site(tmp_path / "turns" / "m-1", out)
    for player, lang, line in (("ada", "en", "The full rules, with an example of every kind of order: "),
                               ("bert", "de", "Die vollständigen Regeln, mit einem Beispiel für jede Art von Befehl: ")):
        mails = mails_to(sent, f"{player}@example.org")
        assert len(mails) == 1, list(mails)   # the welcome alone: the rules are a link away
        [welcome] = mails.values()
        url = re.search(re.escape(line) + r"(\S+)", welcome).group(1)
        assert url == f"{SITE}m-1/rules.{lang}.html"
        page = (out / url.removeprefix(f"{SITE}m-1/")).read_text(encoding="utf-8")
        title = registry.player_rules(registry.get(game), lang).splitlines()[0].lstrip("# ")
        assert f"<h1>{title}</h1>" in page and f'<html lang="{lang}">' in page


@pytest.mark.parametrize("game", ["nations_dice", "revolution_1848"])
def test_without_a_site_the_rules_come_in_a_mail_of_their_own(game, tmp_path, clock):
    _, sent = created(tmp_path, clock, game, None)
    for player, lang in (("ada", "en"), ("bert", "de")):
        mails = mails_to(sent, f"{player}@example.org")
        [welcome] = [t for s, t in mails.items() if "Welcome" in s or "Willkommen" in s]
        [rules] = [t for s, t in mails.items() if "The rules of" in s or "Die Regeln von" in s]
        assert registry.player_rules(registry.get(game), lang).rstrip() in rules
        assert ("come in a mail of their own" if lang == "en" else "kommen in einer eigenen Mail") in welcome
        # the welcome holds at most the one order document of its form, no example beside it
        assert len(re.findall(r"^match: ", welcome, re.M)) <= 1 and "```" not in welcome


def test_a_game_without_player_rules_gets_no_rules_line_and_no_rules_mail(tmp_path, clock):
    ref = make_referee(tmp_path, clock)
    outbox = Outbox(ref, tmp_path / "out")
    ref.create_match(dict(SPEC, observers=[]), seed="toy")
    for m in outbox.flush():
        assert "rules" not in m["Subject"].lower() and "Regeln" not in m["Subject"]
        assert "The full rules" not in text_of(m) and "vollständigen Regeln" not in text_of(m)

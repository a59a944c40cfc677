"""Issue #10: a report mail read on a 400 px wide phone does not overflow sideways.
Every game's HTML report, as the mail carries it (styles written inline; the player's,
the observer's and the GM's), is opened in a real headless chromium 400 px wide:
the page's scroll width stays within 400 px, and a screenshot of each is kept in
tests/pictures/out/ to be looked at."""
from __future__ import annotations

import mailbox
import re
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy

import pytest
from browser import Browser
from refkit import in_order
from seekit import OUT

from referee.app.referee import Referee
from referee.authority.base import Settings
from referee.game_api import registry
from referee.game_api.contract import Rng, derive_seed
from referee.game_api.scripted import random_player
from referee.mail.sink import MaildirSink
from referee.store.sqlite import SqliteStore

WIDTH = 400
# the elements wider than the screen, for the failure message
_WIDE = ("[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > WIDTH)"
         ".slice(0, 5).map(e => e.tagName + ' ' + Math.round(e.getBoundingClientRect().right) + ' '"
         " + (e.textContent || '').slice(0, 40).replace(/\\s+/g, ' '))").replace("WIDTH", str(WIDTH + 1))


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    b.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=900, deviceScaleFactor=1, mobile=False)
    yield b
    b.close()


def report_mails(game: str, lang: str, tmp_path) -> list:
    """Two turns of ``game`` through the referee with long names and a long match id;
    the second turn's report mails (a player's, the observer's, the GM's)."""
    rules = registry.get(game)
    now = [datetime(2026, 3, 2, 18, 0, tzinfo=UTC)]
    ref = Referee(SqliteStore(tmp_path / "r.sqlite"), tmp_path / "turns", clock=lambda: now[0],
                  settings=Settings(address="referee@localhost", site_url="https://games.example.org/pbem/site/"))
    seats = ["ada", "bert", "cleo", "dora"][: max(rules.min_players, 3 if rules.max_players >= 3 else 2)]
    ref.create_match({"id": "a-rather-long-match-name-2026", "game": game, "gm": "gm@players.test",
                      "language": lang, "schedule": {"period": "48h"}, "observers": ["fan@players.test"],
                      "players": [{"id": s, "name": f"{s.title()} Maximiliane von Hohenzollern-Sigmaringen",
                                   "email": f"{s}@players.test"} for s in seats]}, seed="narrow")
    play = random_player(rules)
    match = "a-rather-long-match-name-2026"
    for number in (1, 2):
        turn = ref.store.current_turn(match)
        state = rules.load(turn["state"])
        for p, stage in turn["awaiting"].items():
            if p in seats:
                data = play(state, p, Rng(derive_seed("narrow", f"{number}:{p}")))
                model = rules.order_schema(state, stage).model_validate(data)
                ref.store.put_submission(match, turn["number"], p, model.model_dump(mode="json"), f"<{number}{p}@t>",
                                         "h", now[0])
        now[0] += timedelta(hours=49)
        ref.tick()
        if ref.store.match(match)["status"] != "running":
            break
    ref.send_pending(MaildirSink(tmp_path / "out"))
    box = mailbox.Maildir(str(tmp_path / "out"), factory=None, create=False)
    mails = [message_from_bytes(box.get_bytes(k), policy=policy.default) for k in in_order(box)]
    reports = [(int(hit.group(1)), m) for m in mails if (hit := _TURN.search(m["Subject"] or ""))]
    last = max(n for n, _ in reports)
    wanted = {f"{seats[0]}@players.test", "fan@players.test", "gm@players.test"}
    return [m for n, m in reports if n == last and m["To"] in wanted and m.get_body(("html",)) is not None]


_TURN = re.compile(r"(?:Report|Bericht), (?:turn|Zug) (\d+)")


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", registry.names())
def test_every_report_fits_a_400px_screen(browser, game, lang, tmp_path):
    mails = report_mails(game, lang, tmp_path)
    assert len(mails) == 3, [m["Subject"] for m in mails]
    for m in mails:
        html = m.get_body(("html",)).get_content()
        assert "<style" not in html   # what the mail client gets: styles inline
        who = m["To"].split("@")[0]
        page = tmp_path / f"{game}.{lang}.{who}.html"
        page.write_text(html, encoding="utf-8")
        (OUT / "narrow").mkdir(parents=True, exist_ok=True)
        (OUT / "narrow" / page.name).write_text(html, encoding="utf-8")
        browser.open(page.as_uri())
        width = browser.eval("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
        browser.screenshot(OUT / "narrow" / f"{game}.{lang}.{who}.png")
        assert width <= WIDTH, (m["Subject"], width, browser.eval(_WIDE))

"""Issue 33: the match site's rules page, opened in a real headless chromium — the index links it
in the match's language, it shows the game's rules for players as headings, lists, tables and
the worked examples as code (a screenshot of each is kept in tests/seeing/out/); and a rules
text with markup of its own is shown as text, never run or linked."""
from __future__ import annotations

import re

import pytest
from browser import Browser
from seekit import OUT, SAMPLES

from referee.app.cli import main
from referee.game_api import registry
from referee.site import rules_page
from referee.site.history import read_meta

GAMES = ["founding_fathers", "nations_dice", "perricumer_ratsspiel", "revolution_1848"]


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    yield b
    b.close()


@pytest.mark.parametrize("game", GAMES)
def test_rules_page_shows_the_rules_for_players_in_the_matchs_language(browser, game, tmp_path):
    sample = SAMPLES / f"demo-{game}"
    lang = read_meta(sample).get("language") or registry.get(game).languages[0]
    assert main(["site", str(sample), "--out", str(tmp_path)]) == 0
    browser.open((tmp_path / "index.html").as_uri())
    href = browser.eval("document.querySelector('#rules a').href")
    assert href.endswith(f"/rules.{lang}.html")
    browser.open(href)
    text = registry.player_rules(registry.get(game), lang)
    shown = browser.eval("""({h: [...document.querySelectorAll('article h1, article h2, article h3')].map(e => e.innerText),
        code: [...document.querySelectorAll('article pre code')].map(e => e.innerText),
        rows: document.querySelectorAll('article table tr').length, lang: document.documentElement.lang,
        back: document.querySelector('nav a[rel=index]').href, width: document.body.scrollWidth})""")
    assert shown["lang"] == lang and shown["back"].endswith("/index.html")
    heads = [re.sub(r"`", "", h.lstrip("# ").strip()) for h in re.findall(r"^#{1,3} .+$", text, re.M)]
    assert shown["h"] == heads
    assert [c.strip() for c in shown["code"]] == [b.strip() for b in re.findall(r"```yaml\n(.*?)```", text, re.S)]
    assert shown["rows"] >= 5 and shown["width"] <= 1100   # the tables are drawn, nothing runs off the page
    browser.screenshot(OUT / f"site-rules-{game}.png")


HOSTILE = """# Rules <script>window.pwned = 1</script>

A paragraph with <img src=x onerror="window.pwned = 2"> and [a link](javascript:window.pwned=3).

* an item with `<b>code</b>` and **bold <i>x</i>**
  * nested <iframe src="https://example.org/"></iframe>

| a | b |
|---|---|
| <a href="https://example.org/">x</a> | " onmouseover="window.pwned=4 |

```yaml
</code></pre><script>window.pwned = 5</script>
```
"""


def test_rules_page_shows_markup_in_a_games_text_as_text(browser, tmp_path):
    page = tmp_path / "rules.html"
    page.write_text(f"<!DOCTYPE html><html><body><article>{rules_page.render(HOSTILE)}</article></body></html>",
                    encoding="utf-8")
    browser.open(page.as_uri())
    found = browser.eval("""({pwned: window.pwned || 0,
        tags: [...document.querySelectorAll('article *')].map(e => e.tagName.toLowerCase()),
        attrs: [...document.querySelectorAll('article *')].reduce((n, e) => n + e.attributes.length, 0),
        text: document.querySelector('article').innerText})""")
    assert found["pwned"] == 0 and found["attrs"] == 0
    assert set(found["tags"]) <= {"h1", "h2", "p", "ul", "li", "table", "thead", "tbody", "tr", "th", "td",
                                  "pre", "code", "strong", "em"}
    for shown in ("<script>window.pwned = 1</script>", 'onerror="window.pwned = 2"', "<b>code</b>",
                  "<iframe", "</code></pre><script>"):
        assert shown in found["text"], shown


def test_rules_page_keeps_a_paragraph_after_a_sublist_in_its_own_item():
    """Nations' "Trading" note belongs to the actions step, below its list of actions."""
    html = str(rules_page.render("1. **Actions.** each:\n   * buy\n   * pass\n\n   **Trading:** two dice\n   for one\n2. **Books.**\n"))
    assert html == ("<ol><li><strong>Actions.</strong> each:<ul><li>buy</li><li>pass</li></ul>"
                    "<p><strong>Trading:</strong> two dice for one</p></li><li><strong>Books.</strong></li></ol>")

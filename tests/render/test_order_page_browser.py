"""Issue 36: the order page in headless chromium — hostile names and labels are only text,
the keyboard alone fills it in, and it checks as the player goes."""
from __future__ import annotations

import pytest
from browser import Browser
from orderpage import SHOTS
from test_order_page import HOSTILE, WithChoices

from referee.game_api import registry
from referee.game_api.contract import Rng
from referee.render import order_page

RULES = registry.get("founding_fathers")


def Hostile():
    """Founding Fathers whose choices carry script in values and labels."""
    return WithChoices(lambda state, player, lang: {
        "keep.*": [{"value": HOSTILE, "label": HOSTILE}] + RULES.order_choices(state, player, lang)["keep.*"]})


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    b.install_error_log()
    b.call("Page.addScriptToEvaluateOnNewDocument", source="window.alert=function(){window.__alerted=true;};")
    yield b
    b.close()


def opened(browser, tmp_path, rules, name="Alice", lang="en"):
    state = RULES.setup(["alice", "bob", "carol"], {}, Rng(5))
    data = order_page.page_data(rules, state, "alice", lang, match_id="m", turn=1, stage="keep",
                                address="referee@example.org", title="Test", player_name=name)
    path = tmp_path / data["name"]
    path.write_text(order_page.page_html(data), encoding="utf-8")
    browser.open(path.as_uri())
    assert browser.errors() == []
    return state


def test_a_hostile_player_name_and_labels_run_nothing(browser, tmp_path):
    opened(browser, tmp_path, Hostile(), name=HOSTILE)
    assert browser.eval("window.__alerted === true") is False
    assert browser.eval("document.scripts.length") == 2
    assert HOSTILE in browser.eval("document.querySelector('h1').textContent")
    assert HOSTILE in browser.eval("document.title")
    browser.select('[data-k="orders.keep.0"]', HOSTILE)
    doc = browser.eval("document.getElementById('doc').value")
    assert 'keep: ["</script><script>alert(1)</script>",' in doc, doc
    assert browser.eval("window.__alerted === true") is False
    browser.screenshot(SHOTS / "page-hostile.png")


def test_the_keyboard_alone_adds_moves_and_chooses(browser, tmp_path):
    state = opened(browser, tmp_path, RULES)
    dealt = state.d["dealt"]["alice"]
    browser.focus('[data-k="orders.keep+"]')
    browser.key("Enter", 13)                      # a third card
    assert browser.eval("document.activeElement.getAttribute('data-k')") == "orders.keep.2x"
    browser.focus('[data-k="orders.keep.2"]')
    browser.key("ArrowDown", 40)                  # the first card offered
    browser.key("ArrowDown", 40)
    browser.focus('[data-k="orders.keep.1^"]')
    browser.key(" ", 32)                          # the second card moved up
    doc = browser.eval("document.getElementById('doc').value")
    assert f"keep: [{dealt[1]}, {dealt[0]}, " in doc and "null" not in doc, doc
    # every control has a name a screen reader reads out
    unnamed = browser.eval("[].filter.call(document.querySelectorAll('input,select,button,textarea'), function(e){"
                           "return !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby')"
                           " && !e.textContent.trim();}).length")
    assert unnamed == 0


def test_it_checks_as_the_player_goes(browser, tmp_path):
    opened(browser, tmp_path, RULES, lang="de")
    assert browser.eval("document.getElementById('status').textContent") == "Die Befehle sind vollständig."
    browser.select('[data-k="orders.keep.0"]', "(wählen)")
    assert browser.eval("document.getElementById('status').textContent") == "Noch zu beheben: 1."
    assert browser.attribute('[data-k="orders.keep.0"]', "aria-invalid") == "true"
    described = browser.attribute('[data-k="orders.keep.0"]', "aria-describedby")
    assert browser.eval(f"document.getElementById('{described}').textContent") == "Noch auszufüllen."

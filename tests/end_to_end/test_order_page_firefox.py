"""Issue 36 in Firefox: the order page of a real report mail, saved as a file (as a mail
client's downloads hold it) and opened in headless Firefox (Debian's firefox-esr, driven
over WebDriver BiDi), clicked, its mailto mailed back through the referee and accepted as
the orders chosen — Founding Fathers keep and action, Nations plan (German) and famine —
and "Open mail" without a key refused aloud. The same steps as chromium's
(tests/kits/orderpage_stages.py)."""
from __future__ import annotations

import pytest
from firefox import Firefox
from orderpage_stages import (
    FF_SEATS,
    PASS,
    Match,
    ff_action,
    ff_keep,
    nations_famine,
    nations_plan_de,
    no_key_refused_de,
)
from test_end_to_end_nations import strong_edition


@pytest.fixture(scope="module")
def firefox():
    b = Firefox()
    b.install_error_log()
    yield b
    b.close()


def test_founding_fathers_keep_and_action_by_the_page_in_firefox(mailservers, tmp_path, firefox):
    m = Match(mailservers, tmp_path, "founding_fathers", FF_SEATS, "en")
    ff_keep(m, firefox)
    ff_action(m, firefox)


def test_nations_plan_and_famine_by_the_page_in_firefox_in_german(mailservers, tmp_path, firefox):
    m = Match(mailservers, tmp_path, "nations_dice", ("alice", "bob"), "de", {"edition": strong_edition()})
    nations_plan_de(m, firefox)
    assert m.play_until(lambda st, aw: "famine" in aw.values(), seed=5, orders=PASS.get)
    nations_famine(m, firefox, m.seat_at("famine"))


def test_open_mail_without_a_key_refuses_aloud_in_firefox(mailservers, tmp_path, firefox):
    m = Match(mailservers, tmp_path, "founding_fathers", FF_SEATS, "de")
    no_key_refused_de(m, firefox)
    # then the keyboard alone picks another card, and Copy is not refused from a file:// page
    firefox.focus('[data-k="orders.keep.1"]')
    before = firefox.eval("document.getElementById('doc').value")
    firefox.key("ArrowDown")
    assert firefox.eval("document.getElementById('doc').value") != before
    firefox.focus("#key")
    firefox.type(m.keys["bob"])
    firefox.click("#copy")
    status = firefox.until("document.getElementById('status').textContent")
    assert status.startswith("Kopiert:") and m.address in status, status

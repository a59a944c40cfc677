"""Issue 36: the order page of a real mail, clicked in headless chromium, writes orders the
referee accepts as chosen — Founding Fathers (keep, action, committee flip) and Nations (plan,
books, famine), each stage from a match played through the real referee (Dovecot, SMTP, IMAP);
and "Open mail" without a key refuses, said aloud, and writes no mail. The steps are shared
with Firefox (tests/kits/orderpage_stages.py, test_order_page_firefox.py)."""
from __future__ import annotations

import copy
from importlib import resources

import pytest
import yaml
from browser import Browser
from orderpage_stages import (
    FF_SEATS,
    PASS,
    Match,
    accepted,  # noqa: F401  (test_order_page_ratsspiel_1848 takes these from here)
    ff_action,
    ff_flip,
    ff_keep,
    nations_books,
    nations_famine,
    nations_plan_de,
    no_key_refused_de,
    shot,  # noqa: F401
    stored,  # noqa: F401
)
from test_end_to_end_nations import strong_edition


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    b.install_error_log()
    yield b
    b.close()


def books_edition() -> dict:
    """White dice that show only books (or gold) and a famine of 1: with no food, the books
    phase must ask whether to hold book dice back for it (R123), every age."""
    ed = copy.deepcopy(yaml.safe_load(resources.files("referee_games.nations_dice")
                                      .joinpath("default_edition.yaml").read_text("utf-8")))
    ed["dice"]["white"]["faces"] = [{"book": 1}] * 5 + [{"gold": 1}]
    ed["dice"]["white"]["source"] = "test edition"
    for e in ed["events"]:
        e["food"] = 1
    return ed


def test_founding_fathers_every_stage_by_the_page(mailservers, tmp_path, browser):
    m = Match(mailservers, tmp_path, "founding_fathers", FF_SEATS, "en")
    ff_keep(m, browser)
    ff_action(m, browser)
    assert ff_flip(m, browser), "the seeded match comes to a Committee flip"


def test_nations_plan_and_famine_by_the_page_in_german(mailservers, tmp_path, browser):
    m = Match(mailservers, tmp_path, "nations_dice", ("alice", "bob"), "de", {"edition": strong_edition()})
    nations_plan_de(m, browser)
    assert m.play_until(lambda st, aw: "famine" in aw.values(), seed=5, orders=PASS.get), \
        "strength dice only and no food: the famine asks"
    nations_famine(m, browser, m.seat_at("famine"))


def test_nations_books_stage_by_the_page_holds_the_die_chosen(mailservers, tmp_path, browser):
    m = Match(mailservers, tmp_path, "nations_dice", ("alice", "bob"), "en", {"edition": books_edition()})
    assert m.play_until(lambda st, aw: "books" in aw.values(), orders=PASS.get), "everybody passes: the books phase asks"
    seat = m.seat_at("books")
    held = nations_books(m, browser, seat)
    number = m.turn()["number"]
    m.ref.tick()
    log = m.ref.store.turn("op", number)["result"]["log"]
    (entry,) = [e["data"] for e in log if e["kind"] == "books" and e["data"]["player"] == seat]
    assert entry["held"] == [held] and held not in entry["dice"], entry


def test_open_mail_without_a_key_refuses_aloud(mailservers, tmp_path, browser):
    no_key_refused_de(Match(mailservers, tmp_path, "founding_fathers", FF_SEATS, "de"), browser)

"""Issue 36: the order page of a real mail, clicked in headless chromium, writes orders the
referee accepts as chosen — the Ratsspiel (the card choice of round one; a session with its
phases: an event card with its details, actions with an influence, votes, the selection;
the game master's stage) and 1848 (a trick plan built and reordered, with an ``if:``
condition; the draw choice), each from a match played through the real referee (Dovecot,
SMTP, IMAP)."""
from __future__ import annotations

import pytest
import yaml
from orderpage import labels, latest_page, mail_of, open_page, page_of, play_until, send
from test_order_page_ff_nations import Match, accepted, browser, shot, stored  # noqa: F401  (browser: the fixture)

from referee.authority import keys
from referee.game_api.contract import FAULT, GM, Rng
from referee.store import seats as seat_rows

SEATS = ("alice", "bob")


def used(m: Match, player: str) -> tuple[dict, list[str]]:
    """The stored orders as the session will use them, and the codes of its faults (Standardaktionen)."""
    state = m.state()
    model = m.rules.order_schema(state, "session").model_validate(stored(m, player))
    faults = [p.code for p in m.rules.validate(state, player, model) if p.code.startswith(FAULT) or p.is_error]
    return m.rules.understood(state, player, model), faults


def test_ratsspiel_card_choice_of_round_one_by_the_page(mailservers, tmp_path, browser):
    m = Match(mailservers, tmp_path, "perricumer_ratsspiel", SEATS, "de")
    state, player = m.state(), "alice"
    open_page(browser, tmp_path, page_of(m.welcomes[player]))
    cards = labels(m.rules, state, player, "de", "ereigniskarten.*")
    chosen = ["marionette", "kaiserhof", "aufstaende"]
    for i, card in enumerate(chosen):
        browser.click('[data-k="orders.ereigniskarten+"]')
        browser.select(f'[data-k="orders.ereigniskarten.{i}"]', cards[card])
    pick = state["selection"][1]
    browser.select('[data-k="orders.auswahl"]', labels(m.rules, state, player, "de", "auswahl")[pick])
    shot(browser, "ratsspiel-round-one")
    m.mail_from_page(browser, player)
    accepted(m, player)
    got, faults = used(m, player)
    assert faults == [] and got == {"ereigniskarten": ["aufstaende", "marionette", "kaiserhof"], "auswahl": pick}


def _play_card(browser, m: Match, state, player: str) -> dict:
    """Play the held card that takes the most details, each chosen on the page; the card as the session reads it."""
    choices = m.rules.order_choices(state, player, "de")
    held = [e["value"] for e in choices["ereigniskarte.karte"]]
    card = next(c for c in ("marionette", "kaiserhof", "entfuehrung", "aufstaende", "fremdes_revier",
                            "klassenkampf", "fremde_schichten", "familienstern") if c in held)
    browser.click('[data-k="orders.ereigniskarte?"]')
    browser.select('[data-k="orders.ereigniskarte#"]', m.rules.messages["kind.ereigniskarte.Ereigniskarte"]["de"])
    browser.select('[data-k="orders.ereigniskarte.karte"]', labels(m.rules, state, player, "de", "ereigniskarte.karte")[card])
    out: dict = {"karte": card}

    for field in ("viertel", "schicht", "ziel", "vorschlag", "seite"):
        fits = [e for e in choices.get(f"ereigniskarte.{field}", []) if card in e["when"]["karte"]
                and all(out.get(k) in v for k, v in e["when"].items() if k != "karte")]
        if fits:
            browser.click(f'[data-k="orders.ereigniskarte.{field}?"]')
            browser.select(f'[data-k="orders.ereigniskarte.{field}"]', fits[-1]["label"])
            out[field] = fits[-1]["value"]
    if card == "marionette":
        nr = state["session"][-1]
        browser.click('[data-k="orders.ereigniskarte.abstimmung?"]')
        side = choices[f"ereigniskarte.abstimmung.{nr}"][-1]
        browser.select(f'[data-k="orders.ereigniskarte.abstimmung.{nr}"]', side["label"])
        out["abstimmung"] = {str(nr): side["value"]}
    return out


def test_ratsspiel_session_phases_by_the_page(mailservers, tmp_path, browser):
    m = Match(mailservers, tmp_path, "perricumer_ratsspiel", SEATS, "de")
    player = "bob"
    assert m.play_until(lambda st, aw: st["round"] >= 2 and bool(st["session"]) and any(
        e["value"] != "familienstern" for e in m.rules.order_choices(st, player, "de").get("ereigniskarte.karte", [])))
    state = m.state()
    _, page = latest_page(mailservers, player)
    assert page is not None, "the seat's report carries its order page"
    open_page(browser, tmp_path, page)
    # phase 1: an event card with its details
    card = _play_card(browser, m, state, player)
    # phase 2: campaigning 2 AP, one influence of 1 AP, administration the rest
    browser.select('[data-k="orders.aktionen.wahlkampf"]', labels(m.rules, state, player, "de", "aktionen.wahlkampf")[2])
    browser.click('[data-k="orders.aktionen.einflussnahme+"]')
    nr = state["session"][0]
    npc = next(iter(labels(m.rules, state, player, "de", "aktionen.einflussnahme.*.ziel")))
    sides = labels(m.rules, state, player, "de", f"abstimmung.{nr}")
    toward = list(sides)[-1]
    browser.select('[data-k="orders.aktionen.einflussnahme.0.ziel"]',
                   labels(m.rules, state, player, "de", "aktionen.einflussnahme.*.ziel")[npc])
    browser.select('[data-k="orders.aktionen.einflussnahme.0.vorschlag"]',
                   labels(m.rules, state, player, "de", "aktionen.einflussnahme.*.vorschlag")[nr])
    browser.select('[data-k="orders.aktionen.einflussnahme.0.richtung"]', sides[toward])
    # phase 3: every vote as the form pre-filled it, the first one turned round
    votes = {str(k): v for k, v in yaml_votes(browser).items()}
    assert set(votes) == {str(n) for n in state["session"]}, "the form's votes are on the page"
    turned = next(v for v in sides if v != votes[str(nr)])
    browser.select(f'[data-k="orders.abstimmung.{nr}"]', sides[turned])
    votes[str(nr)] = turned
    # phase 5: the last proposal of the selection
    pick = state["selection"][-1]
    browser.select('[data-k="orders.auswahl"]', labels(m.rules, state, player, "de", "auswahl")[pick])
    shot(browser, "ratsspiel-session")
    m.mail_from_page(browser, player)
    accepted(m, player)
    got, faults = used(m, player)
    assert faults == [], faults
    assert got["ereigniskarte"] == card
    assert got["aktionen"] == {"verwaltungsarbeit": 9, "wahlkampf": 2,
                               "einflussnahme": [{"ziel": npc, "vorschlag": nr, "richtung": toward, "punkte": 1}]}
    assert {str(k): v for k, v in got["abstimmung"].items()} == votes and got["auswahl"] == pick


def yaml_votes(browser) -> dict:
    """The votes as the page's order mail writes them."""
    doc = yaml.safe_load(browser.eval("document.getElementById('doc').value"))
    return doc["orders"].get("abstimmung") or {}


def test_ratsspiel_game_masters_stage_by_the_page(mailservers, tmp_path, browser):
    m = Match(mailservers, tmp_path, "perricumer_ratsspiel", SEATS, "de", {"gm_orders": True})
    m.keys[GM] = keys.new_key()      # the GM's key as the GM holds it (the match's is shown once, at creation)
    seat_rows.set_gm_key_hash(m.ref.store, "op", keys.hash_key(m.keys[GM]))

    def sender(seat: str) -> str:
        return mailservers.address("gm" if seat == GM else seat)
    assert play_until(m.ref, "op", m.address, m.keys, lambda st, aw: GM in aw and st["round"] >= 2, Rng(3), sender)
    m.service.tick()
    state = m.state()
    _, page = latest_page(mailservers, "gm")
    assert page is not None, "the game master's report carries the order page"
    open_page(browser, tmp_path, page)

    def choose(key: str, path: str, value) -> None:
        browser.select(f'[data-k="orders.{key}"]', labels(m.rules, state, GM, "de", path)[value])
    refill = state["deck"][-1]
    browser.click('[data-k="orders.nachziehen+"]')
    choose("nachziehen.0", "nachziehen.*", refill)
    # a new election: the kind chosen first shows the office and the candidates, not a city value
    browser.click('[data-k="orders.neue_vorschlaege+"]')
    browser.focus('[data-k="orders.neue_vorschlaege.0.title_de"]')
    browser.type("Wahl des Brunnenmeisters")
    choose("neue_vorschlaege.0.kind", "neue_vorschlaege.*.kind", "wahl")
    assert browser.eval('document.querySelector(\'[data-k="orders.neue_vorschlaege.0.value?"]\')') is None
    office = state["campaign"]["offices"][-1]["id"]
    browser.click('[data-k="orders.neue_vorschlaege.0.office?"]')
    choose("neue_vorschlaege.0.office", "neue_vorschlaege.*.office", office)
    candidates = ["travine", "linnart"]
    for i, who in enumerate(candidates):
        browser.click('[data-k="orders.neue_vorschlaege.0.candidates+"]')
        choose(f"neue_vorschlaege.0.candidates.{i}", "neue_vorschlaege.*.candidates.*", who)
    browser.click('[data-k="orders.agenda_veroeffentlichen+"]')
    choose("agenda_veroeffentlichen.0", "agenda_veroeffentlichen.*", "bob")
    shot(browser, "ratsspiel-game-master")
    browser.focus("#key")
    browser.type(m.keys[GM])
    to, subject, text = mail_of(browser)
    had = len(mailservers.wait_messages("gm", 0))
    send(mailservers, "gm", to, subject, text)
    m.service.poll_once()
    m.reply = mailservers.wait_messages("gm", had + 1)[-1].decode("utf-8", "replace")
    accepted(m, GM)
    model = m.rules.order_schema(state, "gm").model_validate(stored(m, GM))
    assert m.rules.validate(m.state(), GM, model) == []       # nothing set aside
    assert model.nachziehen == [refill] and model.agenda_veroeffentlichen == ["bob"]
    new = model.neue_vorschlaege[0]
    assert (new.title_de, new.kind, new.office, new.candidates) == ("Wahl des Brunnenmeisters", "wahl", office, candidates)


def test_1848_trick_plan_with_a_condition_built_and_reordered_by_the_page(mailservers, tmp_path, browser):
    m = Match(mailservers, tmp_path, "revolution_1848", SEATS, "en")
    state = m.state()
    player = next(iter(m.turn()["awaiting"]))
    open_page(browser, tmp_path, page_of(m.welcomes[player]))
    plays = labels(m.rules, state, player, "en", "steps.*.play")
    person = next(c for c in plays if c in state.ed.persons)
    other = next(c for c in state.d["hands"][player] if c != person)
    step_kind = m.rules.messages["kind.steps.*.Step"]["en"]
    # step 2: play a person, but only once someone answered with Liberals
    browser.click('[data-k="orders.steps+"]')
    browser.select('[data-k="orders.steps.1#"]', step_kind)
    browser.click('[data-k="orders.steps.1.play?"]')
    browser.select('[data-k="orders.steps.1.play"]', plays[person])
    browser.click('[data-k="orders.steps.1.if?"]')
    browser.click('[data-k="orders.steps.1.if.answered?"]')
    browser.select('[data-k="orders.steps.1.if.answered"]',
                   labels(m.rules, state, player, "en", "steps.*.if.answered")["L"])
    # step 3: push another card
    browser.click('[data-k="orders.steps+"]')
    browser.select('[data-k="orders.steps.2#"]', step_kind)
    browser.click('[data-k="orders.steps.2.push?"]')
    browser.select('[data-k="orders.steps.2.push"]', labels(m.rules, state, player, "en", "steps.*.push")[other])
    # reordered: the conditional play first, the push before the form's pass
    browser.click('[data-k="orders.steps.1^"]')
    browser.click('[data-k="orders.steps.2^"]')
    browser.click('[data-k="orders.draw?"]')
    browser.select('[data-k="orders.draw"]', labels(m.rules, state, player, "en", "draw")["zusatz"])
    shot(browser, "1848-trick-plan")
    m.mail_from_page(browser, player)
    accepted(m, player)
    model = m.rules.order_schema(state, "trick").model_validate(stored(m, player))
    assert model.plan() == [{"play": person, "if": {"answered": "L"}}, {"push": other}, "pass"]
    assert model.draw == "zusatz"
    assert not [p for p in m.rules.validate(m.state(), player, model) if p.is_error]


def test_1848_zusatzkarte_aimed_at_a_person_with_a_winning_condition_by_the_page(mailservers, tmp_path, browser):
    m = Match(mailservers, tmp_path, "revolution_1848", SEATS, "en")

    def aimed(st, seat) -> list:
        return m.rules.order_choices(st, seat, "en").get("steps.*.on", [])
    assert m.play_until(lambda st, aw: any(aimed(st, p) for p in aw), seed=7)
    state = m.state()
    seat = next(p for p in m.turn()["awaiting"] if aimed(state, p))
    target = aimed(state, seat)[0]
    card = target["when"]["play"][0]
    _, page = latest_page(mailservers, seat)
    open_page(browser, tmp_path, page)
    browser.click('[data-k="orders.steps+"]')
    last = len(yaml.safe_load(browser.eval("document.getElementById('doc').value"))["orders"]["steps"]) - 1
    at = f"orders.steps.{last}"
    browser.select(f'[data-k="{at}#"]', m.rules.messages["kind.steps.*.Step"]["en"])
    browser.click(f'[data-k="{at}.play?"]')
    assert browser.eval(f'document.querySelector(\'[data-k="{at}.on?"]\')') is None, "no target before its card"
    browser.select(f'[data-k="{at}.play"]', labels(m.rules, state, seat, "en", "steps.*.play")[card])
    browser.click(f'[data-k="{at}.on?"]')
    browser.select(f'[data-k="{at}.on"]', target["label"])
    browser.click(f'[data-k="{at}.if?"]')
    browser.click(f'[data-k="{at}.if.winning?"]')
    browser.select(f'[data-k="{at}.if.winning"]', labels(m.rules, state, seat, "en", "steps.*.if.winning")[False])
    for i in range(last, 0, -1):        # first in the plan
        browser.click(f'[data-k="orders.steps.{i}^"]')
    shot(browser, "1848-zusatz-on-target")
    m.mail_from_page(browser, seat)
    accepted(m, seat)
    plan = m.rules.order_schema(state, "trick").model_validate(stored(m, seat)).plan()
    assert plan[0] == {"play": card, "on": target["value"], "if": {"winning": False}}


def test_1848_draw_choice_by_the_page(mailservers, tmp_path, browser):
    m = Match(mailservers, tmp_path, "revolution_1848", SEATS, "en")
    assert m.play_until(lambda st, aw: "draw" in aw.values(), seed=5), "a free draw choice comes up"
    seat = next(p for p, stage in m.turn()["awaiting"].items() if stage == "draw")
    state = m.state()
    _, page = latest_page(mailservers, seat)
    open_page(browser, tmp_path, page)
    kinds = labels(m.rules, state, seat, "en", "draw")
    other = "zusatz" if "draw: person" in m.rules.order_form(state, seat, "en") else "person"
    browser.select('[data-k="orders.draw"]', kinds[other])
    shot(browser, "1848-draw")
    m.mail_from_page(browser, seat)
    accepted(m, seat)
    assert m.rules.order_schema(state, "draw").model_validate(stored(m, seat)).draw == other

"""Issue 33 for the Ratsspiel, through the mail intake: the form of every stage sent back
unchanged and with each commented example uncommented; values in any case; faults said
first, naming the bad value; a fault keeps the turn from closing early."""
from __future__ import annotations

import pytest
from formkit import Table, examples
from referee_kit import SPEC, clock, outbox, ref, toy_registered  # noqa: F401  (fixtures)

PLAYERS = [{"id": "alrik", "name": "Alrik", "email": "alrik@example.org"},
           {"id": "boronian", "name": "Boronian", "email": "boronian@example.org", "lang": "en"}]
SESSION_KEYS = ("ereigniskarten", "ereigniskarte", "einflussnahme")
GM_KEYS = ("nachziehen", "neue_vorschlaege", "agenda_veroeffentlichen")


def _table(ref, outbox, gm_orders=False, clock=None) -> Table:
    spec = dict(SPEC, id="rat", game="perricumer_ratsspiel", language="de", players=PLAYERS,
                options={"gm_orders": gm_orders}, observers=[])
    return Table.create(ref, outbox, spec, clock)


def _session_two(ref, outbox, gm_orders=False) -> Table:
    table = _table(ref, outbox, gm_orders)
    ref.force("rat")   # round one closes on the defaults: cards drawn by lot
    outbox.flush()
    return table


def _orders(table: Table, seat: str) -> dict:
    return table.ref.store.submissions("rat", table.turn()["number"])[seat]["orders"]


@pytest.mark.parametrize("stage", ["round_one", "session", "gm"])
def test_item8_each_stage_form_unchanged_is_accepted_and_keeps_the_standard(ref, outbox, stage):
    table = _table(ref, outbox, gm_orders=True) if stage == "round_one" else _session_two(ref, outbox, True)
    seat, lang = ("@gm", "de") if stage == "gm" else ("alrik", "de")
    form = table.form(seat, lang)
    outcome, reply = table.send(seat, form)
    assert outcome == "accepted", reply
    assert "fehlerhaft" not in reply, reply             # the standard is no fault
    used = table.rules().understood(table.state(), seat, table.rules().order_schema(table.state(), "session")
                                    .model_validate(_orders(table, seat))) if seat != "@gm" else None
    if stage == "round_one":     # the comment: without a choice the cards are drawn by lot
        assert "ereigniskarten" not in used and used["auswahl"] == table.state()["selection"][0]
    elif stage == "session":     # the comment: administration 12, no card, votes as pre-filled
        assert used["aktionen"] == {"verwaltungsarbeit": 12, "wahlkampf": 0}
        assert used["ereigniskarte"] == "keine"
        assert set(used["abstimmung"]) == set(table.state()["session"])
    else:
        assert _orders(table, "@gm")["nachziehen"] == []


@pytest.mark.parametrize("stage,keys", [("round_one", SESSION_KEYS), ("session", SESSION_KEYS), ("gm", GM_KEYS)])
def test_item8_each_commented_example_uncommented_is_accepted_without_fault(ref, outbox, stage, keys):
    table = _table(ref, outbox, gm_orders=True) if stage == "round_one" else _session_two(ref, outbox, True)
    seat = "@gm" if stage == "gm" else "boronian"
    for lang in ("de", "en"):
        shown = examples(table.form(seat, lang), keys)
        assert shown, f"{stage}: the form shows no commented example"
        for first, form in shown:
            outcome, reply = table.send(seat, form)
            assert outcome == "accepted", (first, reply)
            assert "faulty" not in reply and "fehlerhaft" not in reply, (first, reply)


def test_item1_the_form_shows_the_nested_card_shapes_for_every_card_held(ref, outbox):
    table = _session_two(ref, outbox)
    state = table.state()
    form = table.form("alrik", "de")
    shown = [first for first, _ in examples(form, SESSION_KEYS)]
    for card in state["cards"]["alrik"]:
        assert any(card in line for line in shown if line.startswith("ereigniskarte:")), (card, form)
    assert any(line.startswith("einflussnahme:") for line in shown)
    assert "ereigniskarte: keine" not in form     # no live line an example would collide with


def test_item1_kaiserhof_nested_shape_is_accepted_and_top_level_vorschlag_says_where_it_belongs(ref, outbox):
    table = _session_two(ref, outbox)
    state = table.state()
    nr = state["session"][0]
    outcome, reply = table.send("alrik", f"vorschlag: {nr}\nseite: pro\nauswahl: {state['selection'][0]}\n")
    assert outcome != "accepted"
    assert "„vorschlag“ gehört nicht an den Anfang der Befehle" in reply, reply
    assert "ereigniskarte: {karte: kaiserhof, vorschlag: <nr>, seite: pro}" in reply
    assert "„seite“" in reply, "every misplaced key is named at once"


def test_item2_values_in_any_case_are_read_and_echoed_canonically(ref, outbox):
    table = _session_two(ref, outbox)
    state = table.state()
    nr = state["session"][0]
    card = next(c for c in state["cards"]["alrik"])
    param = {"familienstern": "", "fremdes_revier": ", viertel: Efferdgrund", "aufstaende": ", viertel: EFFERDGRUND",
             "fremde_schichten": ", schicht: Klerus", "klassenkampf": ", schicht: Bürgerschaft",
             "entfuehrung": ", ziel: Wallgrîn", "marionette": ", ziel: Efferdan",
             "kaiserhof": f", vorschlag: {nr}, seite: Pro"}[card]
    spelled = {"aufstaende": "Aufstände", "entfuehrung": "Entführung", "fremdes_revier": "Fremdes Revier"}.get(card, card.title())
    orders = (f"ereigniskarte: {{karte: {spelled}{param}}}\n"
              f"aktionen: {{verwaltungsarbeit: REST, einflussnahme: [{{ziel: Wallgrin, vorschlag: {nr}, richtung: CONTRA, punkte: 2}}]}}\n"
              f"abstimmung: {{{nr}: Pro}}\nauswahl: {state['selection'][0]}\n")
    outcome, reply = table.send("alrik", orders)
    assert outcome == "accepted" and "fehlerhaft" not in reply, reply
    echo = reply.split("So verstanden:")[1]
    assert f"karte: {card}" in echo and "richtung: contra" in echo and "ziel: wallgrin" in echo, echo
    assert f"{nr}: pro" in echo and "verwaltungsarbeit: 10" in echo, echo
    for written in ("Efferdgrund", "EFFERDGRUND", "Klerus", "Bürgerschaft", "Wallgrîn", "Efferdan", "Pro"):
        assert f": {written}" not in echo


def test_item3_a_faulty_target_is_said_first_with_the_bad_value_and_what_happens_instead(ref, outbox):
    table = _session_two(ref, outbox)
    nr = table.state()["session"][0]
    outcome, reply = table.send("alrik", f"aktionen: {{einflussnahme: [{{ziel: wallgrim, vorschlag: {nr}, "
                                         f"richtung: pro, punkte: 2}}]}}\n")
    assert outcome == "accepted"
    head = reply.split("So verstanden:")[0]
    assert "Ein Teil deiner Befehle ist fehlerhaft" in head
    assert "„wallgrim“" in head and "Meintest du „wallgrin“?" in head, head
    assert "Standardaktion Verwaltungsarbeit (12)" in head
    orders = f"abstimmung: {{{nr}: vielleicht}}"
    outcome, reply = table.send("boronian", orders + "\nauswahl: 99\n")
    head = reply.split("As understood:")[0]
    assert "Part of your orders is faulty" in head and "proposal 99 is not in the selection" in head, head
    assert "Instead a proposal is picked at random" in head
    assert f"Your vote on proposal {nr} does not count: 'vielleicht' is none of the choices" in head


def test_item3_a_bad_card_pick_is_named(ref, outbox):
    table = _table(ref, outbox)
    outcome, reply = table.send("boronian", "ereigniskarten: [aufstände, kaiserhof, marionete]\n")
    assert outcome == "accepted"
    head = reply.split("As understood:")[0]
    assert "'marionete' is no event card. Did you mean 'marionette'?" in head, head
    assert "all three of your cards are drawn by lot" in head
    outcome, reply = table.send("boronian", "ereigniskarten: [Aufstände, kaiserhof, marionette]\n")
    assert "faulty" not in reply and "aufstaende" in reply.split("As understood:")[1]


def test_item3_a_fault_keeps_the_turn_from_closing_early_until_it_is_corrected(ref, outbox, clock):
    table = _session_two(ref, outbox)
    state = table.state()
    nr, pick = state["session"][0], state["selection"][0]
    assert table.send("boronian", f"auswahl: {pick}\n")[0] == "accepted"
    outcome, reply = table.send("alrik", f"aktionen: {{einflussnahme: [{{ziel: wallgrim, vorschlag: {nr}, "
                                         f"richtung: pro, punkte: 2}}]}}\nauswahl: {pick}\n")
    assert outcome == "accepted" and "schließt trotzdem nicht früher" in reply, reply
    ref.tick()
    assert table.turn()["number"] == 2, "closed early on orders with a fault"
    outcome, reply = table.send("alrik", f"aktionen: {{einflussnahme: [{{ziel: wallgrin, vorschlag: {nr}, "
                                         f"richtung: pro, punkte: 2}}]}}\nauswahl: {pick}\n")
    assert outcome == "accepted" and "fehlerhaft" not in reply
    ref.tick()
    assert table.turn()["number"] == 3, "corrected orders let the turn close early"


def test_item3_a_wait_the_player_asked_for_is_not_undone_by_faultless_orders(ref, outbox):
    table = _session_two(ref, outbox)
    pick = table.state()["selection"][0]
    ref.store.set_wait("rat", 2, "alrik", True)     # as `command: wait` sets it
    assert table.send("alrik", f"auswahl: {pick}\n")[0] == "accepted"
    assert table.send("boronian", f"auswahl: {pick}\n")[0] == "accepted"
    ref.tick()
    assert table.turn()["number"] == 2

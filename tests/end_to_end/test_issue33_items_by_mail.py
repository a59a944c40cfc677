"""Issue 33, the items whose tests read the game or the intake directly, once more where a
player meets them: mailed to the referee (``Referee.handle`` with a parsed mail, as the service
hands it) and read in the reply or the report mail.  Each test is named after its item."""
from __future__ import annotations

import re

import pytest
from formkit import Table
from referee_kit import SPEC, clock, inbound, outbox, ref, text_of, to, toy_registered  # noqa: F401  (fixtures)

from referee.game_api.contract import phrase

SEATS = ["ada", "bert", "cleo", "dora"]


def table(ref, outbox, game: str, lang: str, seats=SEATS, options=None, clock=None) -> Table:
    players = [{"id": s, "name": s.title(), "email": f"{s}@example.org"} for s in seats]
    return Table.create(ref, outbox, dict(SPEC, id="m33", game=game, language=lang, players=players,
                                          options=options or {}, observers=[]), clock)


def reports(outbox, seat: str) -> list[str]:
    return [text_of(m) for m in to(outbox.flush(), f"{seat}@example.org")]


# -- forms: values in any letter case ------------------------------------------------------------

@pytest.mark.parametrize("lang", ["de", "en"])
def test_item_draw_zusatz_capitalised_as_the_report_prints_it_is_accepted_by_mail(ref, outbox, lang):
    t = table(ref, outbox, "revolution_1848", lang, SEATS[:2])
    for _ in range(12):     # ada plays a person and bert passes until a trick won leaves a choice to draw
        if "draw" in t.turn()["awaiting"].values():
            break
        awaiting = t.turn()["awaiting"]
        for seat in awaiting:
            person = next((c for c in t.state().d["hands"][seat] if c.startswith("PE")), None)
            plan = f"steps:\n  - {{play: {person}}}\n  - pass\n" if seat == "ada" and person else "steps: [pass]\n"
            assert t.send(seat, plan)[0] == "accepted"
        if t.turn()["awaiting"] == awaiting:
            ref.force("m33")
        outbox.flush()
    seat = next(p for p, stage in t.turn()["awaiting"].items() if stage == "draw")
    outcome, reply = t.send(seat, "draw: Zusatz\n")
    assert outcome == "accepted", reply
    assert "draw: zusatz" in reply and "Zusatz\n" not in reply.split("draw:")[1][:8]


# -- every problem at once, in words ---------------------------------------------------------------

@pytest.mark.parametrize("lang,hint", [("en", "Did you mean 'column'?"), ("de", "Meintest du 'column'?")])
def test_item_nations_buy_colum_gets_did_you_mean_not_program_text_by_mail(ref, outbox, lang, hint):
    t = table(ref, outbox, "nations_dice", lang, SEATS[:3], {"variant": "accelerated"})
    seat = next(iter(t.turn()["awaiting"]))
    outcome, reply = t.send(seat, "steps:\n  - buy: {colum: 2, row: 2}\n  - pass\n")
    assert outcome != "accepted"
    assert hint in reply, reply
    assert "{'" not in reply and "'buy'" not in reply, reply


@pytest.mark.parametrize("lang,hint", [("en", "Did you mean 'pass'?"), ("de", "Meintest du 'pass'?")])
def test_item_1848_spielen_is_read_and_a_slip_is_answered_in_words_by_mail(ref, outbox, lang, hint):
    t = table(ref, outbox, "revolution_1848", lang)
    seat = "ada"
    person = next(c for c in t.state().d["hands"][seat] if c.startswith("PE"))
    outcome, reply = t.send(seat, f"steps:\n  - {{spielen: {person}}}\n  - passen\n")
    assert outcome == "accepted", reply
    assert f"play: {person}" in reply, reply
    outcome, reply = t.send(seat, f"steps:\n  - {{spielen: {person}}}\n  - pas\n")
    assert outcome != "accepted" and hint in reply and "{'" not in reply, reply


@pytest.mark.parametrize("lang", ["de", "en"])
def test_item_1848_failure_reasons_come_in_the_readers_language_only_by_mail(ref, outbox, lang):
    t = table(ref, outbox, "revolution_1848", lang)
    rules, st = t.rules(), t.state()
    from referee_games.revolution_1848.form import examples
    seat, step = next((p, s) for p in SEATS for s, what in examples(st.d, st.ed, p)
                      if isinstance(s, dict) and str(what).startswith("PE"))   # on a person not laid yet
    model = rules.order_schema(st, "trick").model_validate({"steps": [step, "pass"]})
    [fail] = [p for p in rules.validate(st, seat, model) if p.code == "plan.would_fail"]
    other = "en" if lang == "de" else "de"
    flow = ", ".join(f"{k}: {v}" for k, v in step.items())
    outcome, reply = t.send(seat, f"steps:\n  - {{{flow}}}\n  - pass\n")
    assert outcome == "accepted", reply
    said, unsaid = phrase(rules, fail, lang), phrase(rules, fail, other)
    assert said.split(":")[-1].strip()[:30] in reply, (said, reply)
    assert unsaid.split(":")[-1].strip()[:30] not in reply, (unsaid, reply)


def test_item_gm_player_at_gm_unquoted_is_told_to_quote_it_with_the_fixed_line_by_mail(ref, outbox):
    t = table(ref, outbox, "founding_fathers", "en", ["madison", "hamilton", "paterson"])
    body = f"match: m33\nplayer: @gm\nkey: {t.keys['@gm']}\ncommand: pause\n"
    assert ref.handle(inbound("gm@example.org", body)).outcome == "refused"
    [reply] = to(outbox.flush(), "gm@example.org")
    text = text_of(reply)
    assert "must be written in quotes" in text and 'Write line 2 like this: player: "@gm"' in text, text
    assert "YAML syntax error" not in text


# -- no silent defaults ----------------------------------------------------------------------------

@pytest.mark.parametrize("lang,never", [("de", "nie ausgeführt"), ("en", "never be carried out")])
def test_item_1848_a_step_that_can_never_run_is_refused_at_submission_by_mail(ref, outbox, lang, never):
    t = table(ref, outbox, "revolution_1848", lang)
    st = t.state()
    aimed = [(p, c) for p in SEATS for c in st.d["hands"][p]
             if c in st.ed.zusatz and not st.ed.zusatz[c].is_army
             and st.ed.zusatz[c].effect["do"] not in ("none", "party_value") and not st.ed.zusatz[c].effect.get("optional")]
    assert aimed, "no seat holds a Zusatzkarte that needs a target: change the seed"
    seat, card = aimed[0]
    outcome, reply = t.send(seat, f"steps:\n  - {{play: {card}}}\n  - pass\n")   # aimed at nothing: never runs
    assert outcome != "accepted" and never in reply, reply


@pytest.mark.parametrize("lang,kept", [("de", "bleibt im Plan"), ("en", "stays in the plan")])
def test_item_1848_a_conditional_step_that_did_not_fire_stays_in_the_plan_by_mail(ref, outbox, lang, kept):
    t = table(ref, outbox, "revolution_1848", lang, SEATS[:2])
    st = t.state()
    person = next(c for c in st.d["hands"]["ada"] if c.startswith("PE"))
    push = next(c for c in st.d["hands"]["ada"] if c != person)
    other = next(c for c in st.d["hands"]["bert"] if c.startswith("PE"))
    # ada answers an army whenever one comes; meanwhile she pushes once, then passes
    outcome, reply = t.send("ada", f"steps:\n  - {{play: {person}, if: {{answered: army}}}}\n  - push: {push}\n  - pass\n")
    assert outcome == "accepted", reply
    assert t.send("bert", f"steps:\n  - {{play: {other}}}\n  - pass\n")[0] == "accepted"
    ref.force("m33")
    report = "\n".join(reports(outbox, "ada"))
    assert kept in report, report


# -- what newcomers see ----------------------------------------------------------------------------

@pytest.mark.parametrize("lang,word", [("de", "erwartet"), ("en", "awaiting")])
def test_item_1848_the_awaited_are_listed_with_commas_in_the_report_mail(ref, outbox, lang, word):
    table(ref, outbox, "revolution_1848", lang, SEATS[:3])
    ref.force("m33")
    report = reports(outbox, "ada")[-1]
    line = next(ln for ln in report.splitlines() if f"{word}: " in ln)
    names = [n for n in ("Ada", "Bert", "Cleo") if n in line]
    assert len(names) >= 2 and re.search(r"\), [A-Z]", line), line


@pytest.mark.parametrize("lang,subject", [("de", "Partie angehalten"), ("en", "Match paused")])
def test_item_subjects_say_what_happened_in_both_languages_by_mail(ref, outbox, lang, subject):
    t = table(ref, outbox, "founding_fathers", lang, ["madison", "hamilton", "paterson"])
    body = f"match: m33\nplayer: \"@gm\"\nkey: {t.keys['@gm']}\ncommand: pause\n"
    assert ref.handle(inbound("gm@example.org", body)).outcome == "processed"
    notices = to(outbox.flush(), "madison@example.org")
    assert [m["Subject"] for m in notices] == [f"[m33] {subject}"]


def test_item_readme_seats_play_what_their_names_say(ref, outbox):
    """The README's example, created as copied: no seat is named after a role the game deals to
    another seat (its 'madison' was dealt Paterson's cards), and each welcome names the seat's role."""
    from pathlib import Path

    import yaml

    from referee_games.founding_fathers.edition import PLANNER_ORDER
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    spec = yaml.safe_load(re.findall(r"```yaml\n(.*?)```", readme, re.S)[0])
    ref.create_match(spec)
    welcomes = {m["To"]: text_of(m) for m in outbox.flush() if "key" in text_of(m).lower()}
    for i, seat in enumerate(spec["players"]):
        role = PLANNER_ORDER[i]
        assert seat["id"] not in set(PLANNER_ORDER) - {role}, seat
        assert role.title() in welcomes[seat["email"]], (role, welcomes[seat["email"]][:600])


def html_of(message) -> str:
    part = next(p for p in message.walk() if p.get_content_type() == "text/html")
    return part.get_content()


@pytest.mark.parametrize("game,lang,seats", [("founding_fathers", "en", ["madison", "hamilton", "paterson"]),
                                             ("perricumer_ratsspiel", "de", ["alrik", "boronian"]),
                                             ("nations_dice", "de", SEATS[:3]), ("revolution_1848", "en", SEATS[:3])])
def test_item_html_reports_keep_the_style_in_the_referees_own_parts_by_mail(ref, outbox, game, lang, seats):
    t = table(ref, outbox, game, lang, seats)
    ref.force("m33")
    seat = next(iter(t.turn()["awaiting"]))       # a reader who owes orders: the report holds a form
    mailed = [m for m in to(outbox.flush(), f"{seat}@example.org") if m.is_multipart()]
    html = html_of(mailed[-1])
    assert re.search(r'<table style="[^"]*border-collapse', html), html[-3000:]     # the standings
    assert re.search(r'<pre style="[^"]*font-family', html), html[-3000:]           # the order form
    assert re.search(r'<h2 style="[^"]*font-size', html)


@pytest.mark.parametrize("lang,label", [("en", "Your markers (available/held):"), ("de", "Deine Marker (verfügbar/gesamt):")])
def test_item_nations_markers_are_labelled_available_of_held_in_the_mailed_form(ref, outbox, lang, label):
    players = [{"id": s, "name": s.title(), "email": f"{s}@example.org"} for s in SEATS[:3]]
    ref.create_match(dict(SPEC, id="m33", game="nations_dice", language=lang, players=players, options={}, observers=[]))
    welcomes = [text_of(m) for m in outbox.flush() if m["To"] in {p["email"] for p in players}]
    assert any(label in w for w in welcomes), welcomes[0][-2500:]
    assert not any(re.search(r"(?i)strength 0/0(?! )", w) and label not in w for w in welcomes)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_item_1848_the_form_offers_to_for_an_army_by_mail(ref, outbox, lang):
    for attempt in range(6):         # deals until some seat holds an army
        players = [{"id": s, "name": s.title(), "email": f"{s}@example.org"} for s in SEATS]
        ref.create_match(dict(SPEC, id=f"a{attempt}", game="revolution_1848", language=lang, players=players,
                              options={}, observers=[]), seed=f"army-{attempt}")
        mails = {m["To"]: text_of(m) for m in outbox.flush() if re.search("Your key|Dein Schlüssel", text_of(m))}
        st = ref.rules(ref.store.match(f"a{attempt}")).load(ref.store.current_turn(f"a{attempt}")["state"])
        armed = [(p, c) for p in SEATS for c in st.d["hands"][p] if c in st.ed.zusatz and st.ed.zusatz[c].is_army]
        if armed:
            break
    seat, card = armed[0]
    form = mails[f"{seat}@example.org"]
    assert re.search(rf"# - \{{play: {card}, to: [a-z]+\}}", form), form[-2500:]


def test_item_ratsspiel_final_report_lists_no_next_session_by_mail(ref, outbox):
    t = table(ref, outbox, "perricumer_ratsspiel", "de", ["alrik", "boronian"])
    for _ in range(30):
        if ref.store.match("m33")["status"] == "ended" or not t.turn()["awaiting"]:
            break
        ref.force("m33")
        last = reports(outbox, "alrik")
    final = last[-1]
    assert "Schlussbericht" in final or "Spielende" in final or "Sieg" in final, final[:1500]
    assert "Nächste Sitzung" not in final and "Auswahl:" not in final, final


@pytest.mark.parametrize("lang,said", [("de", "Damit sind 0 von"), ("en", "That pays 0 of the")])
def test_item_nations_a_short_payment_is_a_proper_sentence_by_mail(ref, outbox, lang, said):
    t = table(ref, outbox, "nations_dice", lang, SEATS[:3], {"variant": "accelerated"})
    seat = next(iter(t.turn()["awaiting"]))
    outcome, reply = t.send(seat, "steps:\n  - buy: {column: 1, row: 2, pay: []}\n  - pass\n")
    assert said in reply, reply
    assert "0 gold, die Kosten" not in reply and "zahlt 0" not in reply


@pytest.mark.parametrize("lang,pushes", [("de", "Ada schiebt eine"), ("en", "Ada pushes a")])
def test_item_1848_pushing_is_not_limited_to_once_a_trick_by_mail(ref, outbox, lang, pushes):
    """The rules set no limit on pushing (each push spends a hand card, so a trick still ends)."""
    t = table(ref, outbox, "revolution_1848", lang, SEATS[:2])
    hands = t.state().d["hands"]
    plan = "".join(f"  - push: {c}\n" for c in hands["ada"][:3])
    outcome, reply = t.send("ada", f"steps:\n{plan}  - pass\n")
    assert outcome == "accepted", reply
    persons = [c for c in hands["bert"] if c.startswith("PE")][:2]
    assert t.send("bert", "steps:\n" + "".join(f"  - play: {c}\n" for c in persons) + "  - pass\n")[0] == "accepted"
    ref.force("m33")
    report = reports(outbox, "ada")[-1]
    assert report.count(pushes) == 3, report


@pytest.mark.parametrize("lang,left", [("de", r"Dein Plan hat noch (1 Schritt|[2-9] Schritte)\."),
                                       ("en", r"Your plan has (1 step|[2-9] steps) left\.")])
def test_item_1848_plurals_written_out_in_the_report_mail(ref, outbox, lang, left):
    t = table(ref, outbox, "revolution_1848", lang, SEATS[:2])
    hands = t.state().d["hands"]
    person = next(c for c in hands["ada"] if c.startswith("PE"))
    pushes = [c for c in hands["ada"] if c != person][:2]
    # ada waits for an army and pushes meanwhile; bert plays one person and is then asked
    t.send("ada", f"steps:\n  - {{play: {person}, if: {{answered: army}}}}\n" + "".join(f"  - push: {c}\n" for c in pushes))
    t.send("bert", f"steps:\n  - play: {next(c for c in hands['bert'] if c.startswith('PE'))}\n")
    ref.force("m33")
    report = reports(outbox, "ada")[-1]
    assert re.search(left, report), report
    assert re.search(r"Hand 1 Person,|hand 1 person,", report), report   # ada pushed her other person
    assert not re.search(r"\w\((s|e|n)\)", report), report


@pytest.mark.parametrize("lang,kept,line", [("de", "bleibt im Plan", "wartet noch auf die Bedingung"),
                                            ("en", "stays in the plan", "still waiting for its condition")])
def test_item_1848_a_conditional_step_stays_past_ask_and_the_trick_until_a_new_plan_by_mail(ref, outbox, lang, kept,
                                                                                           line):
    t = table(ref, outbox, "revolution_1848", lang, SEATS[:2])
    d = t.state().d
    first = d["players"][d["trick"]["actor"]]
    second = next(p for p in SEATS[:2] if p != first)
    person = next(c for c in d["hands"][first] if c.startswith("PE"))
    waiting = f"{{play: {person}, if: {{winning: true}}}}"      # the opener never wins an empty table
    assert t.send(first, f"steps:\n  - {waiting}\n  - ask\n")[0] == "accepted"
    assert t.send(second, "steps: [pass]\n")[0] == "accepted"
    ref.force("m33")
    mail = "\n".join(reports(outbox, first))
    assert kept in mail and f"  - {waiting}" in mail and line in mail, mail
    # the form sent back as it came keeps the step, past the end of this trick into the next
    outcome, reply = t.send(first, t.form(first, lang))
    assert outcome == "accepted", reply
    ref.force("m33")
    outbox.flush()
    d = t.state().d
    assert d["tricks"] == 2 and d["kept"][first] == [{"play": person, "if": {"winning": True}}]
    assert f"  - {waiting}" in t.form(first, lang)
    # a new plan replaces it
    assert t.send(first, "steps: [pass]\n")[0] == "accepted"
    ref.force("m33")
    assert first not in t.state().d.get("kept", {})


@pytest.mark.parametrize("lang,own,gms", [("de", "ist nicht auf deiner Hand", "ist nicht auf {name}s Hand"),
                                          ("en", "is not in your hand", "is not in {name}'s hand")])
def test_item_1848_the_gms_report_names_the_player_in_a_skip_reason_by_mail(ref, outbox, lang, own, gms):
    t = table(ref, outbox, "revolution_1848", lang, SEATS[:2])
    d = t.state().d
    first = d["players"][d["trick"]["actor"]]
    second = next(p for p in SEATS[:2] if p != first)
    person = next(c for c in d["hands"][first] if c.startswith("PE"))
    assert t.send(first, f"steps:\n  - {{play: {person}}}\n  - {{play: {person}}}\n  - pass\n")[0] == "accepted"
    assert t.send(second, "steps: [pass]\n")[0] == "accepted"
    ref.force("m33")
    mails = outbox.flush()
    player = "\n".join(text_of(m) for m in to(mails, f"{first}@example.org"))
    gm = "\n".join(text_of(m) for m in to(mails, "gm@example.org"))
    assert f"{person} {own}" in player, player
    named = f"{person} {gms.format(name=first.title())}"
    assert named in gm and own not in gm, gm

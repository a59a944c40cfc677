"""``order_form``: the ``orders:`` mapping to fill in, with the legal steps and
their costs as YAML comments, built from the player's actual roll (en/de)."""
from __future__ import annotations

from .actions import check_step, default_slot, dev_dice
from .edition import cost_currency
from .famine import auto_trade, food_have
from .pay import auto_items, payment
from .state import face, markers_free, shows

SYM = {"en": {"gold": "gold", "stone": "stone", "book": "book", "food": "food", "strength": "strength",
              "reroll": "reroll"},
       "de": {"gold": "Gold", "stone": "Stein", "book": "Buch", "food": "Nahrung", "strength": "Stärke",
              "reroll": "Wurfwiederholung"}}
TYPE = {"en": {"building": "building", "military": "military", "advisor": "advisor", "colony": "colony",
               "wonder": "wonder"},
        "de": {"building": "Bauwerk", "military": "Militär", "advisor": "Berater", "colony": "Kolonie",
               "wonder": "Wunder"}}
COL = {"en": {"white": "white", "blue": "blue", "orange": "orange", "red": "red"},
       "de": {"white": "weiß", "blue": "blau", "orange": "orange", "red": "rot"}}
T = {
    "en": {"head": "Age {age}, event {event}: famine needs {food} food, war needs {strength} strength ({age} VP each).",
           "dice": "Your available dice:", "spent": "spent:", "markers": "Your markers (available/held):",
           "none": "none", "steps": "Steps you can take now. Remove the # in front of each step you want, in the order to try "
                                    "them, above the line '- ask': the first that can run is carried out, the rest "
                                    "wait for your next action. Sent back as it came, nothing is done and you are "
                                    "asked again.",
           "cannot": "Not possible now:", "pays": "auto pays", "short": "short: you have {have}",
           "reroll": "reroll: all   # or a list of dice, e.g. [w1, w3]; spends 1 reroll marker ({n} available)",
           "build": "build   # {wonder}: {cost} stone", "pass": "pass   # ends your actions in this age",
           "trade": "trade: auto or [[w1, w2]] adds trades (2 available dice for 1 gold or stone; never markers, never strength)",
           "pay": "pay: auto (least surplus) or a list of dice and markers, e.g. [o1, gold]",
           "replace": "developments replace a development: replace: 1-{n} (default {slot}), give_back: [dice] of its colour (default: spent first)",
           "dev": "the same, replacing development {slot} and giving back {die}",
           "ask": "ask   # stop here and ask me for new orders (as it came: at once)",
           "food_trade": "pass: {{food_trade: auto | none | [[w1, w2]]}} decides your food trade now, hidden until all have passed (auto: {auto})",
           "books": "Books phase: you have {food} food for the famine's {need}. Book dice you may hold back to trade into food:",
           "hold": "As it came (hold: []) every book is spent for culture. To keep book dice for the famine, list them, e.g. [{die}]; the others and all book markers are spent.",
           "famine": "Famine: you have {food} food, the event demands {need} ({vp} VP). Trade pairs of available dice into food?",
           "famine_dice": "Available dice:",
           "famine_opts": "As it came (trade: none) you trade nothing: you keep your strength dice for the turn order and war, and this famine brings no VP. "
                          "trade: auto trades {auto} and meets the demand; or name the pairs yourself: [[w1, w2], ...]"},
    "de": {"head": "Zeitalter {age}, Ereignis {event}: Hungersnot verlangt {food} Nahrung, Krieg {strength} Stärke (je {age} SP).",
           "dice": "Deine verfügbaren Würfel:", "spent": "verbraucht:", "markers": "Deine Marker (verfügbar/gesamt):",
           "none": "keine", "steps": "Jetzt mögliche Schritte. Entferne das # vor jedem Schritt, den du willst, in der "
                                     "Reihenfolge, in der sie versucht werden sollen: der erste ausführbare wird "
                                     "ausgeführt, die übrigen warten auf deine nächste Aktion; alle über der Zeile "
                                     "„- ask“. Unverändert zurückgeschickt geschieht nichts, und du wirst erneut gefragt.",
           "cannot": "Jetzt nicht möglich:", "pays": "auto zahlt", "short": "zu wenig: du hast {have}",
           "reroll": "reroll: all   # oder eine Liste von Würfeln, z.B. [w1, w3]; verbraucht 1 Wurfwiederholung ({n} verfügbar)",
           "build": "build   # {wonder}: {cost} Stein", "pass": "pass   # passen: keine weiteren Aktionen in diesem Zeitalter",
           "trade": "trade: auto oder [[w1, w2]] fügt Tausch hinzu (2 verfügbare Würfel für 1 Gold oder Stein; nie Marker, nie Stärke)",
           "pay": "pay: auto (wenigster Überschuss) oder eine Liste von Würfeln und Markern, z.B. [o1, gold]",
           "replace": "Entwicklungen ersetzen eine Entwicklung: replace: 1-{n} (sonst {slot}), give_back: [Würfel] ihrer Farbe (sonst zuerst verbrauchte)",
           "dev": "dasselbe, ersetzt Entwicklung {slot} und gibt {die} zurück",
           "ask": "ask   # hier anhalten und mich um neue Befehle bitten (unverändert: sofort)",
           "food_trade": "pass: {{food_trade: auto | none | [[w1, w2]]}} legt deinen Nahrungstausch jetzt fest, verdeckt bis alle gepasst haben (auto: {auto})",
           "books": "Bücherphase: du hast {food} Nahrung für {need} in der Hungersnot. Bücherwürfel, die du zum Tausch in Nahrung zurückhalten kannst:",
           "hold": "Unverändert (hold: []) werden alle Bücher für Kultur verbraucht. Um Bücherwürfel für die Hungersnot zu behalten, nenne sie, z.B. [{die}]; die anderen und alle Buch-Marker werden verbraucht.",
           "famine": "Hungersnot: du hast {food} Nahrung, das Ereignis verlangt {need} ({vp} SP). Würfelpaare in Nahrung tauschen?",
           "famine_dice": "Verfügbare Würfel:",
           "famine_opts": "Unverändert (trade: none) tauschst du nichts: du behältst deine Stärkewürfel für Zugreihenfolge und Krieg, und diese Hungersnot bringt keine SP. "
                          "trade: auto tauscht {auto} und erfüllt die Forderung; oder nenne die Paare selbst: [[w1, w2], ...]"},
}


def show_face(f: dict, lang: str) -> str:
    return " + ".join(f"{n} {SYM[lang][s]}" for s, n in f.items()) or "-"


def dice_line(ed, q: dict, lang: str, spent: bool) -> str:
    return ", ".join(f"{x[0]} ({COL[lang][x[1]]}) {show_face(face(ed, x), lang)}"
                     for x in q["dice"] if x[3] == spent) or T[lang]["none"]


def tile_text(ed, tid: str, lang: str) -> str:
    t = ed.tiles[tid]
    gives = [f"+{n} {COL[lang][c]}" for c, n in t["dice"].items()]
    gives += [f"+{n} {SYM[lang][k]}" for k, n in t["markers"].items()]
    if t["rerolls"]:
        gives.append(f"+{t['rerolls']} {SYM[lang]['reroll']}")
    if t["stone"]:
        gives.insert(0, f"{t['stone']} {SYM[lang]['stone']}")
    vp = "VP" if lang == "en" else "SP"
    return f"{t['name'][lang]} ({TYPE[lang][t['type']]}: {', '.join(gives)}; {t['vp']} {vp})"


def _trade_text(pairs) -> str:
    return "[" + ", ".join(f"[{a}, {b}]" for a, b in pairs) + "]" if pairs else "none"


def _plan_form(d: dict, ed, p: str, lang: str) -> list[str]:
    t = T[lang]
    q = d["p"][p]
    ev = ed.events[d["event"]]
    lines = [f"# {t['head'].format(age=d['age'], event=ev['name'][lang], food=ev['food'], strength=ev['strength'])}",
             f"# {t['dice']} {dice_line(ed, q, lang, False)}",
             f"#   {t['spent']} {dice_line(ed, q, lang, True)}",
             f"# {t['markers']} " + (", ".join(f"{SYM[lang][k]} {markers_free(q, k)}/{v[0]}"
                                              for k, v in q["markers"].items() if v[0]) or t["none"]),
             f"# {t['pay']}", f"# {t['trade']}",
             f"# {t['replace'].format(n=len(q['devs']), slot=default_slot(ed, q))}",
             f"# {t['steps']}", "steps:"]
    bad = []
    dev_shown = False
    for c, column in enumerate(d["board"]):
        for r, tid in enumerate(column):
            if tid is None:
                continue
            cur = cost_currency(ed.tiles[tid])
            step = {"do": "buy", "tile": None, "column": c + 1, "row": r + 1, "pay": "auto", "trade": "none"}
            what = f"{tile_text(ed, tid, lang)}: {r + 1} {SYM[lang][cur]}"
            label = f"buy: {{column: {c + 1}, row: {r + 1}}}   # {what}"
            if not check_step(d, ed, p, step):
                items, _ = auto_items(ed, q, cur, r + 1)
                lines.append(f"  # - {label} — {t['pays']} {', '.join(items)}")
                extra = [] if dev_shown else _development_example(d, ed, p, step, t)
                dev_shown, lines = dev_shown or bool(extra), lines + extra
                continue
            traded = dict(step, trade="auto")
            if cur != "strength" and not check_step(d, ed, p, traded):
                _, plan = payment(ed, q, cur, r + 1, "auto", "auto", "")
                paid = plan["items"] + [f"{a}+{b}" for a, b in plan["trades"]]
                lines.append(f"  # - buy: {{column: {c + 1}, row: {r + 1}, trade: auto}}   # {what} — "
                             f"{t['pays']} {', '.join(paid)}")
                continue
            have = sum(shows(ed, x, cur) for x in q["dice"] if not x[3]) + markers_free(q, cur)
            bad.append(f"#     {label} — {t['short'].format(have=have)}")
    if markers_free(q, "reroll") and any(not x[3] for x in q["dice"]):
        lines.append(f"  # - {t['reroll'].format(n=markers_free(q, 'reroll'))}")
    if q["wonder"]:
        w = q["wonder"]
        build = {"do": "build", "pay": "auto", "trade": "none"}
        text = t["build"].format(wonder=ed.tiles[w]["name"][lang], cost=ed.tiles[w]["stone"])
        if not check_step(d, ed, p, build):
            lines.append(f"  # - {text}")
        elif not check_step(d, ed, p, dict(build, trade="auto")):
            lines.append(f"  # - {text.replace('build ', 'build: {trade: auto}', 1)}")
        else:
            bad.append(f"#     {text}")
    if d["variant"] == "accelerated":
        lines.append(f"  # {t['food_trade'].format(auto=_trade_text(auto_trade(d, ed, p)))}")
        lines.append("  # - pass: {food_trade: auto}")
    # the one live step: harmless (nothing is done, the player is asked again), so a form
    # sent back unchanged ends no age (a pre-filled pass did, issue 33)
    lines += [f"  # - {t['pass']}", f"  - {t['ask']}"]
    if bad:
        lines += [f"# {t['cannot']}"] + bad
    return lines + [""]


def _development_example(d: dict, ed, p: str, step: dict, t: dict) -> list[str]:
    """Once a form: the shape with ``replace`` and ``give_back`` for a development the
    player can buy now, giving back a die of the replaced one's colour (R66)."""
    q = d["p"][p]
    tile = ed.tiles[d["board"][step["column"] - 1][step["row"] - 1]]
    if tile["type"] not in ("building", "military"):
        return []
    slot = default_slot(ed, q)
    colours = dev_dice(ed, q["devs"][slot - 1])
    die = next((x[0] for x in q["dice"] if x[1] in colours), None)
    example = dict(step, replace=slot, give_back=[die] if die else [])
    if die is None or check_step(d, ed, p, example):
        return []
    return [f"  # - buy: {{column: {step['column']}, row: {step['row']}, replace: {slot}, give_back: [{die}]}}"
            f"   # {t['dev'].format(slot=slot, die=die)}"]


def order_form(state, player: str, lang: str) -> str:
    d, ed = state.d, state.ed
    lang = lang if lang in T else "en"
    t = T[lang]
    stage = d["waiting"].get(player)
    if stage is None:
        return ""
    if stage == "plan":
        return "\n".join(_plan_form(d, ed, player, lang))
    q = d["p"][player]
    ev = ed.events[d["event"]]
    if stage == "books":
        books = [x for x in q["dice"] if not x[3] and shows(ed, x, "book")]
        return "\n".join([f"# {t['books'].format(food=food_have(ed, q), need=ev['food'])}",
                          "#   " + ", ".join(f"{x[0]} {show_face(face(ed, x), lang)}" for x in books),
                          f"# {t['hold'].format(die=books[0][0] if books else 'w1')}", "hold: []", ""])
    return "\n".join([f"# {t['famine'].format(food=food_have(ed, q), need=ev['food'], vp=d['age'])}",
                      f"# {t['famine_dice']} {dice_line(ed, q, lang, False)}",
                      f"# {t['famine_opts'].format(auto=_trade_text(auto_trade(d, ed, player, strength=True)))}",
                      "trade: none", ""])

"""``RULES``: 1848 on the referee's game contract."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.game_api.contract import LogEntry, Problem, Resolution, Rng, follow_plan, invalid_edition, plan_preview

from .actions import never_problems, step_problems
from .edition import PARTIES, edition_for
from .orders import MESSAGES, SCHEMAS, DrawOrders, TrickOrders
from .page_words import PAGE_WORDS
from .picture import STANDINGS_MESSAGES
from .state import State, clone, deep, load_state, new_data
from .trick import default_draw, describe, draw_all, draw_choice, start_trick, take_kept, walk


def _entries(log: list) -> list[LogEntry]:
    return [LogEntry(k, data, None if vis is None else frozenset(vis)) for k, data, vis in log]


def _problem(code, params, where="", severity="error") -> Problem:
    return Problem(code, where, severity, dict(params), MESSAGES.get(code, {}).get("en", code))


def _why(probs) -> dict[str, str]:
    """A failed step's reasons in each language (``phrase`` picks the reader's)."""
    out = {}
    for lang in ("de", "en"):
        texts = []
        for p in probs:
            try:
                texts.append(MESSAGES.get(p.code, {}).get(lang, p.code).format(**p.params))
            except (KeyError, IndexError, ValueError):
                texts.append(p.code)
        out[lang] = "; ".join(texts)
    return out


def _fields(ed, card) -> set:
    """The fields a play of ``card`` may carry besides ``play`` and ``if``."""
    z = ed.zusatz.get(card)
    if z is None:
        return set()
    if z.is_army:
        return {"to"}
    return {"party_value": {"player", "party"}, "none": set()}.get(z.effect["do"], {"on"})


def static_problems(d, ed, player, step, where) -> list[Problem]:
    """A step's problems that no course of the trick can mend (unknown or foreign cards,
    fields the card does not take, a target it can never have): refused at submission."""
    if isinstance(step, str):
        return []
    if (step.get("play") is None) == (step.get("push") is None):
        return [_problem("step.kind", {}, where)]
    out = []
    card = step.get("play") or step.get("push")
    cards = [*ed.persons, *ed.zusatz]
    if card not in cards:   # placed at the card, where a did-you-mean can read what was written
        return [_problem("card.unknown", {"card": card, "choices": cards},
                         f"{where}.{'play' if step.get('play') else 'push'}")]
    if card not in d["hands"][player]:
        out.append(_problem("card.not_in_hand", {"card": card}, where))
    if step.get("on") is not None and step["on"] not in ed.persons:
        out.append(_problem("card.unknown", {"card": step["on"], "choices": list(ed.persons)}, where + ".on"))
    for k in ("player", "to"):
        if step.get(k) is not None and step[k] not in d["players"]:
            out.append(_problem("player.unknown", {"player": step[k], "choices": ", ".join(d["players"])},
                                f"{where}.{k}"))
    ans = (step.get("if") or {}).get("answered")
    if ans is not None and ans != "army" and ans not in PARTIES and ans not in ed.persons and ans not in ed.zusatz:
        out.append(_problem("card.unknown", {"card": ans, "choices": ["army", *PARTIES, *cards]}, where + ".if.answered"))
    allowed = _fields(ed, card) if step.get("play") else set()
    for k in ("on", "player", "party", "to"):
        if step.get(k) is not None and k not in allowed:
            out.append(_problem("step.fields", {"card": card, "field": k}, f"{where}.{k}"))
    if not out:
        never = never_problems(d, ed, player, step)
        if never:
            why = _why([_problem(c, pr) for c, pr in never])
            out.append(_problem("step.never", {"why": why}, where + (".on" if step.get("on") else "")))
    return out


# the game's messages with the standings' labels and the order page's words for its fields
ALL_MESSAGES = {**MESSAGES, **STANDINGS_MESSAGES, **PAGE_WORDS}


class Revolution1848:
    name = "revolution_1848"
    title = "1848"
    version = "1.1"   # 1.1: a conditional step that has not fired is kept (state field "kept"); 1.0 archives where one waited replay differently
    languages = ("de", "en")
    min_players = 2
    max_players = 4
    messages = ALL_MESSAGES
    demo_seats = (["ada", "bert", "cleo"], "de")

    # --- before the match --------------------------------------------------------
    def check_options(self, players: Sequence[str], options: Mapping) -> list[Problem]:
        probs = []
        if not 2 <= len(players) <= 4:
            probs.append(_problem("options.players", {"n": len(players)}, "players"))
        if len(set(players)) != len(players):
            probs.append(_problem("options.players_unique", {}, "players"))
        for key in sorted(set(options) - {"edition"}):
            probs.append(_problem("options.unknown", {"key": key}, key, "warning"))
        why = invalid_edition(options.get("edition"), edition_for)
        if why:
            probs.append(_problem("options.edition", {"error": why}, "edition"))
        return probs

    def setup(self, players: Sequence[str], options: Mapping, rng: Rng) -> State:
        raw = options.get("edition")
        raw = None if raw is None else deep(dict(raw))
        ed = edition_for(raw)
        d = new_data(list(players), raw)
        persons = list(ed.persons)
        zusatz = list(ed.zusatz)          # the armies shuffled in (seed: "unter den Stapel ... gemischt")
        rng.shuffle(persons)
        rng.shuffle(zusatz)
        d["persons_deck"], d["zusatz_deck"] = persons, zusatz
        d["ablauf"] = list(ed.ablauf)
        log: list = []
        d["trick"]["opener"] = rng.below(len(players))     # the first opener by lot
        draw_all(d, ed, list(players), log)                 # from an empty hand: 2 + 2
        start_trick(d, ed, log)
        return State(ed, d)

    # --- what is owed ------------------------------------------------------------
    def awaiting(self, state: State) -> dict[str, str]:
        d = state.d
        if d["stage"] == "over":
            return {}
        return {p: d["stage"] for p in d["awaiting"]}

    def order_schema(self, state: State, stage: str):
        return SCHEMAS[stage]

    def default_orders(self, state: State, player: str):
        d = state.d
        if d["stage"] == "draw":
            return DrawOrders(draw=default_draw(d, state.ed, player))
        return TrickOrders(steps=["pass"])

    def validate(self, state: State, player: str, orders) -> list[Problem]:
        d, ed = state.d, state.ed
        stage = self.awaiting(state).get(player)
        if stage is None:
            return [_problem("stage.none", {})]
        if stage == "draw":
            return []
        out = []
        plan = orders.plan()
        for i, step in enumerate(plan):
            out += self._static(d, ed, player, step, f"steps.{i}")
        if any(p.is_error for p in out):
            return out
        t = d["trick"]
        if d["players"][t["actor"]] == player and player not in t["passed"]:
            choice = follow_plan(plan, lambda s: [_problem(c, pr) for c, pr in step_problems(d, ed, player, s)])
            out += plan_preview(choice, lambda i: describe(ed, plan[i]), _why)
        else:
            out.append(_problem("plan.later", {"actor": d["players"][t["actor"]]}, "steps", "warning"))
        return out

    def _static(self, d, ed, player, step, where) -> list[Problem]:
        return static_problems(d, ed, player, step, where)


    # --- resolution ----------------------------------------------------------------
    def resolve(self, state: State, orders: Mapping, rng: Rng) -> Resolution:
        ed, d0 = state.ed, state.d
        if d0["stage"] == "over":
            return Resolution(State(ed, d0), [], d0["outcome"])
        d = clone(d0)
        log: list = []
        if d["stage"] == "draw":
            for p in d["awaiting"]:
                o = orders.get(p) or self.default_orders(state, p)
                draw_choice(d, ed, p, o.draw, log)
                log.append(("draw_choice", {"player": p, "kind": o.draw}, (p,)))
            start_trick(d, ed, log)
        else:
            for p in d["awaiting"]:
                o = orders.get(p)
                kept = take_kept(d, p)   # a new plan replaces the waiting steps; without one they stay
                if o is None or any(x.is_error for x in self.validate(state, p, o)):
                    log.append(("orders_defaulted", {"player": p, **({"kept": len(kept)} if kept else {})}, None))
                    o = self.default_orders(state, p)
                else:
                    kept = []
                d["plans"][p] = kept + o.plan()
                if o.draw is not None:
                    d["draw_pref"][p] = o.draw
            walk(d, ed, log)
        d["turn"] += 1
        return Resolution(State(ed, d), _entries(log), d["outcome"])

    # --- persistence and views ---------------------------------------------------------
    def dump(self, state: State) -> dict:
        return deep(state.d)

    def load(self, data: Mapping) -> State:
        return load_state(dict(data))

    def view(self, state: State, viewer):
        from .view import build_view
        return build_view(state, viewer)

    def picture(self, view: dict, lang: str) -> str:
        from .picture import picture
        return picture(view, lang)

    def standings(self, view: dict) -> dict:
        from .picture import standings
        return standings(view)

    def rules_summary(self, lang: str) -> str:
        """The rules in a few lines, for the welcome mail (``referee rules`` prints the whole)."""
        from .summary import rules_summary
        return rules_summary(lang)

    def order_form(self, state: State, player: str, lang: str) -> str:
        from .form import order_form
        return order_form(state, player, lang)

    def random_orders(self, state: State, player: str, rng: Rng) -> dict:
        from .play import random_orders
        return random_orders(state, player, rng)

    def order_choices(self, state: State, player: str, lang: str) -> dict:
        """The player's legal choices for the clickable order page (issue 36)."""
        from .choices import order_choices
        return order_choices(state, player, lang)

    def determinize(self, state: State, player: str, rng: Rng) -> State:
        from .hidden import determinize
        return determinize(state, player, rng)


RULES = Revolution1848()

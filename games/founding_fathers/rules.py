"""``RULES``: Founding Fathers on the referee's game contract."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.game_api.contract import LogEntry, Problem, Resolution, Rng, invalid_edition

from . import summary
from .actions import act, check, finish_turn, is_error, keep_problems
from .edition import PLANNER_ORDER, edition_for
from .engine import cut, fill_pool
from .orders import MESSAGES, SCHEMAS, ActionOrders, FlipOrders, KeepOrders
from .page_words import FIELD_MESSAGES
from .picture import STANDINGS_MESSAGES
from .rounds import place_committee_article, resume
from .state import FFState, clone, deep, load_state, new_data


def _entries(log: list) -> list[LogEntry]:
    return [LogEntry(k, data, None if vis is None else frozenset(vis)) for k, data, vis in log]


def _problems(probs) -> list[Problem]:
    out = []
    for pr in probs:
        code, params, where = pr[0], pr[1], pr[2]
        sev = "warning" if not is_error(pr) else "error"
        out.append(Problem(code, where, sev, dict(params), MESSAGES.get(code, {}).get("en", code)))
    return out


class FoundingFathers:
    name = "founding_fathers"
    title = "Founding Fathers"
    version = "1.0"
    languages = ("en", "de")
    min_players = 3
    max_players = 5
    messages = {**MESSAGES, **STANDINGS_MESSAGES, **FIELD_MESSAGES}

    # --- before the match --------------------------------------------------------
    def check_options(self, players: Sequence[str], options: Mapping) -> list[Problem]:
        probs = []
        if not 3 <= len(players) <= 5:
            probs.append(Problem("options.players", "players", params={"n": len(players)},
                                 text="Founding Fathers needs 3 to 5 players."))
        if len(set(players)) != len(players):
            probs.append(Problem("options.players_unique", "players", text="Player ids must be unique."))
        for key in sorted(set(options) - {"edition"}):
            probs.append(Problem("options.unknown", key, "warning", {"key": key},
                                 text=f"Unknown option {key} is ignored."))
        why = invalid_edition(options.get("edition"), edition_for)
        if why:
            probs.append(Problem("options.edition", "edition", params={"error": why},
                                 text=f"The edition is not valid: {why['en']}"))
        return probs

    def setup(self, players: Sequence[str], options: Mapping, rng: Rng) -> FFState:
        raw = options.get("edition")
        raw = None if raw is None else deep(dict(raw))
        ed = edition_for(raw)
        players = list(players)
        planners = list(PLANNER_ORDER[:len(players)])
        rng.shuffle(planners)                                   # A: a random planner each
        d = new_data(players, {planners[i]: p for i, p in enumerate(players)}, raw)
        for i, p in enumerate(players):
            d["hands"][p] = [planners[i]]                       # B
        deck = [c for c in ed.cards if c not in d["planners"]]
        rng.shuffle(deck)
        cut(deck, rng)                                          # C
        d["deck"] = deck
        first = planners.index("madison")
        order = players[first:] + players[:first]
        d["dealt"] = {p: [] for p in players}
        for _ in range(4):                                      # D: one card at a time
            for p in order:
                d["dealt"][p].append(deck.pop())
        log: list = []
        fill_pool(d, rng, log)                                  # E
        arts = list(ed.articles)
        rng.shuffle(arts)
        cut(arts, rng)                                          # G
        d["resolved"] = [[arts.pop(), False] for _ in range(4)]
        d["assembly"] = [arts.pop(), False]                     # H
        d["committee_article"] = [arts.pop(), False]
        d["articles"] = arts
        d["active"] = first
        return FFState(ed, d)

    # --- what is owed ------------------------------------------------------------
    def awaiting(self, state: FFState) -> dict[str, str]:
        d = state.d
        st = d["stage"]
        if st == "action":
            return {d["players"][d["active"]]: "action"}
        if st == "keep":
            return {p: "keep" for p in d["players"]}
        if st == "committee_flip":
            return {d["flip_player"]: "committee_flip"}
        return {}

    def order_schema(self, state: FFState, stage: str):
        return SCHEMAS[stage]

    def default_orders(self, state: FFState, player: str):
        d = state.d
        if d["stage"] == "keep":
            return KeepOrders(keep=d["dealt"][player][:2])
        if d["stage"] == "committee_flip":
            return FlipOrders(flip=False)
        return ActionOrders(action="snub", delegates=[], take=[1, 2, 3])

    def validate(self, state: FFState, player: str, orders) -> list[Problem]:
        d = state.d
        stage = self.awaiting(state).get(player)
        if stage is None:
            return [Problem("stage.none", "", text=MESSAGES["stage.none"]["en"])]
        if stage == "keep":
            return _problems(keep_problems(d, player, list(orders.keep)))
        if stage == "committee_flip":
            return []
        return _problems(check(d, state.ed, player, orders))

    # --- resolution ----------------------------------------------------------------
    def resolve(self, state: FFState, orders: Mapping, rng: Rng) -> Resolution:
        ed, d0 = state.ed, state.d
        d = clone(d0)
        log: list = []
        outcome = None
        stage = d["stage"]
        if stage == "keep":
            for p in d["players"]:
                o = orders.get(p) or self.default_orders(state, p)
                keep = list(o.keep)
                if keep_problems(d, p, keep):
                    keep = d["dealt"][p][:2]
                d["hands"][p].extend(keep)
                gone = [c for c in d["dealt"][p] if c not in keep]
                d["discard"].extend(gone)
                log.append(("kept", {"player": p, "cards": keep}, (p,)))
                log.append(("setup_discarded", {"player": p, "cards": gone}, None))
            d["dealt"] = {}
            d["stage"] = "action"
            log.append(("round_started", {"round": 1, "assembly": d["assembly"][0],
                                          "committee": d["committee_article"][0],
                                          "first": d["players"][d["active"]]}, None))
        elif stage == "committee_flip":
            p = d["flip_player"]
            o = orders.get(p) or FlipOrders()
            place_committee_article(d, ed, bool(o.flip), log)
            outcome = resume(d, ed, log)
        elif stage == "action":
            p = d["players"][d["active"]]
            o = orders.get(p) or self.default_orders(state, p)
            probs = act(d, ed, p, o, rng, log)
            errors = [pr for pr in probs if is_error(pr)]
            if errors:
                d, log = clone(d0), [("orders_replaced", {"player": p, "reason": errors[0][0]}, None)]
                act(d, ed, p, self.default_orders(state, p), rng, log)
            outcome = finish_turn(d, ed, log)
        else:
            return Resolution(FFState(ed, d), [], d["outcome"])
        d["turn"] += 1
        public = [{"kind": k, "data": data} for k, data, vis in log if vis is None]
        d["history"] = (d["history"] + [{"turn": d["turn"], "entries": public}])[-(len(d["players"]) + 1):]
        return Resolution(FFState(ed, d), _entries(log), outcome)

    # --- persistence and views ---------------------------------------------------------
    def dump(self, state: FFState) -> dict:
        return deep(state.d)

    def load(self, data: Mapping) -> FFState:
        return load_state(dict(data))

    def view(self, state: FFState, viewer):
        from .view import build_view
        return build_view(state, viewer)

    def rules_summary(self, lang: str) -> str:
        """The rules in a few lines, for the welcome mail (``referee rules`` prints the whole)."""
        return summary.rules_summary(lang)

    def picture(self, view: dict, lang: str) -> str:
        from .picture import picture
        return picture(view, lang)

    def standings(self, view: dict) -> dict:
        from .picture import standings
        return standings(view)

    def order_form(self, state: FFState, player: str, lang: str) -> str:
        from .form import order_form
        return order_form(state, player, lang)

    def random_orders(self, state: FFState, player: str, rng: Rng) -> dict:
        from .play import random_orders
        return random_orders(state, player, rng)

    def order_choices(self, state: FFState, player: str, lang: str) -> dict:
        from .choices import order_choices
        return order_choices(state, player, lang)

    def determinize(self, state: FFState, player: str, rng: Rng) -> FFState:
        from .hidden import determinize
        return determinize(state, player, rng)

    def estimate(self, view: dict) -> dict:
        """Each player's score were the game to end now: the score and the faction bonus
        the forecast gives (every holder of the most tokens of a faction gets its points)."""
        pub = view["public"]
        out = {p["id"]: p["score"] for p in pub["players"]}
        if pub["outcome"] is None:
            for bonus in pub["bonus_forecast"].values():
                for p in bonus["players"]:
                    out[p] += bonus["points"]
        return out


RULES = FoundingFathers()

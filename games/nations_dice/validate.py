"""Checking orders at the door: what is refused, and the plan preview.

A plan step is refused outright when it is wrong whatever happens before it
runs: a marker offered in a trade, a trade into strength or books, two actions
in one step, a payment with a marker of the wrong kind or a die twice; a buy
paid short with named dice when no earlier step rerolls (faces change only by
rerolling); building a wonder one does not have when no earlier step buys.
Everything else that fails only *now* is a warning: the step falls through
(``plan_preview`` says which step would run and why earlier ones would not).
"""
from __future__ import annotations

from referee.game_api.contract import Problem, follow_plan, plan_preview

from .actions import canonical, check_step
from .famine import food_pair_problems
from .messages import say
from .orders import named, normalise
from .state import die_by_id, shows

STATIC = {"trade.marker", "trade.strength", "trade.books", "trade.pair", "trade.twice", "pay.twice",
          "reroll.empty",
          "pay.wrong_marker", "buy.no_slot", "buy.replace_slot",
          "give_back.unknown", "give_back.colour", "give_back.extra", "give_back.not_development"}
NOW = {"famine.surplus", "famine.short"}   # refused in the step tried now; later the food may differ


def describe(step) -> str:
    """A step in the order form's own words (the YAML keywords)."""
    if step == "ask":
        return "ask"
    kind = step["do"]
    if kind == "buy":
        where = step["tile"] or f"column {step['column']} row {step['row']}"
        return f"buy {where}"
    if kind == "reroll":
        return "reroll " + (step["dice"] if step["dice"] == "all" else ", ".join(step["dice"]))
    return kind


def _at(p: Problem, where: str) -> Problem:
    return Problem(p.code, where + p.where if p.where.startswith(".") else (p.where or where),
                   p.severity, p.params, p.text)


def plan_problems(d: dict, ed, player: str, orders) -> list[Problem]:
    if not orders.steps:   # every step commented out, '- ask' too: no plan at all
        return [Problem("plan.nothing", "steps")]
    out: list[Problem] = []
    steps = []
    rerolled = bought = False
    for i, raw in enumerate(orders.steps):
        where = f"steps.{i}"
        acts = named(raw)
        if not acts:
            out.append(Problem("step.empty", where))
            steps.append("ask")
            continue
        if len(acts) > 1:
            out.append(Problem("step.two_actions", where, params={"actions": " + ".join(acts)}))
            steps.append("ask")
            continue
        step = canonical(ed, normalise(raw))
        steps.append(step)
        if step == "ask":
            continue
        if step["do"] == "pass" and step.get("food_trade") is not None and d["variant"] != "accelerated":
            out.append(Problem("food_trade.ignored", where, "warning"))
        for p in check_step(d, ed, player, step, where):
            explicit = isinstance(step.get("pay"), list) and step.get("trade") != "auto"
            static = (p.code in STATIC or (p.code == "build.no_wonder" and not bought)
                      or (p.code in NOW and i == 0)
                      or (p.code in ("pay.short", "pay.useless", "pay.surplus") and explicit and not rerolled))
            if static:
                out.append(_at(p, where))
        rerolled |= step["do"] == "reroll"
        bought |= step["do"] == "buy"
    if any(p.is_error for p in out):
        return out
    choice = follow_plan(steps, lambda s: check_step(d, ed, player, s))
    preview = plan_preview(choice, describe=lambda i: describe(steps[i]),
                           why=lambda probs: {lang: say(next(x for x in probs if x.is_error), lang) for lang in ("en", "de")})
    for i, probs in choice.failed:
        for p in probs:
            if p.is_error:
                out.append(Problem(p.code, f"steps.{i}", "warning", p.params, p.text))
    return out + preview


def check_orders(d: dict, ed, player: str, stage: str, orders) -> list[Problem]:
    if stage == "plan":
        return plan_problems(d, ed, player, orders)
    pl = d["p"][player]
    if stage == "books":
        out = [Problem("trade.books", "trade")] if orders.trade else []
        for i, die_id in enumerate(orders.hold):
            die = die_by_id(pl, die_id)
            if die is None or die[3] or not shows(ed, die, "book"):
                out.append(Problem("books.hold", f"hold.{i}", params={"die": die_id}))
        return out
    if isinstance(orders.trade, list):
        return food_pair_problems(d, ed, player, orders.trade, "trade")
    return []

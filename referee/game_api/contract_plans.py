"""Part of the contract (``contract.py`` re-exports it): plans of sequential play."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from referee.game_api.contract_problem import Problem

# --- Plans: several steps of sequential play sent in one mail -------------
#
# In a game where one player acts at a time (Nations, 1848) one mail per
# action would need hundreds of deadlines.  A player sends a *plan* instead: a
# list of steps tried in order each time their action comes up.  The first
# step the game accepts is carried out; the steps before it that could not run
# are dropped, the ones after it are kept for the next action.  A step the
# game recognises as "ask" stops the plan: the player is asked for new orders.
# The game keeps the remaining steps in its state and decides what a step is;
# this is only the shared walk over them and the words for it.

PLAN_ASK = "ask"


@dataclass(frozen=True)
class PlanChoice:
    """What ``follow_plan`` found: ``index`` of the step to carry out (None
    when none can run), whether an ``ask`` step stopped the walk, why each
    earlier step could not run, and the steps left for the next action."""

    index: int | None
    asked: bool
    failed: tuple[tuple[int, tuple[Problem, ...]], ...]
    rest: tuple[Any, ...]

    @property
    def exhausted(self) -> bool:
        """Nothing ran: the player must be asked for new orders."""
        return self.index is None


def follow_plan(steps: Sequence[Any], check: Callable[[Any], Sequence[Problem]],
                is_ask: Callable[[Any], bool] = lambda step: step == PLAN_ASK) -> PlanChoice:
    """Walk ``steps`` in order; ``check(step)`` returns the problems that keep
    a step from running now (no errors = it can run).  Linear in the plan."""
    failed: list[tuple[int, tuple[Problem, ...]]] = []
    for i, step in enumerate(steps):
        if is_ask(step):
            return PlanChoice(None, True, tuple(failed), tuple(steps[i + 1:]))
        problems = tuple(check(step))
        if not any(p.is_error for p in problems):
            return PlanChoice(i, False, tuple(failed), tuple(steps[i + 1:]))
        failed.append((i, problems))
    return PlanChoice(None, False, tuple(failed), ())


PLAN_MESSAGES: dict[str, dict[str, str]] = {
    "plan.would_run": {
        "en": "Step {step} would be carried out now: {what}.",
        "de": "Jetzt würde Schritt {step} ausgeführt: {what}.",
    },
    "plan.would_fail": {
        "en": "Step {step} cannot be carried out now ({why}); the plan goes on with the next step.",
        "de": "Schritt {step} ist jetzt nicht ausführbar ({why}); der Plan geht mit dem nächsten Schritt weiter.",
    },
    "plan.would_ask": {
        "en": "No step before 'ask' can be carried out now: you will be asked for new orders.",
        "de": "Kein Schritt vor 'ask' ist jetzt ausführbar: du wirst um neue Befehle gebeten.",
    },
    "plan.would_run_out": {
        "en": "No step of this plan can be carried out now: you will be asked for new orders.",
        "de": "Kein Schritt dieses Plans ist jetzt ausführbar: du wirst um neue Befehle gebeten.",
    },
}


def plan_preview(choice: PlanChoice, describe: Callable[[int], Any],
                 why: Callable[[tuple[Problem, ...]], Any], where: str = "steps") -> list[Problem]:
    """Warnings for the accepted reply: which step would run now and why each
    earlier one would not.  ``describe(index) -> str`` names a step,
    ``why(problems)`` says in a few words why it fails (a text, or a
    ``{lang: text}`` mapping that ``phrase`` picks the reader's language from).  Steps are
    numbered from 1 for the player; ``where`` points at the list."""
    out = [Problem("plan.would_fail", f"{where}.{i}", "warning",
                   {"step": i + 1, "why": why(probs)}, "") for i, probs in choice.failed]
    if choice.index is not None:
        out.append(Problem("plan.would_run", f"{where}.{choice.index}", "warning",
                           {"step": choice.index + 1, "what": describe(choice.index)}, ""))
    else:
        out.append(Problem("plan.would_ask" if choice.asked else "plan.would_run_out", where, "warning"))
    return out

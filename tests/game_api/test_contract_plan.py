"""The shared plan walk of ``referee.game_api.contract`` (used by Nations and 1848)."""
from referee.game_api.contract import PLAN_MESSAGES, Problem, follow_plan, phrase, plan_preview


def _check(step):
    return [] if step.startswith("ok") else [Problem("nope", params={"s": step})]


def test_first_runnable_step_runs_and_later_steps_are_kept():
    c = follow_plan(["bad1", "ok-a", "ok-b", "bad2"], _check)
    assert c.index == 1 and not c.asked and c.rest == ("ok-b", "bad2")
    assert [i for i, _ in c.failed] == [0]


def test_warnings_do_not_stop_a_step():
    c = follow_plan(["w"], lambda s: [Problem("w", severity="warning")])
    assert c.index == 0


def test_ask_stops_the_plan_and_keeps_what_follows():
    c = follow_plan(["bad", "ask", "ok"], _check)
    assert c.exhausted and c.asked and c.rest == ("ok",)


def test_a_plan_with_no_runnable_step_is_used_up():
    c = follow_plan(["bad1", "bad2"], _check)
    assert c.exhausted and not c.asked and c.rest == () and len(c.failed) == 2


def test_preview_names_the_step_that_would_run_and_why_earlier_fail():
    c = follow_plan(["bad", "ok"], _check)
    warn = plan_preview(c, describe=lambda i: f"step-{i}", why=lambda ps: ps[0].code)
    assert [(w.code, w.where, w.severity) for w in warn] == [
        ("plan.would_fail", "steps.0", "warning"), ("plan.would_run", "steps.1", "warning")]

    class R:
        messages = PLAN_MESSAGES
    assert phrase(R, warn[1], "de") == "Jetzt würde Schritt 2 ausgeführt: step-1."
    assert phrase(R, warn[0], "en").startswith("Step 1 cannot be carried out now (nope)")


def test_a_reason_worded_per_language_is_phrased_in_the_readers_language():
    c = follow_plan(["bad", "ok"], _check)
    warn = plan_preview(c, describe=lambda i: "x", why=lambda ps: {"en": "not now", "de": "jetzt nicht"})

    class R:
        messages = PLAN_MESSAGES
    assert "(jetzt nicht)" in phrase(R, warn[0], "de") and "(not now)" in phrase(R, warn[0], "en")

"""The conformance test's leak check must catch a leak (a checker that can
never fail proves nothing)."""
from __future__ import annotations

import pytest

from referee.app.conformance import check_views


class Views:
    """Just enough of a game for check_views: views of a fixed state."""

    def __init__(self, leak: bool) -> None:
        self.leak = leak

    def view(self, state, viewer):
        hands = {"ada": ["Secret plan of Ada"], "bert": ["Hidden card of Bert"]}
        public = {"board": ["Assembly Room"]}
        if viewer is None or viewer == "@gm":
            return {"public": public, "private": {} if viewer is None else hands}
        seen = dict(public)
        if self.leak and viewer == "bert":
            seen["gossip"] = hands["ada"]
        return {"public": seen, "private": {"hand": hands[viewer]}}


def test_checker_passes_honest_views():
    check_views(Views(leak=False), None, ["ada", "bert"])


def test_checker_catches_a_leak():
    with pytest.raises(AssertionError, match="bert sees ada's private"):
        check_views(Views(leak=True), None, ["ada", "bert"])

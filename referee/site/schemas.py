"""JSON Schemas of order documents, from the games' pydantic models.

A document is the envelope (``match``, ``player``, ``key``, ``turn``) around
one stage's ``orders:`` mapping; its schema is what an editor with the YAML
language server checks while an order is written.  ``order_schema(state,
stage)`` may depend on the state: the stages offered are then those the
set-up state awaits (for the game's demo table), and for a match site those
its archived turns awaited; a stage asked for by name is taken from the
set-up state as well.
"""
from __future__ import annotations

import json
from pathlib import Path

from referee.game_api.contract import Rng, derive_seed

DRAFT = "https://json-schema.org/draft/2020-12/schema"


def sample_state(rules):
    """The set-up state of the game's demo table (its own, else its fewest seats)."""
    seats = getattr(rules, "demo_seats", None)
    players = list(seats[0]) if seats else [f"player{i + 1}" for i in range(max(rules.min_players, 1))]
    sample = getattr(rules, "sample_options", None)
    options = sample(players) if sample else {}
    return rules.setup(players, options, Rng(derive_seed("schema", "setup")))


def document_schema(rules, state, stage: str) -> dict:
    """The schema of a whole order document for ``stage``."""
    orders = rules.order_schema(state, stage).model_json_schema()
    defs = orders.pop("$defs", {})
    schema = {
        "$schema": DRAFT,
        "title": f"{rules.title}: orders, stage {stage}",
        "type": "object",
        "required": ["match", "player", "orders"],
        "properties": {
            "match": {"type": "string", "description": "the match id"},
            "player": {"type": "string", "description": "your player id"},
            "key": {"type": "string", "description": "your secret key"},
            "turn": {"type": "integer", "description": "the turn these orders are for"},
            "orders": orders,
        },
        "additionalProperties": False,
    }
    if defs:
        schema["$defs"] = defs
    return schema


def note_stages(rules, state, by_stage: dict) -> None:
    """Remember the first state that awaits each stage (a game's schema may depend on it)."""
    for stage in rules.awaiting(state).values():
        by_stage.setdefault(stage, state)


def publish(rules, by_stage: dict, folder: Path) -> list[dict]:
    """Write ``folder/<stage>.json`` for every stage; returns [{stage, href}] for the index."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for stage in sorted(by_stage):
        path = folder / f"{stage}.json"
        path.write_text(json.dumps(document_schema(rules, by_stage[stage], stage), indent=1, ensure_ascii=False),
                        encoding="utf-8")
        out.append({"stage": stage, "href": f"schemas/{stage}.json"})
    return out

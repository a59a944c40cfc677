"""A match's turns rebuilt from its ``turns/<match>/`` folder alone: the
archive holds the orders used and the turn seeds, so replaying them gives
every turn's state, and from it the public view a page may show."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.archive import yaml_text as archive_yaml
from referee.archive.record import turn_dir_name
from referee.game_api import registry
from referee.game_api.contract import Rng, derive_seed


@dataclass
class Turn:
    number: int
    closed: str | None          # ISO time the turn was closed
    missing: list[str]          # players whose orders were defaulted
    outcome: dict | None
    log: list[dict]             # {"kind", "data", "visible_to"}
    state: Any                  # the state after this turn
    bots: list[str] = field(default_factory=list)   # issue 35: seats whose orders a bot sent


def read_meta(match_dir: Path) -> dict:
    return archive_yaml.read_match(match_dir)   # capped (issue 32): a damaged file is said so


def setup_state(rules, meta: dict):
    players = [p["id"] for p in meta["players"]]
    return rules.setup(players, meta.get("options") or {}, Rng(derive_seed(meta["seed"], "setup")))


def turns(match_dir: Path, meta: dict | None = None) -> Iterator[Turn]:
    """Every archived turn in order, with the state it left."""
    match_dir = Path(match_dir)
    meta = meta or read_meta(match_dir)
    rules = registry.get(meta["game"])
    state = setup_state(rules, meta)
    number = 1
    while (match_dir / turn_dir_name(number) / "turn.json").exists():
        d = match_dir / turn_dir_name(number)
        record = archive_yaml.read_json(d / "turn.json")
        used = archive_yaml.read(d / "orders.yaml") or {}
        orders = {p: rules.order_schema(state, u["stage"]).model_validate(u["orders"]) for p, u in used.items()}
        state = rules.resolve(state, orders, Rng(record["seed"])).state
        yield Turn(number, record.get("closed"), list(record.get("missing") or []), record.get("outcome"),
                   list(record.get("log") or []), state,
                   sorted(p for p, u in used.items() if isinstance(u, dict) and u.get("source") == "bot"))
        number += 1

"""The replay that checks a match's archive: every turn rebuilt from the folder alone
(match.yaml, each turn's orders.yaml and turn.json, read within limits) and the installed
game, every state hash compared with the recorded one."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from referee.archive import turn_dir_name
from referee.archive import yaml_text as archive_yaml
from referee.game_api import registry
from referee.game_api.contract import Rng, derive_seed, state_hash


@dataclass
class ReplayReport:
    match: str
    game: str
    turns: int = 0
    ok: bool = True
    first_mismatch: int | None = None   # the first turn whose hash differs (0 = setup)
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        if self.ok:
            return f"{self.match}: {self.turns} turns replayed, every state hash matches"
        return f"{self.match}: turn {self.first_mismatch} differs: " + "; ".join(self.problems)


def replay(match_dir: str | Path) -> ReplayReport:
    """Rebuild every turn from the archive alone and compare every hash."""
    match_dir = Path(match_dir)
    meta = archive_yaml.read_match(match_dir)   # capped: an archive may come from anywhere
    report = ReplayReport(match=meta["id"], game=meta["game"])

    def fail(turn: int, text: str) -> ReplayReport:
        report.ok, report.first_mismatch = False, turn
        report.problems.append(text)
        return report

    rules = registry.get(meta["game"])
    if rules.version != meta["version"]:
        report.problems.append(f"archive made with {meta['game']} {meta['version']}, installed {rules.version}")
    players = [p["id"] for p in meta["players"]]
    state = rules.setup(players, meta.get("options") or {}, Rng(derive_seed(meta["seed"], "setup")))
    if meta.get("setup_hash") and state_hash(rules, state) != meta["setup_hash"]:
        return fail(0, "the set-up state differs")
    number = 1
    while (match_dir / turn_dir_name(number) / "turn.json").exists():
        d = match_dir / turn_dir_name(number)
        turn = archive_yaml.read_json(d / "turn.json")
        used = archive_yaml.read(d / "orders.yaml") or {}
        if turn["seed"] != derive_seed(meta["seed"], number):
            return fail(number, "the turn seed does not follow from the match seed")
        awaiting = rules.awaiting(state)
        if sorted(awaiting) != sorted(used):
            return fail(number, f"orders for {sorted(used)}, but the game awaited {sorted(awaiting)}")
        orders = {p: rules.order_schema(state, stage).model_validate(used[p]["orders"])
                  for p, stage in awaiting.items()}
        state = rules.resolve(rules.load(rules.dump(state)), orders, Rng(turn["seed"])).state
        if state_hash(rules, state) != turn["hash"]:
            return fail(number, "the resolved state's hash differs from the recorded one")
        report.turns = number
        number += 1
    return report

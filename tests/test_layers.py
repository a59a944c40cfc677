"""The layers hold (docs/INTERNALS.md, DESIGN.md "A package per job"): every import of the referee's
own modules, at module level or inside a function, runs one way, and no module reaches itself again.

    app → site → turns → authority → intake, render, pictures, outbox, bots, archive, store, mail, runtime → game_api ← games
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RANK = {"game_api": 0, "intake": 1, "render": 1, "pictures": 1, "outbox": 1, "archive": 1, "store": 1, "mail": 1, "bots": 1,
        "runtime": 1, "authority": 2, "turns": 3, "site": 4, "app": 5}


def _modules(folder: str, package: str) -> dict[str, Path]:
    found = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join([package, *parts])] = path
    return found


REFEREE = _modules("referee", "referee")
GAMES = _modules("games", "referee_games")


def _imports(name: str, path: Path) -> set[str]:
    """Every ``referee…`` module this one imports, resolved to a module of the tree."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if is_package else name.split(".")[:-1]
                base = ".".join(here[:len(here) - node.level + 1] + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in REFEREE else base for a in node.names]
        else:
            continue
        found.update(t for t in targets if t == "referee" or t.startswith("referee."))
    return found


GRAPH = {name: _imports(name, path) for name, path in REFEREE.items()}


def _package(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in RANK else None


def test_referee_holds_packages_not_a_flat_list_of_modules():
    flat = [name for name in REFEREE if name.count(".") == 1 and _package(name) is None]
    assert flat == []


def test_each_package_imports_only_packages_below_it():
    wrong = []
    for name, targets in GRAPH.items():
        mine = _package(name)
        for target in targets:
            theirs = _package(target)
            if mine and theirs and mine != theirs and RANK[theirs] > RANK[mine]:
                wrong.append(f"{name} -> {target}")
            if mine == "game_api" and theirs != "game_api":
                wrong.append(f"{name} -> {target}")
    assert wrong == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in graph:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        item = stack.pop()
                        on.discard(item)
                        group.append(item)
                        if item == node:
                            break
                    if len(group) > 1:
                        out.append(sorted(group))
    return out


def test_no_module_imports_itself_round_a_circle():
    # a package's __init__ importing its own modules is no circle of the code's
    graph = {name: {t for t in targets if not name.startswith(t + ".")} for name, targets in GRAPH.items()}
    assert _cycles(graph) == []


def test_the_packages_of_one_layer_form_no_circle():
    packages: dict[str, set[str]] = {}
    for name, targets in GRAPH.items():
        mine = _package(name)
        if mine:
            packages.setdefault(mine, set()).update(
                theirs for t in targets if (theirs := _package(t)) and theirs != mine)
    assert _cycles(packages) == []


def test_games_import_only_the_contract():
    allowed = {"referee.game_api.contract"}
    wrong = sorted(f"{name} -> {t}" for name, path in GAMES.items()
                   for t in _imports(name, path) if t not in allowed)
    assert wrong == []

"""The commands of the match site and the order schemas: ``referee site``,
``referee schema`` and ``referee check`` (registered by referee/cli.py)."""
from __future__ import annotations

import json
import sys
from pathlib import Path


def register(sub, load_config) -> None:
    """Add the subcommands to the ``referee`` parser; ``load_config(args)`` reads referee.yaml."""
    s = sub.add_parser("site", help="write a browsable folder of HTML pages for one match from its archive")
    s.add_argument("match", help="match id (in the archive) or a match folder")
    s.add_argument("--out", help="folder to write (default: site/<match>)")
    s.set_defaults(fn=lambda args: cmd_site(args, load_config))
    s = sub.add_parser("schema", help="print the JSON Schema of a game's order documents")
    s.add_argument("game")
    s.add_argument("stage", nargs="?", help="the stage (default: every stage the set-up state awaits)")
    s.set_defaults(fn=cmd_schema)
    s = sub.add_parser("check", help="check an order file offline against its match's current turn")
    s.add_argument("file")
    s.add_argument("--lang", help="language of the problems (default: the player's)")
    s.set_defaults(fn=lambda args: cmd_check(args, load_config))


def cmd_site(args, load_config) -> int:
    from referee.site.build import build_site

    folder = Path(args.match)
    if not (folder / "match.yaml").is_file():
        folder = load_config(args).archive / args.match
    if not (folder / "match.yaml").is_file():
        print(f"no archived match {args.match!r} (no {folder / 'match.yaml'})", file=sys.stderr)
        return 2
    index = build_site(folder, Path(args.out) if args.out else Path("site") / folder.name)
    print(f"wrote {index}")
    return 0


def cmd_schema(args) -> int:
    from referee import registry
    from referee.site.schemas import document_schema, sample_state

    try:
        rules = registry.get(args.game)
    except registry.UnknownGame as e:
        print(e, file=sys.stderr)
        return 2
    state = sample_state(rules)
    offered = sorted(set(rules.awaiting(state).values()))
    stages = [args.stage] if args.stage else offered
    out = {}
    for stage in stages:
        try:
            out[stage] = document_schema(rules, state, stage)
        except (KeyError, ValueError, TypeError):
            print(f"{rules.name} has no stage {stage!r} at set-up; it offers: {', '.join(offered)}", file=sys.stderr)
            return 2
    print(json.dumps(out[stages[0]] if len(stages) == 1 else out, indent=1, ensure_ascii=False))
    if not args.stage:
        print(f"stages the set-up state awaits: {', '.join(offered)} (name another stage to ask for it)",
              file=sys.stderr)
    return 0


def cmd_check(args, load_config) -> int:
    from referee.app import open_referee
    from referee.site.check import check_file

    lines, ok = check_file(open_referee(load_config(args)), Path(args.file), args.lang)
    print("\n".join(lines))
    return 0 if ok else 1

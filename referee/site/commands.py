"""The commands of the match site and the order schemas: ``referee site``,
``referee schema`` and ``referee check`` (the click commands of referee/app/cli_site.py call these)."""
from __future__ import annotations

import json
import sys
from pathlib import Path


def cmd_site(args, load_config) -> int:
    from referee.archive import yaml_text as archive_yaml
    from referee.site.build import build_site

    folder = Path(args.match)
    if not (folder / "match.yaml").is_file():
        folder = load_config(args).archive / args.match
    if not (folder / "match.yaml").is_file():
        print(f"no archived match {args.match!r} (no {folder / 'match.yaml'})", file=sys.stderr)
        return 2
    try:
        index = build_site(folder, Path(args.out) if args.out else Path("site") / folder.name)
    except archive_yaml.Broken as e:   # issue 32: capped reading; one line, never "a fault of the referee"
        return _failed(f"no pages written: the archive file {e}",
                       "it was damaged or changed by hand; bring the match back from a snapshot (referee restore)")
    except (ValueError, KeyError, TypeError, LookupError, FileNotFoundError) as e:
        return _failed(f"no pages written: the archive in {folder} cannot be read: {e.__class__.__name__}: {str(e)[:160]}",
                       "is it a match folder written by the referee, for a game installed here (`referee games`)?")
    print(f"wrote {index}")
    return 0


def _failed(what: str, todo: str) -> int:
    """What went wrong and what to do, as the command line says every failure (exit status 1)."""
    print(f"referee: {what}\n  {todo}", file=sys.stderr)
    return 1


def cmd_schema(args) -> int:
    from referee.game_api import registry
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


def cmd_check(args, referee) -> int:
    """``referee`` is the wired referee the app opened (the site never builds one itself)."""
    from referee.site.check import check_file

    lines, ok = check_file(referee, Path(args.file), args.lang)
    print("\n".join(lines))
    return 0 if ok else 1

"""The ``referee`` command."""
from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from pathlib import Path

from referee import config as config_mod
from referee import registry


def _cfg(args) -> config_mod.Config:
    return config_mod.load(Path(args.config) if args.config else None)


def _service(cfg):
    from referee.app import open_referee, open_sink, open_source
    from referee.service import Service

    return Service(open_referee(cfg), open_source(cfg), open_sink(cfg), address=cfg.address,
                   poll_interval=cfg.poll_interval, reopen_source=lambda: open_source(cfg))


def cmd_init(args) -> int:
    from referee.app import open_sink, open_source

    path = config_mod.write_starter(Path.cwd())
    cfg = config_mod.load(path)
    open_source(cfg).close()  # creates the Maildir folders, so mail can be dropped in at once
    open_sink(cfg)
    print(f"wrote {path}: SQLite + Maildir in this folder ({cfg.mail_in.maildir} in, "
          f"{cfg.mail_out.maildir} out); edit it to use IMAP and SMTP")
    return 0


def cmd_games(args) -> int:
    for name in registry.names():
        rules = registry.get(name)
        print(f"{name:24} {rules.title:32} version {rules.version:8} "
              f"{rules.min_players}-{rules.max_players} players  languages {', '.join(rules.languages)}")
    return 0


def cmd_new(args) -> int:
    from referee.app import open_referee, open_sink
    from referee.authority import MatchError

    cfg = _cfg(args)
    ref = open_referee(cfg)
    try:
        created = ref.create_match(Path(args.file).read_text(encoding="utf-8"))
    except MatchError as e:
        print("the match file has problems:", *e.problems, sep="\n  ", file=sys.stderr)
        return 2
    sent = ref.send_pending(open_sink(cfg)).sent
    print(f"created match {created.match}; {sent} welcome mails sent")
    print(f"GM key (shown once, keep it): {created.gm_key}")
    return 0


def cmd_poll(args) -> int:
    service = _service(_cfg(args))
    report = service.poll_once()
    service.source.close()
    print(f"{report.mails} mails read {report.outcomes or ''}; {report.sent} mails sent")
    return 0


def cmd_tick(args) -> int:
    report = _service(_cfg(args)).tick()
    closed = ", ".join(f"{m} turn {t}" for m, t in report.closed) or "nothing"
    print(f"closed: {closed}; {report.sent} mails sent")
    return 0


def cmd_run(args) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    service = _service(_cfg(args))
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    logging.getLogger("referee").info("referee running; stop with SIGTERM or Ctrl-C")
    service.run(stop)
    logging.getLogger("referee").info("stopped cleanly")
    return 0


def cmd_status(args) -> int:
    from referee.app import open_referee

    ref = open_referee(_cfg(args))
    rows = ref.overview()
    if not rows:
        print("no matches")
    for row in rows:
        line = f"{row['id']:20} {row['game']:22} {row['status']:8}"
        if row["turn"] is not None:
            line += f" turn {row['turn']}"
            if row["deadline"]:
                line += f", deadline {row['deadline']} ({row['deadline_utc']:%Y-%m-%d %H:%M} UTC)"
            if row["status"] != "ended":
                line += f", awaiting: {', '.join(row['awaiting']) or 'nobody'}"
        if row["faults"]:
            line += "; FLAGGED: " + ", ".join(f"{f['stage']} {f['item']} ({f['count']}x)" for f in row["faults"])
        print(line)
    aside = ref.set_aside()
    if aside["faults"] or aside["outbox_failed"]:
        parts = [f"{n} {stage}" for stage, n in sorted(aside["faults"].items())]
        parts.append(f"{aside['outbox_failed']} outbox mails failed")
        print("set aside after errors: " + ", ".join(parts) + " (see the log)")
    return 0


def cmd_replay(args) -> int:
    from referee.archive import replay

    folder = Path(args.match)
    if not folder.is_dir():
        folder = _cfg(args).archive / args.match
    report = replay(folder)
    print(report.summary())
    return 0 if report.ok else 1


def cmd_gm(args) -> int:
    from referee.app import open_referee, open_sink

    cfg = _cfg(args)
    ref = open_referee(cfg)
    extra = dict(kv.split("=", 1) for kv in args.args)
    try:
        done = ref.gm_command(args.match, args.command, extra)
    except (ValueError, KeyError) as e:
        print(f"{args.command}: {e}", file=sys.stderr)
        return 2
    sent = ref.send_pending(open_sink(cfg)).sent
    print(f"{args.match}: {done}; {sent} mails sent")
    return 0


def cmd_demo(args) -> int:
    from referee.demo import run_demo

    return run_demo(Path.cwd(), seed=args.seed, games=args.game or None)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="referee", description="A play-by-email referee for board and council games.")
    p.add_argument("--config", help="configuration file (default: ./referee.yaml, else the embedded default)")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("init", help="write a commented starter referee.yaml here").set_defaults(fn=cmd_init)
    sub.add_parser("games", help="list the installed games").set_defaults(fn=cmd_games)
    s = sub.add_parser("new", help="create a match from a match file")
    s.add_argument("file")
    s.set_defaults(fn=cmd_new)
    s = sub.add_parser("poll", help="read the mailbox once and answer")
    s.add_argument("--once", action="store_true", help="one pass (the only mode; for cron)")
    s.set_defaults(fn=cmd_poll)
    sub.add_parser("tick", help="close due turns, send reminders and the outbox").set_defaults(fn=cmd_tick)
    sub.add_parser("run", help="run the service until SIGTERM").set_defaults(fn=cmd_run)
    sub.add_parser("status", help="matches, turns, deadlines, who is awaited").set_defaults(fn=cmd_status)
    s = sub.add_parser("replay", help="rebuild a match from its archive and check every state hash")
    s.add_argument("match", help="match id (in the archive) or a match folder")
    s.set_defaults(fn=cmd_replay)
    s = sub.add_parser("gm", help="a GM command: start pause resume extend force preview rollback replace observer end")
    s.add_argument("match")
    s.add_argument("command")
    s.add_argument("args", nargs="*", help="key=value, e.g. by=24h, seat=madison email=new@example.org")
    s.set_defaults(fn=cmd_gm)
    s = sub.add_parser("demo", help="play a whole match of every installed game with scripted players")
    s.add_argument("--seed", default="demo", help="match seed (the same seed gives the same matches)")
    s.add_argument("--game", action="append", help="only this game (repeatable)")
    s.set_defaults(fn=cmd_demo)
    from referee.site.commands import register as register_site   # site, schema, check
    register_site(sub, _cfg)
    args = p.parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())

"""``referee demo``: whole matches of every installed game, played by
scripted players through the embedded default (SQLite + Maildir).

Players are simulated honestly: they learn their key from the welcome mail in
the outgoing Maildir, write YAML orders into mails dropped in the incoming
Maildir, and the service reads, answers, closes and reports exactly as it
would in a campaign.  A simulated clock runs the deadlines, so a player who
"forgets" a turn gets default orders when the deadline passes.  The same seed
gives the same matches; the archive is left in BASE/turns (``referee demo``:
./referee-demo/turns unless ``--out`` says otherwise).

The players read their mail as it comes: the outgoing Maildir keeps the first turn's
mails (welcomes and first reports) and those of the last ``KEEP_TURNS`` turns, not every
report of every turn, whose texts are in the archive anyway (issue 38: the demo ≤ 50 MB).
"""
from __future__ import annotations

import contextlib
import email
import mailbox
import re
import shutil
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import yaml

from referee.app import demo_talk
from referee.app.config import Backups, Config, MailIn, MailOut
from referee.app.service import Service
from referee.app.wiring import open_referee, open_sink, open_source
from referee.authority import keys as key_module
from referee.bots import decide
from referee.game_api import registry
from referee.game_api.contract import Rng, derive_seed

KEY = re.compile(r"\b([2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4})\b")
START = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)
SEATS = {"founding_fathers": (["washington", "franklin", "dickinson", "wilson"], "en"),
         "perricumer_ratsspiel": (["alrik", "boronian", "cordovan"], "de")}
MISS_EVERY = 7  # every 7th (player, turn) forgets to write: default orders at the deadline
# issue 18: a seat that stops writing from a turn on, until the GM (by mail) gives it to a
# successor; the match file's dropouts rule warns, then marks it abandoned
DROPOUT = {"perricumer_ratsspiel": ("cordovan", 2)}
# issue 35: the demo's players choose with the bot (a fast strength), so the samples show sensible
# play; in every game without table talk the last seat is a bot's own (no address, never mailed),
# and the Ratsspiel's silent seat goes to a bot until the demo's GM gives it to a successor
FAST = "fast"
DROPOUT_RULE = {"warn_after": 1, "abandon_after": 2, "to_bot": FAST}
MAX_TURNS = 2000
KEEP_TURNS = 2  # the last turns whose sent mails the demo leaves in mail/out, beside the first


class SimClock:
    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now


def run_demo(base: Path, seed: str = "demo", games: list[str] | None = None, quiet: bool = False) -> int:
    say = (lambda *a: None) if quiet else print
    return _run(base, seed, games, say)


@contextlib.contextmanager
def demo_keys(seed: str):
    """Keys drawn from the demo seed instead of ``secrets``: the sample
    archive (whose mails carry the players' keys) is then the same on every
    run, so a change that alters any outcome or report shows up as a diff.
    Only the demo does this; a real match's keys are secret and random."""
    rng = Rng(derive_seed(seed, "keys"))
    real = key_module.new_key

    def seeded(groups: int = 3, size: int = 4) -> str:
        return "-".join("".join(rng.choice(key_module.ALPHABET) for _ in range(size)) for _ in range(groups))

    key_module.new_key = seeded
    try:
        yield
    finally:
        key_module.new_key = real


def _run(base: Path, seed: str, games: list[str] | None, say) -> int:
    shutil.rmtree(base / "demo", ignore_errors=True)
    for name in games or registry.names():
        # Each game in a store, mailboxes, clock and key sequence of its own: one
        # game's sample match never changes because another game was added.
        work = base / "demo" / name
        # no snapshot before every close (a real campaign keeps them, the default): the demo is made
        # anew by running it again, and a newcomer's first run should not fill a disk (issue 33)
        cfg = Config(store=work / "referee.sqlite", archive=base / "turns",
                     mail_in=MailIn(maildir=work / "mail" / "in"), mail_out=MailOut(maildir=work / "mail" / "out"),
                     backups=Backups(before_close=False))
        clock = SimClock(START)
        ref = open_referee(cfg, clock=clock)
        service = Service(ref, open_source(cfg), open_sink(cfg), address=cfg.address)
        match_id = f"demo-{name}"
        shutil.rmtree(cfg.archive / match_id, ignore_errors=True)
        with demo_keys(f"{seed}:{name}"):
            outcome = _play(name, match_id, seed, ref, service, clock, cfg, say)
        ref.store.checkpoint()   # the write-ahead log folded in: the store on disk is its file alone
        ref.store.close()
        say(f"{match_id}: finished — {outcome}")
    say(f"archive: {base / 'turns'}/ (replay with: referee replay {base / 'turns'}/demo-<game>); "
        f"the mails of the first and the last {KEEP_TURNS} turns: {base / 'demo'}/<game>/mail/out")
    return 0


def _play(name, match_id, seed, ref, service, clock, cfg, say) -> str:
    rules = registry.get(name)
    # a game may name its own demo table: ``demo_seats = (["ada", ...], "en")``
    seats, lang = SEATS.get(name) or getattr(rules, "demo_seats", None) or (
        ["ada", "bert", "cleo", "dora"][: max(rules.min_players, 2)], "en")
    bot_seat = seats[-1] if name not in DROPOUT and len(seats) > 1 else None
    spec = {"id": match_id, "game": name, "lang": lang, "gm": "gm@demo.test", "timezone": "Europe/Berlin",
            "players": [{"id": s, "name": s.title(), **({"bot": FAST} if s == bot_seat else {"email": f"{s}@demo.test"})}
                        for s in seats],
            "schedule": {"period": "48h", "reminders": ["12h"]}, "early_close": True,
            "close_guard": {"hold": False}}   # no GM answers in the demo: a silent table is not held (issue 13)
    if name in DROPOUT:
        spec["dropouts"] = DROPOUT_RULE
    sample = getattr(rules, "sample_options", None)
    if callable(sample):
        spec["options"] = sample(seats)
    spec.update(demo_talk.spec_for(name))   # table talk, an observer (issue 18)
    gm_key = ref.create_match(spec, seed=f"{seed}-{name}").gm_key
    service.tick()
    keys = _keys(cfg.mail_out.maildir)
    say(f"{match_id}: {rules.title}, players {', '.join(seats)}")
    chooser = Rng(derive_seed(seed, f"demo-players:{name}"))
    read = _Reader(cfg.mail_out.maildir)
    bot_turns: dict[str, int] = {}
    for _ in range(MAX_TURNS):
        match = ref.store.match(match_id)
        turn = ref.store.current_turn(match_id)
        if match["status"] != "running" or turn is None or turn["status"] != "open":
            break
        state = rules.load(turn["state"])
        demo_talk.play(name, match_id, turn["number"], cfg, clock, keys, gm_key, service)
        missed = []
        gone, since = DROPOUT.get(name, (None, 0))
        for player in sorted(turn["awaiting"]):
            if player.startswith("@"):
                continue  # GM stages are left to their defaults in the demo
            address = ref.store.player(match_id, player)["email"]
            if not address:
                continue  # a bot's seat: the referee has its orders already
            if chooser.below(MISS_EVERY) == 0 and turn["number"] > 1 or (
                    player == gone and turn["number"] >= since and address == f"{player}@demo.test"):
                missed.append(player)
                continue
            orders = decide(rules, state, player, seed=derive_seed(seed, f"demo:{name}:{turn['number']}:{player}"),
                            strength=FAST)
            _drop(cfg.mail_in.maildir, clock, match_id, player, keys[address], turn["number"], orders, address)
        clock.now += timedelta(minutes=30)
        service.poll_once()
        service.tick()
        if missed:  # let the deadline pass: the referee fills default orders
            clock.now = datetime.fromisoformat(turn["deadline"]) + timedelta(minutes=1)
            service.tick()
        if _replace_abandoned(ref, service, clock, cfg, match_id, gm_key, bot_turns):
            keys.update(_keys(cfg.mail_out.maildir))   # the successor's key, from the welcome mail
        read.turn_done()
        if turn["number"] % 10 == 0:
            say(f"  turn {turn['number']} resolved")
    last = ref.store.current_turn(match_id)
    return f"{last['number']} turns, status {ref.store.match(match_id)['status']}"


class _Reader:
    """The players' reading: each turn's sent mails, deleted once ``KEEP_TURNS`` newer
    turns came, except the first turn's (the welcomes a newcomer looks at first)."""

    def __init__(self, out: Path) -> None:
        self.box = mailbox.Maildir(str(out), factory=None, create=True)
        self.seen: set[str] = set()
        self.turns: list[set[str]] = []

    def turn_done(self) -> None:
        new = set(self.box.keys()) - self.seen
        self.seen |= new
        self.turns.append(new)
        if len(self.turns) > KEEP_TURNS + 1:
            for key in self.turns.pop(1):   # [0] is the first turn's
                self.box.discard(key)
                self.seen.discard(key)


def _keys(out: Path) -> dict[str, str]:
    """What each player learnt from the welcome mails: address -> key."""
    found = {}
    box = mailbox.Maildir(str(out), factory=None, create=True)
    for k in box.keys():
        msg = email.message_from_bytes(box.get_bytes(k), policy=policy.default)
        if "elcome" in (msg["Subject"] or "") or "illkommen" in (msg["Subject"] or ""):
            body = msg.get_body(("plain",))     # the text part: a welcome carries a calendar part too
            m = KEY.search(body.get_content() if body is not None else "")
            if m:
                found[(msg["To"] or "").strip().lower()] = m.group(1)
    return found


def _replace_abandoned(ref, service, clock, cfg, match_id: str, gm_key: str, bot_turns: dict) -> bool:
    """The demo's GM answers the referee's request: every seat marked abandoned, or
    handed to a bot by the dropouts rule that has played a whole turn since, goes by a GM
    mail to a successor (``<seat>.2@demo.test``).  ``bot_turns``: seat -> the first turn its
    bot was seen to decide (a bot decides when its turn opens: played once it decides another)."""
    from referee.store import bots as bot_rows
    from referee.store import seats as seat_rows

    given = False
    marked = {seat: row["turn"] for seat, row in seat_rows.seat_status(ref.store, match_id).items()
              if row["mark"] == "abandoned"}
    number = ref.store.current_turn(match_id)["number"]
    for seat, row in bot_rows.bots(ref.store, match_id).items():
        decided = int((row["decided"] or "0").split(".")[0])
        if row["why"] == "dropout" and decided:
            first = bot_turns.setdefault(seat, decided)
            if decided > first or first < number:   # the bot played a turn for it
                marked[seat] = first
    for seat, at in sorted(marked.items()):
        doc = yaml.safe_dump({"match": match_id, "player": "gm", "key": gm_key, "command": "replace", "seat": seat,
                              "email": f"{seat}.2@demo.test", "name": f"{seat.title()} II"}, sort_keys=False)
        msg = EmailMessage(policy=policy.default)
        msg["From"], msg["To"], msg["Subject"] = "GM <gm@demo.test>", "referee@localhost", f"{match_id} replace {seat}"
        msg["Date"] = format_datetime(clock.now)
        msg["Message-ID"] = f"<{match_id}.replace.{seat}.{at}@demo.test>"
        msg.set_content(f"{doc}\n")
        mailbox.Maildir(str(cfg.mail_in.maildir), factory=None, create=True).add(msg.as_bytes())
        given = True
    if given:
        service.poll_once()
        service.flush()
    return given


def _drop(inbox: Path, clock: SimClock, match_id: str, player: str, key: str, turn: int, orders: dict,
          address: str | None = None) -> None:
    doc = yaml.safe_dump({"match": match_id, "player": player, "key": key, "turn": turn, "orders": orders},
                         sort_keys=False, allow_unicode=True)
    msg = EmailMessage(policy=policy.default)
    msg["From"] = f"{player.title()} <{address or player + '@demo.test'}>"
    msg["To"] = "referee@localhost"
    msg["Subject"] = f"{match_id} turn {turn}"
    msg["Date"] = format_datetime(clock.now)
    msg["Message-ID"] = f"<{match_id}.{turn}.{player}@demo.test>"
    msg.set_content(f"Hello referee,\n\nmy orders:\n\n{doc}\n-- \n{player.title()}\n")
    box = mailbox.Maildir(str(inbox), factory=None, create=True)
    box.add(msg.as_bytes())

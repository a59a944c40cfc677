"""The league ``bench/close_many.py`` closes (and ``close_latency``, ``send_reports``, ``render_reports``
build on): N matches of Founding Fathers (3–5 players) and the Perricumer Ratsspiel (5–12)
alternating, played a few turns with random orders, and the games' own work of a close, the
baseline every close figure is divided by.  Not a bench itself (the smoke test skips ``_`` files).

Built by mail, as a league is: the GM creates each match (``create_match``, as ``referee create``
does); every other step is a mail through the referee's door (``parse_inbound`` + ``Referee.handle``,
one transaction each, its raw mail archived): the GM's ``observer`` commands (1–3 observers a
match, the third reading the match's other language, so a close renders the public report in both)
and every awaited player's random orders for every turn, with the key from the player's welcome
mail.  What the build queued (welcomes, answers, its own turns' reports) is marked sent through the
store's own outbox calls (``claim_due`` + ``record_attempt``), as a sink that took it would leave it:
the build's mail is not what a bench times."""
from __future__ import annotations

import dataclasses
import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml

from referee.app.referee import Referee
from referee.authority.base import Settings
from referee.game_api import contract, registry
from referee.game_api.contract import GM, Rng, derive_seed
from referee.game_api.scripted import random_player
from referee.mail.inbound import parse_inbound
from referee.runtime import gc_policy
from referee.store import open_store

# the readers' views as the close asks them; a checkout from before contract.views_of (measured against,
# bench/close_instructions.py --against) asked view once a reader
views_of = getattr(contract, "views_of", None) or (lambda rules, state, viewers: {v: rules.view(state, v) for v in viewers})

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
REFEREE = "referee@league.test"
KEY = re.compile(rb"\b([2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4})\b")


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def league(i: int) -> tuple[str, list[str], str]:
    """The i-th match of the mix: (game, seats, language)."""
    if i % 2 == 0:
        return "founding_fathers", [f"f{k}" for k in range(3 + (i // 2) % 3)], ("en", "de")[(i // 2) % 2]
    return "perricumer_ratsspiel", [f"r{k}" for k in range(5 + (i // 2) % 8)], "de"


def spec_of(i: int) -> dict:
    game, seats, lang = league(i)
    spec = {"id": f"m{i:04d}", "game": game, "lang": lang, "gm": f"gm{i % 50}@league.test",
            "timezone": "Europe/Berlin", "schedule": {"period": "48h"}, "early_close": False,
            "players": [{"id": s, "name": s.title(), "email": f"{s}.{i}@league.test"} for s in seats]}
    sample = getattr(registry.get(game), "sample_options", None)
    if callable(sample):
        spec["options"] = sample(seats)
    return spec


def mail_in(ref: Referee, sender: str, body: str, message_id: str) -> str:
    """One mail through the referee's door, as the service hands it over; its outcome."""
    head = f"From: {sender}\nTo: {REFEREE}\nSubject: league\nMessage-ID: {message_id}\n" \
           "Content-Type: text/plain; charset=utf-8\n\n"
    raw = (head + body).replace("\n", "\r\n").encode()
    return ref.handle(parse_inbound(raw, own_addresses=[REFEREE])).outcome


def keys_of(ref: Referee, match_id: str) -> dict[str, str]:
    """Each seat's key, read from its welcome mail (as its player reads it)."""
    emails = {p["email"]: p["id"] for p in ref.store.players(match_id)}
    keys = {}
    for entry in ref.store.outbox(match_id):
        found = KEY.search(entry["message"] or b"")
        if found and entry["dedupe"].startswith("welcome:") and entry["recipient"] in emails:
            keys[emails[entry["recipient"]]] = found.group(1).decode()
    return keys


def observers_of(i: int) -> list[tuple[str, str]]:
    """The i-th match's observers (address, language): 1–3, the third in the match's other language."""
    lang = league(i)[2]
    return [(f"obs{k}.{i}@league.test", ("en" if lang == "de" else "de") if k == 2 else lang) for k in range(1 + i % 3)]


def orders_in(ref: Referee, match_id: str, rng: Rng, keys: dict[str, str]) -> None:
    """Every awaited player's random orders, each in a mail of its own through the door (none for a match
    that has ended)."""
    match = ref.store.match(match_id)
    turn = ref.store.current_turn(match_id)
    if match["status"] != "running" or turn is None or turn["status"] != "open":
        return
    rules = registry.get(match["game"])
    state = rules.load(turn["state"])
    rand = random_player(rules)
    emails = {p["id"]: p["email"] for p in ref.store.players(match_id)}
    for pid in sorted(turn["awaiting"]):
        if pid.startswith("@"):
            continue
        doc = yaml.safe_dump({"match": match_id, "player": pid, "key": keys[pid], "turn": turn["number"],
                              "orders": rand(state, pid, rng)}, allow_unicode=True, sort_keys=False)
        said = mail_in(ref, emails[pid], f"Hello,\n\n{doc}\n-- \n{pid}\n", f"<{match_id}.{turn['number']}.{pid}@league.test>")
        if said != "processed":
            raise SystemExit(f"the league's orders of {match_id}:{turn['number']} {pid} were {said}")


def mark_sent(ref: Referee) -> int:
    """Every queued mail marked sent through the store's own outbox calls (the build's mail is not timed)."""
    count = 0
    while rows := ref.store.claim_due(ref.now() + timedelta(days=3650), 5000, "league-build", lambda *_: True):
        with ref.store.transaction():
            for row in rows:
                ref.store.record_attempt(row["id"], "sent", None, ref.now(), ref.now())
        count += len(rows)
    return count


def build(root: Path, n: int, turns: int, settings: Settings | None = None) -> tuple[Referee, Clock]:
    """N matches of the mix built by mail, ``turns`` turns in, every awaited player's orders in, the
    clock past their deadline; what the build queued marked sent."""
    clock = Clock()
    settings = settings or Settings(address=REFEREE)
    # a league's GM sends many commands within the hour: the per-sender limit is not what is built here
    ref = Referee(open_store(root / "referee.sqlite"), root / "turns", clock=clock,
                  settings=dataclasses.replace(settings, rate_limit_per_hour=10**9))
    rng = Rng(derive_seed("close_many", n))
    keys = {}
    for i in range(n):
        spec = spec_of(i)
        gm_key = ref.create_match(spec, seed=f"league-{i}").gm_key
        keys[spec["id"]] = keys_of(ref, spec["id"])
        for k, (address, lang) in enumerate(observers_of(i)):
            said = mail_in(ref, spec["gm"], f"match: {spec['id']}\nplayer: gm\nkey: {gm_key}\ncommand: observer\n"
                                            f"email: {address}\nlang: {lang}\n", f"<obs{k}.{i}@league.test>")
            if said != "processed":
                raise SystemExit(f"the observer {address} of {spec['id']} was {said}")
    ref.tick()
    for _ in range(turns + 1):
        for i in range(n):
            orders_in(ref, f"m{i:04d}", rng, keys[f"m{i:04d}"])
        if _ < turns:
            clock.now += timedelta(hours=49)
            ref.tick()
    mark_sent(ref)   # the build's own mail is not what is measured
    clock.now += timedelta(hours=49)
    return Referee(ref.store, root / "turns", clock=clock, settings=settings), clock


def games_inputs(ref: Referee, n: int) -> list:
    """What the games' own work of every due close starts from, read once: (rules, turn, orders, seats, lang);
    only the open turns, which the tick closes."""
    work = []
    for i in range(n):
        match = ref.store.match(f"m{i:04d}")
        rules = registry.get(match["game"])
        turn = ref.store.current_turn(match["id"])
        if turn is None or turn["status"] != "open":   # a match that ended: the tick closes nothing there
            continue
        subs = ref.store.submissions(match["id"], turn["number"])
        work.append((rules, turn, subs, [p["id"] for p in ref.store.players(match["id"])],
                     match["spec"].get("language") or "en"))
    return work


def games_own_work(work: list, together: bool = True) -> float:
    """CPU seconds for what the games do in a close: load, resolve, view and order form for every
    reader, as the close asks for them (every reader's view at once, ``views_of``; not
    ``together``: one ``view`` call a reader, as closes did before) and under the close's
    collector policy (``gc_policy.closing_pass``)."""
    t = time.process_time()
    with gc_policy.closing_pass():
        for rules, turn, subs, seats, lang in work:
            state = rules.load(turn["state"])
            orders = {p: rules.order_schema(state, stage).model_validate(subs[p]["orders"]) if p in subs
                      else rules.default_orders(state, p) for p, stage in sorted(turn["awaiting"].items())}
            res = rules.resolve(state, orders, Rng(turn["seed"]))
            after, readers = rules.awaiting(res.state), seats + [None, GM]
            if together:
                views_of(rules, res.state, readers)
            else:
                for viewer in readers:
                    rules.view(res.state, viewer)
            for viewer in readers:
                if viewer in after:
                    rules.order_form(res.state, viewer, lang)
    return time.process_time() - t

"""Open matches (issue 18): a match file with ``seats:`` beyond its ``players:``
is created *open*: stored with the seats named so far and no turn yet; players
take the free seats with ``command: join`` (joining.py).  When every seat is
taken (or on the GM's ``start``) the game is set up with the seated players,
each gets the welcome mail with the key they play with, and the clock starts
(or waits for the GM's start, with ``start: manual``).

Functions over ``Matches`` (its store, archive, renderer, look-ups, queue,
welcome mails and match record), so that ``matches.py`` keeps one hook."""
from __future__ import annotations

import secrets

from referee.authority import keys
from referee.authority.wording import Refusal
from referee.game_api import registry
from referee.game_api.contract import Rng, derive_seed, phrase
from referee.store import seats as seat_rows


def open_match(m, spec, gm_key: str | None = None, seed: str | None = None):
    """Create ``spec`` open for joining; returns ``Created`` (the GM key)."""
    from referee.authority.matches.bot_seats import add_seats
    from referee.authority.matches.match_file import Created, MatchError, within_the_calendar

    try:
        rules = registry.get(spec.game)
    except LookupError as e:
        raise MatchError([str(e)]) from None
    seats = [p.id for p in spec.players] + spec.free_seats()
    problems = [phrase(rules, p, "en") for p in rules.check_options(seats, spec.game_options()) if p.is_error]
    now = m.now()
    try:
        within_the_calendar(m.lookups.timing({"spec": spec.model_dump(mode="json")}), now)
    except Exception as e:
        problems.append(f"schedule: {e}")
    if problems:
        raise MatchError(problems)
    gm_key = gm_key or keys.new_key()
    with m.store.transaction():
        if m.store.match(spec.id) is not None:
            raise MatchError([f"a match called {spec.id!r} exists already"])
        m.store.add_match(id=spec.id, game=rules.name, version=rules.version, spec=spec.model_dump(mode="json"),
                          seed=seed or secrets.token_hex(16), status="open", gm_email=spec.gm.lower(),
                          gm_key_hash=keys.hash_key(gm_key), created=now)
        # their keys come with the welcome mail at the start; a bot seat has no address (issue 35)
        add_seats(m.store, spec, {p.id: keys.new_key() for p in spec.players}, now)
        for o in spec.observers:
            m.store.add_observer(spec.id, o.email, o.lang)
        match = m.store.match(spec.id)
        tell_gm(m, match, "opened", key=gm_key)
    return Created(spec.id, gm_key)


def all_seats(match: dict) -> list[str]:
    """Every seat of an open match, in order: named players' first, then the free ones."""
    spec = match["spec"]
    if isinstance(spec.get("seats"), list):
        return list(spec["seats"])
    named = [p["id"] for p in spec.get("players") or []]
    from referee.authority.matches.spec import MatchSpec
    return named + MatchSpec.model_validate(spec).free_seats()


def lobby(m, match: dict) -> dict:
    """What the GM and the joiners read of an open match: seats, who holds them, the wait list."""
    held = {p["id"]: p for p in m.store.players(match["id"])}
    rules = m.lookups.rules(match)
    return {"match": m.lookups.match_ctx(match, rules), "status": match["status"],
            "seats": [{"id": s, "name": held[s]["name"] if s in held else None} for s in all_seats(match)],
            "waiting": [w["name"] for w in seat_rows.waiting(m.store, match["id"])],
            "closed": seat_rows.joining_closed(m.store, match["id"]), "min_players": rules.min_players,
            "address": m.settings.address}


def tell_gm(m, match: dict, event: str, **extra) -> None:
    lang = m.lookups.lang_of(match)
    subject, text = m.renderer.mail("joining", lang, event=event, role="gm", **lobby(m, match), **extra)
    stamp = f"{len(m.store.players(match['id']))}:{len(seat_rows.waiting(m.store, match['id']))}:{m.now().isoformat()}"
    m.queue.queue(f"joining:{match['id']}:gm:{event}:{stamp}:{extra.get('who', '')}", match["id"], match["gm_email"],
                  subject, text)


def begin(m, match_id: str, by_gm: bool) -> str:
    """Set the game up with the seated players and send every welcome; the clock runs
    from now unless the match file says ``start: manual`` and the GM did not start it."""
    match = m.store.match(match_id)
    rules = m.lookups.rules(match)
    players = m.store.players(match_id)
    ids = [p["id"] for p in players]
    from referee.authority.matches.spec import MatchSpec
    options = MatchSpec.model_validate(match["spec"]).game_options()
    if len(ids) < rules.min_players or any(p.is_error for p in rules.check_options(ids, options)):
        raise Refusal("join.too_few", "command", seated=len(ids), least=rules.min_players)
    now = m.now()
    state = rules.setup(ids, options, Rng(derive_seed(match["seed"], "setup")))
    running = by_gm or match["spec"].get("start", "auto") == "auto"
    deadline = m.lookups.timing(match).first_deadline(now) if running else None
    fresh = {}
    for p in players:   # the key played with: a join's key only held the seat
        fresh[p["id"]] = keys.new_key()
        seat_rows.set_key_hash(m.store, match_id, p["id"], keys.hash_key(fresh[p["id"]]))
    m.store.add_turn(match=match_id, number=1, state=rules.dump(state), awaiting=rules.awaiting(state),
                     deadline=deadline, seed=derive_seed(match["seed"], 1), opened=now)
    m.store.set_match_status(match_id, "running" if running else "waiting")
    match, turn = m.store.match(match_id), m.store.current_turn(match_id)
    for p in m.store.players(match_id):
        m.welcome(match, turn, rules, state, p, fresh[p["id"]], "welcome")
    tell_gm(m, match, "started")
    m.archive.write_match(match_id, m.match_record(match, rules, state))
    return f"started with {len(ids)} players"

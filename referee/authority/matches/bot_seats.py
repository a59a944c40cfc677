"""Seats a computer player holds (issue 35): seated from the match file
(``bot: true``), given by the GM (``replace seat=X bot=true``) or handed over by the
dropouts rule (``dropouts: {to_bot: true}``) until the GM gives the seat to a person.

A bot's seat has no address (``players.email`` is ''), so nothing is ever mailed to
it (``welcome`` returns at once, the queue drops a mail without a recipient), and a
key nobody knows; its row in ``seat_bots`` says how strong it plays.  Its orders come
from ``gate/bot_orders.py`` through the intake's checks."""
from __future__ import annotations

from referee.authority import keys
from referee.store import bots as bot_rows


def add_seats(store, spec, player_keys: dict[str, str], now) -> None:
    """The match file's seats, in order: a person's with their address, a bot's with none."""
    for p in spec.players:
        store.add_player(spec.id, p.id, p.name, p.email or "", p.lang, keys.hash_key(player_keys[p.id]))
        if p.bot is not None:
            bot_rows.set_bot(store, spec.id, p.id, p.bot, "file", now)


def bot_marks(store, match_id: str, players: list[dict]) -> list[dict]:
    """``players`` (dicts with an ``id``) with ``bot: strength`` on the bots' seats: the
    archive's match record says which seats were bots, for the site and the reader."""
    held = bot_rows.bots(store, match_id)
    return [dict(p, bot=held[p["id"]]["strength"]) if p["id"] in held else p for p in players]


def other_bots(store, match_id: str, seat: str) -> list[dict]:
    """The seats but ``seat`` a bot plays, as {id, name} in seat order: a welcome names them.
    ``seat`` is left out because a newcomer taking a bot's seat is welcomed before its bot
    row goes."""
    held = bot_rows.bots(store, match_id)
    return [{"id": p["id"], "name": p["name"]} for p in store.players(match_id) if p["id"] in held and p["id"] != seat]


def to_bot(store, match_id: str, seat: str, strength: str, why: str, now) -> None:
    """The seat goes to a bot: no address, a key nobody holds, its history kept."""
    store.replace_player(match_id, seat, "", keys.hash_key(keys.new_key()), None, now)
    bot_rows.set_bot(store, match_id, seat, strength, why, now)


def restrength(store, match_id: str, held: dict, strength: str, now) -> str:
    """``replace bot=true`` on a seat a bot plays already (``held``, its bot row): at most its
    strength changes, why it is a bot's stays, and no player is told (it was a bot's seat and
    stays one).  Returns what the GM's command line says."""
    seat, was = held["player"], held["strength"]
    if was == strength:
        return f"{seat} is played by a bot already ({strength}): nothing changed"
    bot_rows.set_bot(store, match_id, seat, strength, held["why"], now)
    return f"{seat} is still played by a bot, now {strength} (was {was}); the players are not told"


def had_a_person(store, match_id: str, seat: str) -> bool:
    """Whether a person played ``seat`` before: some holder it was taken from had an address
    (a bot's seat from the match file had none, so a person taking it plays it for the first time)."""
    return any(r["player"] == seat and r["old_email"] for r in store.player_history(match_id))


def tell(parts, match: dict, seat: dict, event: str, *, missed: int = 0, strength: str = "",
         gm: bool = False, left: dict | None = None) -> None:
    """Every player (``left``: the one who lost the seat, told as "self"), and the GM if
    ``gm``, hears what became of the seat: ``event`` dropout | gm (a bot has it) or
    person (someone plays it again).  ``parts``: anything with store, renderer,
    lookups, queue (Dropouts, Commands)."""
    ctx = parts.lookups.match_ctx(match, parts.lookups.rules(match))
    turn = parts.store.current_turn(match["id"])
    tag = f"{match['id']}:{turn['number']}.{turn['rev']}:{seat['id']}:{event}" if turn else f"{match['id']}:{event}"
    readers = [(p["email"], parts.lookups.lang_of(match, p), "player", p["id"])
               for p in parts.store.players(match["id"]) if p["id"] != seat["id"] and p["email"]]
    if left is not None and left.get("email"):
        readers.append((left["email"], parts.lookups.lang_of(match, left), "self", f"self:{left['email']}"))
    if gm:
        readers.append((match["gm_email"], parts.lookups.lang_of(match), "gm", "@gm"))
    shown = dict(seat, name=left["name"]) if left is not None else seat
    again = event == "person" and had_a_person(parts.store, match["id"], seat["id"])
    for address, lang, role, who in readers:
        subject, text = parts.renderer.mail("seat_bot", lang, match=ctx, seat=shown, event=event, role=role,
                                            missed=missed, strength=strength, again=again,
                                            address=parts.lookups.settings.address)
        parts.queue.queue(f"seat-bot:{tag}:{who}", match["id"], address, subject, text)

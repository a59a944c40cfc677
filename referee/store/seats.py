"""The store's part for a seat's life (issue 18): missed turns, warned and
abandoned seats, absences and address changes waiting for their code.

Plain functions over a store's three query primitives (``_one``, ``_all``,
``_exec``), in portable SQL (``?`` placeholders, ``ON CONFLICT``), so that a
store on another database serves them as long as it offers those three.
Times are aware datetimes in, UTC ISO text in the tables.
"""
from __future__ import annotations

from datetime import UTC, datetime

from referee.store.batches import insert_rows


def _iso(t: datetime) -> str:
    return t.astimezone(UTC).isoformat()


# -- missed turns -------------------------------------------------------------
def record_turn(store, match: str, turn: int, missed: dict[str, bool]) -> None:
    """What turn ``turn`` was for each seat counted (True: defaulted); rows of this
    turn and later ones (a rollback's) are written anew, so a close repeated counts once."""
    store._exec("DELETE FROM seat_turns WHERE match=? AND turn>=?", (match, turn))
    # one statement for a table's seats, not one each (issue 8)
    insert_rows(store, "INSERT INTO seat_turns (match, player, turn, missed) VALUES ",
                [(match, player, turn, int(was_missed)) for player, was_missed in sorted(missed.items())], _ROWS,
                " ON CONFLICT (match, player, turn) DO UPDATE SET missed=excluded.missed")


_ROWS = 200   # rows a statement: 800 parameters, within SQLite's oldest limit (999)


def streak(store, match: str, player: str, cap: int) -> int:
    """Turns missed in a row, newest first, counted up to ``cap``."""
    rows = store._all("SELECT missed FROM seat_turns WHERE match=? AND player=? ORDER BY turn DESC LIMIT ?",
                      (match, player, cap))
    count = 0
    for row in rows:
        if not row["missed"]:
            break
        count += 1
    return count


def streaks(store, match: str, cap: int = 50) -> dict[str, int]:
    """Every seat's missed turns in a row (for the GM's status)."""
    rows = store._all("SELECT player, missed FROM seat_turns WHERE match=? ORDER BY player, turn DESC", (match,))
    out: dict[str, int] = {}
    broken: set[str] = set()
    for row in rows:
        player = row["player"]
        out.setdefault(player, 0)
        if player in broken or out[player] >= cap:
            continue
        if row["missed"]:
            out[player] += 1
        else:
            broken.add(player)
    return out


def seat_status(store, match: str) -> dict[str, dict]:
    """{seat: its row} of the seats marked warned or abandoned (``mark``)."""
    return {r["player"]: r for r in store._all("SELECT * FROM seat_status WHERE match=?", (match,))}


def set_seat_status(store, match: str, player: str, mark: str | None, turn: int = 0,
                    at: datetime | None = None) -> None:
    if mark is None:
        store._exec("DELETE FROM seat_status WHERE match=? AND player=?", (match, player))
        return
    store._exec("INSERT INTO seat_status (match, player, mark, turn, at) VALUES (?,?,?,?,?)"
                " ON CONFLICT (match, player) DO UPDATE SET mark=excluded.mark, turn=excluded.turn, at=excluded.at",
                (match, player, mark, turn, _iso(at or datetime.now(UTC))))


def forget_seat(store, match: str, player: str) -> None:
    """A seat given to someone new starts with a clean record."""
    store._exec("DELETE FROM seat_turns WHERE match=? AND player=?", (match, player))
    store._exec("DELETE FROM seat_prefs WHERE match=? AND player=?", (match, player))
    store._exec("DELETE FROM seat_status WHERE match=? AND player=?", (match, player))


# -- absences -----------------------------------------------------------------
def add_absence(store, match: str, player: str, start: datetime, until: datetime, at: datetime) -> None:
    store._exec("INSERT INTO absences (match, player, start, until, at) VALUES (?,?,?,?,?)"
                " ON CONFLICT (match, player, start) DO UPDATE SET until=excluded.until, at=excluded.at",
                (match, player, _iso(start), _iso(until), _iso(at)))


def absences(store, match: str, player: str | None = None) -> list[dict]:
    if player is None:
        return store._all("SELECT * FROM absences WHERE match=? ORDER BY start", (match,))
    return store._all("SELECT * FROM absences WHERE match=? AND player=? ORDER BY start", (match, player))


def absent_at(store, match: str, moment: datetime) -> set[str]:
    """The seats away at ``moment``."""
    at = _iso(moment)
    return {r["player"] for r in store._all("SELECT player FROM absences WHERE match=? AND start<=? AND until>?",
                                            (match, at, at))}


# -- address changes waiting for their code --------------------------------------
def pending_address(store, match: str, player: str) -> dict | None:
    return store._one("SELECT * FROM address_changes WHERE match=? AND player=?", (match, player))


def put_pending_address(store, match: str, player: str, new_email: str, code_hash: str, expires: datetime,
                        sent: int, first_sent: datetime) -> None:
    store._exec("INSERT INTO address_changes (match, player, new_email, code_hash, expires, tries, sent, first_sent)"
                " VALUES (?,?,?,?,?,0,?,?) ON CONFLICT (match, player) DO UPDATE SET new_email=excluded.new_email,"
                " code_hash=excluded.code_hash, expires=excluded.expires, tries=0, sent=excluded.sent,"
                " first_sent=excluded.first_sent",
                (match, player, new_email.lower(), code_hash, _iso(expires), sent, _iso(first_sent)))


def count_wrong_code(store, match: str, player: str) -> None:
    store._exec("UPDATE address_changes SET tries=tries+1 WHERE match=? AND player=?", (match, player))


def void_pending_address(store, match: str, player: str) -> None:
    """No code holds any more, but the day's count of codes sent stays (issue 32)."""
    store._exec("UPDATE address_changes SET code_hash='' WHERE match=? AND player=?", (match, player))


def change_address(store, match: str, player: str, new_email: str, at: datetime) -> None:
    """The seat plays from ``new_email`` now; its key stays (the history keeps the old address)."""
    old = store._one("SELECT email FROM players WHERE match=? AND id=?", (match, player))
    store._exec("INSERT INTO player_history (match, player, old_email, new_email, at) VALUES (?,?,?,?,?)",
                (match, player, old["email"], new_email.lower(), _iso(at)))
    store._exec("UPDATE players SET email=? WHERE match=? AND id=?", (new_email.lower(), match, player))


def set_key_hash(store, match: str, player: str, key_hash: str) -> None:
    store._exec("UPDATE players SET key_hash=? WHERE match=? AND id=?", (key_hash, match, player))


def set_gm_key_hash(store, match: str, key_hash: str) -> None:
    store._exec("UPDATE matches SET gm_key_hash=? WHERE id=?", (key_hash, match))


# -- joining: open seats, the wait list ------------------------------------------
def joining_closed(store, match: str) -> bool:
    row = store._one("SELECT closed FROM joining WHERE match=?", (match,))
    return bool(row and row["closed"])


def set_joining_closed(store, match: str, closed: bool) -> None:
    store._exec("INSERT INTO joining (match, closed) VALUES (?,?)"
                " ON CONFLICT (match) DO UPDATE SET closed=excluded.closed", (match, int(closed)))


def remove_player(store, match: str, player: str) -> None:
    """A seat of a match not yet started given up: it is free again."""
    store._exec("DELETE FROM players WHERE match=? AND id=?", (match, player))


def waiting(store, match: str) -> list[dict]:
    return store._all("SELECT * FROM wait_list WHERE match=? ORDER BY pos", (match,))


def add_waiting(store, match: str, email: str, name: str, lang: str | None, at: datetime) -> int:
    """Put ``email`` at the end of the wait list; returns its place (1 = next)."""
    last = store._one("SELECT MAX(pos) AS pos FROM wait_list WHERE match=?", (match,))
    pos = (last["pos"] or 0) + 1 if last else 1
    store._exec("INSERT INTO wait_list (match, email, name, lang, pos, at) VALUES (?,?,?,?,?,?)",
                (match, email.lower(), name, lang, pos, _iso(at)))
    return len(waiting(store, match))


def drop_waiting(store, match: str, email: str) -> None:
    store._exec("DELETE FROM wait_list WHERE match=? AND email=?", (match, email.lower()))


# -- joins waiting for their code (issue 32) -------------------------------------------
def join_request(store, match: str, email: str) -> dict | None:
    return store._one("SELECT * FROM join_requests WHERE match=? AND email=?", (match, email.lower()))


def put_join_request(store, match: str, email: str, name: str, lang: str | None, seat: str, code_hash: str,
                     expires: datetime, sent: int, first_sent: datetime) -> None:
    store._exec("INSERT INTO join_requests (match, email, name, lang, seat, code_hash, expires, tries, sent, first_sent)"
                " VALUES (?,?,?,?,?,?,?,0,?,?) ON CONFLICT (match, email) DO UPDATE SET name=excluded.name,"
                " lang=excluded.lang, seat=excluded.seat, code_hash=excluded.code_hash, expires=excluded.expires,"
                " tries=0, sent=excluded.sent, first_sent=excluded.first_sent",
                (match, email.lower(), name, lang, seat, code_hash, _iso(expires), sent, _iso(first_sent)))


def count_wrong_join_code(store, match: str, email: str) -> None:
    store._exec("UPDATE join_requests SET tries=tries+1 WHERE match=? AND email=?", (match, email.lower()))


def void_join_request(store, match: str, email: str) -> None:
    """The code is used up, voided or expired; the row keeps the day's count of codes sent."""
    store._exec("UPDATE join_requests SET code_hash='' WHERE match=? AND email=?", (match, email.lower()))


def forget_join_requests(store, match: str, day_began: datetime, now: datetime) -> None:
    """Requests whose day of codes (began before ``day_began``) and code are both over."""
    store._exec("DELETE FROM join_requests WHERE match=? AND first_sent<? AND expires<?",
                (match, _iso(day_began), _iso(now)))


# -- a seat's settings (issue 38) -----------------------------------------------
def wants_pictures(store, match: str, player: str) -> bool:
    """Whether the seat's reports carry the board picture (the default), or not ('command: no-pictures')."""
    row = store._one("SELECT pictures FROM seat_prefs WHERE match=? AND player=?", (match, player))
    return row is None or bool(row["pictures"])


def set_pictures(store, match: str, player: str, wanted: bool, at: datetime) -> None:
    store._exec("INSERT INTO seat_prefs (match, player, pictures, at) VALUES (?,?,?,?)"
                " ON CONFLICT (match, player) DO UPDATE SET pictures=excluded.pictures, at=excluded.at",
                (match, player, int(wanted), _iso(at)))

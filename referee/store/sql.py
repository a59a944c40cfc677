"""The store's SQL, shared by both backends: rows in, dicts out, JSON columns
decoded here.  A backend (``sqlite.SqliteBackend``, ``postgres.PostgresBackend``)
owns the connection, transactions and dialect; everything written here is
portable SQL with ``?`` placeholders (the PostgreSQL backend translates them in
one place), so a method added to ``SqlStore`` runs on both.

Several workers may share a PostgreSQL store: the ``claim_*`` methods are the
locks they take (on SQLite every write transaction holds the whole file, so
there they only check).
"""
from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from urllib.parse import urlsplit, urlunsplit

from referee.store import archiving
from referee.store.batches import insert_rows
from referee.store.rows import _dumps, _iso, _row, _turn

_ENQUEUE = "INSERT INTO outbox (dedupe, match, recipient, message, next_try, created) VALUES "
_ROW = "(?,?,?,?,?,?)"
_ONCE = " ON CONFLICT DO NOTHING"   # a dedupe key queued or sent already

# the next place in a match's list (players, observers, history keep the order they came in)
_NEXT_SEQ = "(SELECT COALESCE(MAX(seq), 0) + 1 FROM {table} WHERE match=?)"


def without_password(url: str) -> str:
    """The address as it may be shown and logged."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))


class SqlStore:
    """The store: every method one or a few portable statements on ``self._db``,
    the backend (``execute`` like sqlite3's, ``transaction``, ``dialect``)."""

    def __init__(self, backend, migrate: bool = False) -> None:
        from referee.store import migrations

        self._db = backend
        self.dialect: str = backend.dialect
        self._batched = threading.local()   # enqueue_batch's rows, per thread
        try:
            # ``migrate``: bring an older store up to date (``referee migrate``); the versions applied
            self.migrated: list[int] = migrations.open_checked(self, migrate)
        except BaseException:
            backend.close()
            raise

    @property
    def location(self) -> str:
        """Where the store lives: a file path, or a PostgreSQL address without password."""
        return self._db.location

    # -- plumbing -------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[SqlStore]:
        """One write transaction; nested calls join the outer one."""
        with self._db.transaction():
            yield self

    def in_transaction(self) -> bool:
        """Whether this thread is inside one of the store's write transactions already."""
        return self._db.in_transaction()

    def _one(self, sql: str, args: tuple = ()) -> dict | None:
        return _row(self._db.execute(sql, args).fetchone())

    def _all(self, sql: str, args: tuple = ()) -> list[dict]:
        return [_row(r) for r in self._db.execute(sql, args).fetchall()]

    def _exec(self, sql: str, args: tuple = ()) -> int:
        return self._db.execute(sql, args).rowcount

    def close(self) -> None:
        self._db.close()

    def end_sessions(self, pids: list[int]) -> None:
        """What the store's sessions of the processes ``pids`` (dead ones) held is let go at once."""
        self._db.end_sessions(pids)

    def checkpoint(self) -> None:
        """Fold a write-ahead log into the database file (SQLite); a no-op elsewhere."""
        self._db.checkpoint()

    # -- matches --------------------------------------------------------
    def add_match(self, *, id: str, game: str, version: str, spec: dict, seed: str, status: str,
                  gm_email: str, gm_key_hash: str, created: datetime) -> None:
        self._exec("INSERT INTO matches (id, game, version, spec, seed, status, gm_email, gm_key_hash, created)"
                   " VALUES (?,?,?,?,?,?,?,?,?)",
                   (id, game, version, _dumps(spec), seed, status, gm_email, gm_key_hash, _iso(created)))

    def match(self, match_id: str) -> dict | None:
        return self._one("SELECT * FROM matches WHERE id=?", (match_id,))

    def matches(self, status: str | None = None) -> list[dict]:
        if status is None:
            return self._all("SELECT * FROM matches ORDER BY id")
        return self._all("SELECT * FROM matches WHERE status=? ORDER BY id", (status,))

    def set_match_status(self, match_id: str, status: str, paused_at: datetime | None = None) -> None:
        self._exec("UPDATE matches SET status=?, paused_at=? WHERE id=?", (status, _iso(paused_at), match_id))

    # -- players and observers -------------------------------------------
    def add_player(self, match: str, id: str, name: str, email: str, lang: str | None, key_hash: str) -> None:
        self._exec("INSERT INTO players (match, id, name, email, lang, key_hash, seq) VALUES (?,?,?,?,?,?,"
                   + _NEXT_SEQ.format(table="players") + ")", (match, id, name, email.lower(), lang, key_hash, match))

    def player(self, match: str, player_id: str) -> dict | None:
        return self._one("SELECT * FROM players WHERE match=? AND id=?", (match, player_id))

    def language_of_address(self, email: str) -> str | None:
        """The language of the newest running match this address plays or
        leads (for answering mail too broken to name its match)."""
        row = self._one(
            "SELECT p.lang AS lang, m.spec AS spec FROM matches m "
            "LEFT JOIN players p ON p.match = m.id AND p.email = ? "
            "WHERE (p.email = ? OR m.gm_email = ?) AND m.status != 'ended' ORDER BY m.created DESC LIMIT 1",
            (email.lower(), email.lower(), email.lower()))
        if row is None:
            return None
        spec_lang = row["spec"].get("language") if isinstance(row["spec"], dict) else None
        return row["lang"] or spec_lang

    def plays_in(self, match: str, email: str) -> bool:
        return self._one("SELECT 1 AS x FROM players WHERE match=? AND email=?", (match, email.lower())) is not None

    def players(self, match: str) -> list[dict]:
        return self._all("SELECT * FROM players WHERE match=? ORDER BY seq", (match,))

    def player_names(self, match: str) -> dict[str, str]:
        """{player id: name} in seat order (cheaper than ``players`` for a reply's lists)."""
        return dict(self._db.execute("SELECT id, name FROM players WHERE match=? ORDER BY seq", (match,)).fetchall())

    def replace_player(self, match: str, player_id: str, email: str, key_hash: str, name: str | None,
                       at: datetime) -> None:
        old = self.player(match, player_id)
        self._exec("INSERT INTO player_history (match, player, old_email, new_email, at, seq) VALUES (?,?,?,?,?,"
                   + _NEXT_SEQ.format(table="player_history") + ")",
                   (match, player_id, old["email"], email.lower(), _iso(at), match))
        self._exec("UPDATE players SET email=?, key_hash=?, name=COALESCE(?, name) WHERE match=? AND id=?",
                   (email.lower(), key_hash, name, match, player_id))

    def player_history(self, match: str) -> list[dict]:
        return self._all("SELECT * FROM player_history WHERE match=? ORDER BY seq", (match,))

    def add_observer(self, match: str, email: str, lang: str | None) -> bool:
        return self._exec("INSERT INTO observers (match, email, lang, seq) VALUES (?,?,?,"
                          + _NEXT_SEQ.format(table="observers") + ") ON CONFLICT DO NOTHING",
                          (match, email.lower(), lang, match)) == 1

    def observers(self, match: str) -> list[dict]:
        return self._all("SELECT * FROM observers WHERE match=? ORDER BY seq", (match,))

    # -- turns ----------------------------------------------------------
    def add_turn(self, *, match: str, number: int, state: dict, awaiting: dict, deadline: datetime | None,
                 seed: int, opened: datetime, rev: int = 0, state_text: str | None = None,
                 standings: dict | None = None) -> None:
        """``state_text``: the state's JSON as encoded already (a close has it from the state's hash);
        ``standings``: ``standings.read`` of the state, as the close that made it read them."""
        self._exec("INSERT INTO turns (match, number, rev, status, state, awaiting, deadline, seed, opened, standings)"
                   " VALUES (?,?,?,?,?,?,?,?,?,?)",
                   (match, number, rev, "open", _dumps(state) if state_text is None else state_text, _dumps(awaiting),
                    _iso(deadline), str(seed), _iso(opened), None if standings is None else _dumps(standings)))

    def turn(self, match: str, number: int) -> dict | None:
        return _turn(self._db.execute("SELECT * FROM turns WHERE match=? AND number=?", (match, number)).fetchone())

    def current_turn(self, match: str) -> dict | None:
        """The newest turn (open while the match runs; resolved once it ended)."""
        return _turn(self._db.execute("SELECT * FROM turns WHERE match=? ORDER BY number DESC LIMIT 1",
                                      (match,)).fetchone())

    def turns(self, match: str) -> list[dict]:
        return [_turn(t) for t in self._db.execute("SELECT * FROM turns WHERE match=? ORDER BY number", (match,))]

    def set_deadline(self, match: str, number: int, deadline: datetime | None) -> None:
        self._exec("UPDATE turns SET deadline=? WHERE match=? AND number=?", (_iso(deadline), match, number))

    def resolve_turn(self, match: str, number: int, result: dict | str, closed: datetime) -> None:
        """``result``: the value, or its JSON text as encoded already (``rows.joined``)."""
        # the closing process writes the archive after the commit: no other worker repairs it meanwhile
        self._exec("UPDATE turns SET status='resolved', result=?, closed=?, archived=0, archiver=?"
                   " WHERE match=? AND number=?", (result if isinstance(result, str) else _dumps(result), _iso(closed),
                                                   archiving.me(), match, number))

    def reopen_turn(self, match: str, number: int, deadline: datetime | None) -> None:
        self._exec("UPDATE turns SET status='open', result=NULL, closed=NULL, archived=0, archiver=NULL, rev=rev+1,"
                   " deadline=? WHERE match=? AND number=?", (_iso(deadline), match, number))

    def delete_turn(self, match: str, number: int) -> None:
        for table in ("submissions", "waits"):
            self._exec(f"DELETE FROM {table} WHERE match=? AND turn=?", (match, number))
        self._exec("DELETE FROM turns WHERE match=? AND number=?", (match, number))

    def set_archived(self, match: str, number: int, result: dict | None = None) -> None:
        """The turn is in the archive; ``result``: what the store keeps of it from now
        on (the reports' bodies are the archive's alone)."""
        if result is None:
            self._exec("UPDATE turns SET archived=1 WHERE match=? AND number=?", (match, number))
        else:
            self._exec("UPDATE turns SET archived=1, result=? WHERE match=? AND number=?",
                       (_dumps(result), match, number))

    def set_archived_many(self, turns: list[tuple[str, int]]) -> None:
        """Flag every (match, number) of ``turns`` archived (their records durable), in one statement."""
        for at in range(0, len(turns), 200):   # bound the statement's parameters
            part = turns[at:at + 200]
            self._exec("UPDATE turns SET archived=1 WHERE " + " OR ".join(["(match=? AND number=?)"] * len(part)),
                       tuple(v for turn in part for v in turn))

    def take_unarchived(self) -> list[dict]:
        """Resolved turns whose archive is not written, and that no other live
        worker is writing (``archiving``): each one returned is taken for this
        process (a compare-and-set on its archiver, so two repairing workers never
        both take it)."""
        return archiving.take(self)

    # -- submissions and wait flags -------------------------------------
    def put_submission(self, match: str, turn: int, player: str, orders: dict, message_id: str,
                       content_hash: str, received: datetime) -> None:
        self._exec("INSERT INTO submissions (match, turn, player, orders, message_id, content_hash, received)"
                   " VALUES (?,?,?,?,?,?,?) ON CONFLICT (match, turn, player) DO UPDATE SET orders=excluded.orders,"
                   " message_id=excluded.message_id, content_hash=excluded.content_hash, received=excluded.received",
                   (match, turn, player, _dumps(orders), message_id, content_hash, _iso(received)))

    def delete_submission(self, match: str, turn: int, player: str) -> bool:
        return self._exec("DELETE FROM submissions WHERE match=? AND turn=? AND player=?", (match, turn, player)) == 1

    def submissions(self, match: str, turn: int) -> dict[str, dict]:
        rows = self._all("SELECT * FROM submissions WHERE match=? AND turn=?", (match, turn))
        return {r["player"]: r for r in rows}

    def submitted(self, match: str, turn: int) -> set[str]:
        """Who has orders stored for the turn (ids only)."""
        return {r[0] for r in self._db.execute("SELECT player FROM submissions WHERE match=? AND turn=?",
                                               (match, turn)).fetchall()}

    def set_wait(self, match: str, turn: int, player: str, on: bool) -> None:
        if on:
            self._exec("INSERT INTO waits (match, turn, player) VALUES (?,?,?) ON CONFLICT DO NOTHING",
                       (match, turn, player))
        else:
            self._exec("DELETE FROM waits WHERE match=? AND turn=? AND player=?", (match, turn, player))

    def waits(self, match: str, turn: int) -> set[str]:
        return {r["player"] for r in self._all("SELECT player FROM waits WHERE match=? AND turn=?", (match, turn))}

    # -- processed mail (dedupe on Message-ID + content hash) ------------
    def processed(self, message_id: str, content_hash: str) -> str | None:
        row = self._one("SELECT outcome FROM processed WHERE message_id=? AND content_hash=?", (message_id, content_hash))
        return None if row is None else row["outcome"]

    def mark_processed(self, message_id: str, content_hash: str, outcome: str, match: str | None, at: datetime) -> None:
        self._exec("INSERT INTO processed (message_id, content_hash, outcome, match, at) VALUES (?,?,?,?,?)"
                   " ON CONFLICT (message_id, content_hash) DO UPDATE SET outcome=excluded.outcome,"
                   " match=excluded.match, at=excluded.at", (message_id, content_hash, outcome, match, _iso(at)))

    # -- outbox ------------------------------------------------------------
    def enqueue(self, dedupe: str, match: str | None, recipient: str, message: bytes, now: datetime) -> bool:
        """Queue a message once per dedupe key; False if the key is already queued or sent
        (in ``enqueue_batch``: True, the row inserted when the batch ends)."""
        row = (dedupe, match, recipient, message, _iso(now), _iso(now))
        batch = getattr(self._batched, "rows", None)
        if batch is not None:
            batch.append(row)
            return True
        return self._exec(_ENQUEUE + _ROW + _ONCE, row) == 1

    @contextmanager
    def enqueue_batch(self) -> Iterator[None]:
        """Within it (and this thread's transaction) ``enqueue`` only collects its rows; they
        are inserted when it ends, up to 100 a statement: a close queues one report per
        reader, and each statement is a round trip on PostgreSQL.  Nothing is inserted if
        the block raises."""
        if getattr(self._batched, "rows", None) is not None:   # an outer batch inserts them
            yield
            return
        rows: list[tuple] = []
        self._batched.rows = rows
        try:
            yield
        finally:
            self._batched.rows = None
        insert_rows(self, _ENQUEUE, rows, 100, _ONCE)

    def due(self, now: datetime, limit: int = 100) -> list[dict]:
        # answers and notices before reports: a confirmation never waits behind a league's reports
        return self._all("SELECT * FROM outbox WHERE status='queued' AND next_try<=?"
                         " ORDER BY dedupe LIKE 'report:%', id LIMIT ?", (_iso(now), limit))

    def claim_due(self, now: datetime, limit: int, owner: str, reclaim, matches=None) -> list[dict]:
        """Claim up to ``limit`` due messages for ``owner`` (one transaction), so
        that two workers (the service and a CLI command) never send the same one.
        A claim whose owner ``reclaim(claimed_by, claimed_at)`` declares gone is
        taken over: its worker died before it could record the result.  ``matches``:
        only those matches' messages (a close worker sends its own closes' reports)."""
        with self.transaction():
            for r in self._all("SELECT id, claimed_by, claimed_at FROM outbox WHERE status='sending'"
                               + self._db.skip_locked):
                if reclaim(r["claimed_by"], r["claimed_at"]):
                    self._exec("UPDATE outbox SET status='queued' WHERE id=? AND status='sending' AND claimed_by=?",
                               (r["id"], r["claimed_by"]))
            # rows another worker is claiming right now are passed over, not waited for (PostgreSQL)
            only = None if matches is None else sorted(matches)   # a few hundred at most: the caller's chunks
            if only == []:
                return []
            among = "" if only is None else f" AND match IN ({','.join('?' * len(only))})"
            rows = self._all("SELECT * FROM outbox WHERE status='queued' AND next_try<=?" + among +
                             " ORDER BY dedupe LIKE 'report:%', id LIMIT ?" + self._db.skip_locked,
                             (_iso(now), *(only or ()), limit))
            for start in range(0, len(rows), 500):
                ids = [r["id"] for r in rows[start:start + 500]]
                self._exec(f"UPDATE outbox SET status='sending', claimed_by=?, claimed_at=? WHERE id IN"
                           f" ({','.join('?' * len(ids))})", (owner, _iso(now), *ids))
        return rows

    def outbox_entry(self, dedupe: str) -> dict | None:
        return self._one("SELECT * FROM outbox WHERE dedupe=?", (dedupe,))

    def outbox(self, match: str | None = None, status: str | None = None) -> list[dict]:
        sql, args = "SELECT * FROM outbox WHERE 1=1", []
        if match is not None:
            sql += " AND match=?"
            args.append(match)
        if status is not None:
            sql += " AND status=?"
            args.append(status)
        return self._all(sql + " ORDER BY id", tuple(args))

    def requeue(self, ids: list[int]) -> int:
        """Outbox rows queued again as if never tried (a bench sends one close's mail twice); how many."""
        done = 0
        for chunk in (ids[i:i + 500] for i in range(0, len(ids), 500)):
            done += self._exec("UPDATE outbox SET status='queued', attempts=0, last_error=NULL, claimed_by=NULL, claimed_at"
                               f"=NULL, sent_at=NULL WHERE id IN ({','.join('?' * len(chunk))})", tuple(chunk))
        return done

    def record_attempt(self, entry_id: int, status: str, error: str | None, next_try: datetime,
                       sent_at: datetime | None, scrub: bool = False) -> None:
        """``scrub``: forget the message text (it held a key and has been sent)."""
        self._exec("UPDATE outbox SET status=?, attempts=attempts+1, last_error=?, next_try=?, sent_at=?,"
                   " message=CASE WHEN ? THEN ? ELSE message END WHERE id=?",
                   (status, error, _iso(next_try), _iso(sent_at), scrub, b"", entry_id))

    # -- faults: items set aside after an unexpected error ------------------
    def note_fault(self, stage: str, item: str, match: str | None, error: str, at: datetime) -> bool:
        """Record a fault; True the first time this item fails at this stage."""
        if self._exec("UPDATE faults SET count=count+1, error=?, last=? WHERE stage=? AND item=?",
                      (error, _iso(at), stage, item)):
            return False
        self._exec("INSERT INTO faults (stage, item, match, error, first, last) VALUES (?,?,?,?,?,?)",
                   (stage, item, match, error, _iso(at), _iso(at)))
        return True

    def clear_fault(self, stage: str, item: str) -> None:
        self._exec("DELETE FROM faults WHERE stage=? AND item=?", (stage, item))

    def faults(self, match: str | None = None) -> list[dict]:
        if match is None:
            return self._all("SELECT * FROM faults ORDER BY first")
        return self._all("SELECT * FROM faults WHERE match=? ORDER BY first", (match,))

    # -- rate limit ---------------------------------------------------------
    def rate_bucket(self, sender: str) -> dict | None:
        # read to be written back: a second worker's mail from the same sender waits (PostgreSQL)
        row = self._one("SELECT bucket FROM rate WHERE sender=?" + self._db.for_update, (sender,))
        return None if row is None else json.loads(row["bucket"])

    def put_rate_bucket(self, sender: str, bucket: dict) -> None:
        self._exec("INSERT INTO rate (sender, bucket) VALUES (?,?) ON CONFLICT (sender) DO UPDATE"
                   " SET bucket=excluded.bucket", (sender, _dumps(bucket)))

    # -- claims: what several workers sharing one store lock -------------------
    def claim_mail(self, message_id: str, content_hash: str, at: datetime) -> bool | None:
        """Take a received mail for handling in the current transaction: its
        processed record is the lock.  False if it has been handled; None if
        another worker is handling it right now (PostgreSQL): leave it to that
        worker, and at the source, where it stays until handled."""
        if not self._db.try_lock(f"mail:{message_id}:{content_hash}"):
            return None
        return self._exec("INSERT INTO processed (message_id, content_hash, outcome, match, at)"
                          " VALUES (?,?,'taken',NULL,?) ON CONFLICT DO NOTHING",
                          (message_id, content_hash, _iso(at))) == 1

    def claim_match(self, match_id: str, wait: bool = True) -> bool:
        """Lock a match for the current transaction (closing a turn, or a mail that
        changes it).  ``wait=False``: False at once if another worker holds it.
        On SQLite a write transaction holds the whole file, so this only asks
        whether the match exists."""
        lock = self._db.for_update if wait else self._db.skip_locked
        return self._one("SELECT id FROM matches WHERE id=?" + lock, (match_id,)) is not None

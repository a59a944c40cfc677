"""The store's schema as it stands now: a new store is made from it, an older
one is brought here by ``migrations.py`` (a test checks that both end alike).
Portable SQL; the PostgreSQL backend spells AUTOINCREMENT and BLOB its way.

JSON columns hold game data (states, orders, logs) exactly as the game's
``dump`` / pydantic ``model_dump`` produced it; the store never looks inside.
"""
from __future__ import annotations

SCHEMA_VERSION = 11   # the last migration's number (migrations.py)

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    id          TEXT PRIMARY KEY,
    game        TEXT NOT NULL,
    version     TEXT NOT NULL,
    spec        TEXT NOT NULL,          -- the match file as validated (JSON, no keys)
    seed        TEXT NOT NULL,
    status      TEXT NOT NULL,          -- waiting | running | paused | ended
    gm_email    TEXT NOT NULL,
    gm_key_hash TEXT NOT NULL,
    paused_at   TEXT,
    created     TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS players (
    match     TEXT NOT NULL,
    id        TEXT NOT NULL,
    name      TEXT NOT NULL,
    email     TEXT NOT NULL,
    lang      TEXT,
    key_hash  TEXT NOT NULL,
    seq       INTEGER NOT NULL DEFAULT 0,   -- seat order (schema 2, SQLite rowid before)
    PRIMARY KEY (match, id)
);
CREATE TABLE IF NOT EXISTS player_history (
    match     TEXT NOT NULL,
    player    TEXT NOT NULL,
    old_email TEXT NOT NULL,
    new_email TEXT NOT NULL,
    at        TEXT NOT NULL,
    seq       INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS observers (
    match TEXT NOT NULL,
    email TEXT NOT NULL,
    lang  TEXT,
    seq   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match, email)
);
CREATE TABLE IF NOT EXISTS turns (
    match        TEXT NOT NULL,
    number       INTEGER NOT NULL,
    rev          INTEGER NOT NULL DEFAULT 0,   -- bumped by a rollback, keeps dedupe keys apart
    status       TEXT NOT NULL,                -- open | resolved (close + resolve is one transaction)
    state        TEXT NOT NULL,                -- state when the turn opened (game dump)
    awaiting     TEXT NOT NULL,                -- {player: stage}
    deadline     TEXT,                         -- aware ISO (UTC), NULL while waiting for start
    seed         TEXT NOT NULL,                -- 64-bit unsigned, beyond SQLite's INTEGER
    opened       TEXT NOT NULL,
    closed       TEXT,
    result       TEXT,                         -- {state, log, outcome, orders, hash, mails} once resolved, and once
                                               -- archived without the bodies of the reports, the state only on the last turn
    archived     INTEGER NOT NULL DEFAULT 0,
    archiver     TEXT,                         -- who writes its archive: host:pid:unix time (store/archiving.py)
    standings    TEXT,                         -- the standings of its state (standings.read) as the close before
                                               -- read them from its resolved state (NULL: read from the state)
    PRIMARY KEY (match, number)
);
CREATE TABLE IF NOT EXISTS submissions (
    match        TEXT NOT NULL,
    turn         INTEGER NOT NULL,
    player       TEXT NOT NULL,
    orders       TEXT NOT NULL,
    message_id   TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    received     TEXT NOT NULL,
    PRIMARY KEY (match, turn, player)
);
CREATE TABLE IF NOT EXISTS waits (
    match  TEXT NOT NULL,
    turn   INTEGER NOT NULL,
    player TEXT NOT NULL,
    PRIMARY KEY (match, turn, player)
);
CREATE TABLE IF NOT EXISTS processed (
    message_id   TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    outcome      TEXT NOT NULL,
    match        TEXT,
    at           TEXT NOT NULL,
    PRIMARY KEY (message_id, content_hash)
);
CREATE TABLE IF NOT EXISTS outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    dedupe     TEXT NOT NULL UNIQUE,
    match      TEXT,
    recipient  TEXT NOT NULL,
    message    BLOB NOT NULL,                   -- the rendered parts (JSON), assembled when sent
    status     TEXT NOT NULL DEFAULT 'queued',  -- queued | sending (claimed) | sent | failed
    claimed_by TEXT,                            -- host:pid of the worker sending it
    claimed_at TEXT,
    attempts   INTEGER NOT NULL DEFAULT 0,
    next_try   TEXT NOT NULL,
    last_error TEXT,
    created    TEXT NOT NULL,
    sent_at    TEXT
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (status, next_try);
CREATE TABLE IF NOT EXISTS faults (
    stage  TEXT NOT NULL,                   -- intake | close | archive | outbox | remind | next_due | tick
    item   TEXT NOT NULL,                   -- the mail, turn, row or match it concerns
    match  TEXT,
    error  TEXT NOT NULL,                   -- the last error, type and message
    count  INTEGER NOT NULL DEFAULT 1,
    first  TEXT NOT NULL,
    last   TEXT NOT NULL,
    PRIMARY KEY (stage, item)
);
CREATE TABLE IF NOT EXISTS rate (
    sender TEXT PRIMARY KEY,
    bucket TEXT NOT NULL                    -- the rate limiter's state for this sender (JSON)
);
"""

# issue 18, table talk and the chronicle (referee/store/talk.py): migration 3
TALK_TABLES = """
-- #18 table talk and the chronicle (referee/store/talk.py) ---------------------
CREATE TABLE IF NOT EXISTS press (
    match      TEXT NOT NULL,
    number     INTEGER NOT NULL,            -- 1, 2, ... within the match
    turn       INTEGER NOT NULL,            -- the turn open when it was relayed
    sender     TEXT NOT NULL,               -- the seat that wrote it
    recipients TEXT NOT NULL,               -- JSON list of seats
    public     INTEGER NOT NULL,            -- to everyone: shown in the next public report
    anonymous  INTEGER NOT NULL,            -- relayed unsigned (the GM and the archive know the sender)
    answers    INTEGER,                     -- the number of the message it answers
    text       TEXT NOT NULL,
    sent       TEXT NOT NULL,
    PRIMARY KEY (match, number)
);
CREATE TABLE IF NOT EXISTS press_routes (
    route   TEXT PRIMARY KEY,               -- the relayed mail's Message-ID digest (its replies name it)
    token   TEXT NOT NULL UNIQUE,           -- sha256 of the token in its subject
    match   TEXT NOT NULL,
    number  INTEGER NOT NULL,               -- the message relayed
    holder  TEXT NOT NULL,                  -- the seat it went to: only its address may answer
    back_to TEXT NOT NULL                   -- the seat an answer goes to
);
CREATE TABLE IF NOT EXISTS chronicle (
    match   TEXT NOT NULL,
    number  INTEGER NOT NULL,               -- 1, 2, ... within the match (what approve/decline name)
    kind    TEXT NOT NULL,                  -- chronicle | letter
    author  TEXT NOT NULL,                  -- @gm, or the seat that wrote a letter
    status  TEXT NOT NULL,                  -- published | held | declined
    turn    INTEGER,                        -- the turn whose reports it heads, once published
    seats   TEXT,                           -- JSON list of the seats it is for, NULL: everyone
    title   TEXT,
    text    TEXT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (match, number)
);
CREATE INDEX IF NOT EXISTS press_turn ON press (match, turn);
CREATE INDEX IF NOT EXISTS chronicle_turn ON chronicle (match, turn);
"""

# issue 18, seats: missed turns, seats warned or given up, absences, address changes,
# joining and the wait list (referee/store/seats.py): migration 4
SEAT_TABLES = """
-- issue 18, seats (life-seats): missed turns, seats warned or given up, absences,
-- address changes waiting for their code (referee/store/seats.py reads and writes them)
CREATE TABLE IF NOT EXISTS seat_turns (
    match  TEXT NOT NULL,
    player TEXT NOT NULL,
    turn   INTEGER NOT NULL,
    missed INTEGER NOT NULL,                 -- 1: defaulted, 0: orders came in (an excused turn has no row)
    PRIMARY KEY (match, player, turn)
);
CREATE TABLE IF NOT EXISTS seat_status (
    match  TEXT NOT NULL,
    player TEXT NOT NULL,
    mark   TEXT NOT NULL,                    -- warned | abandoned
    turn   INTEGER NOT NULL,
    at     TEXT NOT NULL,
    PRIMARY KEY (match, player)
);
CREATE TABLE IF NOT EXISTS absences (
    match  TEXT NOT NULL,
    player TEXT NOT NULL,
    start  TEXT NOT NULL,                    -- aware ISO (UTC), the first moment away
    until  TEXT NOT NULL,                    -- aware ISO (UTC), the moment back
    at     TEXT NOT NULL,
    PRIMARY KEY (match, player, start)
);
CREATE TABLE IF NOT EXISTS address_changes (
    match      TEXT NOT NULL,
    player     TEXT NOT NULL,
    new_email  TEXT NOT NULL,
    code_hash  TEXT NOT NULL,                -- keyed hash of the code mailed to new_email
    expires    TEXT NOT NULL,
    tries      INTEGER NOT NULL DEFAULT 0,   -- wrong codes sent so far
    sent       INTEGER NOT NULL DEFAULT 1,   -- codes mailed since first_sent
    first_sent TEXT NOT NULL,
    PRIMARY KEY (match, player)
);
CREATE TABLE IF NOT EXISTS joining (
    match  TEXT PRIMARY KEY,
    closed INTEGER NOT NULL DEFAULT 0        -- 1: the GM closed joining (and the wait list)
);
CREATE TABLE IF NOT EXISTS wait_list (
    match  TEXT NOT NULL,
    email  TEXT NOT NULL,
    name   TEXT NOT NULL,
    lang   TEXT,
    pos    INTEGER NOT NULL,
    at     TEXT NOT NULL,
    PRIMARY KEY (match, email)
);
"""

# issue 13, sender authentication (referee/authority/gate/senders.py): migration 5
SENDER_TABLES = """
-- issue 13, sender authentication: the verdict on each mail's sender, and what
-- became of a stranger's mail (answered, or filed as ignored: no backscatter)
CREATE TABLE IF NOT EXISTS sender_verdicts (
    message_id   TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    sender       TEXT NOT NULL,
    verdict      TEXT NOT NULL,             -- pass | fail | none | off
    method       TEXT NOT NULL,             -- authentication-results | dkim | ''
    detail       TEXT NOT NULL,
    stranger     TEXT,                      -- a stranger's mail: answered or ignored (else NULL)
    at           TEXT NOT NULL,
    PRIMARY KEY (message_id, content_hash)
);
CREATE INDEX IF NOT EXISTS sender_verdicts_stranger ON sender_verdicts (stranger, at);
"""

# issue 32, joins proven by a code mailed to the joiner (referee/authority/join_codes.py): migration 8
JOIN_TABLES = """
-- issue 32: a join waits here until its code comes back from the joiner's address
-- (it holds no seat).  A used, voided or expired request keeps its row (code_hash '')
-- for the rest of the day, so that its count of codes sent is not reset.
CREATE TABLE IF NOT EXISTS join_requests (
    match      TEXT NOT NULL,
    email      TEXT NOT NULL,
    name       TEXT NOT NULL,
    lang       TEXT,
    seat       TEXT NOT NULL,                -- the seat asked for, or 'any'
    code_hash  TEXT NOT NULL,                -- keyed hash of the code mailed to email, '' when none holds
    expires    TEXT NOT NULL,
    tries      INTEGER NOT NULL DEFAULT 0,   -- wrong codes sent so far
    sent       INTEGER NOT NULL DEFAULT 1,   -- codes mailed since first_sent
    first_sent TEXT NOT NULL,
    PRIMARY KEY (match, email)
);
"""

# issue 34/38, the close workers' queue (referee/store/closing.py, referee/turns/workers.py): migration 9
CLOSE_TABLES = """
-- issue 34/38: a due turn waits here for a close worker, which claims its row for
-- itself (owner) until a time (until, UTC ISO 8601): a dead worker's claim expires,
-- or its parent lets it go at once.  The close's own transaction deletes the row.
CREATE TABLE IF NOT EXISTS close_queue (
    match TEXT PRIMARY KEY,
    turn  INTEGER NOT NULL,
    owner TEXT,                -- NULL: waiting for a worker
    until TEXT                 -- the claim's expiry
);
"""

# issue 38, a seat's own settings (referee/store/seats.py): migration 10
PREF_TABLES = """
-- issue 38: what a seat asked of its mail (a seat without a row has the defaults)
CREATE TABLE IF NOT EXISTS seat_prefs (
    match    TEXT NOT NULL,
    player   TEXT NOT NULL,
    pictures INTEGER NOT NULL DEFAULT 1,     -- 0: reports without the board picture ('command: no-pictures')
    at       TEXT NOT NULL,
    PRIMARY KEY (match, player)
);
"""

# issue 35, computer players in seats (referee/store/bots.py): migration 11
BOT_TABLES = """
-- issue 35: a seat a bot plays (from the match file, the GM's replace, or a dropout handed
-- to it), a seat without a row is a person's.  A bot seat's players.email is '' (never mailed).
CREATE TABLE IF NOT EXISTS seat_bots (
    match    TEXT NOT NULL,
    player   TEXT NOT NULL,
    strength TEXT NOT NULL,
    why      TEXT NOT NULL,     -- file | gm | dropout
    since    TEXT NOT NULL,
    decided  TEXT,              -- the last turn (number.rev) it played or failed to play: once a turn
    PRIMARY KEY (match, player)
);
"""

SCHEMA += TALK_TABLES + SEAT_TABLES + SENDER_TABLES + JOIN_TABLES + CLOSE_TABLES + PREF_TABLES + BOT_TABLES

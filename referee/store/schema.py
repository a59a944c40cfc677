"""The SQLite schema, created on first use and versioned.

JSON columns hold game data (states, orders, logs) exactly as the game's
``dump`` / pydantic ``model_dump`` produced it; the store never looks inside.
"""
from __future__ import annotations

SCHEMA_VERSION = 1

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
    PRIMARY KEY (match, id)
);
CREATE TABLE IF NOT EXISTS player_history (
    match     TEXT NOT NULL,
    player    TEXT NOT NULL,
    old_email TEXT NOT NULL,
    new_email TEXT NOT NULL,
    at        TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS observers (
    match TEXT NOT NULL,
    email TEXT NOT NULL,
    lang  TEXT,
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

"""Errors that say "try again shortly" rather than "this item is broken".

A store locked by another process (SQLite's ``database is locked``; PostgreSQL's
lock, serialization and connection failures) is no fault of the mail, turn or
row being worked on: the item must not be set aside for it.  ``Faults.guarded``
lets such an error through, so the service loop backs off and retries the whole
cycle; a mail not yet marked done at the source is read again, and the store's
dedupe answers it once.
"""
from __future__ import annotations

import sqlite3

from referee.store.errors import StoreUnavailable

# psycopg's names, matched by name so that nothing here needs the driver installed
_PG_TRANSIENT = {"LockNotAvailable", "SerializationFailure", "DeadlockDetected", "QueryCanceled",
                 "AdminShutdown", "CannotConnectNow", "ConnectionFailure", "ConnectionTimeout"}


def transient(error: BaseException) -> bool:
    if isinstance(error, StoreUnavailable):   # the store's own word: it cannot be reached
        return True
    if isinstance(error, sqlite3.OperationalError):
        text = str(error).lower()
        return "locked" in text or "busy" in text
    return any(kind.__name__ in _PG_TRANSIENT for kind in type(error).__mro__)

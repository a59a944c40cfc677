"""What the store raises to its callers: a schema it cannot serve, and a database out of reach."""
from __future__ import annotations


class SchemaMismatch(RuntimeError):
    pass


class StoreUnavailable(RuntimeError):
    """The database cannot be reached (or gave up a transaction to break a
    deadlock) right now: nothing was written; try the same work again later."""

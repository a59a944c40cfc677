"""Small facts in the store's meta table (issue 13): the last tick, the last full
mailbox read, outage extensions, held closes.  Portable SQL over the store's own
connection, like ``store/talk.py``."""
from __future__ import annotations


class MetaFacts:
    def __init__(self, store) -> None:
        self.store = store

    def get(self, key: str) -> str | None:
        row = self.store._one("SELECT value FROM meta WHERE key=?", (key,))
        return None if row is None else row["value"]

    def set(self, key: str, value: str) -> None:
        self.store._exec("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                         (key, value))

    def delete(self, key: str) -> None:
        self.store._exec("DELETE FROM meta WHERE key=?", (key,))

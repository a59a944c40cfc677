"""The store's record of each mail's sender (issue 13): the verdict on its From,
and what became of a stranger's mail (answered, or filed as ignored: no backscatter).

Plain portable SQL over the store's own connection, like ``store/talk.py``; the
table is ``SENDER_TABLES`` in ``store/schema.py`` (migration 5)."""
from __future__ import annotations

from datetime import UTC, datetime


def _iso(t: datetime) -> str:
    return t.astimezone(UTC).isoformat()


class SenderRecords:
    def __init__(self, store) -> None:
        self.store = store

    def record(self, message_id: str, content_hash: str, sender: str, result: str, method: str,
               detail: str, at: datetime) -> None:
        self.store._exec("INSERT INTO sender_verdicts (message_id, content_hash, sender, verdict, method, detail, at)"
                         " VALUES (?,?,?,?,?,?,?) ON CONFLICT (message_id, content_hash) DO UPDATE SET"
                         " sender=excluded.sender, verdict=excluded.verdict, method=excluded.method,"
                         " detail=excluded.detail, at=excluded.at",
                         (message_id, content_hash, sender, result, method, detail, _iso(at)))

    def verdict(self, message_id: str, content_hash: str) -> dict | None:
        return self.store._one("SELECT * FROM sender_verdicts WHERE message_id=? AND content_hash=?",
                               (message_id, content_hash))

    def mark_stranger(self, message_id: str, content_hash: str, what: str) -> None:
        """A stranger's mail was ``answered`` or filed as ``ignored``."""
        self.store._exec("UPDATE sender_verdicts SET stranger=? WHERE message_id=? AND content_hash=?",
                         (what, message_id, content_hash))

    def stranger_counts(self, since: datetime | None = None) -> dict[str, int]:
        """{"answered": n, "ignored": m}: strangers' mails (since ``since``)."""
        sql, args = "SELECT stranger, COUNT(*) AS n FROM sender_verdicts WHERE stranger IS NOT NULL", ()
        if since is not None:
            sql, args = sql + " AND at >= ?", (_iso(since),)
        counts = {"answered": 0, "ignored": 0}
        for row in self.store._all(sql + " GROUP BY stranger", args):
            counts[row["stranger"]] = row["n"]
        return counts

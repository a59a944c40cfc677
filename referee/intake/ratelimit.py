"""A per-sender rate limit: a token bucket, pure (state in, decision out).

Each address has a bucket of ``capacity`` tokens that refills evenly over
``window`` (20 per hour by default: one every 3 minutes).  A mail takes one
token; with none left it is refused.  The core keeps one ``Bucket`` per
address in its store (``to_json``/``from_json``) and passes ``now``.

``Decision.notify`` is true only for the first refusal of a run of refusals,
so a looping sender gets one explanation, not one per mail.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from .problems import Located, referee_problem


@dataclass(frozen=True)
class Bucket:
    tokens: float
    updated: datetime
    refused: int = 0          # refusals since the last accepted mail

    def to_json(self) -> dict:
        return {"tokens": self.tokens, "updated": self.updated.isoformat(), "refused": self.refused}

    @classmethod
    def from_json(cls, data: dict) -> Bucket:
        return cls(float(data["tokens"]), datetime.fromisoformat(data["updated"]), int(data.get("refused", 0)))


@dataclass(frozen=True)
class Decision:
    allowed: bool
    bucket: Bucket            # the state to store
    retry_after: datetime | None   # when one token is back (refusals only)
    notify: bool              # refused and the sender has not been told yet


@dataclass(frozen=True)
class RateLimit:
    capacity: int = 20
    window: timedelta = timedelta(hours=1)

    def __post_init__(self) -> None:
        if self.capacity < 1 or self.window <= timedelta(0):
            raise ValueError("a rate limit needs capacity >= 1 and a positive window")

    @property
    def per_token(self) -> timedelta:
        return self.window / self.capacity

    def _refill(self, bucket: Bucket | None, now: datetime) -> Bucket:
        if bucket is None:
            return Bucket(float(self.capacity), now)
        elapsed = max((now - bucket.updated).total_seconds(), 0.0)   # a clock step back refills nothing
        tokens = min(float(self.capacity), bucket.tokens + elapsed / self.per_token.total_seconds())
        return Bucket(tokens, max(now, bucket.updated), bucket.refused)

    def take(self, bucket: Bucket | None, now: datetime) -> Decision:
        """One mail from the bucket's owner arrives at ``now``."""
        current = self._refill(bucket, now)
        if current.tokens >= 1.0:
            return Decision(True, Bucket(current.tokens - 1.0, current.updated, 0), None, False)
        wait = (1.0 - current.tokens) * self.per_token
        refused = Bucket(current.tokens, current.updated, current.refused + 1)
        return Decision(False, refused, current.updated + wait, current.refused == 0)

    def problem(self, sender: str, decision: Decision, retry_text: str) -> Located:
        """The refusal as a problem (``retry_text``: the retry time already formatted)."""
        hours = self.window.total_seconds() / 3600
        if hours == 1:
            en, de = "hour", "Stunde"
        elif hours.is_integer():
            en, de = f"{int(hours)} hours", f"{int(hours)} Stunden"
        else:
            minutes = int(self.window.total_seconds() // 60)
            en, de = f"{minutes} minutes", f"{minutes} Minuten"
        return referee_problem("mail.rate_limited", sender=sender, limit=self.capacity,
                               window_en=en, window_de=de, retry_after=retry_text)

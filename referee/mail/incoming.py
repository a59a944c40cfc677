"""The ``MailSource`` seam every mail source implements, and ``Incoming``, what
a source hands out: shared by the Maildir and the IMAP source, so neither
imports the other."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

OUTCOMES = ("processed", "refused", "ignored")


@dataclass(frozen=True)
class Incoming:
    ref: str
    raw: bytes                 # the mail, or only its header section if it is over the size limit
    size: int                  # bytes as the source holds it
    arrived: datetime | None   # when the server took it in (IMAP INTERNALDATE, Maildir delivery)


class MailSource(Protocol):
    def incoming(self, limit: int = 500, max_bytes: int | None = None) -> Iterator[Incoming]:
        """Up to ``limit`` mails not yet done, oldest first, read one at a time;
        one over ``max_bytes`` as its header section only."""

    def fetch(self, limit: int = 500) -> list[tuple[str, bytes]]:
        """Up to ``limit`` (ref, raw) pairs not yet done, oldest first (whole)."""

    def done(self, ref: str, outcome: str) -> None:
        """Move/flag ``ref`` as "processed" | "refused" | "ignored" (after commit)."""

    def wait(self, timeout: float) -> None:
        """Return when mail may be waiting, at the latest after ``timeout`` seconds."""

    def close(self) -> None:
        """Release connections."""


def incoming_of(source, limit: int = 500, max_bytes: int | None = None) -> Iterator[Incoming]:
    """``source.incoming``, or for a source that only has ``fetch`` (an older or a
    test source) its mails as ``Incoming`` without an arrival time."""
    if hasattr(source, "incoming"):
        return source.incoming(limit, max_bytes=max_bytes)
    return (Incoming(ref, raw, len(raw), None) for ref, raw in source.fetch(limit))


def _check_outcome(outcome: str) -> None:
    if outcome not in OUTCOMES:
        raise ValueError(f"outcome must be one of {OUTCOMES}, not {outcome!r}")

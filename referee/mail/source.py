"""Where mail comes from: the Maildir source (the ``MailSource`` seam is in ``incoming``).

A source hands out mail that is not yet done; the core calls ``done`` only
after it committed the mail's effect, so a crash in between means the mail is
fetched again (the core dedupes on Message-ID + content hash).

``incoming`` hands mails out one at a time, each with its size and when the
server took it in (for lateness: a mail read after an outage arrived when it
arrived); a mail over ``max_bytes`` comes as its header section only, so no
mail, however large, is ever held whole, and never many at once.

Maildir layout: mail is read from ``new/`` and ``cur/`` of the folder; ``done``
moves the file (one atomic rename) into the Maildir++ sub-folders
``.Processed``, ``.Refused`` or ``.Ignored`` (their ``cur/``, flagged seen),
which any IMAP server or mail client shows as sub-folders.
"""
from __future__ import annotations

import mailbox
import os
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from .inbound import MAX_HEAD, header_section
from .incoming import OUTCOMES, Incoming, MailSource, _check_outcome, incoming_of  # noqa: F401 (the seam, named here too)


class MaildirSource:
    """Reads a Maildir folder (created if missing) with stdlib ``mailbox``."""

    FOLDERS = {"processed": "Processed", "refused": "Refused", "ignored": "Ignored"}

    def __init__(self, path: str | Path, *, poll_interval: float = 0.2) -> None:
        self.path = Path(path)
        self.poll_interval = poll_interval
        self._box = mailbox.Maildir(str(self.path), factory=None, create=True)
        self._paths: dict[str, Path] = {}  # ref -> file, from the last fetch
        for name in self.FOLDERS.values():
            if name not in self._box.list_folders():
                self._box.add_folder(name)

    def _files(self) -> list[tuple[float, str, Path]]:
        found = []
        for sub in ("new", "cur"):
            try:
                entries = list(os.scandir(self.path / sub))
            except FileNotFoundError:
                continue
            for entry in entries:
                if entry.name.startswith("."):
                    continue
                try:
                    mtime = entry.stat().st_mtime
                except FileNotFoundError:  # moved away meanwhile
                    continue
                found.append((mtime, entry.name, Path(entry.path)))
        found.sort()
        return found

    def _locate(self, ref: str) -> Path | None:
        # ref is the Maildir key: the file name without the ":2,FLAGS" info.
        known = self._paths.pop(ref, None)
        if known is not None and known.exists():
            return known
        for _, name, path in self._files():
            if name.split(self._box.colon, 1)[0] == ref:
                return path
        return None

    def incoming(self, limit: int = 500, max_bytes: int | None = None) -> Iterator[Incoming]:
        for mtime, name, path in self._files()[:limit]:
            try:
                size = path.stat().st_size
                if max_bytes is not None and size > max_bytes:
                    with path.open("rb") as f:
                        raw = header_section(f.read(MAX_HEAD + 4))[0]
                else:
                    raw = path.read_bytes()
            except FileNotFoundError:
                continue
            ref = name.split(self._box.colon, 1)[0]
            self._paths[ref] = path
            # The file was written when the mail was delivered (moving it keeps that time).
            yield Incoming(ref, raw, size, datetime.fromtimestamp(mtime, UTC))

    def fetch(self, limit: int = 500) -> list[tuple[str, bytes]]:
        return [(m.ref, m.raw) for m in self.incoming(limit)]

    def done(self, ref: str, outcome: str) -> None:
        _check_outcome(outcome)
        path = self._locate(ref)
        if path is None:
            return  # already moved: done() is safe to repeat
        target = self.path / ("." + self.FOLDERS[outcome]) / "cur" / f"{ref}{self._box.colon}2,S"
        os.replace(path, target)

    def pending(self) -> int:
        return len(self._files())

    def wait(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while self.pending() == 0:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(self.poll_interval, left))

    def close(self) -> None:
        self._box.close()


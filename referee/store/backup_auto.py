"""The snapshots taken before every close pass (hardening, issue 13), of a weight a
league can keep taking (issue 38).

Each is a folder of two files: the store's dump (SQLite's online backup into one file,
gzipped to about a seventh; or ``pg_dump``'s custom format, compressed by itself) and
its manifest (format 2), which names every archive file of that
moment by its content's sha256.  The contents lie once in ``archive-files/`` beside the
snapshots, shared by all: archive files are only ever replaced whole, never changed in
place, so a content is hard-linked there from the archive (copied across file systems)
the first time a pass sees it, and a pass hashes only the files whose size, time or inode
changed since the last (``STAMPS.json``).  A pass thus writes the store's dump, the
manifest and the archive files new since the last pass (linked: no byte copied).

Kept: the newest ``keep`` snapshots and the newest of each of the last ``daily`` days
they were taken on; a content no kept snapshot names is deleted.
"""
from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from referee.store.backup import MANIFEST, POOL, SHA, SHARED, _link_or_copy, _sha256, _write_json, take

STAMPS = "STAMPS.json"


class Pool:
    """The archive contents the automatic snapshots share, by sha256: ``ab/abcd…``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(mode=0o700, exist_ok=True)
        try:
            old = json.loads((root / STAMPS).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            old = {}
        self.old: dict = old if isinstance(old, dict) else {}
        self.stamps: dict[str, list] = {}
        self.objects: dict[str, str] = {}

    def put(self, path: Path, rel: str, _into: Path) -> int:
        st = path.stat()
        stamp = [st.st_size, st.st_mtime_ns, st.st_ino]
        was = self.old.get(rel)
        if isinstance(was, list) and was[:3] == stamp and isinstance(was[3], str) and SHA.fullmatch(was[3]):
            sha = was[3]
        else:
            sha = _sha256(path)
        target = self.root / sha[:2] / sha
        if not target.is_file():
            target.parent.mkdir(mode=0o700, exist_ok=True)
            tmp = target.with_name(f".{sha}.{os.getpid()}")
            tmp.unlink(missing_ok=True)
            _link_or_copy(path, tmp, True)
            os.replace(tmp, target)
        self.stamps[rel] = stamp + [sha]
        self.objects[rel] = sha
        return st.st_size

    def save(self) -> None:
        _write_json(self.root / STAMPS, self.stamps)

    def keep_only(self, used: set[str]) -> int:
        """Delete every content not in ``used``; how many went."""
        gone = 0
        for sub in self.root.iterdir():
            if not sub.is_dir() or sub.is_symlink() or len(sub.name) != 2:
                continue
            for obj in sub.iterdir():
                if obj.name not in used:
                    obj.unlink(missing_ok=True)
                    gone += 1
        return gone


@dataclass
class AutoBackup:
    """A snapshot before the first close of every tick pass (and before every close the
    GM asks for), in ``folder``, kept by ``keep`` and ``daily``."""
    folder: Path
    keep: int = 10
    daily: int = 7

    def take(self, store, archive_root: Path, now: datetime, label: str) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        pool = Pool(self.folder / POOL)
        name = base = f"auto-{now:%Y%m%dT%H%M%S%f}-{label}"[:120]
        for n in range(2, 1000):   # two passes of one clock moment (a simulated clock, a GM's force)
            if not (self.folder / name).exists():
                break
            name = f"{base}-{n}"
        path = take(store, archive_root, self.folder / name, pool.put, {"format": SHARED, "objects": pool.objects}, now)
        pool.save()
        self.prune()
        return path

    def kept(self, names: list[str]) -> set[str]:
        """Of the snapshots' names (``auto-YYYYmmdd…``), those the schedule keeps."""
        names = sorted(names)
        keep = set(names[-self.keep:])
        newest_of_day: dict[str, str] = {}
        for name in names:
            newest_of_day[name[5:13]] = name
        keep.update(newest_of_day[day] for day in sorted(newest_of_day)[-self.daily:] if self.daily)
        return keep

    def prune(self) -> None:
        taken = [p.name for p in self.folder.iterdir() if p.is_dir() and p.name.startswith("auto-")]
        kept = self.kept(taken)
        for name in set(taken) - kept:
            shutil.rmtree(self.folder / name, ignore_errors=True)
        used: set[str] = set()
        for name in kept:
            try:
                manifest = json.loads((self.folder / name / MANIFEST).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if isinstance(manifest, dict) and manifest.get("format") == SHARED and isinstance(manifest.get("objects"), dict):
                used.update(str(sha) for sha in manifest["objects"].values())
        if (self.folder / POOL).is_dir():
            Pool(self.folder / POOL).keep_only(used)

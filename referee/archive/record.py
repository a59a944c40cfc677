"""The ``turns/`` archive and the replay that checks it.

```
turns/<match>/match.yaml              rules name + version, players (no keys), options, schedule, seed
turns/<match>/tNNN/inbox/*.eml        every mail received during the turn, as received
turns/<match>/tNNN/orders.yaml        orders used per player, with source: player | default
turns/<match>/tNNN/turn.json          turn seed, log with visibility, sha256 of the resulting state
turns/<match>/tNNN/reports/<who>.<lang>.txt|.html
turns/<match>/tNNN/press.yaml, chronicle.yaml   table talk to all, chronicle entries for all
turns/<match>/tNNN/private/press.yaml, …        every message and entry, with writers (issue 32)
```
Every write replaces its file atomically, so writing a turn again after a
crash gives the same files.  ``replay`` (replay.py) needs nothing but this folder
and the installed game.  What a match page may show (match.yaml, orders.yaml, turn.json,
the public report, the public talk) is written ``0644``; the rest is the owner's
alone (``is_private``: ``0600`` files, ``0700`` folders), whatever the umask.
"""
from __future__ import annotations

import json
import os
import queue
import shutil
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from referee.archive import turn_dir_name
from referee.archive import yaml_text as archive_yaml
from referee.archive.replay import ReplayReport, replay  # noqa: F401  (the record's checker, where callers look for it)
from referee.intake import checks

PUBLIC, PRIVATE = 0o644, 0o600          # files (never group- or world-writable, whatever the umask)
PUBLIC_DIR, PRIVATE_DIR = 0o755, 0o700
PRIVATE_FOLDERS = ("inbox", "private")   # received mails (keys); private talk and chronicle


def is_private(parts: Sequence[str]) -> bool:
    """Whether the archive file at ``parts`` (its path below the archive's root) is the
    owner's alone: anything in an inbox/ or private/ folder, and every report but the
    public one (a seat's report holds the chronicle for that seat, the GM's all of it)."""
    return (any(p in PRIVATE_FOLDERS for p in parts[:-1])
            or (len(parts) > 1 and parts[-2] == "reports" and not parts[-1].startswith("_public.")))


def report_mode(name: str) -> int:
    return PUBLIC if name.startswith("_public.") else PRIVATE


def private_folder(folder: Path) -> None:
    """Make ``folder`` (its parents as public folders) the owner's alone, also where an older
    release made it open to all."""
    try:
        os.mkdir(folder, PRIVATE_DIR)
        return
    except FileNotFoundError:
        _make_folder(folder.parent)
        try:
            os.mkdir(folder, PRIVATE_DIR)
            return
        except FileExistsError:   # made meanwhile by another worker
            pass
    except FileExistsError:
        pass
    if os.stat(folder).st_mode & 0o077:
        os.chmod(folder, PRIVATE_DIR)


def _write(path: Path, data: bytes, private: bool = False) -> None:
    """Replace ``path`` atomically; ``private``: readable by the owner only, in a folder only
    the owner can enter (received mails carry keys)."""
    if private:
        private_folder(path.parent)
    else:
        _make_folder(path.parent)
    _put(str(path.parent), path.name, data, PRIVATE if private else PUBLIC)


def _put(folder: str, name: str, data: bytes, mode: int = PUBLIC) -> None:
    """Write ``folder/name`` through a temporary file renamed over it, in an existing
    folder: three system calls and the write (a close writes ~30 files)."""
    fd, tmp = _write_tmp(folder, name, data, mode)
    os.close(fd)
    os.replace(tmp, f"{folder}/{name}")


def _write_tmp(folder: str, name: str, data: bytes, mode: int) -> tuple[int, str]:
    """``data`` written to the temporary file of ``folder/name``; (its open descriptor, its path).
    A write the disk refuses closes the file, removes it if this call made it, and raises."""
    tmp = f"{folder}/.{name}.{os.getpid()}.tmp"   # two workers writing one file never share a tmp
    try:
        fd, made = os.open(tmp, _NEW, mode), True
    except FileExistsError:   # left by a process of this id that died while writing: not this call's
        fd, made = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode), False
        os.fchmod(fd, mode)   # it keeps the mode it was made with
    try:
        _write_all(fd, data)
    except BaseException:
        os.close(fd)
        if made:   # no partial file left behind
            _unlink(tmp)
        raise
    return fd, tmp


_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


_yaml = archive_yaml.write


class Archive:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def match_dir(self, match_id: str) -> Path:
        return self.root / checks.path_part(match_id)   # names come only from checked values

    def turn_dir(self, match_id: str, number: int) -> Path:
        return self.match_dir(match_id) / turn_dir_name(number)

    def write_match(self, match_id: str, data: Mapping) -> None:
        _write(self.match_dir(match_id) / "match.yaml", _yaml(dict(data)))

    def save_mail(self, match_id: str | None, number: int | None, content_hash: str, raw: bytes) -> Path:
        """Keep a received mail as it came; named by its content so a repeat is the same file."""
        if match_id is None:
            folder = self.root / "_unmatched" / "inbox"
        else:
            folder = self.turn_dir(match_id, number or 0) / "inbox"
        path = folder / f"{content_hash[:20]}.eml"
        if not path.exists():
            _write(path, raw, private=True)
        return path

    def write_turn(self, match_id: str, number: int, orders: Mapping, turn: Mapping,
                   reports: Mapping[str, str]) -> None:
        """The turn's record and any reports, durable when this returns (the caller then flags
        the turn archived: a flag must never name bytes a power loss could still take)."""
        folder = self.turn_dir(match_id, number)
        made = _make_folder(folder)
        moves: list[tuple[str, str]] = []
        fds: list[int] = []
        try:
            for at, name, data in _turn_files(str(folder), orders, turn, reports, made):
                fd, tmp = _write_tmp(at, name, data, report_mode(name) if at.endswith("/reports") else PUBLIC)
                fds.append(fd)
                moves.append((tmp, f"{at}/{name}"))
            durable(fds)
        except BaseException:
            for tmp, _ in moves:   # none is placed yet
                _unlink(tmp)
            raise
        finally:
            _close_all(fds)
        for tmp, path in moves:
            os.replace(tmp, path)
        sweep_staged(folder)   # what closes of this turn that died left
        # the names: the turn's folder (and reports/), and those of folders made here in their parents
        for name in {str(folder)} | {os.path.dirname(path) for _, path in moves} | {str(m.parent) for m in made}:
            sync_folder(Path(name))

    def read_report(self, match_id: str, number: int, rev: int, name: str) -> str | None:
        """A report as written for revision ``rev`` of a turn (set aside if that
        revision was rolled back); None if it is not written."""
        d = str(self.turn_dir(match_id, number))
        name = checks.path_part(name)
        for path in (f"{d}/rolled-back-{rev}/reports/{name}", f"{d}/reports/{name}"):
            try:
                with open(path, "rb") as f:
                    return f.read().decode("utf-8")
            except FileNotFoundError:
                continue
        return None

    def set_aside(self, match_id: str, number: int, rev: int) -> None:
        """A rolled-back turn's results move into a sub-folder; its inbox stays."""
        d = self.turn_dir(match_id, number)
        aside = d / f"rolled-back-{rev}"
        for name in ("orders.yaml", "turn.json", "reports"):
            if (d / name).exists():
                aside.mkdir(parents=True, exist_ok=True)
                shutil.move(str(d / name), str(aside / name))


def write_turn_record(archive: Archive, match_id: str, number: int, name: str, data, private: bool = False) -> None:
    """A record of its own beside a turn's reports, e.g. ``press.yaml``, ``chronicle.yaml`` (issue 18);
    ``private``: into the turn's ``private/`` folder, the owner's alone (issue 32)."""
    folder = archive.turn_dir(match_id, number)
    _write((folder / "private" if private else folder) / checks.path_part(name), _yaml(data), private)


def record_files(orders: Mapping, turn: Mapping) -> tuple[tuple[str, bytes], tuple[str, bytes]]:
    """(name, bytes) of a turn's record: orders.yaml and turn.json (a close stages them, ``write_turn`` writes them)."""
    return (("orders.yaml", _yaml(dict(orders))),
            ("turn.json", turn_json(turn).encode("utf-8")))


def turn_json(turn: Mapping) -> str:
    """turn.json's text: a key a line, and a list (the log) an item a line, each item as compact
    JSON.  One event a line reads and greps as well as an indented tree, and is written by the
    json module's C encoder: ``indent=`` falls back to its pure-Python one, ~10x slower on a
    council game's log (2 ms a close of 26 kB, issue 38)."""
    def one(value) -> str:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)

    lines = []
    for key in sorted(turn):
        value = turn[key]
        if isinstance(value, (list, tuple)) and value:
            value = "[\n  " + ",\n  ".join(one(item) for item in value) + "\n ]"
        else:
            value = one(value)
        lines.append(f" {one(key)}: {value}")
    return "{\n" + ",\n".join(lines) + "\n}"


def _turn_files(at: str, orders: Mapping, turn: Mapping, reports: Mapping[str, str], made: list[Path]):
    """(folder, name, bytes) of a turn's record and reports; ``reports/`` made if missing."""
    for name, data in record_files(orders, turn):
        yield at, name, data
    if reports:
        made.extend(_make_folder(Path(at) / "reports"))
    for name, text in sorted(reports.items()):
        yield f"{at}/reports", checks.path_part(name), text.encode("utf-8")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _make_folder(folder: Path) -> list[Path]:
    """Make ``folder`` and what is missing above it: one call when only it is missing or it
    exists; the folders made, outermost first."""
    try:
        os.mkdir(folder, PUBLIC_DIR)
        return [folder]
    except FileExistsError:
        return []
    except FileNotFoundError:
        made = _make_folder(folder.parent)
        os.mkdir(folder, PUBLIC_DIR)
        return made + [folder]


def _close_all(fds: list[int]) -> None:
    for fd in fds:
        os.close(fd)


_sync_data = getattr(os, "fdatasync", os.fsync)
# per process (a forked child has none of its parent's threads): the queue of jobs, and how many
# threads take from it: as many as the largest round asked so far (a close's ~17 files and folders),
# since a job left waiting for a thread would wait for a second journal flush after the first
_syncers: dict[int, tuple[queue.SimpleQueue, list[int]]] = {}
_SYNC_THREADS = 64   # at most


def durable(fds: list[int], folders: Sequence[int] = ()) -> None:
    """``fdatasync`` every file (``fsync`` every folder in ``folders``), all at once: a
    journalling file system (ext4, XFS) then commits them in one journal flush instead of
    one each (measured: 14 files in ~3 ms against ~25 ms one after the other, at load 7)."""
    durable_start(fds, folders)()


def durable_start(fds: list[int], folders: Sequence[int] = ()) -> Callable[[], None]:
    """``durable``, begun: every sync handed to threads of their own (through C queues, a third
    of a thread pool's futures' CPU; each call with its own queue of answers, so closes on several
    threads never take each other's); returns the wait for them, which raises what the file
    system refused (EIO, ENOSPC).  Meanwhile the caller may work on (a close worker works the
    next close out); the fds stay open until the wait has returned."""
    jobs = [(fd, _sync_data) for fd in fds] + [(fd, os.fsync) for fd in folders]
    if len(jobs) < 2:
        def at_once() -> None:   # one sync: no thread's round trip
            for fd, sync in jobs:
                sync(fd)
        return at_once
    pool = _syncers.get(os.getpid())
    if pool is None:
        pool = _syncers[os.getpid()] = (queue.SimpleQueue(), [0])
    todo, started = pool
    while started[0] < min(len(jobs), _SYNC_THREADS):
        threading.Thread(target=_syncing, args=(todo,), name=f"fsync-{started[0]}", daemon=True).start()
        started[0] += 1
    answers: queue.SimpleQueue = queue.SimpleQueue()
    for fd, sync in jobs:
        todo.put((fd, sync, answers))

    def wait() -> None:
        refused = [e for e in [answers.get() for _ in jobs] if e is not None]   # every sync ended before the fds close
        if refused:
            raise refused[0]
    return wait


def _syncing(todo: queue.SimpleQueue) -> None:
    while True:
        fd, sync, answers = todo.get()
        try:
            sync(fd)
        except BaseException as exc:   # handed to the caller, which raises it
            answers.put(exc)
        else:
            answers.put(None)


def _open_folder(folder: Path | str) -> int:
    return os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))


def sync_folders(folders) -> None:
    """Make the names in every one of ``folders`` durable, in one round (``durable``)."""
    fds: list[int] = []
    try:
        for folder in folders:
            fds.append(_open_folder(folder))
        durable([], fds)
    finally:
        _close_all(fds)


def sync_folder(folder: Path) -> None:
    """Make the names in ``folder`` durable (files renamed or created in it)."""
    fd = _open_folder(folder)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sweep_staged(turn: Path | str, own: int | None = None) -> None:
    """Remove what closes of the turn that died staged in its folder (their hidden reports'
    folders and record files), but for process ``own``'s."""
    mine = f".{own}.tmp"
    with os.scandir(turn) as entries:
        for f in entries:
            if not (f.name.startswith(".") and f.name.endswith(".tmp")) or f.name.endswith(mine):
                continue
            if f.name.startswith(".reports.") and f.is_dir(follow_symlinks=False):
                shutil.rmtree(f.path, ignore_errors=True)
            elif f.name.startswith((".orders.yaml.", ".turn.json.")):
                _unlink(f.path)

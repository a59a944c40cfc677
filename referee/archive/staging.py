"""A close's files, written before its commit (issue 8): the reports staged in a hidden
folder of the turn's and placed by one rename, the turn's record staged beside them and
named after the commit.  The durable writes themselves are ``archive``'s (called through
the module, so one place decides how a file is made durable)."""
from __future__ import annotations

import errno
import os
from collections.abc import Mapping
from pathlib import Path

from referee.archive import record as files
from referee.archive.record import Archive
from referee.intake import checks

# While nothing is locked, the reports are written under their final names into a hidden
# folder of the turn's (``.reports.<pid>.tmp``), and the turn's record (orders.yaml, turn.json)
# beside its places as hidden temporary files; all are synced in one round.  Once the close is
# sure to commit (its inputs checked under the match's claim) the hidden folder becomes
# ``reports/`` by one rename (or, if an earlier close left a ``reports/``, file by file), its
# name synced before the commit.  The record is renamed into place after the commit (its bytes
# durable before its names exist); the turn is flagged archived only once its folder is fsynced
# (``close_flags.PendingFlags``: a pass's folders in one round).  Until the commit nothing under the
# turn's folder names any of them: a close that never commits leaves only hidden names, which the next
# close of the turn writes again.  A turn's ``reports/`` before its turn.json is the record of
# no one: the store says whether the turn is resolved, and turn.json follows its commit.

class Staged(list):
    """A close's staged reports, (staged, final) path pairs, to become ``folder``; ``held``: the
    hidden folder they are in (None once placed); ``reused``: ``held`` was there already (left by
    a dead process of this id), so it may hold files of no reader; ``record``: the turn's
    record's (temporary, final) pairs, placed after the commit (``place_record``)."""
    folder: Path
    held: str | None = None
    reused = False
    turn_made = False   # the turn's folder was made by this close: nothing an earlier close left is in it
    record: list[tuple[str, str]]
    _wait = None          # the wait for the files' sync, once begun and until it has ended
    _fds: tuple[int, ...] = ()   # the staged files and folders, open until their sync has ended

    def synced(self) -> None:
        """Wait for the staged files' sync (at once, or later after ``stage_reports(wait=False)``),
        then close them; on a refusal the staged files are removed and the error raised (what the
        disk refused).  Nothing is placed before it has returned; a second call finds it done."""
        wait, self._wait = self._wait, None
        if wait is None:
            return
        try:
            wait()
        except BaseException:
            discard_staged(self)
            raise
        finally:
            files._close_all(self._fds)


def _held_name(turn: Path | str) -> str:
    return f"{turn}/.reports.{os.getpid()}.tmp"   # two workers closing one turn never share it


def stage_reports(archive: Archive, match_id: str, number: int, reports: Mapping[str, str],
                  record: tuple[Mapping, Mapping] | None = None, wait: bool = True) -> Staged:
    """Write every report (and ``record``: the turn's (orders, turn.json) as ``archive_turn``
    writes them after the commit) to hidden files and make them durable (the store will hold
    no copy once the close commits).  On a failed write or sync (a full disk) the files written
    so far are removed and the error raised.  ``wait=False``: the sync is begun, and
    ``synced()`` of what this returns waits for it (a close worker works its next close out
    meanwhile, instead of waiting on the disk)."""
    staged = Staged()
    staged.record = []
    turn = archive.turn_dir(match_id, number)
    staged.folder = turn / "reports"
    held = _held_name(turn)
    made: list[Path] = []
    try:
        os.mkdir(held, files.PUBLIC_DIR)
    except FileExistsError:
        staged.reused = True
    except FileNotFoundError:
        made = files._make_folder(turn)   # the turn's folder (and the match's): their names synced below
        os.mkdir(held, files.PUBLIC_DIR)
        staged.turn_made = True
    staged.held = held
    fds: list[int] = []
    try:
        flags = files._NEW if not staged.reused else os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        for name, text in sorted(reports.items()):
            name = checks.path_part(name)
            path = f"{held}/{name}"
            fd = os.open(path, flags, files.report_mode(name))   # a seat's or the GM's: the owner's alone
            fds.append(fd)
            if staged.reused:
                os.fchmod(fd, files.report_mode(name))   # a file left there keeps the mode it was made with
            try:
                files._write_all(fd, text.encode("utf-8"))
            except BaseException:
                if not staged.reused:   # no partial file left (in a reused folder it may not be this call's)
                    files._unlink(path)
                raise
            staged.append((path, f"{staged.folder}/{name}"))
        if record is not None:
            for name, data in files.record_files(*record):
                fd, tmp = files._write_tmp(str(turn), name, data, files.PUBLIC)
                fds.append(fd)
                staged.record.append((tmp, f"{turn}/{name}"))
        # the hidden folder's names, and each new folder's own name in its parent, in the same round
        folders: list[int] = []
        try:
            for one in [held] + [str(m.parent) for m in made]:
                folders.append(files._open_folder(one))
            staged._wait = files.durable_start(fds, folders)
        except BaseException:
            files._close_all(folders)
            raise
    except BaseException:
        files._close_all(fds)
        discard_staged(staged)
        raise
    staged._fds = (*fds, *folders)
    if wait:
        staged.synced()
    return staged


def place_staged(staged: Staged) -> None:
    """Move staged reports into place and make their names durable before the close
    commits (a power loss must not keep the commit and lose the reports it names): the
    hidden folder becomes ``reports/`` by one rename.  If a ``reports/`` is there already
    (left by a close that never committed: killed, or given way) the reports move in one by
    one and what else is in it is removed (a report for a reader gone since, a staged file
    of a process that died).  ``staged`` is emptied: nothing is left for ``discard_staged``
    but the record, which ``place_record`` places after the commit."""
    held, folder = staged.held, staged.folder
    if held is None:
        return
    keep = {os.path.basename(path) for _, path in staged}
    if staged.reused:   # a dead process's folder: only this close's reports go into place
        _sweep(held, keep, hidden_too=True)
    try:
        os.rename(held, folder)   # one name for every report (replaces an empty reports/ too)
    except OSError as exc:
        if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
            raise
        for tmp, path in staged:
            os.replace(tmp, path)
        _sweep(str(folder), keep, hidden_too=False)
        os.rmdir(held)
        files.sync_folder(folder)
    if not staged.turn_made:
        files.sweep_staged(folder.parent, os.getpid())
    files.sync_folder(folder.parent)
    staged.held = None
    staged.clear()   # placed: the close's discard afterwards has no file to look for


def _sweep(folder: str, keep: set[str], hidden_too: bool) -> None:
    """Remove the files in ``folder`` not named in ``keep`` (hidden ones: staged ``.tmp`` files
    only, unless ``hidden_too``)."""
    with os.scandir(folder) as entries:
        for f in entries:
            if f.name in keep or f.is_dir(follow_symlinks=False):
                continue
            if hidden_too or not f.name.startswith(".") or f.name.endswith(".tmp"):
                files._unlink(f.path)



def place_record(archive: Archive, match_id: str, number: int) -> bool:
    """After the commit: the turn's record, staged with its reports by this process, into
    place; False if it is not staged (nothing placed: ``write_turn`` writes it whole).
    Its bytes are durable already (synced with the reports), so its names never show a
    partial or empty file.  The names are not synced here: a folder's fsync right after
    each commit would flush the store's just-written WAL with it (measured: the tick's wall
    +20-90% on this disk).  The caller flags the turn archived only after its folder's
    fsync, a pass's turns together (``close_flags.PendingFlags``); until then the repair
    writes the record again if the process dies."""
    at = str(archive.turn_dir(match_id, number))
    pid = os.getpid()
    try:
        for name in ("orders.yaml", "turn.json"):
            os.replace(f"{at}/.{name}.{pid}.tmp", f"{at}/{name}")
    except FileNotFoundError:
        return False
    return True


def discard_staged(staged: list[tuple[str, str]]) -> None:
    """Remove what a close staged and did not place (reports before a commit; its record,
    unless its reports were placed: the record then waits for ``place_record``)."""
    for tmp, _ in staged:
        files._unlink(tmp)
    if isinstance(staged, Staged) and staged.held is not None:
        try:
            os.rmdir(staged.held)
        except OSError:   # holds what this close did not write (a dead process's files)
            pass
        staged.held = None
        for tmp, _ in staged.record:
            files._unlink(tmp)
        staged.record = []

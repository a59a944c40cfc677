"""Snapshots of the store and the ``turns/`` archive, taken while the service runs,
and their restore.

A snapshot is a folder::

    MANIFEST.json      format, backend, when, the store file's sha256, every archive file's size
    store.sqlite       (or store.pgdump) the store as one consistent moment
    turns/...          the archive as that moment knows it

The store is dumped first (SQLite's online backup API; ``pg_dump`` in custom
format for PostgreSQL); then the archive is copied, but a turn's results only
where the dumped store holds that turn as archived: a restored store never
counts on archive files it did not see, and a turn resolved but not yet written
is written by the next tick (``repair_archive``), as after a crash.  Archive
files are only ever replaced whole (``archive._write``), so they are hard-linked
where the snapshot lies on the same file system.  A snapshot is written under a
temporary name and renamed when complete: a half-written one is never taken.

The snapshots taken before every close pass (``backup_auto.AutoBackup``) are of
format 2: a folder of two files, the store's dump (packed, ``store.sqlite.gz``, for
SQLite) and the manifest, which names each archive file by its content's sha256; the
contents lie once in ``archive-files/`` beside the snapshots, shared by all of them,
so a pass adds the packed dump and the archive files new since the last pass, not a
tree of thousands of folders (issue 38).  Such a snapshot is restored from where it
was taken (its ``archive-files`` beside it); its dump is unpacked into a temporary
folder to be checked and loaded.

The store's kind picks a ``StoreBackend`` (``backend_for``); a new store brings
its own by setting ``backup_backend`` to a name in ``BACKENDS``.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from referee.archive import record as files
from referee.archive import yaml_text as archive_yaml
from referee.store.backup_pg import PostgresBackend
from referee.store.backup_sqlite import SqliteBackend
from referee.store.schema import SCHEMA_VERSION

FORMAT = 1                 # a snapshot holding its archive files under turns/
SHARED = 2                 # an automatic one naming them by content, in POOL beside it
POOL = "archive-files"
MANIFEST = "MANIFEST.json"
SHA = re.compile(r"[0-9a-f]{64}")
RESULTS = ("orders.yaml", "turn.json", "reports")   # what a turn folder holds once archived


class BackupError(RuntimeError):
    """What stops a snapshot or a restore; ``todo``: what the GM can do about it."""

    def __init__(self, what: str, todo: str | None = None) -> None:
        super().__init__(what)
        self.todo = todo


BACKENDS = {"sqlite": SqliteBackend, "postgresql": PostgresBackend}


def backend_for(store):
    return BACKENDS[getattr(store, "backup_backend", "sqlite")]()


def backend_named(name: str):
    try:
        return BACKENDS[name]()
    except KeyError:
        raise BackupError(f"snapshot of an unknown store kind {name!r}") from None


# -- taking a snapshot ---------------------------------------------------------
def snapshot(store, archive_root: Path, dest: Path, *, now: datetime | None = None, link: bool = True) -> Path:
    """Write a complete snapshot into ``dest`` (absent or empty); returns it."""

    def put(path: Path, rel: str, into: Path) -> int:
        target = into / "turns" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        _link_or_copy(path, target, link)
        return target.stat().st_size

    return take(store, archive_root, Path(dest), put, {"format": FORMAT}, now)


def take(store, archive_root: Path, dest: Path, put: Callable[[Path, str, Path], int], manifest: dict,
         now: datetime | None = None) -> Path:
    """Dump the store into the folder ``dest`` is renamed from when whole, then hand each
    archive file of that moment to ``put(path, rel, that folder)`` (its size back);
    ``manifest``: the format's own fields."""
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise BackupError(f"{dest} exists and is not an empty folder")
    backend = backend_for(store)
    partial = dest.with_name(f".{dest.name}.partial-{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True, mode=0o700)
    try:
        dumped = backend.dump(store, partial)
        archived = backend.archived(dumped)
        if manifest["format"] == SHARED and getattr(backend, "packed", None):
            manifest = {**manifest, "store_bytes": dumped.stat().st_size}
            dumped = backend.pack(dumped)   # a fraction of the store a snapshot (issue 38)
        store_hash = _sha256(dumped)
        files = {rel: put(path, rel, partial) for path, rel in _archive_files(Path(archive_root), archived)}
        manifest = {**manifest, "backend": backend.name, "store_file": dumped.name, "store_sha256": store_hash,
                    "schema_version": SCHEMA_VERSION, "taken": (now or datetime.now(UTC)).isoformat(),
                    "archive": files}
        _write_json(partial / MANIFEST, manifest)
        if dest.exists():
            dest.rmdir()
        os.replace(partial, dest)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return dest


def _archive_files(root: Path, archived: dict[tuple[str, int], str | None]):
    """(path, its name under the archive) of every archive file, a turn's results only where
    ``archived`` holds that turn."""
    if not root.is_dir():
        return
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.name.startswith(".") or path.is_symlink():
            continue   # half-written temporaries (.name.tmp) are not the archive
        rel = path.relative_to(root)
        parts = rel.parts
        if (len(parts) >= 3 and parts[1].startswith("t") and parts[1][1:].isdigit() and parts[2] in RESULTS
                and (parts[0], int(parts[1][1:])) not in archived):
            continue   # resolved after the store's moment, or not yet written whole
        yield path, rel.as_posix()


def _link_or_copy(src: Path, dst: Path, link: bool) -> None:
    if link:
        try:
            os.link(src, dst)
            return
        except OSError:   # another file system, or links not allowed: copy
            pass
    shutil.copy2(src, dst)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(tmp, path)


# -- checking and restoring ------------------------------------------------------
# A snapshot folder may have been copied, kept on a share or handed over, so nothing in it is
# taken on its word (issue 32): the store loaded is the very file checked, named as the backend
# names it; the archive brought back is exactly the files the manifest lists, none reached
# through a link; and the store and the archive must be of one moment (every turn the store
# holds as archived has its record in the archive, with the store's state hash, and no other).
def verify(folder: Path) -> tuple[dict | None, list[str]]:
    """(the manifest, every problem found); a snapshot with problems is never restored."""
    with tempfile.TemporaryDirectory(prefix="referee-verify-") as scratch:
        manifest, whole, together, _ = _check(Path(folder), Path(scratch))
    return manifest, whole + together


def _where(folder: Path, manifest: dict) -> Callable[[str], Path]:
    """Where the snapshot in ``folder`` holds the archive file named ``rel``."""
    if manifest.get("format") == SHARED:
        objects, pool = manifest.get("objects"), folder.parent / POOL
        return lambda rel: pool / objects[rel][:2] / objects[rel]
    return lambda rel: folder / "turns" / rel


def _check(folder: Path, scratch: Path) -> tuple[dict | None, list[str], list[str], Path | None]:
    """(the manifest, problems of its wholeness, problems of its store and archive together,
    the store's dump as verified, None if not whole: in ``scratch`` where the snapshot packs it)."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        return None, [f"{folder}: no readable {MANIFEST} ({e.__class__.__name__}); not a snapshot, or not a whole one"], [], None
    if not isinstance(manifest, dict) or manifest.get("format") not in (FORMAT, SHARED):
        return None, [f"{folder}: snapshot format {manifest.get('format') if isinstance(manifest, dict) else '?'}, "
                      f"this referee reads {FORMAT} and {SHARED}"], [], None
    try:
        backend = backend_named(str(manifest.get("backend")))
    except BackupError as e:
        return manifest, [str(e)], [], None
    packed = manifest["format"] == SHARED and getattr(backend, "packed", None)
    name = packed or backend.file
    if manifest.get("store_file") != name:   # an absolute or other name would load an unchecked file
        return manifest, [f"the manifest names the store file {str(manifest.get('store_file'))[:80]!r}; a snapshot "
                          f"of a {backend.name} store holds it as {name}, beside the manifest"], [], None
    dumped = folder / name
    if dumped.is_symlink() or not dumped.is_file():
        return manifest, [f"{folder}: the store file {dumped.name} is missing (or a link)"], [], None
    problems: list[str] = []
    if _sha256(dumped) != manifest.get("store_sha256"):
        problems.append(f"{dumped.name}: its checksum differs from the manifest's (damaged or changed)")
    else:
        if packed:
            dumped, problems = backend.unpack(dumped, scratch, manifest.get("store_bytes"))
        problems = problems or backend.check(dumped)
    archive = manifest.get("archive")
    if not isinstance(archive, dict):
        return manifest, problems + [f"{MANIFEST}: its 'archive' is no list of files with their sizes"], [], None
    if manifest["format"] == SHARED:
        problems += _shared_problems(folder.parent / POOL, archive, manifest.get("objects"))
    else:
        problems += _archive_problems(folder, archive)
    if problems:
        return manifest, problems, [], None
    return manifest, [], _together(_where(folder, manifest), backend.archived(dumped), archive), dumped


def _archive_problems(folder: Path, listed: dict) -> list[str]:
    """The snapshot's ``turns/``: no link anywhere (``turns`` itself neither), every file the
    manifest lists there at its size, and nothing it does not list."""
    turns, problems = folder / "turns", []
    if turns.is_symlink():
        return ["turns: a symbolic link; a snapshot holds none"]
    found: set[str] = set()
    for at, dirs, names in os.walk(turns):   # never follows a link
        for name in dirs + names:
            path = Path(at) / name
            rel = path.relative_to(turns).as_posix()
            if path.is_symlink():
                problems.append(f"turns/{rel}: a symbolic link; a snapshot holds none")
            elif name in names:
                found.add(rel)
        if len(problems) > 20:
            return problems
    for rel, size in listed.items():
        path = turns / rel
        if not _plain(rel) or path.is_symlink() or not path.is_file() or path.stat().st_size != size:
            problems.append(f"turns/{rel}: missing or of another size than when taken")
            if len(problems) > 20:
                return problems
    problems += [f"turns/{rel}: not listed in the manifest; a snapshot holds only what it lists"
                 for rel in sorted(found - set(listed))[:20]]
    return problems


def _plain(rel: str) -> bool:
    """A name under the archive that stays there: no '..', '.', empty or absolute part."""
    return isinstance(rel, str) and all(p not in ("", ".", "..") for p in rel.split("/")) and "\\" not in rel


def _shared_problems(pool: Path, listed: dict, objects) -> list[str]:
    """An automatic snapshot's archive: every file it lists, by its content's sha256, in
    ``pool`` (no link, neither the pool) at its size and with that very content."""
    if pool.is_symlink() or not pool.is_dir():
        return [f"{pool}: the archive files this snapshot shares with those beside it are missing (or a link); "
                "an automatic snapshot is restored from the folder it was taken in"]
    if not isinstance(objects, dict) or set(objects) != set(listed):
        return [f"{MANIFEST}: its 'objects' do not name one content for each archive file"]
    problems: list[str] = []
    seen: dict[str, str] = {}
    for rel, size in listed.items():
        sha = objects[rel]
        if not _plain(rel) or not isinstance(sha, str) or not SHA.fullmatch(sha):
            problems.append(f"turns/{str(rel)[:80]}: not a file name under the archive, or no sha256 for it")
        else:
            path = pool / sha[:2] / sha
            if path.is_symlink() or not path.is_file() or path.stat().st_size != size:
                problems.append(f"turns/{rel}: missing or of another size than when taken")
            elif seen.setdefault(sha, _sha256(path)) != sha:
                problems.append(f"turns/{rel}: its content differs from when taken (damaged or changed)")
        if len(problems) > 20:
            break
    return problems


def _together(at: Callable[[str], Path], archived: dict[tuple[str, int], str | None], listed: dict) -> list[str]:
    """Whether the dumped store and the snapshot's archive are of one moment: the turns the
    store holds as archived are the turns whose record (turn.json) is in the archive, and each
    record's state hash is the store's."""
    records = {}
    for rel in listed:
        parts = rel.split("/")
        if len(parts) == 3 and parts[2] == "turn.json" and parts[1][:1] == "t" and parts[1][1:].isdigit():
            records[(parts[0], int(parts[1][1:]))] = rel
    problems = [f"the store holds turn {n} of {m} as archived, but the archive has no turns/{m}/t{n:03d}/turn.json"
                for m, n in sorted(set(archived) - set(records))]
    problems += [f"turns/{records[t]}: a turn the store does not hold as archived" for t in sorted(set(records) - set(archived))]
    for turn in sorted(set(records) & set(archived)):
        try:
            recorded = archive_yaml.read_json(at(records[turn]))
        except (OSError, ValueError) as e:
            problems.append(f"turns/{records[turn]}: unreadable ({e})")
            continue
        if archived[turn] and (not isinstance(recorded, dict) or recorded.get("hash") != archived[turn]):
            problems.append(f"turns/{records[turn]}: its state hash is not the one the store holds for that turn")
    return problems[:20]


def restore(folder: Path, store_location: str, archive_root: Path, *, force: bool = False,
            now: datetime | None = None) -> dict:
    """Bring a snapshot back; refuses a store in use or holding matches, and a
    non-empty archive, unless ``force`` (the old archive is then kept beside)."""
    folder, archive_root = Path(folder), Path(archive_root)
    with tempfile.TemporaryDirectory(prefix="referee-restore-") as scratch:
        return _restore(folder, store_location, archive_root, force, now, *_check(folder, Path(scratch)))


def _restore(folder: Path, store_location: str, archive_root: Path, force: bool, now: datetime | None,
             manifest: dict | None, problems: list[str], apart: list[str], dumped: Path | None) -> dict:
    if problems or manifest is None or dumped is None:
        raise BackupError("the snapshot is not whole: " + "; ".join(problems[:5]),
                          "take a new one with `referee backup`, or restore another")
    if apart:
        raise BackupError("the snapshot's store and archive do not belong together: " + "; ".join(apart[:5]),
                          "they come from different snapshots or were changed by hand; "
                          "restore a snapshot as `referee backup` wrote it")
    backend = backend_named(manifest["backend"])
    if backend.in_use(store_location):
        raise BackupError(f"{store_location} is in use (a running referee?); stop it first")
    now = now or datetime.now(UTC)
    if not force:
        ticked = backend.last_tick(store_location)
        if ticked is not None and now - ticked < timedelta(minutes=5):
            raise BackupError(f"{store_location} ticked {int((now - ticked).total_seconds())}s ago: "
                              "is the service running? stop it, or give --force")
        if backend.holds_matches(store_location):
            raise BackupError(f"{store_location} holds matches; give --force to replace them")
        if archive_root.is_dir() and any(archive_root.iterdir()):
            raise BackupError(f"{archive_root} is not empty; give --force to replace it (the old one is kept beside)")
    staged = archive_root.with_name(f".{archive_root.name}.restoring-{os.getpid()}")
    shutil.rmtree(staged, ignore_errors=True)
    try:
        _bring_back(_where(folder, manifest), staged, manifest["archive"])   # before the store: a full disk changes nothing
        backend.load(dumped, store_location)          # the very file verified
    except BaseException:
        shutil.rmtree(staged, ignore_errors=True)
        raise
    kept = None
    if archive_root.exists():
        kept = archive_root.with_name(f"{archive_root.name}.before-restore-{now:%Y%m%dT%H%M%S}")
        os.replace(archive_root, kept)
    os.replace(staged, archive_root)
    return {"taken": manifest["taken"], "files": len(manifest["archive"]), "old_archive": str(kept) if kept else None}


def _bring_back(source: Callable[[str], Path], out: Path, listed: dict) -> None:
    """Copy the files ``listed`` (and nothing else), each from ``source(name)``, into the new folder ``out``,
    each with the mode the archive gives it (``archive.is_private``), not the snapshot's;
    a file is opened without following a link (one put there since it was verified)."""
    out.mkdir(parents=True, mode=files.PUBLIC_DIR)
    for rel in sorted(listed):
        parts = tuple(rel.split("/"))
        at = out
        for i, name in enumerate(parts[:-1]):
            at = at / name
            if any(p in files.PRIVATE_FOLDERS for p in parts[:i + 1]):
                files.private_folder(at)
            else:
                files._make_folder(at)
        fd = os.open(source(rel), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as f, open(os.open(out / rel, os.O_WRONLY | os.O_CREAT | os.O_EXCL,
                                                    files.PRIVATE if files.is_private(parts) else files.PUBLIC), "wb") as g:
            shutil.copyfileobj(f, g)

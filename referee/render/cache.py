"""Compiled templates kept on disk, so a new process (a close worker, the next ``referee``
command) loads them instead of compiling them again: compiling every report template
costs a process ~1.5 s of CPU, loading them ~0.1 s.

Jinja's own file cache (``FileSystemBytecodeCache``: written to a temporary file and
renamed, so processes may share it; its default folder is private to the user) holds
the code.  Jinja checks an entry against the template's source and its own and Python's
versions; the file names also tell apart what else decides the code: the environment
(text, HTML and mail compile the same file differently) and the referee's renderer and
``{% shared %}`` code.  A change of any of these compiles afresh.

``REFEREE_TEMPLATE_CACHE``: a folder to keep them in, ``off`` for none; unset, Jinja's
default folder (``_jinja2-cache-<uid>`` in the temporary folder).
"""
from __future__ import annotations

import hashlib
import os
import sys
from functools import cache
from importlib import metadata
from pathlib import Path

import jinja2
import jinja2.bccache

_HERE = Path(__file__).resolve().parent
_CODE = (_HERE / "renderer.py", _HERE / "shared.py", _HERE / "cache.py")


@cache
def code_version() -> str:
    """What, besides a template's source, its compiled code depends on."""
    h = hashlib.sha256(f"{metadata.version('jinja2')}|{sys.version}".encode())
    for path in _CODE:
        h.update(path.read_bytes())
    return h.hexdigest()[:20]


class CompiledTemplates(jinja2.FileSystemBytecodeCache):
    """Jinja's file cache, its files named by the environment ``kind`` and ``code_version``."""

    def __init__(self, directory: str | None, kind: str) -> None:
        super().__init__(directory, pattern=f"__referee_{kind}_{code_version()}_%s.cache")

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:   # a damaged file (Jinja checks its header, not its body): compile afresh
            bucket.reset()


def cache_folder(setting: str | os.PathLike | None = None) -> str | None | bool:
    """The folder to keep compiled templates in: ``setting``, else ``REFEREE_TEMPLATE_CACHE``;
    None for Jinja's default folder, False for no cache at all."""
    value = os.fspath(setting) if setting is not None else os.environ.get("REFEREE_TEMPLATE_CACHE", "")
    if value.strip().lower() in ("off", "no", "0", "false"):
        return False
    return value or None


def compiled_templates(setting: str | os.PathLike | None, kind: str) -> CompiledTemplates | None:
    """The cache for one environment, or None when there is to be none or its folder is unusable."""
    folder = cache_folder(setting)
    if folder is False:
        return None
    try:
        if folder is not None:
            Path(folder).mkdir(parents=True, exist_ok=True)
        return CompiledTemplates(folder, kind)
    except (OSError, RuntimeError):   # no writable folder: compile in memory as before
        return None

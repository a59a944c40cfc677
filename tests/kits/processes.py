"""Processes read from /proc (Linux): a process's tree and which of it still runs, for the
tests that kill a parent and look for what it left (issue 32)."""
from __future__ import annotations

from pathlib import Path


def _stat(pid: int | str) -> list[bytes] | None:
    """The fields of /proc/PID/stat after the name (state, ppid, …), None if it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()
    except OSError:
        return None


def state(pid: int) -> str | None:
    """R, S, T, Z … of ``pid``; None once it is gone."""
    fields = _stat(pid)
    return fields[0].decode() if fields else None


def tree(pid: int) -> dict[int, bytes]:
    """``pid`` and every process under it: pid -> its start time (a pid used again is another process)."""
    children: dict[int, list[int]] = {}
    starts: dict[int, bytes] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        fields = _stat(entry.name)
        if fields:
            children.setdefault(int(fields[1]), []).append(int(entry.name))
            starts[int(entry.name)] = fields[19]
    found, todo = {}, [pid]
    while todo:
        p = todo.pop()
        if p in starts:
            found[p] = starts[p]
            todo.extend(children.get(p, ()))
    return found


def alive(processes: dict[int, bytes]) -> dict[int, str]:
    """Those of ``processes`` (``tree``) still running, a zombie being ended: pid -> state."""
    left = {}
    for pid, start in processes.items():
        fields = _stat(pid)
        if fields and fields[19] == start and fields[0] not in (b"Z", b"X"):
            left[pid] = fields[0].decode()
    return left


def kill_stopped_while(going, pids, within: float) -> int:
    """SIGKILL each process of ``pids()`` found stopped (a worker that stopped itself where a test
    wants it killed) while ``going()`` and for ``within`` seconds at most; how many were killed."""
    import os
    import signal
    import time

    killed, deadline = 0, time.monotonic() + within
    while going() and time.monotonic() < deadline:
        for pid in pids():
            if state(pid) == "T":
                os.kill(pid, signal.SIGKILL)
                killed += 1
        time.sleep(0.05)
    return killed

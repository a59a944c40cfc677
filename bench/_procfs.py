"""What the close benches read of processes and disks: CPU and peak memory of live processes
(/proc), this process's children, the cores' idle time, and bytes on disk."""
from __future__ import annotations

import contextlib
import os
from pathlib import Path


def size_of(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def db_size(root: Path) -> int:
    """The store's bytes on disk (the database, its write-ahead log and index)."""
    return sum(f.stat().st_size for f in root.glob("referee.sqlite*"))


def cpu_of(pids: list[int]) -> float:
    """User + system CPU seconds of live processes (from /proc: RUSAGE_CHILDREN counts only those ended)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / tick


def children() -> list[int]:
    """This process's live child processes (/proc's ``children`` list of each of its threads): the
    picture workers are found here rather than in a private attribute of their pool."""
    found: list[int] = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        with contextlib.suppress(OSError, ValueError):
            found += [int(pid) for pid in (task / "children").read_text().split()]
    return found


def cores_idle() -> float:
    """Seconds every core of the machine spent idle or waiting on the disk so far (/proc/stat): how
    much of the cores' time a tick left unused (the rest was its processes' CPU, or another's)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    return (int(fields[4]) + int(fields[5])) / os.sysconf("SC_CLK_TCK")


def peak_rss_of(pids: list[int]) -> float:
    """The largest peak resident set (MB) of live processes (their VmHWM)."""
    peak = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]))
        except (OSError, ValueError):
            pass
    return peak / 1024

"""Issue 32 item 13: worker processes end when their parent dies, whatever the signal
(``referee/lifeline.py``), and a claim held by a process that died is free at once, also
while that process waits to be reaped.  Real processes: a parent started here starts a
spawned worker as the close pool does, and is killed with SIGKILL."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from processes import alive, state, tree

from referee.runtime.lifeline import gone

# The parent: starts one spawned worker (by a Spawner, or by a thread that then ends), prints
# its pid and waits to be killed.  argv: how the worker ties itself (kernel|pipe), whether
# it stops itself (stop|run), who starts it (spawner|thread).
PARENT = textwrap.dedent("""
    import multiprocessing, os, signal, sys, threading, time
    from referee.runtime.lifeline import Spawner, die_with_parent

    def worker(parent, lifeline, kernel, stop, armed):
        die_with_parent(parent, lifeline, kernel=kernel)
        armed.set()
        if stop:
            os.kill(os.getpid(), signal.SIGSTOP)
        while True:
            time.sleep(1)

    if __name__ == "__main__":
        how, state, starter = sys.argv[1:]
        ctx = multiprocessing.get_context("spawn")
        reader, writer = ctx.Pipe(duplex=False)
        armed = ctx.Event()
        args = (os.getpid(), None if how == "kernel" else reader, how == "kernel", state == "stop", armed)
        started = []
        start = lambda: started.append(ctx.Process(target=worker, args=args, daemon=True)) or started[0].start()
        spawner = Spawner()
        # a thread that has it started (itself, or by the spawner) and ends once the worker is armed
        t = threading.Thread(target=lambda: (spawner.run(start) if starter == "spawner" else start()) or armed.wait())
        t.start()
        t.join()
        print(started[0].pid, flush=True)   # (it may be gone already: killed with its thread)
        time.sleep(600)
""")


def _ended(pid: int, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if state(pid) in (None, "Z", "X"):
            return True
        time.sleep(0.05)
    return False


def _parent(tmp_path, *argv: str) -> tuple[subprocess.Popen, int]:
    script = tmp_path / "parent.py"
    script.write_text(PARENT)
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, str(script), *argv], stdout=subprocess.PIPE, text=True, env=env)
    return proc, int(proc.stdout.readline())


def _waitstate(pid: int, want: str, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while state(pid) != want and time.monotonic() < end:
        time.sleep(0.05)
    assert state(pid) == want


def test_a_stopped_worker_ends_when_its_parent_is_killed(tmp_path):
    """The kernel's SIGKILL reaches a worker that cannot run (stopped, like one inside a debugger)."""
    parent, child = _parent(tmp_path, "kernel", "stop", "spawner")
    try:
        _waitstate(child, "T")
        parent.kill()
        parent.wait(10)
        assert _ended(child, 10)
    finally:
        _cleanup(parent, child)


def test_a_worker_ends_by_its_pipe_when_its_parent_is_killed(tmp_path):
    """The portable fallback alone: the worker's thread reads EOF once the parent is gone."""
    parent, child = _parent(tmp_path, "pipe", "run", "spawner")
    try:
        assert state(child) not in (None, "Z")
        parent.kill()
        parent.wait(10)
        assert _ended(child, 10)
    finally:
        _cleanup(parent, child)


def test_a_worker_started_by_the_spawner_outlives_the_thread_that_asked_for_it(tmp_path):
    """The kernel's signal follows the thread that started a worker: started by a thread that has
    ended, the worker is killed with it; started by the spawner's thread, it runs on."""
    by_thread, first = _parent(tmp_path, "kernel", "run", "thread")
    by_spawner, second = _parent(tmp_path, "kernel", "run", "spawner")
    try:
        assert _ended(first, 10)                  # why the pool starts its workers from a Spawner
        time.sleep(1)
        assert state(second) not in (None, "Z")
    finally:
        _cleanup(by_thread, first)
        _cleanup(by_spawner, second)


def test_a_process_that_died_and_waits_to_be_reaped_is_gone(tmp_path):
    """A zombie: ``kill(pid, 0)`` still finds it, yet what it held is free (archiver, outbox claim)."""
    import socket

    from referee.store import archiving
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        held = f"{socket.gethostname()}:{child.pid}:{int(time.time())}"
        assert not gone(child.pid) and not archiving.lost(held)
        os.kill(child.pid, signal.SIGKILL)
        _waitstate(child.pid, "Z")   # not reaped yet
        os.kill(child.pid, 0)          # still found this way
        assert gone(child.pid) and archiving.lost(held)
    finally:
        child.kill()
        child.wait()
    assert gone(child.pid) and not gone(os.getpid())


def _cleanup(parent: subprocess.Popen, child: int) -> None:
    if parent.poll() is None:
        parent.kill()
        parent.wait()
    if state(child) not in (None, "Z", "X"):
        os.kill(child, signal.SIGKILL)


def test_picture_workers_end_when_their_parent_is_killed(tmp_path):
    """The picture workers (started by whichever thread draws first) end by their pipe, and
    multiprocessing's resource tracker with them."""
    script = tmp_path / "pictures_parent.py"
    script.write_text(textwrap.dedent("""
        import time
        from referee.pictures import board as pictures

        if __name__ == "__main__":   # not in the spawned workers
            pictures.WORKERS = 1
            pictures.warm()
            print(pictures.prerender(['<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>']), flush=True)
            time.sleep(600)
    """))
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=env)
    processes: dict = {}
    try:
        assert parent.stdout.readline().strip() == "1"   # handed to a picture worker
        end = time.monotonic() + 60
        while len(tree(parent.pid)) < 3 and time.monotonic() < end:   # itself, a picture worker, the tracker
            time.sleep(0.05)
        processes = tree(parent.pid)
        assert len(processes) >= 3, processes
        parent.kill()
        parent.wait(10)
        end = time.monotonic() + 10
        while alive(processes) and time.monotonic() < end:
            time.sleep(0.05)
        assert alive(processes) == {}
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for pid in alive(processes):   # what a failure left
            os.kill(pid, signal.SIGKILL)

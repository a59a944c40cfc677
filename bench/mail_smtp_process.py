"""The test SMTP front (tests/kits/smtpfront.py: aiosmtpd, delivering over LMTP
into Dovecot) in a process of its own, as a real MTA would be: a benchmark then
does not count the server's CPU time, nor its GIL contention, against the referee.

Run: python bench/mail_smtp_process.py LMTP_PORT USER [USER ...]
Prints "port N" once listening; stops when its stdin closes, printing "captured N".
``separate_smtp_front(servers)`` runs it for the length of a ``with`` block.
"""
from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve()


class FrontProcess:
    def __init__(self, proc: subprocess.Popen, port: int) -> None:
        self.proc, self.port, self.captured = proc, port, None


@contextlib.contextmanager
def separate_smtp_front(servers) -> Iterator[FrontProcess]:
    """An SMTP front for ``servers``' Dovecot in a child process; ``.captured``
    holds how many messages it took once the block has ended."""
    proc = subprocess.Popen([sys.executable, str(HERE), str(servers.dovecot.lmtp_port), *servers.users],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline().split()
        if line[:1] != ["port"]:
            raise RuntimeError(f"SMTP front process did not start: {line!r}")
        front = FrontProcess(proc, int(line[1]))
        yield front
        proc.stdin.close()
        tail = proc.stdout.read().split()
        front.captured = int(tail[1]) if tail[:1] == ["captured"] else None
    finally:
        if proc.poll() is None:
            if not proc.stdin.closed:
                proc.stdin.close()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def main() -> None:
    sys.path.insert(0, str(HERE.parent.parent / "tests" / "kits"))
    from mailservers import SmtpFront

    front = SmtpFront(int(sys.argv[1]), set(sys.argv[2:]))
    front.start()
    print(f"port {front.port}", flush=True)
    try:
        sys.stdin.read()
    finally:
        count = len(front.captured)
        front.stop()
        print(f"captured {count}", flush=True)


if __name__ == "__main__":
    main()

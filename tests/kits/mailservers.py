"""Real mail servers for the tests: a private Dovecot and an aiosmtpd front.

``running_mailservers()`` starts Dovecot (IMAP + LMTP, Debian 2.3) from its own
config in a short folder under /dev/shm on free loopback ports, and aiosmtpd
SMTP servers that capture every message and deliver it into Dovecot over LMTP
(one recipient per LMTP transaction).  It is a plain context manager, so
benchmarks and scripts use it as well as the pytest fixtures in conftest.py.
A server that cannot start raises ``MailServerError`` with its log: tests
that need the servers then fail, never skip.

Facts this relies on are in ../shared/reference/mailstack.md (uid 0 refused,
0755 parents, anvil penalty socket, short socket paths, inherited stdio).
"""
from __future__ import annotations

import contextlib
import os
import shutil
import smtplib
import ssl
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path


def _load(name: str):
    # tests/ is not a package and scripts import this file by path, so the
    # halves in tests/mail/ (dovecot.py, smtpfront.py) are loaded by location.
    import importlib.util
    import sys
    key = f"referee_tests_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            key, Path(__file__).resolve().parent / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


dovecot_module = _load("dovecot")
SmtpFront = _load("smtpfront").SmtpFront
Dovecot = dovecot_module.Dovecot
MailServerError = dovecot_module.MailServerError
make_certificate = dovecot_module.make_certificate
wait_until = dovecot_module.wait_until
free_port = dovecot_module.free_port
DOMAIN = dovecot_module.DOMAIN
PLAYER_DOMAIN = "players.test"
DEFAULT_USERS = ("referee", "gm", "alice", "bob", "carol", "dave", "erin", "frank",
                 "grace", "heidi", "observer")


@dataclass
class MailServers:
    """Everything a test needs: Dovecot, SMTP fronts, users, the TLS certificate."""

    root: Path
    dovecot: Dovecot
    smtp: SmtpFront            # plain SMTP, no AUTH: what players' MTAs talk to
    smtp_tls: SmtpFront | None  # STARTTLS required, AUTH required (Dovecot's users)
    smtps: SmtpFront | None     # implicit TLS + AUTH
    cert: Path | None
    users: dict[str, str] = field(default_factory=dict)

    @property
    def host(self) -> str:
        return "127.0.0.1"

    def address(self, user: str, domain: str = PLAYER_DOMAIN) -> str:
        return f"{user}@{DOMAIN if user in ('referee', 'gm') else domain}"

    def password(self, user: str) -> str:
        return self.users[user]

    def ssl_context(self) -> ssl.SSLContext:
        """A client context that trusts the test certificate."""
        if self.cert is None:
            raise MailServerError("these mail servers run without TLS")
        return ssl.create_default_context(cafile=str(self.cert))

    # Shortcuts so tests read naturally.
    def append(self, user: str, raw: bytes, folder: str = "INBOX", when=None) -> int:
        return self.dovecot.append(user, raw, folder, when)

    def messages(self, user: str, folder: str = "INBOX") -> list[bytes]:
        return self.dovecot.messages(user, folder)

    def wait_messages(self, user: str, count: int, folder: str = "INBOX",
                      timeout: float = 10.0) -> list[bytes]:
        return self.dovecot.wait_messages(user, count, folder, timeout)

    @property
    def captured(self):
        return self.smtp.captured

    def wait_captured(self, count: int, timeout: float = 10.0):
        return self.smtp.wait_captured(count, timeout)

    def send(self, mail_from: str, rcpts: list[str], raw: bytes) -> None:
        """Submit through the plain SMTP front (captured, then delivered to Dovecot)."""
        with smtplib.SMTP("127.0.0.1", self.smtp.port, timeout=10) as smtp:
            smtp.sendmail(mail_from, rcpts, raw)

    def reset(self) -> None:
        """Empty every mailbox, forget captures and injected failures (between tests)."""
        for user in self.users:
            self.dovecot.clear(user)
        self.smtp.reset()


def _short_root() -> Path:
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else "/tmp"
    root = Path(tempfile.mkdtemp(prefix="rf-", dir=base))
    root.chmod(0o755)  # the auth and mail processes must traverse it
    return root


@contextlib.contextmanager
def running_mailservers(users: tuple[str, ...] | dict[str, str] = DEFAULT_USERS,
                        tls: bool = True, keep: bool = False,
                        mail_location: str = "maildir:~/Maildir") -> Iterator[MailServers]:
    """Start Dovecot + aiosmtpd, yield a ``MailServers``, stop and remove all after.

    ``users``: names (password ``<name>-pw``) or a name → password mapping.
    ``keep``: leave the folder (with dovecot.log) for debugging.
    ``mail_location``: Dovecot's mail storage, e.g. "mdbox:~/mdbox" for benchmarks.
    """
    passwords = dict(users) if isinstance(users, dict) else {u: f"{u}-pw" for u in users}
    root = _short_root()
    dovecot = smtp = smtp_tls = smtps = None
    try:
        cert = key = None
        if tls:
            (root / "tls").mkdir()
            cert, key = make_certificate(root / "tls")
        dovecot = Dovecot(root, passwords, tls=(cert, key) if tls else None,
                          mail_location=mail_location)
        dovecot.start()
        smtp = SmtpFront(dovecot.lmtp_port, set(passwords))
        smtp.start()
        if tls:
            ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            ctx.load_cert_chain(str(cert), str(key))
            smtp_tls = SmtpFront(dovecot.lmtp_port, set(passwords), tls_context=ctx,
                                 passwords=passwords, shared=smtp)
            smtp_tls.start()
            smtps = SmtpFront(dovecot.lmtp_port, set(passwords), implicit_tls=ctx,
                              passwords=passwords, shared=smtp)
            smtps.start()
        yield MailServers(root, dovecot, smtp, smtp_tls, smtps, cert, passwords)
    finally:
        for front in (smtps, smtp_tls, smtp):
            if front is not None:
                front.stop()
        if dovecot is not None:
            dovecot.stop()
        if not keep:
            shutil.rmtree(root, ignore_errors=True)

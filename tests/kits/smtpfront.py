"""The SMTP half of the test mail servers: aiosmtpd that captures and delivers.

Every accepted message is kept (``captured``) and delivered into Dovecot over
LMTP, one recipient per transaction (CPython's LMTP client mis-reads replies
for several).  Tests inject failures per recipient (``fail_rcpt``) or for
DATA (``fail_data``) to exercise the referee's temporary/permanent handling.
"""
from __future__ import annotations

import smtplib
import socket
import ssl
import threading
import time
import warnings
from dataclasses import dataclass, field

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

# aiosmtpd warns on every SMTPS session (it cannot see implicit TLS when
# checking "AUTH requires TLS") and on every AUTH (its own deprecated field).
warnings.filterwarnings("ignore", message="Requiring AUTH while not requiring TLS")
warnings.filterwarnings("ignore", message="Session.login_data is deprecated")


@dataclass(frozen=True)
class Captured:
    mail_from: str
    rcpts: tuple[str, ...]
    raw: bytes
    auth_user: str | None
    tls: bool


@dataclass
class FrontState:
    """What the plain, STARTTLS and SMTPS fronts share."""

    captured: list[Captured] = field(default_factory=list)
    rcpt_failures: dict[str, str] = field(default_factory=dict)
    data_failure: str | None = None
    cond: threading.Condition = field(default_factory=threading.Condition)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _Handler:
    def __init__(self, front: SmtpFront) -> None:
        self.front = front

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        state = self.front.state
        failure = state.rcpt_failures.get(address.lower())
        if failure:
            return failure
        if address.split("@", 1)[0].lower() not in self.front.known_users:
            return f"550 5.1.1 <{address}>: no such user here"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope):
        state = self.front.state
        if state.data_failure:
            return state.data_failure
        raw = envelope.original_content or envelope.content
        problems = []
        for rcpt in envelope.rcpt_tos:
            try:
                with smtplib.LMTP("127.0.0.1", self.front.lmtp_port, timeout=10) as lmtp:
                    lmtp.sendmail(envelope.mail_from or "", [rcpt], raw)
            except (smtplib.SMTPException, OSError) as exc:
                problems.append(f"{rcpt}: {exc}")
        user = getattr(session, "auth_data", None)
        login = getattr(user, "login", None)
        captured = Captured(envelope.mail_from or "", tuple(envelope.rcpt_tos), raw,
                            login.decode() if isinstance(login, bytes) else login,
                            server.transport.get_extra_info("ssl_object") is not None)
        with state.cond:
            state.captured.append(captured)
            state.cond.notify_all()
        if problems:
            return "451 4.3.0 LMTP delivery failed: " + "; ".join(problems)
        return "250 2.0.0 OK: captured and delivered"


class SmtpFront:
    """One aiosmtpd server on a free loopback port.

    Plain by default; ``tls_context`` → STARTTLS required + AUTH required;
    ``implicit_tls`` → SMTPS + AUTH required.  ``passwords`` checks AUTH.
    """

    def __init__(self, lmtp_port: int, known_users: set[str], *,
                 tls_context: ssl.SSLContext | None = None,
                 implicit_tls: ssl.SSLContext | None = None,
                 passwords: dict[str, str] | None = None,
                 shared: SmtpFront | None = None) -> None:
        self.lmtp_port = lmtp_port
        self.known_users = {u.lower() for u in known_users}
        self.state = shared.state if shared is not None else FrontState()
        self.passwords = dict(passwords or {})
        self.port = 0
        kwargs: dict = {}
        if tls_context is not None:
            kwargs.update(tls_context=tls_context, require_starttls=True,
                          authenticator=self._authenticate, auth_required=True,
                          auth_require_tls=True)
        if implicit_tls is not None:
            kwargs.update(ssl_context=implicit_tls, authenticator=self._authenticate,
                          auth_required=True, auth_require_tls=False)
        self._kwargs = kwargs
        self._controller: Controller | None = None

    def _authenticate(self, server, session, envelope, mechanism, auth_data) -> AuthResult:
        login = auth_data.login.decode() if isinstance(auth_data.login, bytes) else auth_data.login
        password = auth_data.password.decode() if isinstance(auth_data.password, bytes) \
            else auth_data.password
        ok = login is not None and self.passwords.get(login) == password
        return AuthResult(success=ok, handled=False, auth_data=auth_data)

    def start(self) -> None:
        last: Exception | None = None
        for _ in range(3):
            self.port = _free_port()
            self._controller = Controller(_Handler(self), hostname="127.0.0.1", port=self.port,
                                          ready_timeout=5, server_hostname="smtp.referee.test",
                                          **self._kwargs)
            try:
                self._controller.start()
                return
            except Exception as exc:  # port taken meanwhile: try another
                last = exc
        raise RuntimeError(f"aiosmtpd did not start: {last!r}")

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    # -- test helpers --------------------------------------------------------
    @property
    def captured(self) -> list[Captured]:
        return self.state.captured

    def wait_captured(self, count: int, timeout: float = 10.0) -> list[Captured]:
        """Block until at least ``count`` messages were captured; return them all."""
        deadline = time.monotonic() + timeout
        with self.state.cond:
            while len(self.state.captured) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"timed out after {timeout:.1f}s waiting for {count} "
                                       f"captured message(s); have {len(self.state.captured)}")
                self.state.cond.wait(left)
            return list(self.state.captured)

    def fail_rcpt(self, address: str, reply: str) -> None:
        """Answer RCPT TO:<address> with ``reply`` (e.g. "550 5.1.1 gone")."""
        self.state.rcpt_failures[address.lower()] = reply

    def fail_data(self, reply: str | None) -> None:
        """Answer every DATA with ``reply`` (None: accept again)."""
        self.state.data_failure = reply

    def reset(self) -> None:
        with self.state.cond:
            self.state.captured.clear()
        self.state.rcpt_failures.clear()
        self.state.data_failure = None

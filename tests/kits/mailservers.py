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


# -- OAuth2 (issue 37): a token endpoint, Dovecot's oauth2 passdb, SMTP AUTH XOAUTH2 ---------
_smtpfront = _load("smtpfront")


class TokenServer:
    """A tiny OAuth2 authorization server on loopback (http.server in a thread).

    POST /token: the refresh-token grant; answers ``{"access_token", "expires_in"}``,
    or 400 ``invalid_grant`` for a refresh token in ``revoked``.  POST /introspect
    (RFC 7662, what Dovecot's ``introspection_mode = post`` sends): ``active`` while
    a token is known, not ``killed`` and not expired.  ``answer`` replaces every
    /token answer with raw bytes (hostile-input tests).
    """

    def __init__(self, users: dict[str, str], lifetime: float = 3600.0) -> None:
        import threading
        self.refresh_tokens = dict(users)   # refresh token -> user
        self.lifetime = lifetime
        self.revoked: set[str] = set()
        self.killed: set[str] = set()
        self.tokens: dict[str, tuple[str, float]] = {}   # access token -> (user, expiry, wall clock)
        self.issued: list[str] = []
        self.introspected = 0
        self.answer: bytes | None = None
        self.rotate = False   # True: every grant hands out a new refresh token and revokes the old one
        self.lock = threading.Lock()
        self._httpd = None
        self._thread = None
        self.port = 0

    @property
    def token_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/token"

    @property
    def introspection_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/introspect"

    def valid(self, token: str) -> str | None:
        """The user ``token`` is for, while it is valid."""
        import time
        with self.lock:
            user, expiry = self.tokens.get(token, (None, 0.0))
            return user if user and token not in self.killed and time.time() < expiry else None

    def issue(self, user: str) -> str:
        import secrets
        import time
        token = f"at-{len(self.issued) + 1}-{secrets.token_urlsafe(12)}"
        with self.lock:
            self.tokens[token] = (user, time.time() + self.lifetime)
            self.issued.append(token)
        return token

    def _token(self, form: dict[str, str]) -> tuple[int, bytes]:
        import json
        if self.answer is not None:
            return 200, self.answer
        refresh = form.get("refresh_token", "")
        if form.get("grant_type") != "refresh_token" or not form.get("client_id"):
            return 400, b'{"error": "invalid_request"}'
        if refresh in self.revoked or refresh not in self.refresh_tokens:
            return 400, b'{"error": "invalid_grant", "error_description": "Token has been expired or revoked."}'
        token = self.issue(self.refresh_tokens[refresh])
        answer = {"access_token": token, "token_type": "Bearer", "expires_in": self.lifetime}
        if self.rotate:
            answer["refresh_token"] = f"rt-rotated-{len(self.issued)}"
            self.refresh_tokens[answer["refresh_token"]] = self.refresh_tokens[refresh]
            self.revoked.add(refresh)
        return 200, json.dumps(answer).encode()

    def _introspect(self, form: dict[str, str]) -> tuple[int, bytes]:
        import json
        with self.lock:
            self.introspected += 1
        user = self.valid(form.get("token", ""))
        return 200, json.dumps({"active": True, "username": user} if user else {"active": False}).encode()

    def start(self) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from urllib.parse import parse_qsl
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):   # noqa: N802 (http.server's name)
                length = min(int(self.headers.get("Content-Length") or 0), 65536)
                form = dict(parse_qsl(self.rfile.read(length).decode("utf-8", "replace")))
                route = {"/token": server._token, "/introspect": server._introspect}.get(self.path.split("?")[0])
                status, body = route(form) if route else (404, b"{}")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                with contextlib.suppress(ConnectionError):   # a client that stopped reading a hostile answer
                    self.wfile.write(body)

            def log_message(self, *args):   # quiet
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None


class OAuthDovecot(Dovecot):
    """The test Dovecot with its ``oauth2`` passdb asking ``introspection_url`` (POST)
    for XOAUTH2 and OAUTHBEARER logins; passwords still work for the kit's helpers."""

    def __init__(self, *args, introspection_url: str, extra: str = "", **kw) -> None:
        super().__init__(*args, **kw)
        self.introspection_url, self.extra = introspection_url, extra

    def _render(self) -> None:
        super()._render()
        (self.root / "oauth2.conf.ext").write_text(
            f"introspection_mode = post\nintrospection_url = {self.introspection_url}\n"
            "username_attribute = username\nactive_attribute = active\nactive_value = true\n"
            "force_introspection = yes\n")
        text = self.config.read_text()
        text = text.replace("auth_mechanisms = plain login", "auth_mechanisms = plain login xoauth2 oauthbearer")
        text = text.replace("passdb {\n  driver = passwd-file",
                            f"passdb {{\n  driver = oauth2\n  mechanisms = xoauth2 oauthbearer\n"
                            f"  args = {self.root}/oauth2.conf.ext\n}}\n"
                            "passdb {\n  driver = passwd-file")
        self.config.write_text(text + self.extra)


class OAuthSmtpFront(SmtpFront):
    """The SMTPS front that also takes AUTH XOAUTH2, the token checked at ``tokens``."""

    def __init__(self, *args, tokens: TokenServer, **kw) -> None:
        super().__init__(*args, **kw)
        self.tokens = tokens
        self.xoauth2_logins: list[str] = []

    def start(self) -> None:
        front = self

        class Handler(_smtpfront._Handler):
            async def auth_XOAUTH2(self, server, args):   # noqa: N802 (aiosmtpd's hook name)
                import base64
                import json

                from aiosmtpd.smtp import AuthResult, LoginPassword
                blob = base64.b64decode(args[1]) if len(args) > 1 else await server.challenge_auth("")
                fields = dict(part.split("=", 1) for part in blob.decode().split("\x01") if "=" in part)
                user, token = fields.get("user", ""), fields.get("auth", "").removeprefix("Bearer ")
                if front.tokens.valid(token) == user.split("@")[0]:
                    front.xoauth2_logins.append(token)
                    return AuthResult(success=True, auth_data=LoginPassword(user.encode(), b""))
                error = json.dumps({"status": "401", "schemes": "bearer"})
                await server.challenge_auth(error)   # RFC 7628: the client answers with an empty line
                return AuthResult(success=False, handled=False)

        import aiosmtpd.controller as controller
        self.port = free_port()
        self._controller = controller.Controller(Handler(self), hostname="127.0.0.1", port=self.port,
                                                 ready_timeout=5, server_hostname="smtp.referee.test",
                                                 **self._kwargs)
        self._controller.start()


@dataclass
class OAuthServers:
    token: TokenServer
    dovecot: OAuthDovecot
    smtps: OAuthSmtpFront
    cert: Path

    @property
    def imap_port(self) -> int:
        return self.dovecot.imap_port


@contextlib.contextmanager
def running_oauth_servers(users: dict[str, str], lifetime: float = 3600.0, extra: str = "") -> Iterator[OAuthServers]:
    """Dovecot (oauth2 passdb) + an SMTPS front taking XOAUTH2 + the token server they ask.
    ``users``: refresh token -> user (each user's password is ``<name>-pw``); ``extra``:
    lines added to dovecot.conf (e.g. an ``imap_capability`` without IDLE and MOVE)."""
    root = _short_root()
    token = dovecot = smtps = None
    try:
        (root / "tls").mkdir()
        cert, key = make_certificate(root / "tls")
        token = TokenServer(users, lifetime)
        token.start()
        names = sorted(set(users.values()))
        dovecot = OAuthDovecot(root, {u: f"{u}-pw" for u in names}, tls=(cert, key),
                               introspection_url=token.introspection_url, extra=extra)
        dovecot.start()
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(str(cert), str(key))
        smtps = OAuthSmtpFront(dovecot.lmtp_port, set(names), implicit_tls=ctx, passwords={}, tokens=token)
        smtps.start()
        yield OAuthServers(token, dovecot, smtps, cert)
    finally:
        if smtps is not None:
            smtps.stop()
        if dovecot is not None:
            dovecot.stop()
        if token is not None:
            token.stop()
        shutil.rmtree(root, ignore_errors=True)

"""Where the referee's mail goes: a Maildir folder or an SMTP server."""
from __future__ import annotations

import copy
import hashlib
import mailbox
import os
import re
import secrets
import select
import smtplib
import ssl
from email import policy
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr
from pathlib import Path
from typing import Protocol

from .errors import PermanentMailError, TemporaryMailError, refuse_cleartext_password
from .oauth import SecretError, xoauth2

SECURITIES = ("plain", "starttls", "ssl")


class MailSink(Protocol):
    def send(self, msg: EmailMessage) -> None:
        """Deliver ``msg``; raise TemporaryMailError (retry) or PermanentMailError."""

    # Optional, offered by MaildirSink and SmtpSink: deliver finished CRLF wire
    # bytes (wire.compose_bytes) with their envelope, skipping EmailMessage.
    # def send_bytes(self, data: bytes, sender: str, rcpts: list[str]) -> None


def message_bytes(msg: EmailMessage) -> bytes:
    """The message as CRLF-clean wire bytes."""
    return msg.as_bytes(policy=policy.SMTP)


def envelope(msg: EmailMessage) -> tuple[str, list[str]]:
    """(MAIL FROM, RCPT TO list) from the message's own headers."""
    sender = parseaddr(str(msg.get("Sender") or msg.get("From") or ""))[1]
    values = [str(v) for name in ("To", "Cc", "Bcc") for v in (msg.get_all(name) or [])]
    rcpts: list[str] = []
    for _, addr in getaddresses(values):
        if addr and addr not in rcpts:
            rcpts.append(addr)
    return sender, rcpts


class MaildirSink:
    """Writes each message as one file into ``path`` (a Maildir, created if missing).

    Idempotent by Message-ID: a message is written to ``tmp/``, then linked into
    ``new/`` under a name derived from its Message-ID (a link is atomic and never
    replaces a file), and ``sent-ids/`` gets an empty file of that name once it is
    there, which stays when a mail client moves or deletes the message.  So the
    outbox's repeat after a kill (the message written, the worker killed before it
    recorded it sent) delivers nothing a second time; a message without a
    Message-ID is written as ever.  (Two stats per message, no folder listing.)
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._box = mailbox.Maildir(str(self.path), factory=None, create=True)
        self._ids = self.path / SENT_IDS
        self._ids.mkdir(mode=0o700, exist_ok=True)

    def send(self, msg: EmailMessage) -> None:
        # Maildir files use LF line ends
        self._add(msg.as_bytes(policy=policy.default), str(msg.get("Message-ID") or ""))

    def send_bytes(self, data: bytes, sender: str, rcpts: list[str]) -> None:
        """Wire bytes (CRLF) stored with LF line ends, the same file ``send`` writes."""
        self._add(data.replace(b"\r\n", b"\n"), _message_id(data))

    def _add(self, data: bytes, message_id: str) -> None:
        try:
            name = _file_name(message_id)
            if name is None:
                self._box.add(data)
                return
            marker = self._ids / name
            if marker.exists():
                return   # delivered before
            tmp = self.path / "tmp" / f"{name}.{os.getpid()}.{secrets.token_hex(4)}"
            with open(tmp, "xb") as f:
                f.write(data)
            try:
                os.link(tmp, self.path / "new" / name)
            except FileExistsError:
                pass   # delivered before, not yet marked (still unread in new/)
            finally:
                tmp.unlink()
            os.close(os.open(marker, os.O_WRONLY | os.O_CREAT, 0o600))
        except OSError as exc:
            raise TemporaryMailError(f"cannot write to Maildir {self.path}: {exc}") from exc

    def close(self) -> None:
        self._box.close()


SENT_IDS = "sent-ids"   # not a Maildir++ folder (no leading dot): mail clients pass it over
_HEADER_END = re.compile(rb"\r?\n\r?\n")
_MSGID_LINE = re.compile(rb"^message-id:[ \t]*(.*(?:\r?\n[ \t].*)*)", re.IGNORECASE | re.MULTILINE)


def _message_id(data: bytes) -> str:
    """The Message-ID header of wire bytes ('' if it has none): looked for in the header section only."""
    end = _HEADER_END.search(data)
    hit = _MSGID_LINE.search(data, 0, end.start() if end else len(data))
    return b" ".join(hit.group(1).split()).decode("ascii", "replace") if hit else ""


def _file_name(message_id: str) -> str | None:
    """The file name of the message with ``message_id`` (None: no id to know it by).  A digest, so
    that an id's own characters (``/``, ``:``) never reach the file system."""
    message_id = " ".join(message_id.split())
    if not message_id:
        return None
    return "mid-" + hashlib.sha256(message_id.encode("utf-8", "surrogateescape")).hexdigest()[:40]


class SmtpSink:
    """Sends through one SMTP connection, reopened when the server dropped it.

    security: "plain" (loopback or trusted networks), "starttls" or "ssl"
    (implicit TLS).  Error classes: connection refused, timeouts, drops and 4xx
    replies are temporary; 5xx replies, a missing STARTTLS/AUTH capability and
    a certificate that does not verify are permanent (retrying cannot help).
    AUTH over "plain" is refused for non-loopback hosts unless ``allow_insecure``.
    With ``tokens`` (referee.mail.oauth, issue 37) the login is AUTH XOAUTH2; a
    refused token is forgotten and a fresh one tried once.  A token that cannot
    be had is a temporary failure: the outbox keeps the mail and tries again.
    """

    def __init__(self, host: str, port: int, user: str | None = None,
                 password: str | None = None, security: str = "plain",
                 ssl_context: ssl.SSLContext | None = None, *, timeout: float = 30.0,
                 local_hostname: str | None = None, allow_insecure: bool = False, tokens=None) -> None:
        if security not in SECURITIES:
            raise ValueError(f"security must be one of {SECURITIES}, not {security!r}")
        if security == "plain" and user is not None:
            refuse_cleartext_password("SMTP", host, allow_insecure)
        self.host, self.port = host, port
        self.user, self.password, self.tokens = user, password, tokens
        self.security = security
        self.ssl_context = ssl_context
        self.timeout = timeout
        self.local_hostname = local_hostname
        self._smtp: smtplib.SMTP | None = None

    def __getstate__(self) -> dict:
        """A copy for another process (a close worker sends its closes' mail): it opens a
        connection of its own when it first sends; a live one never leaves this process."""
        return {**self.__dict__, "_smtp": None}

    # -- connection ------------------------------------------------------
    def _context(self) -> ssl.SSLContext:
        return self.ssl_context or ssl.create_default_context()

    def _connect(self) -> smtplib.SMTP:
        if self.security == "ssl":
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout,
                                                  local_hostname=self.local_hostname,
                                                  context=self._context())
        else:
            smtp = smtplib.SMTP(self.host, self.port, timeout=self.timeout,
                                local_hostname=self.local_hostname)
        try:
            smtp.ehlo()
            if self.security == "starttls":
                smtp.starttls(context=self._context())
                smtp.ehlo()
            if self.tokens is not None:
                self._oauth(smtp)
            elif self.user is not None:
                smtp.login(self.user, self.password or "")
        except BaseException:
            smtp.close()
            raise
        return smtp

    def probe(self) -> None:
        """Connect and log in as sending would (``referee doctor``); errors as ``send`` raises them."""
        try:
            self._connection()
        except SecretError as exc:
            raise TemporaryMailError(str(exc)) from None
        except smtplib.SMTPResponseException as exc:
            self._drop()
            text = exc.smtp_error.decode("utf-8", "replace") if isinstance(exc.smtp_error, bytes) \
                else str(exc.smtp_error)
            raise _by_code(exc.smtp_code, f"SMTP {exc.smtp_code} {text}") from exc
        except (TimeoutError, smtplib.SMTPException, OSError) as exc:
            self._drop()
            raise TemporaryMailError(f"SMTP {self.host}:{self.port} unavailable: {exc!r}") from exc

    def _oauth(self, smtp: smtplib.SMTP) -> None:
        for attempt in (1, 2):
            answer = xoauth2(self.user or "", self.tokens.token())
            try:   # the server's 334 error challenge is answered with an empty line
                smtp.auth("XOAUTH2", lambda challenge=None, answer=answer: answer if challenge is None else "")
                return
            except smtplib.SMTPAuthenticationError:
                if attempt == 2:
                    raise
                self.tokens.invalidate()

    def _connection(self) -> smtplib.SMTP:
        if self._smtp is not None:
            if _quiet(self._smtp):
                return self._smtp  # nothing came in while idle: no NOOP round trip needed
            try:
                if self._smtp.noop()[0] == 250:
                    return self._smtp
            except (smtplib.SMTPException, OSError):
                pass
            self._drop()
        self._smtp = self._connect()
        return self._smtp

    def _drop(self) -> None:
        if self._smtp is not None:
            try:
                self._smtp.close()
            finally:
                self._smtp = None

    def close(self) -> None:
        if self._smtp is not None:
            try:
                self._smtp.quit()
            except (smtplib.SMTPException, OSError):
                pass
            self._drop()

    # -- sending ---------------------------------------------------------
    def send(self, msg: EmailMessage) -> None:
        sender, rcpts = envelope(msg)
        if not rcpts:
            raise PermanentMailError("message has no recipients")
        if msg.get("Bcc") is not None:  # Bcc goes in the envelope only
            msg = copy.deepcopy(msg)
            del msg["Bcc"]
        self.send_bytes(message_bytes(msg), sender, rcpts)

    def send_bytes(self, data: bytes, sender: str, rcpts: list[str]) -> None:
        """Send finished wire bytes (CRLF, no Bcc header) to ``rcpts``."""
        if not rcpts:
            raise PermanentMailError("message has no recipients")
        try:
            refused = self._connection().sendmail(sender, rcpts, data)
        except smtplib.SMTPRecipientsRefused as exc:
            self._drop()
            raise _refused_error(exc.recipients, delivered=()) from exc
        except smtplib.SMTPResponseException as exc:
            self._drop()
            text = exc.smtp_error.decode("utf-8", "replace") if isinstance(exc.smtp_error, bytes) \
                else str(exc.smtp_error)
            raise _by_code(exc.smtp_code, f"SMTP {exc.smtp_code} {text}") from exc
        except SecretError as exc:
            self._drop()
            raise TemporaryMailError(str(exc)) from None
        except smtplib.SMTPNotSupportedError as exc:
            self._drop()
            raise PermanentMailError(f"SMTP server lacks a needed capability: {exc}") from exc
        except ssl.SSLCertVerificationError as exc:
            self._drop()
            raise PermanentMailError(f"SMTP server certificate rejected: {exc}") from exc
        except (TimeoutError, smtplib.SMTPException, OSError) as exc:
            self._drop()
            raise TemporaryMailError(f"SMTP {self.host}:{self.port} unavailable: {exc!r}") from exc
        if refused:
            delivered = tuple(r for r in rcpts if r not in refused)
            raise _refused_error(refused, delivered=delivered)


def _quiet(smtp: smtplib.SMTP) -> bool:
    """True when the server has sent nothing since its last reply.  A server
    that dropped the connection or said 421 makes the socket readable; then the
    caller checks with NOOP as before.  (A drop racing this check fails the
    send as a temporary error, as it would after a NOOP.)"""
    sock = getattr(smtp, "sock", None)
    if sock is None or getattr(sock, "pending", lambda: 0)():
        return False
    try:
        readable, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return False
    return not readable


def _by_code(code: int, message: str) -> Exception:
    if 500 <= code < 600:
        return PermanentMailError(message, code=code)
    return TemporaryMailError(message, code=code if code > 0 else None)


def _refused_error(recipients: dict, delivered: tuple[str, ...]) -> Exception:
    refused = {addr: (code, resp.decode("utf-8", "replace") if isinstance(resp, bytes) else str(resp))
               for addr, (code, resp) in recipients.items()}
    summary = "; ".join(f"{a}: {c} {t}" for a, (c, t) in refused.items())
    if not delivered and all(400 <= c < 500 for c, _ in refused.values()):
        return TemporaryMailError(f"recipients deferred: {summary}",
                                  code=next(iter(refused.values()))[0])
    # Some went through (a retry would duplicate them) or a refusal is final.
    return PermanentMailError(f"recipients refused: {summary}",
                              code=next(iter(refused.values()))[0],
                              refused=refused, delivered=delivered)

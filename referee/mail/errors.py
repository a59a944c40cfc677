"""Errors the mail adapters raise, split by what the caller should do next."""
from __future__ import annotations


class MailError(Exception):
    """Base class for every mail adapter error."""


class TemporaryMailError(MailError):
    """Sending failed for now (4xx, connection refused, timeout): retry later.

    ``code`` is the SMTP reply code when there was one (else None).
    """

    def __init__(self, message: str, *, code: int | None = None) -> None:
        super().__init__(message)
        self.code = code


class PermanentMailError(MailError):
    """Sending will not work by retrying (5xx, missing capability, bad certificate).

    ``refused`` maps recipients the server refused to ``(code, text)``;
    ``delivered`` lists recipients that did get the message (a partial
    refusal), so a retry must not resend it to them.
    """

    def __init__(self, message: str, *, code: int | None = None,
                 refused: dict[str, tuple[int, str]] | None = None,
                 delivered: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.refused = dict(refused or {})
        self.delivered = tuple(delivered)


class MailSourceError(MailError):
    """The mail source cannot be read (server unreachable after retries, login refused)."""


def is_loopback(host: str) -> bool:
    """True for "localhost" and literal loopback addresses (no DNS lookup)."""
    import ipaddress
    if host.lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def refuse_cleartext_password(kind: str, host: str, allow_insecure: bool) -> None:
    """A password must not cross a network unencrypted unless asked for explicitly."""
    if not allow_insecure and not is_loopback(host):
        raise ValueError(f"{kind} security 'plain' would send the password to {host} "
                         "unencrypted; use 'starttls' or 'ssl' (or allow_insecure=True)")

"""Secrets for IMAP and SMTP logins that are not in referee.yaml (issue 37).

* ``run_command``: a ``password_command`` or ``token_command`` (the mutt, aerc and
  isync convention): run without a shell, its first output line is the secret.
* ``CommandToken``: an OAuth2 access token from such a command, asked anew at
  every login (the tools GMs use, such as oama or mutt_oauth2.py, keep and renew
  their own tokens).
* ``RefreshGrant``: the OAuth2 refresh-token grant (RFC 6749 section 6) against a
  token endpoint, the access token kept until shortly before it expires.

Every failure is a ``SecretError`` whose text says what to do, in English and
German, and never holds a secret: no command output, no token, no client secret
(the exceptions are raised ``from None`` so no chained trace carries them either).
"""
from __future__ import annotations

import os
import re
import shlex
import time
from collections.abc import Callable

from .errors import MailError, is_loopback

MAX_OUTPUT = 64 * 1024        # bytes a secret command or a token endpoint may answer
COMMAND_TIMEOUT = 30.0        # seconds
_TOKEN = re.compile(r"[\x21-\x7e]{1,8192}")   # what may go on an AUTHENTICATE line
_WORD = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


class SecretError(MailError):
    """A password or token could not be had; the text is for the GM (en / de)."""

    def __init__(self, english: str, german: str) -> None:
        super().__init__(f"{english} / {german}")
        self.english, self.german = english, german


# -- commands -------------------------------------------------------------------
def run_command(command: str, what: str, timeout: float = COMMAND_TIMEOUT) -> str:
    """The first line ``command`` prints (split like a shell would, run without one)."""
    try:
        argv = shlex.split(command)
    except ValueError:
        raise SecretError(f"{what}: cannot be split into words (an unclosed quote?)",
                          f"{what}: lässt sich nicht in Wörter zerlegen (ein offenes Anführungszeichen?)") from None
    if not argv:
        raise SecretError(f"{what}: is empty", f"{what}: ist leer")
    name = os.path.basename(argv[0])[:60]
    out, err, code = _capped_run(argv, what, name, timeout)
    if code != 0:
        hint = _last_line(err)
        raise SecretError(f"{what}: '{name}' failed with exit status {code}{hint}",
                          f"{what}: '{name}' ist mit Status {code} gescheitert{hint}")
    try:
        line = out.decode("utf-8").split("\n", 1)[0].rstrip("\r")
    except UnicodeDecodeError:
        raise SecretError(f"{what}: '{name}' printed no UTF-8 text",
                          f"{what}: '{name}' hat keinen UTF-8-Text ausgegeben") from None
    if not line:
        raise SecretError(f"{what}: '{name}' printed an empty first line",
                          f"{what}: '{name}' hat eine leere erste Zeile ausgegeben")
    return line


def _capped_run(argv: list[str], what: str, name: str, timeout: float) -> tuple[bytes, bytes, int]:
    """stdout and stderr of ``argv``, at most MAX_OUTPUT bytes each, within ``timeout``."""
    import selectors
    import subprocess

    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
    except OSError as e:
        raise SecretError(f"{what}: '{name}' cannot be started ({e.strerror or e.__class__.__name__})",
                          f"{what}: '{name}' lässt sich nicht starten ({e.strerror or e.__class__.__name__})") from None
    got = {proc.stdout: bytearray(), proc.stderr: bytearray()}
    deadline = time.monotonic() + timeout
    problem = None
    with selectors.DefaultSelector() as sel:
        for stream in got:
            sel.register(stream, selectors.EVENT_READ)
        while sel.get_map() and problem is None:
            left = deadline - time.monotonic()
            if left <= 0:
                problem = (f"'{name}' gave no answer within {timeout:g} s",
                           f"'{name}' hat binnen {timeout:g} s nicht geantwortet")
                break
            for key, _ in sel.select(left):
                chunk = os.read(key.fd, 8192)
                if not chunk:
                    sel.unregister(key.fileobj)
                    continue
                got[key.fileobj] += chunk
                if len(got[key.fileobj]) > MAX_OUTPUT:
                    problem = (f"'{name}' printed more than {MAX_OUTPUT // 1024} kB",
                               f"'{name}' hat mehr als {MAX_OUTPUT // 1024} kB ausgegeben")
    if problem is not None:
        proc.kill()
    code = proc.wait()
    proc.stdout.close()
    proc.stderr.close()
    if problem is not None:
        raise SecretError(f"{what}: {problem[0]}", f"{what}: {problem[1]}")
    return bytes(got[proc.stdout]), bytes(got[proc.stderr]), code


def _last_line(err: bytes) -> str:
    """The command's own complaint (its last stderr line), short and printable."""
    lines = [line.strip() for line in err.decode("utf-8", "replace").splitlines() if line.strip()]
    if not lines:
        return ""
    text = "".join(c if c.isprintable() else "?" for c in lines[-1])[:160]
    return f": {text}"


# -- OAuth2 access tokens ---------------------------------------------------------
class CommandToken:
    """Access tokens from a ``token_command``, run at every login."""

    def __init__(self, command: str, what: str = "token_command", timeout: float = COMMAND_TIMEOUT) -> None:
        self.command, self.what, self.timeout = command, what, timeout

    def token(self) -> str:
        return checked_token(run_command(self.command, self.what, self.timeout), self.what)

    def invalidate(self) -> None:
        """Nothing kept here: the next ``token`` runs the command again."""


class RefreshGrant:
    """Access tokens from a token endpoint (``grant_type=refresh_token``).

    A token is reused until ``margin`` seconds before its ``expires_in``;
    ``invalidate`` (a login refused) forgets it.  A refresh token the endpoint
    rotates is kept for the next request (in memory only: the environment
    variable still names the first one).
    """

    def __init__(self, token_url: str, client_id: str, refresh_token: str, client_secret: str | None = None,
                 scope: str | None = None, *, what: str = "oauth2", timeout: float = COMMAND_TIMEOUT,
                 margin: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        check_url(token_url, what)
        self.token_url, self.what, self.timeout, self.margin, self.clock = token_url, what, timeout, margin, clock
        self._form = {"grant_type": "refresh_token", "client_id": client_id, "refresh_token": refresh_token}
        if client_secret:
            self._form["client_secret"] = client_secret
        if scope:
            self._form["scope"] = scope
        self._token: str | None = None
        self._expires = 0.0
        self.refreshes = 0

    def token(self) -> str:
        if self._token is None or self.clock() >= self._expires - self.margin:
            self._refresh()
        return self._token

    def invalidate(self) -> None:
        self._token = None

    def _refresh(self) -> None:
        status, answer = _post_form(self.token_url, self._form, self.timeout, self.what)
        if status != 200 or not isinstance(answer, dict) or "access_token" not in answer:
            raise _refused(self.what, self.token_url, status, answer)
        self._token = checked_token(answer.get("access_token"), self.what)
        lifetime = answer.get("expires_in", 3600)
        if isinstance(lifetime, str) and lifetime.isdigit():
            lifetime = int(lifetime)
        if not isinstance(lifetime, int | float) or isinstance(lifetime, bool) or not 0 < lifetime <= 10 ** 7:
            lifetime = 3600
        self._expires = self.clock() + lifetime
        rotated = answer.get("refresh_token")
        if isinstance(rotated, str) and _TOKEN.fullmatch(rotated):
            self._form["refresh_token"] = rotated
        self.refreshes += 1


def checked_token(value, what: str) -> str:
    if not isinstance(value, str) or not _TOKEN.fullmatch(value):
        raise SecretError(f"{what}: the access token is no single word of printable ASCII (at most 8192 characters)",
                          f"{what}: das Zugangstoken ist kein einzelnes Wort aus druckbarem ASCII (höchstens 8192 Zeichen)")
    return value


def check_url(url: str, what: str) -> str:
    """An https address (http only on loopback, for tests and local proxies)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError:
        host, parts = "", None
    ok = parts is not None and host and len(url) <= 500 and not any(c.isspace() for c in url) and (
        parts.scheme == "https" or (parts.scheme == "http" and is_loopback(host)))
    if not ok:
        raise SecretError(f"{what}: token_url must be an https:// address (http:// only on loopback)",
                          f"{what}: token_url muss eine https://-Adresse sein (http:// nur auf loopback)")
    return url


def _post_form(url: str, form: dict[str, str], timeout: float, what: str):
    """(HTTP status, parsed JSON or None) of a form POST; the answer read at most MAX_OUTPUT bytes."""
    import json
    import urllib.error
    import urllib.parse
    import urllib.request

    host = urllib.parse.urlsplit(url).hostname
    request = urllib.request.Request(url, data=urllib.parse.urlencode(form).encode("ascii"), method="POST",
                                     headers={"Content-Type": "application/x-www-form-urlencoded",
                                              "Accept": "application/json"})
    try:
        try:
            response = urllib.request.urlopen(request, timeout=timeout)
        except urllib.error.HTTPError as e:   # 400/401 carry the OAuth2 error in their JSON body
            response = e
        with response:
            status, body = response.status, _read_capped(response, timeout, what)
    except SecretError:
        raise
    except (OSError, ValueError) as e:
        reason = getattr(e, "reason", None) or e.__class__.__name__
        raise SecretError(f"{what}: the token endpoint {host} cannot be reached ({str(reason)[:120]})",
                          f"{what}: der Token-Endpunkt {host} ist nicht erreichbar ({str(reason)[:120]})") from None
    try:
        return status, json.loads(body)
    except (ValueError, RecursionError):
        return status, None


def _read_capped(response, timeout: float, what: str) -> bytes:
    deadline = time.monotonic() + 2 * timeout
    body = bytearray()
    while chunk := response.read1(8192):   # read1: one receive, so the deadline is checked often
        body += chunk
        if len(body) > MAX_OUTPUT:
            raise SecretError(f"{what}: the token endpoint answered more than {MAX_OUTPUT // 1024} kB",
                              f"{what}: der Token-Endpunkt hat mehr als {MAX_OUTPUT // 1024} kB geantwortet")
        if time.monotonic() > deadline:
            raise SecretError(f"{what}: the token endpoint answered too slowly",
                              f"{what}: der Token-Endpunkt hat zu langsam geantwortet")
    return bytes(body)


def _refused(what: str, url: str, status: int, answer) -> SecretError:
    from urllib.parse import urlsplit

    host = urlsplit(url).hostname
    code = answer.get("error") if isinstance(answer, dict) else None
    code = code if isinstance(code, str) and _WORD.fullmatch(code) else None
    if code == "invalid_grant":
        return SecretError(
            f"{what}: {host} refused the refresh token (invalid_grant: revoked, expired or for another client); "
            "authorize the referee again and put the new refresh token in the environment (docs/OPERATIONS.md)",
            f"{what}: {host} hat das Refresh-Token abgelehnt (invalid_grant: widerrufen, abgelaufen oder für einen "
            "anderen Client); den Referee neu autorisieren und das neue Refresh-Token in die Umgebung legen "
            "(docs/OPERATIONS.md)")
    if code is not None:
        return SecretError(f"{what}: {host} refused the token request (HTTP {status}, {code}); check client id, "
                           "client secret and scope",
                           f"{what}: {host} hat die Token-Anfrage abgelehnt (HTTP {status}, {code}); Client-ID, "
                           "Client-Secret und Scope prüfen")
    return SecretError(f"{what}: {host} answered HTTP {status} without an access token in JSON; is token_url right?",
                       f"{what}: {host} hat mit HTTP {status} ohne Zugangstoken in JSON geantwortet; stimmt token_url?")


def xoauth2(user: str, token: str) -> str:
    """The SASL XOAUTH2 initial response (Google's and Microsoft's format)."""
    return f"user={user}\x01auth=Bearer {token}\x01\x01"

"""IMAP mail source (imapclient): chunked fetch, move after commit, IDLE, reconnects.

``incoming`` asks for every waiting mail's size and INTERNALDATE first, then
fetches bodies in chunks of at most ``budget`` bytes (a mail over the size
limit: only its header section), so memory stays bounded whatever the inbox
holds.

Refs are ``"<UIDVALIDITY>:<UID>"``.  If the folder's UIDVALIDITY changes
between ``fetch`` and ``done`` (the mailbox was recreated), the UID no longer
names the same mail, so ``done`` finds the mail again by Message-ID and
content hash instead of moving whatever now carries that UID.
"""
from __future__ import annotations

import hashlib
import imaplib
import logging
import re
import socket
import ssl
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientAbortError, IMAPClientError, LoginError

from .errors import MailSourceError, refuse_cleartext_password
from .inbound import MAX_HEAD, header_section
from .incoming import Incoming, _check_outcome
from .oauth import SecretError

log = logging.getLogger(__name__)

SECURITIES = ("plain", "starttls", "ssl")
_MESSAGE_ID = re.compile(rb"^message-id:[ \t]*(<[^>\r\n]+>)", re.IGNORECASE | re.MULTILINE)
_RETRYABLE = (IMAPClientAbortError, imaplib.IMAP4.abort, OSError, socket.timeout, ssl.SSLError)
_HEAD = f"BODY.PEEK[HEADER]<0.{MAX_HEAD}>"
_LISTING = 1000   # UIDs per FETCH of sizes and dates


def _message_id(raw: bytes) -> str | None:
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    match = _MESSAGE_ID.search(head)
    return match.group(1).decode("ascii", "replace") if match else None


class ImapSource:
    """Reads ``folder`` over IMAP; ``done`` moves mail to the outcome's folder.

    Connection losses are retried with exponential backoff (``backoff``,
    doubling up to ``max_backoff``); after ``max_failures`` failures in a row
    a ``MailSourceError`` says what went wrong.  A refused login is raised at
    once (retrying cannot fix a password).  security "plain" is for loopback
    only unless ``allow_insecure``: the password would cross the wire in clear.

    OAuth2 (issue 37): ``tokens`` (referee.mail.oauth) gives an access token at
    each login, sent with ``mechanism`` XOAUTH2 or OAUTHBEARER; a refused token
    is forgotten and a fresh one tried once before the login counts as refused.
    """

    def __init__(self, host: str, port: int, user: str, password: str | None,
                 security: str = "plain", folder: str = "INBOX",
                 processed: str = "Referee/Processed", refused: str = "Referee/Refused",
                 ssl_context: ssl.SSLContext | None = None, *,
                 ignored: str = "Referee/Ignored", timeout: float = 30.0, chunk: int = 250,
                 budget: int = 4_000_000,
                 max_failures: int = 5, backoff: float = 0.5, max_backoff: float = 30.0,
                 idle: bool = True, sleep: Callable[[float], None] = time.sleep,
                 allow_insecure: bool = False, tokens=None, mechanism: str = "xoauth2") -> None:
        if security not in SECURITIES:
            raise ValueError(f"security must be one of {SECURITIES}, not {security!r}")
        if security == "plain":
            refuse_cleartext_password("IMAP", host, allow_insecure)
        self.host, self.port, self.user, self._password = host, port, user, password
        self.security, self.ssl_context, self.timeout = security, ssl_context, timeout
        if mechanism not in ("xoauth2", "oauthbearer"):
            raise ValueError(f"mechanism must be xoauth2 or oauthbearer, not {mechanism!r}")
        self.tokens, self.mechanism = tokens, mechanism
        self.folder = folder
        self.targets = {"processed": processed, "refused": refused, "ignored": ignored}
        self.chunk, self.budget, self.max_failures = chunk, budget, max_failures
        self.backoff, self.max_backoff, self._sleep = backoff, max_backoff, sleep
        self.idle = idle  # False: wait() sleeps even where IDLE is offered
        self.uidvalidity: int | None = None
        self.reconnects = 0
        self._client: IMAPClient | None = None
        self._idle_ok = False
        self._created: set[str] = set()
        self._fetched: dict[str, tuple[str | None, str]] = {}
        self._name: Callable[[str], str] = lambda value: value  # set on connect

    # -- connection ------------------------------------------------------
    def _connect(self) -> IMAPClient:
        ctx = self.ssl_context or ssl.create_default_context()
        if self.security == "ssl":
            client = IMAPClient(self.host, port=self.port, ssl=True, ssl_context=ctx,
                                timeout=self.timeout)
        else:
            client = IMAPClient(self.host, port=self.port, ssl=False, timeout=self.timeout)
        client.normalise_times = False   # INTERNALDATE with its zone, not naive local time
        try:
            if self.security == "starttls":
                client.starttls(ctx)
            self._login(client)
            self._idle_ok = client.has_capability("IDLE")
            self._server_names(client)
            self._select(client)
        except BaseException:
            try:
                client.shutdown()
            except Exception:
                pass
            raise
        return client

    def _login(self, client: IMAPClient) -> None:
        if self.tokens is None:
            client.login(self.user, self._password)
        elif self.mechanism == "oauthbearer":
            client.oauthbearer_login(self.user, self.tokens.token())
        else:
            client.oauth2_login(self.user, self.tokens.token())

    def _server_names(self, client: IMAPClient) -> None:
        # Folder names are configured with "/"; servers may use "." and a prefix.
        prefix, delim = "", "/"
        try:
            personal = client.namespace().personal
            if personal:
                prefix, delim = personal[0][0] or "", personal[0][1] or "/"
        except IMAPClientError:
            pass
        prefix = prefix.decode() if isinstance(prefix, bytes) else prefix
        delim = delim.decode() if isinstance(delim, bytes) else delim

        def name(value: str) -> str:
            if value.upper() == "INBOX":
                return "INBOX"
            value = value.replace("/", delim)
            return value if not prefix or value.startswith(prefix) else prefix + value

        self._name = name

    def _select(self, client: IMAPClient) -> None:
        info = client.select_folder(self._name(self.folder))
        validity = int(info[b"UIDVALIDITY"])
        if self.uidvalidity is not None and validity != self.uidvalidity:
            log.warning("UIDVALIDITY of %s changed from %s to %s: fetched refs are matched "
                        "by Message-ID from now on", self.folder, self.uidvalidity, validity)
        self.uidvalidity = validity

    def _discard(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            try:
                client.shutdown()
            except Exception:
                pass

    def _call(self, op: Callable[[IMAPClient], object]):
        failures = 0
        fresh_token = False   # a refused token is replaced once, then the refusal stands
        while True:
            try:
                if self._client is None:
                    self._client = self._connect()
                    if failures:
                        self.reconnects += 1
                return op(self._client)
            except SecretError as exc:
                self._discard()
                raise MailSourceError(str(exc)) from None
            except LoginError as exc:
                self._discard()
                if self.tokens is not None and not fresh_token:
                    fresh_token = True
                    self.tokens.invalidate()
                    log.info("IMAP login as %r with the access token refused; trying a fresh token", self.user)
                    continue
                raise MailSourceError(f"IMAP login as {self.user!r} refused: {exc}") from exc
            except _RETRYABLE as exc:
                self._discard()
                failures += 1
                if failures >= self.max_failures:
                    raise MailSourceError(
                        f"IMAP {self.host}:{self.port} unreachable after {failures} attempts: "
                        f"{exc!r}") from exc
                delay = min(self.backoff * 2 ** (failures - 1), self.max_backoff)
                log.warning("IMAP connection problem (%r); retry %d in %.1fs", exc, failures, delay)
                self._sleep(delay)
            except IMAPClientError as exc:
                raise MailSourceError(f"IMAP command failed: {exc}") from exc

    # -- MailSource ------------------------------------------------------
    def incoming(self, limit: int = 500, max_bytes: int | None = None) -> Iterator[Incoming]:
        listed = self._call(lambda client: self._listing(client, limit))
        for group in _chunks(listed, self.budget, self.chunk, max_bytes):
            bodies = self._call(lambda client, group=group: self._bodies(client, group, max_bytes))
            for uid, size, arrived in group:
                raw = bodies.get(uid)
                if raw is None:  # expunged meanwhile
                    continue
                ref = f"{self.uidvalidity}:{uid}"
                whole = max_bytes is None or size <= max_bytes
                self._fetched[ref] = (_message_id(raw), hashlib.sha256(raw).hexdigest() if whole else None)
                yield Incoming(ref, raw, size, arrived)

    def fetch(self, limit: int = 500) -> list[tuple[str, bytes]]:
        return [(m.ref, m.raw) for m in self.incoming(limit)]

    def _listing(self, client: IMAPClient, limit: int) -> list[tuple[int, int, datetime | None]]:
        """(uid, size, INTERNALDATE) of the oldest ``limit`` mails waiting."""
        self._select(client)  # also notices a changed UIDVALIDITY
        uids = sorted(client.search(["NOT", "DELETED"]))[:limit]
        out = []
        for start in range(0, len(uids), _LISTING):
            part = uids[start:start + _LISTING]
            response = client.fetch(part, ["RFC822.SIZE", "INTERNALDATE"])
            for uid in part:
                data = response.get(uid)
                if data is not None:
                    out.append((uid, int(data.get(b"RFC822.SIZE") or 0), _utc(data.get(b"INTERNALDATE"))))
        return out

    def _bodies(self, client: IMAPClient, group: list, max_bytes: int | None) -> dict[int, bytes]:
        whole = [uid for uid, size, _ in group if max_bytes is None or size <= max_bytes]
        heads = [uid for uid, size, _ in group if max_bytes is not None and size > max_bytes]
        out: dict[int, bytes] = {}
        if whole:
            for uid, data in client.fetch(whole, ["BODY.PEEK[]"]).items():
                if data.get(b"BODY[]") is not None:
                    out[uid] = data[b"BODY[]"]
        if heads:
            for uid, data in client.fetch(heads, [_HEAD]).items():
                head = next((v for k, v in data.items() if k.startswith(b"BODY[HEADER]")), None)
                if head is not None:
                    out[uid] = header_section(head)[0]
        return out

    def done(self, ref: str, outcome: str) -> None:
        self.done_many([ref], outcome)

    def done_many(self, refs: Iterable[str], outcome: str) -> None:
        """``done`` for several refs with one MOVE (same effect, fewer round trips)."""
        _check_outcome(outcome)
        refs = list(refs)
        if not refs:
            return

        def op(client: IMAPClient) -> None:
            folder = self._name(self.targets[outcome])
            self._ensure_folder(client, folder)
            # A session keeps its stale view of a recreated mailbox (even STATUS
            # answers from it), and a UID MOVE would then hit whatever mail now
            # has that UID: re-select to learn the folder's current UIDVALIDITY.
            self._select(client)
            uids = self._locate(client, refs)
            if uids:
                if client.has_capability("MOVE"):
                    client.move(uids, folder)
                else:
                    client.copy(uids, folder)
                    client.delete_messages(uids)
                    if client.has_capability("UIDPLUS"):
                        client.uid_expunge(uids)
                    else:
                        client.expunge()
            for ref in refs:
                self._fetched.pop(ref, None)
        self._call(op)

    def _ensure_folder(self, client: IMAPClient, folder: str) -> None:
        if folder in self._created:
            return
        if not client.folder_exists(folder):
            try:
                client.create_folder(folder)
            except IMAPClientError:
                if not client.folder_exists(folder):  # lost a race: fine if it exists now
                    raise
        self._created.add(folder)

    def _locate(self, client: IMAPClient, refs: list[str]) -> list[int]:
        """Current UIDs of the mails behind ``refs`` that are still in the folder."""
        wanted: list[int] = []
        stale: list[str] = []
        for ref in refs:
            validity, _, uid = ref.partition(":")
            if validity == str(self.uidvalidity):
                wanted.append(int(uid))
            else:
                stale.append(ref)
        present = set(client.search(["UID", ",".join(map(str, wanted))])) if wanted else set()
        uids = [u for u in wanted if u in present]
        for ref in stale:
            message_id, digest = self._fetched.get(ref, (None, ""))
            if message_id is None:
                log.warning("cannot find %s after a UIDVALIDITY change; it will be fetched again",
                            ref)
                continue
            candidates = client.search(["HEADER", "Message-ID", message_id])
            if candidates and digest is None:  # an over-size mail: never fetched whole
                uids.extend(u for u in candidates[:1] if u not in uids)
            elif candidates:
                bodies = client.fetch(candidates, ["BODY.PEEK[]"])
                for uid, data in bodies.items():
                    raw = data.get(b"BODY[]") or b""
                    if hashlib.sha256(raw).hexdigest() == digest and uid not in uids:
                        uids.append(uid)
        return uids

    def wait(self, timeout: float) -> None:
        """IDLE until something happens (or sleep without IDLE); at once if mail waits."""
        timeout = max(0.0, min(timeout, 25 * 60))  # RFC 2177: re-issue IDLE within 29 min

        def op(client: IMAPClient) -> bool:
            client.noop()  # lets the server update the selected view before SEARCH
            if client.search(["NOT", "DELETED"]):
                return False
            if not (self.idle and self._idle_ok):
                return True
            client.idle()
            try:
                client.idle_check(timeout=timeout)
            finally:
                client.idle_done()
            return False

        if self._call(op):
            self._sleep(timeout)

    def probe(self) -> dict:
        """What ``referee doctor`` reports: log in (as the service would), then the
        server's IDLE and MOVE support and which of the referee's folders exist."""
        names = {"folder": self.folder, **self.targets}

        def op(client: IMAPClient) -> dict:
            return {"idle": client.has_capability("IDLE"), "move": client.has_capability("MOVE"),
                    "folders": {key: client.folder_exists(self._name(value)) for key, value in names.items()}}
        self.folder = "INBOX"   # a missing folder is reported, not a failed login
        try:
            return self._call(op)
        finally:   # logged out: the next call selects the configured folder afresh
            self.close()
            self.folder, self.uidvalidity = names["folder"], None

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            try:
                client.logout()
            except Exception:
                try:
                    client.shutdown()
                except Exception:
                    pass


def _utc(value) -> datetime | None:
    if not isinstance(value, datetime):
        return None
    return value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)


def _chunks(listed: list, budget: int, most: int, max_bytes: int | None) -> Iterator[list]:
    """Consecutive groups of at most ``most`` mails and ``budget`` bytes (a mail
    over ``max_bytes`` counts as its header; one larger than the budget goes alone)."""
    group: list = []
    used = 0
    for item in listed:
        size = item[1] if max_bytes is None or item[1] <= max_bytes else MAX_HEAD
        if group and (used + size > budget or len(group) >= most):
            yield group
            group, used = [], 0
        group.append(item)
        used += size
    if group:
        yield group

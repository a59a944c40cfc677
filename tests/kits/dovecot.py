"""The IMAP half of the test mail servers: one private Dovecot 2.3 instance.

Started from its own generated config (no /etc/dovecot includes) in a short
folder, on free loopback ports; see tests/kits/mailservers.py for the whole set
and ../shared/reference/mailstack.md for the facts the config relies on.
"""
from __future__ import annotations

import contextlib
import grp
import os
import pwd
import shutil
import signal
import smtplib
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError

T = TypeVar("T")

DOMAIN = "referee.test"
DOVECOT = "/usr/sbin/dovecot"
DOVECONF = "/usr/bin/doveconf"


class MailServerError(RuntimeError):
    """A test mail server could not start; the message carries its log."""


def wait_until(predicate: Callable[[], T], timeout: float = 10.0, interval: float = 0.02,
               what: str = "condition") -> T:
    """Poll ``predicate`` until it returns something truthy; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:.1f}s waiting for {what}")
        time.sleep(interval)


def free_port() -> int:
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _greets(port: int, expect: bytes, timeout: float = 0.5) -> bool:
    # A TCP connect succeeds before the login process works; wait for the greeting.
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            return sock.recv(64).startswith(expect)
    except OSError:
        return False


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for localhost/127.0.0.1 (openssl, ~0.15 s)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    if shutil.which("openssl") is None:
        raise MailServerError("openssl is not installed (apt-get install openssl)")
    result = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "3650",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    if result.returncode:
        raise MailServerError(f"openssl failed: {result.stderr.decode(errors='replace')}")
    return cert, key


_CONFIG = """\
instance_name = referee-test-{imap_port}
base_dir = {root}/run
state_dir = {root}/state
protocols = imap lmtp
listen = 127.0.0.1
log_path = {root}/dovecot.log
info_log_path = {root}/dovecot.log
debug_log_path = {root}/dovecot.log
log_timestamp = "%H:%M:%S.%{{usecs}} "
default_internal_user = {internal_user}
default_login_user = {login_user}
default_internal_group = {internal_group}
{ssl}
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
service anvil {{
  chroot =
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps_port}
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {lmtp_port}
  }}
}}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%Ln {root}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/mail/%Ln
}}
first_valid_uid = {uid}
first_valid_gid = {gid}
mail_location = {mail_location}
mail_fsync = never
mail_max_userip_connections = 100
namespace inbox {{
  inbox = yes
  separator = /
}}
protocol lmtp {{
  auth_username_format = %Ln
  postmaster_address = postmaster@{domain}
}}
"""


@dataclass
class Dovecot:
    """One private Dovecot instance (IMAP, optional IMAPS/STARTTLS, LMTP)."""

    root: Path
    users: dict[str, str]
    tls: tuple[Path, Path] | None = None
    mail_location: str = "maildir:~/Maildir"  # or "mdbox:~/mdbox" (faster bulk moves)
    imap_port: int = 0
    imaps_port: int = 0
    lmtp_port: int = 0
    pid: int | None = None

    @property
    def config(self) -> Path:
        return self.root / "dovecot.conf"

    def log(self) -> str:
        parts = []
        for name in ("startup.out", "dovecot.log"):
            path = self.root / name
            if path.exists():
                parts.append(f"--- {name} ---\n" + path.read_text(errors="replace")[-6000:])
        return "\n".join(parts)

    def _render(self) -> None:
        if os.getuid() == 0:
            uid = gid = 10000  # Dovecot refuses mail uid 0
            internal, login, group = "dovecot", "dovenull", "dovecot"
        else:
            uid, gid = os.getuid(), os.getgid()
            internal = login = pwd.getpwuid(uid).pw_name
            group = grp.getgrgid(gid).gr_name
        if self.tls:
            cert, key = self.tls
            ssl_lines = f"ssl = yes\nssl_cert = <{cert}\nssl_key = <{key}"
        else:
            ssl_lines = "ssl = no"
        self.config.write_text(_CONFIG.format(
            root=self.root, imap_port=self.imap_port, imaps_port=self.imaps_port,
            lmtp_port=self.lmtp_port, uid=uid, gid=gid, internal_user=internal,
            login_user=login, internal_group=group, ssl=ssl_lines, domain=DOMAIN,
            mail_location=self.mail_location))
        (self.root / "passwd").write_text(
            "".join(f"{user}:{{PLAIN}}{password}\n" for user, password in self.users.items()))
        mail = self.root / "mail"
        mail.mkdir(exist_ok=True)
        os.chown(mail, uid, gid)

    def start(self, timeout: float = 15.0) -> None:
        if not Path(DOVECOT).exists():
            raise MailServerError(f"{DOVECOT} not found: apt-get install dovecot-imapd dovecot-lmtpd")
        if len(str(self.root)) > 70:  # unix socket paths are limited (~107 bytes)
            raise MailServerError(f"Dovecot folder path too long for its sockets: {self.root}")
        for attempt in range(3):
            self.imap_port, self.lmtp_port = free_port(), free_port()
            self.imaps_port = free_port() if self.tls else 0
            shutil.rmtree(self.root / "run", ignore_errors=True)  # stale sockets slow auth
            self._render()
            check = subprocess.run([DOVECONF, "-c", str(self.config), "-n"],
                                   stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
            if check.returncode:
                raise MailServerError("doveconf rejected the test config:\n"
                                      + check.stderr.decode(errors="replace"))
            with open(self.root / "startup.out", "wb") as out:
                # The daemon keeps inherited stdio: never hand it a pipe.
                code = subprocess.call([DOVECOT, "-c", str(self.config)], stdin=subprocess.DEVNULL,
                                       stdout=out, stderr=subprocess.STDOUT, timeout=30)
            text = (self.root / "startup.out").read_text(errors="replace")
            if code == 0:
                break
            if "Address already in use" in text and attempt < 2:
                continue
            raise MailServerError(f"dovecot exited with {code}\n{self.log()}")
        try:
            wait_until(lambda: (self.root / "run" / "master.pid").exists(), timeout, what="master.pid")
            self.pid = int((self.root / "run" / "master.pid").read_text().split()[0])
            wait_until(lambda: _greets(self.imap_port, b"* OK") and _greets(self.lmtp_port, b"220"),
                       timeout, what="Dovecot IMAP and LMTP greetings")
        except (TimeoutError, ValueError) as exc:
            self.stop()
            raise MailServerError(f"Dovecot did not come up: {exc}\n{self.log()}") from exc

    def stop(self, timeout: float = 10.0) -> None:
        pid, self.pid = self.pid, None
        if pid is None:
            return
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)

    # -- helpers -----------------------------------------------------------
    @contextlib.contextmanager
    def imap(self, user: str) -> Iterator[IMAPClient]:
        client = IMAPClient("127.0.0.1", port=self.imap_port, ssl=False, timeout=10)
        try:
            client.login(user, self.users[user])
            yield client
        finally:
            with contextlib.suppress(Exception):
                client.logout()

    def append(self, user: str, raw: bytes, folder: str = "INBOX", when=None) -> int:
        """APPEND ``raw`` to ``user``'s ``folder`` (created if missing), with the
        INTERNALDATE ``when`` (a datetime; None: now); returns the UID."""
        with self.imap(user) as client:
            if not client.folder_exists(folder):
                client.create_folder(folder)
            answer = client.append(folder, raw, msg_time=when)
        text = answer.decode() if isinstance(answer, bytes) else str(answer)
        return int(text.split("APPENDUID", 1)[1].split()[1].rstrip("]"))

    def messages(self, user: str, folder: str = "INBOX") -> list[bytes]:
        """Every message in ``folder`` (raw, CRLF), in UID order; [] if it does not exist."""
        with self.imap(user) as client:
            if not client.folder_exists(folder):
                return []
            client.select_folder(folder, readonly=True)
            uids = sorted(client.search(["ALL"]))
            if not uids:
                return []
            data = client.fetch(uids, ["BODY.PEEK[]"])
            return [data[uid][b"BODY[]"] for uid in uids if uid in data]

    def wait_messages(self, user: str, count: int, folder: str = "INBOX",
                      timeout: float = 10.0) -> list[bytes]:
        """Poll until ``folder`` holds at least ``count`` messages; return them."""
        return wait_until(lambda: (m if len(m := self.messages(user, folder)) >= count else None),
                          timeout, interval=0.05, what=f"{count} message(s) in {user}/{folder}")

    def clear(self, user: str) -> None:
        """Empty INBOX and delete every other folder of ``user``."""
        with self.imap(user) as client:
            for flags, _delim, name in sorted(client.list_folders(), key=lambda f: -len(f[2])):
                # Deepest first; Maildir parents like "Referee" are only placeholders.
                if name.upper() != "INBOX" and b"\\NonExistent" not in flags:
                    try:
                        client.delete_folder(name)
                    except IMAPClientError as exc:  # a parent that vanished with its children
                        if "NONEXISTENT" not in str(exc):
                            raise
            client.select_folder("INBOX")
            uids = client.search(["ALL"])
            if uids:
                client.delete_messages(uids)
                client.expunge()

    def deliver(self, rcpt: str, raw: bytes, mail_from: str = "") -> None:
        """Deliver over LMTP, as an MTA would (adds Return-Path from ``mail_from``)."""
        with smtplib.LMTP("127.0.0.1", self.lmtp_port, timeout=10) as lmtp:
            lmtp.sendmail(mail_from, [rcpt], raw)

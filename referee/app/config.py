"""The referee's own configuration file (``referee.yaml``).

The embedded default needs no server: SQLite for the store and Maildir folders
for mail in and out.  The same file switches to IMAP and SMTP.  Passwords may
be given through the environment (``password_env``), a command or OAuth2 (the
mail sections are in ``config_mail.py``), so the file can be shared.
"""
from __future__ import annotations

import difflib
import os
import re
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from referee.app.config_mail import ImapIn, MailIn, MailOut, OAuth2, SmtpOut  # noqa: F401 (the mail sections)
from referee.intake import checks
from referee.mail.senderauth import nameserver

DEFAULT_NAME = "referee.yaml"
_SITE_URL = re.compile(r"https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~%/+-]*)?", re.ASCII)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- hardening (issue 13, ops): snapshots before closing ------------------------
class Backups(_Strict):
    before_close: bool = True        # a snapshot of store + archive before the closes of every tick
    folder: Path | None = None       # default: "backups" beside the store; relative: from the store's folder
    keep: int = Field(10, ge=1, le=1000)
    daily: int = Field(7, ge=0, le=3660)   # and the newest of each of the last `daily` days (issue 38)
# -- issue 13: whom the referee trusts about a sender, and whom of the strangers it answers --
class Authentication(_Strict):
    # the receiving server(s) whose Authentication-Results fields count (their authserv-id);
    # such fields from any other server, or below the trusted one, are ignored
    authserv_id: list[str] = Field(default_factory=list)
    dkim: bool = True                                   # own DKIM check where no trusted result is there
    dns_timeout: float = Field(5.0, gt=0, le=30)        # seconds of DNS look-ups for one mail in all
    # name servers asked for DKIM keys ("ip" or "ip:port"); none: the system's (/etc/resolv.conf)
    nameservers: list[str] = Field(default_factory=list, max_length=5)

    @field_validator("nameservers")
    @classmethod
    def _servers(cls, v):
        try:
            return [one.strip() for one in v if nameserver(one)]
        except ValueError:
            raise ValueError("nameservers: IP addresses, each with an optional port (127.0.0.1:53)") from None

    @field_validator("authserv_id", mode="before")
    @classmethod
    def _ids(cls, v):
        ids = [v] if isinstance(v, str) else list(v or [])
        for one in ids:
            if not isinstance(one, str) or not one.strip() or len(one) > 253 or any(c in one for c in " ;()\r\n\t"):
                raise ValueError("authserv_id: a server name (one word, as it writes in Authentication-Results)")
        return [one.strip().lower() for one in ids]


class Strangers(_Strict):
    # who of the senders that are no player or GM gets the short fixed answer:
    # authenticated (a proven From only), all, or none; the rest is filed as ignored
    answer: Literal["authenticated", "all", "none"] = "authenticated"
    per_hour: int = Field(20, ge=1, le=10_000)          # such answers, all strangers together


class Config(_Strict):
    address: str = "referee@localhost"
    # a SQLite file (the default), or postgresql://user@host:port/db (password from the environment)
    store: Path | str = Path("referee.sqlite")
    archive: Path = Path("turns")
    mail_in: MailIn = Field(default_factory=lambda: MailIn(maildir=Path("mail/in")))
    mail_out: MailOut = Field(default_factory=lambda: MailOut(maildir=Path("mail/out")))
    poll_interval: float = Field(60.0, ge=1, le=3600)
    # worker processes that close turns (issue 8): None = one per core; 0 = a thread of the service closes them
    close_workers: int | None = Field(None, ge=0, le=64, strict=True)
    # at least one: a limit of 0 would mean no limit at all
    rate_limit_per_hour: int = Field(30, ge=1, le=100_000)
    # GMs allowed to create matches by mail: their address -> their GM key
    gm_keys: dict[str, str] = Field(default_factory=dict)
    backups: Backups = Field(default_factory=lambda: Backups())   # hardening (issue 13, ops)
    authentication: Authentication = Field(default_factory=Authentication)   # issue 13
    strangers: Strangers = Field(default_factory=Strangers)                  # issue 13

    @field_validator("store", mode="before")
    @classmethod
    def _store(cls, v):
        """A PostgreSQL address stays text (a Path would fold its //); anything else is a file."""
        if isinstance(v, str) and v.startswith(("postgresql://", "postgres://")):
            from urllib.parse import urlsplit
            try:
                parts = urlsplit(v)
                parts.port   # noqa: B018 (a port that is no number raises here)
            except ValueError as e:
                raise ValueError(f"store: not a PostgreSQL address ({e})") from None
            if parts.password is not None:
                raise ValueError("store: no password in the address; give it in REFEREE_STORE_PASSWORD or "
                                 "PGPASSWORD (or ~/.pgpass)")
            if not parts.hostname and not parts.path.strip("/"):
                raise ValueError("store: a PostgreSQL address needs a host or a database name")
            return v
        if isinstance(v, str) and "://" in v:
            raise ValueError("store: a file path, or a postgresql:// address")
        return Path(v) if isinstance(v, str) else v

    # -- order schemas (issue 11): where the folders `referee site` writes are served publicly
    # (site/<match>/...); order forms then start with a yaml-language-server $schema line
    site_url: str | None = None

    @field_validator("site_url")
    @classmethod
    def _site_url(cls, v: str | None) -> str | None:
        if v is None:
            return None
        v = v.strip()
        if len(v) > 300 or not _SITE_URL.fullmatch(v):
            raise ValueError("site_url must be an http(s) address such as https://example.org/matches/ "
                             "(no spaces or quotes, at most 300 characters)")
        return v

    @field_validator("address")
    @classmethod
    def _address(cls, v: str) -> str:
        return checks.email(v, "address")

    @field_validator("gm_keys")
    @classmethod
    def _gm_keys(cls, v: dict[str, str]) -> dict[str, str]:
        for key in v.values():
            if len("".join(str(key).split())) < 12:
                raise ValueError("gm_keys: each key needs at least 12 characters")
        return {checks.email(a, "gm_keys"): str(k) for a, k in v.items()}

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2] or "localhost"

    def resolved(self, base: Path) -> Config:
        """Relative paths are taken from the configuration file's folder."""

        def fix(p: Path | None) -> Path | None:
            return None if p is None or p.is_absolute() else base / p

        c = self.model_copy(deep=True)
        if isinstance(c.store, Path):
            c.store = fix(c.store) or c.store
        c.archive = fix(c.archive) or c.archive
        if c.mail_in.maildir is not None:
            c.mail_in.maildir = fix(c.mail_in.maildir)
        if c.mail_out.maildir is not None:
            c.mail_out.maildir = fix(c.mail_out.maildir)
        return c


class ConfigError(ValueError):
    """A configuration file that cannot be used; ``problems`` are plain lines
    naming the file, the line and the setting."""

    def __init__(self, path: Path, problems: list[str]) -> None:
        super().__init__(f"{path}: " + "; ".join(problems))
        self.path = path
        self.problems = problems


def load(path: Path | None = None) -> Config:
    """Read the configuration.  A file named explicitly must exist; without one,
    ./referee.yaml if it is there, else the embedded default in the current folder."""
    if path is None:
        path = Path(DEFAULT_NAME)
        if not path.exists():
            return Config().resolved(Path.cwd())
    if not path.is_file():
        raise ConfigError(path, ["no such file"])
    try:
        text = path.read_text(encoding="utf-8")
        node = yaml.compose(text)
        data = yaml.safe_load(text) or {}
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(path, [f"cannot be read ({e.__class__.__name__})"]) from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        raise ConfigError(path, [f"{where}not valid YAML ({getattr(e, 'problem', None) or 'syntax error'})"]) from None
    if not isinstance(data, dict):
        raise ConfigError(path, ["must be a YAML mapping of settings (address:, store:, mail_in: ...)"])
    try:
        return Config.model_validate(data).resolved(path.resolve().parent)
    except ValidationError as e:
        found = [(_line_of(node, [str(p) for p in err["loc"]]) or 0, _problem(err, node)) for err in e.errors()]
        raise ConfigError(path, [text for _, text in sorted(found, key=lambda f: f[0])]) from None


def _problem(err: dict, node) -> str:
    """One pydantic error as a line a reader of the file understands."""
    loc = [str(part) for part in err["loc"]]
    line = _line_of(node, loc)
    where = f"line {line}: " if line else ""
    if err["type"] == "extra_forbidden":
        model = _model_at(loc[:-1])
        known = sorted(model.model_fields) if model else []
        near = difflib.get_close_matches(loc[-1], known, n=1)
        hint = f" (did you mean '{near[0]}'?)" if near else (f" (known: {', '.join(known)})" if known else "")
        return f"{where}unknown setting '{'.'.join(loc)}'{hint}"
    message = err["msg"].removeprefix("Value error, ")
    return f"{where}{'.'.join(loc) or 'file'}: {message}"


def _model_at(loc: list[str]):
    model = Config
    for part in loc:
        field = model.model_fields.get(part)
        inner = getattr(field, "annotation", None)
        for candidate in getattr(inner, "__args__", (inner,)):
            if isinstance(candidate, type) and issubclass(candidate, BaseModel):
                model = candidate
                break
        else:
            return None
    return model


def _line_of(node, loc: list[str]) -> int | None:
    """The 1-based line of the setting ``loc`` in the composed YAML (the nearest
    enclosing setting that is there)."""
    line = None
    for part in loc:
        if not isinstance(node, yaml.MappingNode):
            break
        for key, value in node.value:
            if getattr(key, "value", None) == part:
                line, node = key.start_mark.line + 1, value
                break
        else:
            break
    return line


STARTER = """\
# referee configuration (written by `referee init`).
# Relative paths are taken from this file's folder.

# The referee's own address: the From: of every mail it sends, and the
# address players write to.
address: referee@localhost

# Store: one SQLite file.  For several workers sharing one database, PostgreSQL:
#   store: postgresql://referee@db.example.org:5432/referee
# (the password in REFEREE_STORE_PASSWORD or PGPASSWORD, never in this file).
store: referee.sqlite

# Archive of every match: raw mails, orders, logs, state hashes, reports.
archive: turns

# Mail in.  Embedded default: a Maildir folder (drop mails into mail/in/new).
mail_in:
  maildir: mail/in
# For a real mailbox, replace the two lines above with:
# mail_in:
#   imap:
#     host: imap.example.org
#     port: 993
#     security: ssl            # ssl | starttls | plain (plain only on loopback)
#     user: referee@example.org
#     password_env: REFEREE_IMAP_PASSWORD
#     # or: password_command: pass show mail/referee   (its first line; run without a shell)
#     # Gmail, Microsoft 365 (docs/OPERATIONS.md): provider: gmail | outlook | fastmail
#     # fills host, port and security; then OAuth2 instead of a password:
#     # oauth2: {token_command: "oama access referee@example.org"}
#     # or the refresh-token grant (client id, secret and refresh token from the environment):
#     # oauth2: {client_id_env: REFEREE_OAUTH_CLIENT_ID, client_secret_env: REFEREE_OAUTH_CLIENT_SECRET,
#     #          refresh_token_env: REFEREE_OAUTH_REFRESH_TOKEN}
#     folder: INBOX
#     processed: Referee/Processed
#     refused: Referee/Refused

# Mail out.  Embedded default: a Maildir folder you can read with any mail client.
mail_out:
  maildir: mail/out
# For real delivery:
# mail_out:
#   smtp:
#     host: smtp.example.org
#     port: 587
#     security: starttls       # starttls | ssl | plain
#     user: referee@example.org
#     password_env: REFEREE_SMTP_PASSWORD

# Seconds between mailbox polls when the server offers no IMAP IDLE.
poll_interval: 60

# Processes that close turns while the service reads mail (default: one per
# core; 0: a thread of the service closes them, on one core).
# close_workers: 2

# At most this many mails per sender and hour get an answer.
rate_limit_per_hour: 30

# Whom the referee trusts about a sender.  Name your receiving mail server
# (the authserv-id it writes in Authentication-Results) so its DKIM/DMARC
# results count; without one, the referee checks DKIM itself (DNS, time limit).
# authentication:
#   authserv_id: mx.example.org
#   dkim: true
#   dns_timeout: 5             # seconds of DNS look-ups for one mail in all
#   nameservers: [127.0.0.1]   # default: the system's resolver

# Senders who are no player or GM: answered only when their From is proven
# (authenticated | all | none), at most per_hour answers in all.
# strangers:
#   answer: authenticated
#   per_hour: 20

# GMs who may create matches by mail (`command: create`): address -> GM key.
# gm_keys:
#   gm@example.org: CHANGE-THIS-KEY

# A snapshot of store and archive before the turns of a tick close (the store's dump;
# archive files new since the last are linked into backups/archive-files); the newest
# `keep` are kept, and the newest of each of the last `daily` days.
# `referee backup DIR` takes one by hand, `referee restore DIR`
# brings one back.
# backups:
#   before_close: true
#   folder: backups            # beside the store
#   keep: 10
#   daily: 7

# Where the folders `referee site MATCH` writes (site/<match>/) are served on the web.
# With it, every order form starts with a line naming its JSON Schema
# (<site_url>/<match>/schemas/<stage>.json), which editors with the YAML
# language server use to check an order while it is written.
# site_url: https://example.org/referee/
"""


def _private(path: Path, data: bytes) -> None:
    """Write a file only its owner can read (passwords and GM keys go in it)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def write_starter(folder: Path) -> Path:
    path = folder / DEFAULT_NAME
    if path.exists():
        raise FileExistsError(f"{path} exists already; not overwritten")
    _private(path, STARTER.encode("utf-8"))
    Config.model_validate(yaml.safe_load(STARTER))  # the starter must stay loadable
    return path

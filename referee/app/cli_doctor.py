"""``referee doctor`` (issue 37): checks a set-up before ``referee run`` meets it.

One line per check (``ok``, ``warn`` or ``FAIL``, what was checked, what was found
and, where something is wrong, what to do), then a summary; exit status 1 when
something would stop the service.  It logs in as the service would (the same
wiring, the same password command or OAuth2 token) and never prints a secret:
every text it shows is its own or a server's reply.  English only, as every
other line of the command line is today; the test mail to the GM is in English
and German.
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import click

from referee.app import config as config_mod
from referee.mail.errors import MailError
from referee.mail.oauth import SecretError

OK, WARN, FAIL = "ok", "warn", "FAIL"


@dataclass
class Line:
    status: str
    check: str
    found: str
    fix: str = ""

    def text(self) -> str:
        return f"{self.status:4}  {self.check}: {self.found}" + (f"\n      fix: {self.fix}" if self.fix else "")


def _shared(path: Path) -> bool:
    """Readable or writable by accounts other than the owner."""
    return bool(stat.S_IMODE(path.stat().st_mode) & 0o077)


def _creatable(folder: Path) -> bool:
    """True when ``folder`` exists or its nearest existing parent is a writable folder."""
    here = folder
    while not here.exists():
        if here.parent == here:
            return False
        here = here.parent
    return here.is_dir() and os.access(here, os.W_OK | os.X_OK)


def check_config(path: Path | None) -> tuple[list[Line], config_mod.Config | None]:
    if path is None and not Path(config_mod.DEFAULT_NAME).exists():
        return [Line(WARN, "config", "no referee.yaml here: the embedded default (SQLite and Maildir in this folder)",
                     "`referee init` writes a commented referee.yaml")], config_mod.load(None)
    try:
        cfg = config_mod.load(path)
    except config_mod.ConfigError as e:
        return [Line(FAIL, "config", f"{e.path}: " + "; ".join(e.problems[:5]),
                     "correct the file (`referee init` in an empty folder writes a commented example)")], None
    where = path or Path(config_mod.DEFAULT_NAME)
    lines = [Line(OK, "config", f"{where} read")]
    secrets_inside = bool(cfg.gm_keys) or any(
        part is not None and part.password is not None for part in (cfg.mail_in.imap, cfg.mail_out.smtp))
    if secrets_inside and _shared(where):
        lines.append(Line(WARN, "config permissions", f"{where} holds GM keys or a password and other accounts may "
                          "read it", f"chmod 600 {where}"))
    return lines, cfg


def check_store(cfg) -> Line:
    from referee.store import open_store

    if isinstance(cfg.store, Path):
        if not cfg.store.exists():
            if _creatable(cfg.store.parent):
                return Line(OK, "store", f"{cfg.store} does not exist yet; it is created at the first start")
            return Line(FAIL, "store", f"{cfg.store} cannot be created (its folder is missing or not writable)",
                        "create the folder and give the referee's account write access, or change 'store'")
        if not os.access(cfg.store, os.R_OK | os.W_OK):
            return Line(FAIL, "store", f"{cfg.store} is not readable and writable by this account",
                        f"chown the file to the referee's account, or chmod u+rw {cfg.store}")
    try:
        store = open_store(cfg.store)
    except Exception as e:   # a schema too new or old, a file that is no database, a server out of reach
        return Line(FAIL, "store", f"cannot be opened: {e.__class__.__name__}: {str(e)[:200]}",
                    "`referee migrate` brings an older store up to date; otherwise check the path or address")
    close = getattr(store, "close", None)
    if close is not None:
        close()
    if isinstance(cfg.store, Path) and _shared(cfg.store):
        return Line(WARN, "store", f"{cfg.store} opens, but other accounts may read it (it holds players' keys)",
                    f"chmod 600 {cfg.store}")
    return Line(OK, "store", f"{cfg.store} opens")


def check_archive(cfg) -> Line:
    folder = cfg.archive
    if not folder.exists():
        if _creatable(folder):
            return Line(OK, "archive", f"{folder} does not exist yet; it is created with the first match")
        return Line(FAIL, "archive", f"{folder} cannot be created", "create it, writable by the referee's account")
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        return Line(FAIL, "archive", f"{folder} is no folder this account may write",
                    f"chown it to the referee's account, or chmod u+rwx {folder}")
    if stat.S_IMODE(folder.stat().st_mode) & 0o022:
        return Line(WARN, "archive", f"{folder} may be written by other accounts", f"chmod go-w {folder}")
    return Line(OK, "archive", f"{folder} writable")


def _secret_fix(e: SecretError) -> str:
    if "_command" in e.english:
        return "run the command by hand, as the referee's account, to see why"
    if "environment variable" in e.english:
        return "set it in the environment the service runs in (systemd: Environment= or EnvironmentFile=)"
    return 'see docs/OPERATIONS.md, "Logging in to the mail accounts"'


def _how(part) -> str:
    if part.oauth2 is None:
        return "password"
    return f"OAuth2 {part.oauth2.mechanism.upper() if part.KIND == 'imap' else 'XOAUTH2'}"


def check_imap(cfg) -> list[Line]:
    from referee.app.wiring import open_source

    imap = cfg.mail_in.imap
    if imap is None:
        return [Line(OK, "mail in", f"Maildir {cfg.mail_in.maildir}")]
    where = f"{imap.user} on {imap.host}:{imap.port} ({imap.security}, {_how(imap)})"
    try:
        source = open_source(cfg)
    except SecretError as e:
        return [Line(FAIL, "imap login", e.english, _secret_fix(e))]
    except ValueError as e:   # security "plain" off loopback
        return [Line(FAIL, "imap login", str(e)[:200], "use security: ssl or starttls")]
    source.max_failures = 1   # one attempt: the doctor reports, it does not wait out an outage
    try:
        found = source.probe()
    except MailError as e:
        return [Line(FAIL, "imap login", f"{where}: {str(e)[:300]}",
                     "check host, port and security, then user and password or token")]
    finally:
        source.close()
    lines = [Line(OK, "imap login", where)]
    lines.append(Line(OK, "imap IDLE", "offered: new mail is seen at once") if found["idle"] else
                 Line(WARN, "imap IDLE", f"not offered: the referee looks every {cfg.poll_interval:g} s",
                      "lower poll_interval if answers should come sooner"))
    lines.append(Line(OK, "imap MOVE", "offered") if found["move"] else
                 Line(WARN, "imap MOVE", "not offered: handled mail is copied, then deleted and expunged"))
    folders = found["folders"]
    if not folders["folder"]:
        lines.append(Line(FAIL, "imap folders", f"'{imap.folder}' does not exist", "correct 'folder' (usually INBOX)"))
    else:
        missing = [name for key, name in (("processed", imap.processed), ("refused", imap.refused),
                                          ("ignored", "Referee/Ignored")) if not folders[key]]
        lines.append(Line(OK, "imap folders", f"'{imap.folder}' there" + (
            f"; created at first use: {', '.join(missing)}" if missing else "; the referee's folders there")))
    return lines


def check_smtp(cfg, send_test: bool, to: str | None) -> list[Line]:
    from referee.app.wiring import open_sink

    smtp = cfg.mail_out.smtp
    if smtp is None:
        lines = [Line(OK, "mail out", f"Maildir {cfg.mail_out.maildir}")]
        sink = open_sink(cfg) if send_test else None
    else:
        where = f"{smtp.host}:{smtp.port} ({smtp.security}, " + (
            f"{smtp.user}, {_how(smtp)})" if smtp.user else "no login)")
        try:
            sink = open_sink(cfg)
            sink.sink.probe()
        except SecretError as e:
            return [Line(FAIL, "smtp login", e.english, _secret_fix(e))]
        except (MailError, ValueError) as e:
            return [Line(FAIL, "smtp login", f"{where}: {str(e)[:300]}",
                         "check host, port and security, then user and password or token")]
        lines = [Line(OK, "smtp login" if smtp.user else "smtp connect", where)]
    if send_test:
        lines.append(_send_test(cfg, sink, to))
    if sink is not None:
        getattr(sink, "close", lambda: None)()
    return lines


def _send_test(cfg, sink, to: str | None) -> Line:
    to = to or next(iter(cfg.gm_keys), None)
    if to is None:
        return Line(FAIL, "test mail", "no address: the configuration names no GM (gm_keys)",
                    "give one: referee doctor --send-test --to gm@example.org")
    msg = EmailMessage()
    msg["From"], msg["To"] = cfg.address, to
    msg["Subject"] = "referee doctor: test mail / Testmail"
    msg["Message-ID"] = make_msgid(domain=cfg.domain)
    msg["Auto-Submitted"] = "auto-generated"
    msg.set_content(f"This is a test mail from `referee doctor` at {cfg.address}: sending works.\n"
                    "Nothing to do; please do not answer.\n\n"
                    f"Dies ist eine Testmail von `referee doctor` unter {cfg.address}: der Versand klappt.\n"
                    "Nichts zu tun; bitte nicht antworten.\n")
    try:
        sink.send(msg)
    except MailError as e:
        return Line(FAIL, "test mail", f"to {to}: {str(e)[:300]}", "see the smtp line above and the server's answer")
    return Line(OK, "test mail", f"to {to} handed to the server" if cfg.mail_out.smtp else
                f"to {to} written to {cfg.mail_out.maildir}")


def run_checks(path: Path | None, send_test: bool = False, to: str | None = None) -> list[Line]:
    lines, cfg = check_config(path)
    if cfg is None:
        return lines
    lines += [check_store(cfg), check_archive(cfg)]
    lines += check_imap(cfg)
    lines += check_smtp(cfg, send_test, to)
    return lines


@click.command()
@click.option("--send-test", is_flag=True, help="also send a test mail (to the GM, or to --to)")
@click.option("--to", metavar="ADDRESS", help="where the test mail goes (default: the first address in gm_keys)")
@click.pass_obj
def doctor(env, send_test, to):
    """Check configuration, store, archive and mail logins; say what to fix."""
    if to is not None:
        from referee.intake import checks
        try:
            to = checks.email(to, "--to")
        except ValueError as e:
            from referee.app.cli_errors import Usage
            raise Usage(str(e)) from None
    lines = run_checks(env.path, send_test, to)
    for line in lines:
        click.echo(line.text())
    failed = sum(line.status == FAIL for line in lines)
    warned = sum(line.status == WARN for line in lines)
    if failed:
        click.echo(f"doctor: {failed} problem(s) stop the service; fix the FAIL lines above")
        return 1
    click.echo("doctor: ready" + (f" ({warned} warning(s))" if warned else ""))
    return 0

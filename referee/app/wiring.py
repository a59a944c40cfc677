"""Wiring: build the referee, its mail source and its mail sink from the
configuration file.  Nothing else in the package reads the configuration."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from referee.app.config import Config
from referee.app.referee import Referee
from referee.authority.base import Settings
from referee.mail.imap_source import ImapSource
from referee.mail.senderauth import Trust
from referee.mail.sink import MaildirSink, SmtpSink
from referee.mail.source import MaildirSource
from referee.outbox.patient_sink import PatientSink
from referee.store import open_store


def open_referee(cfg: Config, clock: Callable[[], datetime] | None = None) -> Referee:
    if isinstance(cfg.store, Path):
        cfg.store.parent.mkdir(parents=True, exist_ok=True)
    settings = Settings(address=cfg.address, rate_limit_per_hour=cfg.rate_limit_per_hour,
                        gm_keys={a.lower(): k for a, k in cfg.gm_keys.items()}, trust=trust_of(cfg), site_url=cfg.site_url,
                        # an outage is a wall-clock event: a simulated clock (the demo) jumps by design
                        watch_outages=clock is None, auto_backup=auto_backup(cfg))
    return Referee(open_store(cfg.store), cfg.archive, clock=clock, settings=settings)


def auto_backup(cfg: Config):
    """The snapshots before closing (hardening, issue 13), or None when switched off."""
    from referee.store.backup_auto import AutoBackup

    if not cfg.backups.before_close:
        return None
    folder = cfg.backups.folder or "backups"
    beside = cfg.store.parent if isinstance(cfg.store, Path) else Path.cwd()   # a PostgreSQL store: here
    return AutoBackup(folder=beside / folder, keep=cfg.backups.keep, daily=cfg.backups.daily)


def trust_of(cfg: Config, txt=None) -> Trust:
    """What the referee trusts of a sender (issue 13); ``txt``: a DNS look-up for tests."""
    auth, strangers = cfg.authentication, cfg.strangers
    return Trust(authserv_ids=tuple(auth.authserv_id), dkim=auth.dkim, dns_timeout=auth.dns_timeout, txt=txt,
                 nameservers=tuple(auth.nameservers),
                 strangers=strangers.answer, strangers_per_hour=strangers.per_hour)


def open_source(cfg: Config):
    if cfg.mail_in.maildir is not None:
        cfg.mail_in.maildir.parent.mkdir(parents=True, exist_ok=True)
        return MaildirSource(cfg.mail_in.maildir)
    imap = cfg.mail_in.imap
    return ImapSource(imap.host, imap.port, imap.user, imap.secret(), security=imap.security,
                      folder=imap.folder, processed=imap.processed, refused=imap.refused)


def open_sink(cfg: Config):
    if cfg.mail_out.maildir is not None:
        cfg.mail_out.maildir.parent.mkdir(parents=True, exist_ok=True)
        return MaildirSink(cfg.mail_out.maildir)
    smtp = cfg.mail_out.smtp
    # a server refusing every message is waited out (hardening, issue 13)
    return PatientSink(SmtpSink(smtp.host, smtp.port, smtp.user, smtp.secret(), security=smtp.security))

"""Wiring: build the referee, its mail source and its mail sink from the
configuration file.  Nothing else in the package reads the configuration."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from referee.app.config import Config
from referee.authority.base import Settings
from referee.mail.senderauth import Trust
from referee.store import open_store

if TYPE_CHECKING:
    from referee.app.referee import Referee

# The mail adapters and the referee itself are imported where they are built: a cron
# `referee status` or `poll` pays only for the parts its configuration names (issue 34).


def open_referee(cfg: Config, clock: Callable[[], datetime] | None = None) -> Referee:
    from referee.app.referee import Referee

    return Referee(store_of(cfg), cfg.archive, clock=clock, settings=settings_of(cfg, clock))


def store_of(cfg: Config):
    if isinstance(cfg.store, Path):
        cfg.store.parent.mkdir(parents=True, exist_ok=True)
    return open_store(cfg.store)


def settings_of(cfg: Config, clock: Callable[[], datetime] | None = None) -> Settings:
    return Settings(address=cfg.address, rate_limit_per_hour=cfg.rate_limit_per_hour,
                    gm_keys={a.lower(): k for a, k in cfg.gm_keys.items()}, trust=trust_of(cfg), site_url=cfg.site_url,
                    # an outage is a wall-clock event: a simulated clock (the demo) jumps by design
                    watch_outages=clock is None, auto_backup=auto_backup(cfg))


def auto_backup(cfg: Config):
    """The snapshots before closing (hardening, issue 13), or None when switched off."""
    if not cfg.backups.before_close:
        return None
    from referee.store.backup_auto import AutoBackup

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
        from referee.mail.source import MaildirSource

        cfg.mail_in.maildir.parent.mkdir(parents=True, exist_ok=True)
        return MaildirSource(cfg.mail_in.maildir)
    from referee.mail.imap_source import ImapSource

    imap = cfg.mail_in.imap
    tokens = imap.tokens()   # OAuth2 (issue 37), else a password
    return ImapSource(imap.host, imap.port, imap.user, None if tokens else imap.secret(), security=imap.security,
                      folder=imap.folder, processed=imap.processed, refused=imap.refused, tokens=tokens,
                      mechanism=imap.oauth2.mechanism if tokens else "xoauth2")


def open_sink(cfg: Config):
    from referee.mail.sink import MaildirSink, SmtpSink
    from referee.outbox.patient_sink import PatientSink

    if cfg.mail_out.maildir is not None:
        cfg.mail_out.maildir.parent.mkdir(parents=True, exist_ok=True)
        return MaildirSink(cfg.mail_out.maildir)
    smtp = cfg.mail_out.smtp
    # a server refusing every message is waited out (hardening, issue 13)
    tokens = smtp.tokens()   # OAuth2 (issue 37), else a password
    return PatientSink(SmtpSink(smtp.host, smtp.port, smtp.user, None if tokens else smtp.secret(),
                                security=smtp.security, tokens=tokens))

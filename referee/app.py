"""Wiring: build the referee, its mail source and its mail sink from the
configuration file.  Nothing else in the package reads the configuration."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from referee.authority import Referee, Settings
from referee.config import Config
from referee.mail.imap_source import ImapSource
from referee.mail.sink import MaildirSink, SmtpSink
from referee.mail.source import MaildirSource
from referee.store import open_store


def open_referee(cfg: Config, clock: Callable[[], datetime] | None = None) -> Referee:
    cfg.store.parent.mkdir(parents=True, exist_ok=True)
    settings = Settings(address=cfg.address, rate_limit_per_hour=cfg.rate_limit_per_hour,
                        gm_keys={a.lower(): k for a, k in cfg.gm_keys.items()}, site_url=cfg.site_url)
    return Referee(open_store(cfg.store), cfg.archive, clock=clock, settings=settings)


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
    return SmtpSink(smtp.host, smtp.port, smtp.user, smtp.secret(), security=smtp.security)

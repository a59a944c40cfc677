"""The mail sections of ``referee.yaml``: IMAP in, SMTP out, how the referee logs in
(issue 37), and the provider presets.

A login takes exactly one of: ``password`` (in the file), ``password_env`` (an
environment variable), ``password_command`` (a program printing it), or
``oauth2`` (an access token from a ``token_command`` or the refresh-token grant
against ``token_url``, with client id, client secret and refresh token from the
environment).  ``provider`` fills host, port, security and the OAuth2 endpoint;
whatever the file says itself wins.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from referee.mail.oauth import CommandToken, RefreshGrant, SecretError, check_url, run_command


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# Published server settings (each provider's help pages, 2026); the OAuth2 scopes are the
# ones the providers name for IMAP and SMTP.  Fastmail offers third-party OAuth2 to partners
# only: with it the referee logs in with an app password.
MICROSOFT_SCOPE = ("https://outlook.office.com/IMAP.AccessAsUser.All https://outlook.office.com/SMTP.Send "
                   "offline_access")
PROVIDERS: dict[str, dict[str, dict]] = {
    "gmail": {
        "imap": {"host": "imap.gmail.com", "port": 993, "security": "ssl"},
        "smtp": {"host": "smtp.gmail.com", "port": 587, "security": "starttls"},
        "oauth2": {"token_url": "https://oauth2.googleapis.com/token", "scope": "https://mail.google.com/"},
    },
    "outlook": {   # Microsoft 365 and Outlook.com
        "imap": {"host": "outlook.office365.com", "port": 993, "security": "ssl"},
        "smtp": {"host": "smtp.office365.com", "port": 587, "security": "starttls"},
        "oauth2": {"token_url": "https://login.microsoftonline.com/common/oauth2/v2.0/token",
                   "scope": MICROSOFT_SCOPE},
    },
    "fastmail": {
        "imap": {"host": "imap.fastmail.com", "port": 993, "security": "ssl"},
        "smtp": {"host": "smtp.fastmail.com", "port": 465, "security": "ssl"},
        "oauth2": {},
    },
}
Provider = Literal["gmail", "outlook", "fastmail"]


class OAuth2(_Strict):
    token_command: str | None = None          # prints an access token (oama, mutt_oauth2.py, ...)
    token_url: str | None = None              # or: the refresh-token grant against this endpoint
    client_id_env: str = "REFEREE_OAUTH_CLIENT_ID"
    client_secret_env: str | None = "REFEREE_OAUTH_CLIENT_SECRET"   # a public client has none
    refresh_token_env: str = "REFEREE_OAUTH_REFRESH_TOKEN"
    scope: str | None = None
    mechanism: Literal["xoauth2", "oauthbearer"] = "xoauth2"         # IMAP; SMTP always uses XOAUTH2

    @model_validator(mode="after")
    def _one(self):
        if (self.token_command is None) == (self.token_url is None):
            raise ValueError("oauth2 needs exactly one of 'token_command' or 'token_url' "
                             "(a provider preset gives token_url)")
        if self.token_url is not None:
            try:
                check_url(self.token_url, "oauth2")
            except SecretError as e:
                raise ValueError(e.english) from None
        return self

    def tokens(self, what: str):
        """The token source the mail adapters ask at each login."""
        if self.token_command is not None:
            return CommandToken(self.token_command, f"{what}: oauth2.token_command")
        values = {}
        for field in ("client_id_env", "refresh_token_env", "client_secret_env"):
            name = getattr(self, field)
            if name is None:
                continue
            if not os.environ.get(name):
                raise SecretError(f"{what}: oauth2 needs the environment variable {name} ({field})",
                                  f"{what}: oauth2 braucht die Umgebungsvariable {name} ({field})")
            values[field] = os.environ[name]
        return RefreshGrant(self.token_url, values["client_id_env"], values["refresh_token_env"],
                            values.get("client_secret_env"), self.scope, what=f"{what}: oauth2")


class _Login(_Strict):
    provider: Provider | None = None
    password: str | None = Field(None, repr=False)   # never in a printed configuration
    password_env: str | None = None
    password_command: str | None = None
    oauth2: OAuth2 | None = None

    @model_validator(mode="before")
    @classmethod
    def _preset(cls, data):
        """Fill what the provider preset knows and the file leaves out."""
        if not isinstance(data, dict) or data.get("provider") not in PROVIDERS:
            return data
        preset = PROVIDERS[data["provider"]]
        out = {**preset[cls.KIND], **data}
        oauth = out.get("oauth2")
        if isinstance(oauth, dict) and "token_command" not in oauth:
            out["oauth2"] = {**preset["oauth2"], **oauth}
        return out

    @model_validator(mode="after")
    def _one_way(self):
        given = [name for name in ("password", "password_env", "password_command", "oauth2")
                 if getattr(self, name) is not None]
        if len(given) > 1:
            raise ValueError(f"give only one of {', '.join(given)}")
        return self

    def secret(self) -> str:
        """The password (not for oauth2: see ``tokens``)."""
        what = self.KIND
        if self.password is not None:
            return self.password
        if self.password_command is not None:
            return run_command(self.password_command, f"{what}: password_command")
        if self.password_env and self.password_env in os.environ:
            return os.environ[self.password_env]
        if self.password_env:
            raise SecretError(f"{what}: the environment variable {self.password_env} (password_env) is not set",
                              f"{what}: die Umgebungsvariable {self.password_env} (password_env) ist nicht gesetzt")
        raise SecretError(f"{what}: give one of password_env, password_command, oauth2 or password",
                          f"{what}: eines von password_env, password_command, oauth2 oder password angeben")

    def tokens(self):
        return None if self.oauth2 is None else self.oauth2.tokens(self.KIND)


class ImapIn(_Login):
    KIND: ClassVar[str] = "imap"
    host: str
    port: int = 993
    user: str
    security: Literal["ssl", "starttls", "plain"] = "ssl"
    folder: str = "INBOX"
    processed: str = "Referee/Processed"
    refused: str = "Referee/Refused"


class SmtpOut(_Login):
    KIND: ClassVar[str] = "smtp"
    host: str
    port: int = 587
    user: str | None = None
    security: Literal["ssl", "starttls", "plain"] = "starttls"

    @model_validator(mode="after")
    def _user(self):
        if self.user is None and self.oauth2 is not None:
            raise ValueError("oauth2 needs 'user' (the mailbox the token is for)")
        return self

    def secret(self) -> str | None:
        return None if self.user is None else super().secret()


class _OneWay(_Strict):
    """A mail direction: a Maildir or a server (``SERVER`` names its field), exactly one of them."""
    SECTION: ClassVar[str]
    SERVER: ClassVar[str]
    maildir: Path | None = None

    @model_validator(mode="after")
    def _one(self):
        if (self.maildir is None) == (getattr(self, self.SERVER) is None):
            raise ValueError(f"{self.SECTION} needs exactly one of 'maildir' or '{self.SERVER}'")
        return self


class MailIn(_OneWay):
    SECTION: ClassVar[str] = "mail_in"
    SERVER: ClassVar[str] = "imap"
    imap: ImapIn | None = None


class MailOut(_OneWay):
    SECTION: ClassVar[str] = "mail_out"
    SERVER: ClassVar[str] = "smtp"
    smtp: SmtpOut | None = None

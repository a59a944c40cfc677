"""Provider presets (issue 37): ``provider: gmail | outlook | fastmail`` fills host, port,
security and the OAuth2 token endpoint; what the file says itself wins."""
from __future__ import annotations

import pytest

from referee.app import config as config_mod
from referee.app.config_mail import PROVIDERS


def load(tmp_path, text: str):
    (tmp_path / "referee.yaml").write_text(text)
    return config_mod.load(tmp_path / "referee.yaml")


def test_gmail_preset_fills_imap_smtp_and_the_google_token_endpoint(tmp_path):
    cfg = load(tmp_path, """\
mail_in:
  imap: {provider: gmail, user: referee@gmail.com, oauth2: {}}
mail_out:
  smtp: {provider: gmail, user: referee@gmail.com, oauth2: {}}
""")
    imap, smtp = cfg.mail_in.imap, cfg.mail_out.smtp
    assert (imap.host, imap.port, imap.security) == ("imap.gmail.com", 993, "ssl")
    assert (smtp.host, smtp.port, smtp.security) == ("smtp.gmail.com", 587, "starttls")
    assert imap.oauth2.token_url == "https://oauth2.googleapis.com/token"
    assert imap.oauth2.scope == "https://mail.google.com/"


def test_outlook_preset_fills_microsoft_365_with_imap_and_smtp_scopes(tmp_path):
    cfg = load(tmp_path, """\
mail_in:
  imap: {provider: outlook, user: referee@example.org, oauth2: {client_secret_env: null}}
mail_out:
  smtp: {provider: outlook, user: referee@example.org, oauth2: {client_secret_env: null}}
""")
    imap, smtp = cfg.mail_in.imap, cfg.mail_out.smtp
    assert (imap.host, imap.port, smtp.host, smtp.port) == ("outlook.office365.com", 993, "smtp.office365.com", 587)
    assert imap.oauth2.token_url == "https://login.microsoftonline.com/common/oauth2/v2.0/token"
    assert "IMAP.AccessAsUser.All" in imap.oauth2.scope and "SMTP.Send" in smtp.oauth2.scope
    assert "offline_access" in imap.oauth2.scope and imap.oauth2.client_secret_env is None


def test_what_the_file_says_wins_over_the_preset(tmp_path):
    cfg = load(tmp_path, """\
mail_in:
  imap: {provider: outlook, host: imap.example.org, user: u, oauth2: {token_url: "https://id.example.org/t"}}
""")
    assert cfg.mail_in.imap.host == "imap.example.org" and cfg.mail_in.imap.port == 993
    assert cfg.mail_in.imap.oauth2.token_url == "https://id.example.org/t"


def test_fastmail_preset_uses_an_app_password_and_has_no_oauth2_endpoint(tmp_path):
    cfg = load(tmp_path, "mail_out:\n  smtp: {provider: fastmail, user: u@fastmail.com, password_env: FM_APP_PW}\n")
    assert (cfg.mail_out.smtp.host, cfg.mail_out.smtp.port, cfg.mail_out.smtp.security) == \
        ("smtp.fastmail.com", 465, "ssl")
    with pytest.raises(config_mod.ConfigError, match="exactly one of 'token_command' or 'token_url'"):
        load(tmp_path, "mail_in:\n  imap: {provider: fastmail, user: u, oauth2: {}}\n")


def test_a_token_command_is_not_mixed_with_the_preset_endpoint(tmp_path):
    cfg = load(tmp_path, "mail_in:\n  imap: {provider: gmail, user: u, oauth2: {token_command: 'oama access u'}}\n")
    assert cfg.mail_in.imap.oauth2.token_url is None


def test_an_unknown_provider_is_named_with_the_known_ones(tmp_path):
    with pytest.raises(config_mod.ConfigError, match="provider.*'gmail', 'outlook' or 'fastmail'"):
        load(tmp_path, "mail_in:\n  imap: {provider: yahoo, host: h, user: u, password: x}\n")


def test_every_preset_names_host_port_and_security_for_both_directions():
    for name, preset in PROVIDERS.items():
        for kind in ("imap", "smtp"):
            assert set(preset[kind]) == {"host", "port", "security"}, name

"""``referee doctor`` on an OAuth2 set-up (issue 37): Dovecot's oauth2 passdb and the SMTPS
front taking XOAUTH2 behind a local token endpoint, and a Dovecot that offers neither IDLE
nor MOVE.  The login lines name the mechanism; a revoked refresh token fails them with
what to do; the IDLE and MOVE lines warn.  No token or client secret is printed."""
from __future__ import annotations

import pytest
from mailservers import running_oauth_servers
from test_doctor import doctor

CLIENT_SECRET = "cs-doctor-secret-3"


@pytest.fixture(scope="module")
def plain_servers():   # IDLE and MOVE left out of what the server offers after login
    with running_oauth_servers({"rt-referee": "referee"},
                               extra="imap_capability = IMAP4rev1 SASL-IR LITERAL+ ENABLE UIDPLUS\n") as s:
        yield s


@pytest.fixture
def s(plain_servers, monkeypatch):
    plain_servers.token.revoked.clear()
    monkeypatch.setenv("REFEREE_OAUTH_CLIENT_ID", "client-1")
    monkeypatch.setenv("REFEREE_OAUTH_CLIENT_SECRET", CLIENT_SECRET)
    monkeypatch.setenv("REFEREE_OAUTH_REFRESH_TOKEN", "rt-referee")
    monkeypatch.setenv("SSL_CERT_FILE", str(plain_servers.cert))
    return plain_servers


def config(s, tmp_path) -> str:
    oauth = f'oauth2: {{token_url: "{s.token.token_url}"}}'
    path = tmp_path / "referee.yaml"
    path.write_text(f"""\
address: referee@referee.test
mail_in:
  imap: {{host: 127.0.0.1, port: {s.imap_port}, security: plain, user: referee, {oauth}}}
mail_out:
  smtp: {{host: 127.0.0.1, port: {s.smtps.port}, security: ssl, user: referee@referee.test, {oauth}}}
""")
    return str(path)


def test_doctor_logs_in_with_oauth2_and_warns_without_idle_and_move(s, tmp_path, capsys):
    code, lines, out = doctor(capsys, config(s, tmp_path))
    assert code == 0, out
    assert lines["imap login"].startswith("ok ") and "OAuth2 XOAUTH2" in lines["imap login"]
    assert lines["smtp login"].startswith("ok ") and "OAuth2 XOAUTH2" in lines["smtp login"]
    assert lines["imap IDLE"].startswith("warn") and "looks every 60 s" in lines["imap IDLE"]
    assert lines["imap MOVE"].startswith("warn") and "copied, then deleted" in lines["imap MOVE"]
    assert "doctor: ready (2 warning(s))" in out
    assert CLIENT_SECRET not in out and not any(token in out for token in s.token.issued)


def test_doctor_with_a_revoked_refresh_token_fails_both_logins_with_what_to_do(s, tmp_path, capsys):
    s.token.revoked.add("rt-referee")
    code, lines, out = doctor(capsys, config(s, tmp_path))
    assert code == 1
    for check in ("imap login", "smtp login"):
        assert lines[check].startswith("FAIL") and "invalid_grant" in lines[check]
    assert "authorize the referee again" in out and "rt-referee" not in out and CLIENT_SECRET not in out


def test_doctor_names_a_missing_oauth_environment_variable(s, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("REFEREE_OAUTH_REFRESH_TOKEN")
    code, lines, out = doctor(capsys, config(s, tmp_path))
    assert code == 1 and "REFEREE_OAUTH_REFRESH_TOKEN" in lines["imap login"] and "set it in the environment" in out

"""OAuth2 logins against real servers on loopback (issue 37): Dovecot with its oauth2 passdb
asking a local token-introspection endpoint, an SMTPS server taking AUTH XOAUTH2, and the
token endpoint that hands out the access tokens.  Through the production paths: ImapSource,
SmtpSink, and the configuration through wiring."""
from __future__ import annotations

import logging
import subprocess
import sys
import threading
import time

import pytest
from mailservers import running_oauth_servers

from referee.app import config as config_mod
from referee.app.wiring import open_sink, open_source
from referee.mail.errors import MailSourceError, TemporaryMailError
from referee.mail.imap_source import ImapSource
from referee.mail.oauth import CommandToken, RefreshGrant
from referee.mail.sink import SmtpSink

MAIL = b"From: alice@players.test\r\nTo: referee@referee.test\r\nSubject: orders\r\nMessage-ID: <o1@p>\r\n\r\nx\r\n"
OUT = b"From: referee@referee.test\r\nTo: gm@referee.test\r\nSubject: report\r\n\r\nr\r\n"
CLIENT_SECRET = "cs-never-shown-4"


@pytest.fixture(scope="module")
def servers():
    with running_oauth_servers({"rt-referee": "referee", "rt-gm": "gm"}) as s:
        yield s


@pytest.fixture
def s(servers, caplog):
    servers.token.revoked.clear()
    servers.token.killed.clear()
    servers.token.lifetime = 3600
    servers.dovecot.clear("referee")
    caplog.set_level(logging.DEBUG)
    yield servers
    # no token, refresh token or client secret in any line the referee logs
    shown = "\n".join(r.getMessage() for r in caplog.records if r.name.startswith("referee"))
    assert "rt-referee" not in shown and CLIENT_SECRET not in shown
    assert not any(token in shown for token in servers.token.issued)


def grant(s, **kw) -> RefreshGrant:
    return RefreshGrant(s.token.token_url, "client-1", "rt-referee", CLIENT_SECRET, **kw)


def source(s, tokens, **kw) -> ImapSource:
    return ImapSource("127.0.0.1", s.imap_port, "referee", None, tokens=tokens, max_failures=3, backoff=0.05, **kw)


@pytest.mark.parametrize("mechanism", ["xoauth2", "oauthbearer"])
def test_imap_login_with_an_access_token_reads_and_moves_mail(s, mechanism):
    s.dovecot.append("referee", MAIL)
    imap = source(s, grant(s), mechanism=mechanism)
    try:
        [mail] = list(imap.incoming())
        imap.done(mail.ref, "processed")
    finally:
        imap.close()
    assert s.dovecot.messages("referee", "Referee/Processed") and not s.dovecot.messages("referee")
    assert f"method={mechanism.upper()}" in (s.dovecot.root / "dovecot.log").read_text()


def test_imap_idle_after_an_oauth_login_wakes_on_new_mail(s):
    slept = []
    imap = source(s, grant(s), sleep=slept.append)
    try:
        list(imap.incoming())   # logged in, nothing waiting
        timer = threading.Timer(0.5, s.dovecot.append, ("referee", MAIL))
        timer.start()
        started = time.monotonic()
        imap.wait(20)
        timer.join()
        assert time.monotonic() - started < 10 and slept == []   # IDLE woke it, no sleep
    finally:
        imap.close()


def test_a_token_that_expires_mid_run_is_refreshed_when_the_server_drops_the_session(s):
    s.token.lifetime = 2
    tokens = grant(s, margin=0.5)
    imap = source(s, tokens)
    try:
        list(imap.incoming())
        time.sleep(2.2)   # the token has expired on the server's side
        kicked = subprocess.run(["doveadm", "-c", str(s.dovecot.config), "kick", "referee"],
                                capture_output=True, text=True, timeout=30)
        assert kicked.returncode == 0, kicked.stderr
        s.dovecot.append("referee", MAIL)
        assert len(list(imap.incoming())) == 1   # reconnected with a fresh token
    finally:
        imap.close()
    assert tokens.refreshes == 2 and imap.reconnects == 1


def test_a_token_the_server_refuses_is_replaced_once_at_login(s):
    tokens = grant(s)
    first = tokens.token()
    s.token.killed.add(first)   # revoked at the provider, still fresh in the referee's eyes
    s.dovecot.append("referee", MAIL)
    imap = source(s, tokens)
    try:
        assert len(list(imap.incoming())) == 1
    finally:
        imap.close()
    assert tokens.refreshes == 2


def test_a_revoked_refresh_token_stops_the_imap_login_with_a_clear_message(s):
    s.token.revoked.add("rt-referee")
    imap = source(s, grant(s))
    with pytest.raises(MailSourceError, match="refused the refresh token.*hat das Refresh-Token abgelehnt"):
        list(imap.incoming())
    imap.close()


def test_token_command_gives_the_imap_token_and_runs_again_after_a_refusal(s, tmp_path):
    first, second = s.token.issue("referee"), s.token.issue("referee")
    s.token.killed.add(first)
    (tmp_path / "tokens").write_text(f"{first}\n{second}\n")
    script = tmp_path / "token.py"   # prints the next token of the list at each run
    script.write_text("import pathlib, sys\np = pathlib.Path(sys.argv[1])\nlines = p.read_text().split()\n"
                      "print(lines[0]); p.write_text('\\n'.join(lines[1:]))\n")
    imap = source(s, CommandToken(f"{sys.executable} {script} {tmp_path / 'tokens'}"))
    try:
        list(imap.incoming())
    finally:
        imap.close()
    assert (tmp_path / "tokens").read_text() == ""


def test_smtp_auth_xoauth2_sends_and_a_refused_token_is_replaced_once(s):
    tokens = grant(s)
    s.token.killed.add(tokens.token())
    sink = SmtpSink("127.0.0.1", s.smtps.port, "referee@referee.test", security="ssl",
                    ssl_context=_trusting(s), tokens=tokens)
    try:
        sink.send_bytes(OUT, "referee@referee.test", ["gm@referee.test"])
    finally:
        sink.close()
    assert s.smtps.wait_captured(1)[-1].rcpts == ("gm@referee.test",)
    assert s.smtps.xoauth2_logins == [s.token.issued[-1]] and tokens.refreshes == 2


def test_smtp_with_a_revoked_refresh_token_keeps_the_mail_for_a_retry(s):
    s.token.revoked.add("rt-referee")
    sink = SmtpSink("127.0.0.1", s.smtps.port, "referee@referee.test", security="ssl",
                    ssl_context=_trusting(s), tokens=grant(s))
    with pytest.raises(TemporaryMailError, match="invalid_grant"):
        sink.send_bytes(OUT, "referee@referee.test", ["gm@referee.test"])


def test_oauth2_from_the_configuration_file_logs_in_to_imap_and_smtp(s, tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_OAUTH_CLIENT_ID", "client-1")
    monkeypatch.setenv("REFEREE_OAUTH_CLIENT_SECRET", CLIENT_SECRET)
    monkeypatch.setenv("REFEREE_OAUTH_REFRESH_TOKEN", "rt-referee")
    monkeypatch.setenv("SSL_CERT_FILE", str(s.cert))
    (tmp_path / "referee.yaml").write_text(f"""\
address: referee@referee.test
mail_in:
  imap: {{host: 127.0.0.1, port: {s.imap_port}, security: plain, user: referee,
          oauth2: {{token_url: "{s.token.token_url}", mechanism: oauthbearer}}}}
mail_out:
  smtp: {{host: 127.0.0.1, port: {s.smtps.port}, security: ssl, user: referee@referee.test,
          oauth2: {{token_url: "{s.token.token_url}"}}}}
""")
    cfg = config_mod.load(tmp_path / "referee.yaml")
    s.dovecot.append("referee", MAIL)
    imap = open_source(cfg)
    try:
        assert len(list(imap.incoming())) == 1
    finally:
        imap.close()
    sink = open_sink(cfg)
    sink.send_bytes(OUT, "referee@referee.test", ["gm@referee.test"])
    sink.close()
    assert s.smtps.xoauth2_logins[-1] == s.token.issued[-1]


def _trusting(s):
    import ssl
    return ssl.create_default_context(cafile=str(s.cert))

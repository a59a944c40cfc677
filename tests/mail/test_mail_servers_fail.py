"""The test mail servers fail loudly (with a reason) when they cannot start."""
from __future__ import annotations

import os

import mailservers
import pytest
from mailservers import Dovecot, MailServerError, running_mailservers


def test_missing_dovecot_is_an_error_not_a_skip(monkeypatch, tmp_path):
    monkeypatch.setattr(mailservers.dovecot_module, "DOVECOT", str(tmp_path / "no-such-dovecot"))
    with pytest.raises(MailServerError, match="apt-get install dovecot-imapd"):
        with running_mailservers(tls=False):
            pass


def test_socket_path_too_long_is_refused(tmp_path):
    root = tmp_path / ("x" * 80)
    root.mkdir()
    with pytest.raises(MailServerError, match="too long"):
        Dovecot(root, {"a": "b"}).start()


def test_a_broken_config_reports_dovecot_s_own_words(monkeypatch):
    monkeypatch.setattr(mailservers.dovecot_module, "_CONFIG", mailservers.dovecot_module._CONFIG + "no_such_setting = 1\n")
    with pytest.raises(MailServerError, match="no_such_setting"):
        with running_mailservers(tls=False):
            pass


def test_started_servers_leave_nothing_behind():
    with running_mailservers(users=("solo",), tls=False) as servers:
        root, pid = servers.root, servers.dovecot.pid
        servers.send("x@players.test", ["solo@referee.test"], b"Subject: s\r\n\r\nbody\r\n")
        assert len(servers.wait_messages("solo", 1)) == 1
    assert not root.exists() and servers.dovecot.pid is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)

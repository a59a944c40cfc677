"""``referee doctor`` (issue 37): a test for each line it prints, against a working set-up
(the real Dovecot and SMTPS server, a password from the environment) and broken ones.
The command runs as the GM runs it (``referee.app.cli.main``); no secret is ever printed."""
from __future__ import annotations

import email
import os
import sys
from email import policy

import pytest

from referee.app.cli import main

PASSWORD_ENV = "TEST_DOCTOR_PW"


def write(tmp_path, s=None, imap: str = "", smtp: str = "", top: str = "") -> str:
    text = "address: referee@referee.test\nstore: referee.sqlite\narchive: turns\n" + top
    if s is not None:
        text += (f"mail_in:\n  imap: {{host: 127.0.0.1, port: {s.dovecot.imap_port}, security: plain, user: referee, "
                 f"{imap or f'password_env: {PASSWORD_ENV}'}}}\n"
                 f"mail_out:\n  smtp: {{host: 127.0.0.1, port: {s.smtps.port}, security: ssl, user: referee, "
                 f"{smtp or f'password_env: {PASSWORD_ENV}'}}}\n")
    path = tmp_path / "referee.yaml"
    path.write_text(text)
    path.chmod(0o600)
    return str(path)


def doctor(capsys, config: str, *args) -> tuple[int, dict[str, str], str]:
    """(exit status, {check: its line}, all output)."""
    code = main(["--config", config, "doctor", *args])
    out = capsys.readouterr().out
    lines = {}
    for line in out.splitlines():
        if line[:4].strip() in ("ok", "warn", "FAIL"):
            lines[line[6:].split(":", 1)[0]] = line
    return code, lines, out


@pytest.fixture
def s(mailservers, monkeypatch):
    monkeypatch.setenv(PASSWORD_ENV, mailservers.password("referee"))
    monkeypatch.setenv("SSL_CERT_FILE", str(mailservers.cert))   # the default context trusts the test certificate
    return mailservers


def test_a_working_setup_gets_ok_on_every_line_and_exit_status_0(s, tmp_path, capsys):
    code, lines, out = doctor(capsys, write(tmp_path, s))
    assert code == 0 and out.rstrip().endswith("doctor: ready")
    assert set(lines) == {"config", "store", "archive", "imap login", "imap IDLE", "imap MOVE", "imap folders",
                          "smtp login"}
    assert all(line.startswith("ok ") for line in lines.values()), out
    assert "referee on 127.0.0.1" in lines["imap login"] and "password" in lines["imap login"]
    assert "created at first use: Referee/Processed, Referee/Refused, Referee/Ignored" in lines["imap folders"]
    assert s.password("referee") not in out


def test_send_test_mails_the_gm_in_english_and_german(s, tmp_path, capsys):
    config = write(tmp_path, s, top="gm_keys: {gm@referee.test: GM-KEY-LONG-ENOUGH}\n")
    code, lines, out = doctor(capsys, config, "--send-test")
    assert code == 0 and lines["test mail"].startswith("ok ") and "to gm@referee.test" in lines["test mail"]
    mail = s.smtp.wait_captured(1)[-1]
    body = email.message_from_bytes(mail.raw, policy=policy.default).get_content()
    assert mail.rcpts == ("gm@referee.test",) and "sending works" in body and "der Versand klappt" in body
    assert "GM-KEY-LONG-ENOUGH" not in out


def test_send_test_without_a_gm_says_to_name_one(s, tmp_path, capsys):
    code, lines, _ = doctor(capsys, write(tmp_path, s), "--send-test")
    assert code == 1 and lines["test mail"].startswith("FAIL") and "--to" in lines["test mail"] + _


def test_a_broken_config_file_is_one_fail_line(tmp_path, capsys):
    path = tmp_path / "referee.yaml"
    path.write_text("mail_in:\n  imap: {host: h, user: u, pasword: x}\n")
    code, lines, out = doctor(capsys, str(path))
    assert code == 1 and lines["config"].startswith("FAIL") and "did you mean 'password'" in out


def test_a_config_with_a_password_readable_by_others_is_warned(tmp_path, capsys):
    config = write(tmp_path, top="gm_keys: {gm@example.org: GM-KEY-LONG-ENOUGH}\n")
    os.chmod(config, 0o644)
    code, lines, out = doctor(capsys, config)
    assert code == 0 and lines["config permissions"].startswith("warn") and f"chmod 600 {config}" in out


def test_a_store_that_cannot_be_created_fails(tmp_path, capsys):
    (tmp_path / "blocker").write_text("a file, no folder")
    code, lines, _ = doctor(capsys, _with(tmp_path, "store: blocker/referee.sqlite"))
    assert code == 1 and lines["store"].startswith("FAIL") and "cannot be created" in lines["store"]


def test_a_store_that_is_no_database_fails_with_what_to_do(tmp_path, capsys):
    (tmp_path / "referee.sqlite").write_bytes(b"no sqlite file " * 100)
    os.chmod(tmp_path / "referee.sqlite", 0o600)
    code, lines, out = doctor(capsys, write(tmp_path))
    assert code == 1 and lines["store"].startswith("FAIL") and "referee migrate" in out


def test_a_store_readable_by_others_is_warned(tmp_path, capsys):
    config = write(tmp_path)
    assert main(["--config", config, "status"]) == 0   # creates the store
    os.chmod(tmp_path / "referee.sqlite", 0o644)
    code, lines, out = doctor(capsys, config)
    assert code == 0 and lines["store"].startswith("warn") and "chmod 600" in out


def test_an_archive_that_is_a_file_fails_and_a_shared_one_is_warned(tmp_path, capsys):
    (tmp_path / "turns").write_text("a file")
    code, lines, _ = doctor(capsys, write(tmp_path))
    assert code == 1 and lines["archive"].startswith("FAIL")
    (tmp_path / "turns").unlink()
    (tmp_path / "turns").mkdir()
    os.chmod(tmp_path / "turns", 0o777)
    code, lines, out = doctor(capsys, write(tmp_path))
    assert code == 0 and lines["archive"].startswith("warn") and "chmod go-w" in out


def test_a_wrong_imap_password_fails_the_login_line(s, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TEST_DOCTOR_WRONG", "not-the-password-77")
    code, lines, out = doctor(capsys, write(tmp_path, s, imap="password_env: TEST_DOCTOR_WRONG"))
    assert code == 1 and lines["imap login"].startswith("FAIL") and "refused" in lines["imap login"]
    assert "not-the-password-77" not in out and "imap IDLE" not in lines


def test_a_failing_password_command_is_named_on_the_login_line(s, tmp_path, capsys):
    code, lines, out = doctor(capsys, write(tmp_path, s, imap=f"password_command: '{sys.executable} -c \"exit(4)\"'"))
    assert code == 1 and "exit status 4" in lines["imap login"] and "run the command by hand" in out


def test_an_unreachable_imap_server_fails_quickly(s, tmp_path, capsys):
    config = write(tmp_path, s)
    text = open(config).read().replace(f"port: {s.dovecot.imap_port}", "port: 9")
    open(config, "w").write(text)
    code, lines, _ = doctor(capsys, config)
    assert code == 1 and "unreachable" in lines["imap login"]


def test_a_missing_inbox_folder_fails_the_folders_line(s, tmp_path, capsys):
    code, lines, _ = doctor(capsys, write(tmp_path, s, imap=f"password_env: {PASSWORD_ENV}, folder: NoSuchFolder"))
    assert code == 1 and lines["imap folders"].startswith("FAIL") and "'NoSuchFolder' does not exist" in lines["imap folders"]


def test_a_wrong_smtp_password_fails_the_smtp_line(s, tmp_path, capsys):
    code, lines, out = doctor(capsys, write(tmp_path, s, smtp="password: wrong-smtp-pw-5"))
    assert code == 1 and lines["smtp login"].startswith("FAIL") and "535" in lines["smtp login"]
    assert "wrong-smtp-pw-5" not in out


def _with(tmp_path, line: str) -> str:
    path = tmp_path / "referee.yaml"
    path.write_text(f"address: referee@referee.test\narchive: turns\n{line}\n")
    path.chmod(0o600)
    return str(path)

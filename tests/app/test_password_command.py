"""``password_command`` beside ``password_env`` (issue 37): the referee logs in to the real
Dovecot and SMTP with a password a program prints; a failing, silent, hanging or flooding
program gives a clear error in English and German; the password appears in no log line,
no exception text and no traceback."""
from __future__ import annotations

import logging
import sys
import time
import traceback

import pytest

from referee.app import config as config_mod
from referee.app.wiring import open_sink, open_source
from referee.mail.oauth import MAX_OUTPUT, SecretError, run_command

SECRET = "pw-Zq8!never-shown"


def script(tmp_path, body: str) -> str:
    path = tmp_path / "secret.py"
    path.write_text(body)
    return f"{sys.executable} {path}"


def cfg_with(s, tmp_path, imap_login: str, smtp_login: str):
    (tmp_path / "referee.yaml").write_text(f"""\
address: {s.address('referee')}
mail_in:
  imap: {{host: 127.0.0.1, port: {s.dovecot.imap_port}, security: plain, user: referee, {imap_login}}}
mail_out:
  smtp: {{host: 127.0.0.1, port: {s.smtps.port}, security: ssl, user: referee, {smtp_login}}}
""")
    return config_mod.load(tmp_path / "referee.yaml")


def test_password_command_logs_in_to_dovecot_and_smtp_with_its_first_line(mailservers, tmp_path, caplog, monkeypatch):
    s = mailservers
    monkeypatch.setenv("SSL_CERT_FILE", str(s.cert))   # the default context trusts the test certificate
    command = script(tmp_path, f"print({s.password('referee')!r}); print('second line is ignored')")
    cfg = cfg_with(s, tmp_path, f"password_command: '{command}'", f"password_command: '{command}'")
    s.append("referee", b"From: a@players.test\r\nSubject: hi\r\n\r\nhello\r\n")
    caplog.set_level(logging.DEBUG)
    source = open_source(cfg)
    try:
        assert [m.raw.split(b"\r\n", 2)[1] for m in source.incoming()] == [b"Subject: hi"]
    finally:
        source.close()
    sink = open_sink(cfg)
    sink.send_bytes(b"From: referee@referee.test\r\nTo: gm@referee.test\r\nSubject: t\r\n\r\nx\r\n",
                    "referee@referee.test", ["gm@referee.test"])
    sink.close()
    assert s.wait_captured(1)[-1].auth_user == "referee"
    assert s.password("referee") not in "\n".join(r.getMessage() for r in caplog.records if r.name.startswith("referee"))


def test_password_and_password_command_together_are_refused(tmp_path):
    (tmp_path / "referee.yaml").write_text(
        "mail_in:\n  imap: {host: h, user: u, password: x, password_command: 'pass show x'}\n")
    with pytest.raises(config_mod.ConfigError, match="only one of password, password_command"):
        config_mod.load(tmp_path / "referee.yaml")


@pytest.mark.parametrize("body, english, german", [
    (f"import sys; print({SECRET!r}); sys.exit(3)", "failed with exit status 3", "mit Status 3 gescheitert"),
    ("print()", "printed an empty first line", "leere erste Zeile"),
    ("import sys; sys.stderr.write('gpg: decryption failed\\n'); sys.exit(2)", "decryption failed", "Status 2"),
])
def test_a_failing_password_command_says_why_in_english_and_german_without_its_output(tmp_path, body, english, german):
    with pytest.raises(SecretError) as caught:
        run_command(script(tmp_path, body), "imap: password_command")
    assert english in caught.value.english and german in caught.value.german
    assert SECRET not in str(caught.value)
    assert SECRET not in "".join(traceback.format_exception(caught.value))


def test_a_missing_program_is_named():
    with pytest.raises(SecretError, match="'no-such-program-x' cannot be started.*lässt sich nicht starten"):
        run_command("no-such-program-x --flag", "smtp: password_command")


def test_a_hanging_password_command_is_stopped_at_its_timeout(tmp_path):
    started = time.monotonic()
    with pytest.raises(SecretError, match="no answer within 0.5 s.*binnen 0.5 s"):
        run_command(script(tmp_path, "import time; time.sleep(30)"), "imap: password_command", timeout=0.5)
    assert time.monotonic() - started < 10


def test_hostile_password_command_flooding_10_mb_is_capped(tmp_path):
    command = script(tmp_path, "import sys\nfor _ in range(160): sys.stdout.write('x' * 65536)\n")
    with pytest.raises(SecretError, match=f"more than {MAX_OUTPUT // 1024} kB.*mehr als"):
        run_command(command, "imap: password_command")


def test_password_command_is_run_without_a_shell(tmp_path):
    marker = tmp_path / "touched"
    line = run_command(f"echo 'a b' ; touch {marker}", "imap: password_command")
    assert line == f"a b ; touch {marker}"   # echo got the words: no shell ran `touch`
    assert not marker.exists()


def test_an_unset_password_env_is_named_in_english_and_german(tmp_path, monkeypatch):
    monkeypatch.delenv("REFEREE_TEST_UNSET_PW", raising=False)
    (tmp_path / "referee.yaml").write_text(
        "mail_in:\n  imap: {host: h, user: u, password_env: REFEREE_TEST_UNSET_PW}\n")
    cfg = config_mod.load(tmp_path / "referee.yaml")
    with pytest.raises(SecretError, match="REFEREE_TEST_UNSET_PW.*is not set.*ist nicht gesetzt"):
        cfg.mail_in.imap.secret()


def test_a_wrong_password_from_the_command_is_refused_without_showing_it(mailservers, tmp_path, caplog):
    s = mailservers
    cfg = cfg_with(s, tmp_path, f"password_command: '{script(tmp_path, f'print({SECRET!r})')}'", "password: x")
    caplog.set_level(logging.DEBUG)
    source = open_source(cfg)
    with pytest.raises(Exception) as caught:
        list(source.incoming())
    source.close()
    assert "login as 'referee' refused" in str(caught.value)
    assert SECRET not in "".join(traceback.format_exception(caught.value))
    assert SECRET not in caplog.text


def test_a_password_in_the_file_is_left_out_of_the_printed_configuration(tmp_path):
    (tmp_path / "referee.yaml").write_text(f"mail_in:\n  imap: {{host: h, user: u, password: {SECRET!r}}}\n")
    cfg = config_mod.load(tmp_path / "referee.yaml")
    assert cfg.mail_in.imap.secret() == SECRET and SECRET not in repr(cfg) and SECRET not in str(cfg)


def test_poll_with_a_failing_password_command_says_why_not_internal_error(tmp_path):
    """The command line names the password command's failure, never "internal error" (a GM's cron mail)."""
    import subprocess

    failing = script(tmp_path, f"import sys; print({SECRET!r}); sys.exit(3)")
    (tmp_path / "referee.yaml").write_text(
        "mail_in:\n  imap: {host: 127.0.0.1, port: 1, security: plain, user: referee, "
        f"password_command: {failing!r}}}\n")
    done = subprocess.run([sys.executable, "-m", "referee.app.cli", "poll", "--once"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "failed with exit status 3" in done.stderr and "internal error" not in done.stderr
    assert SECRET not in done.stdout + done.stderr

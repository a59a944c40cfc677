"""OAuth2 access tokens from a token endpoint (issue 37), against a real HTTP token server on
loopback: refreshed before expiry, a rotated refresh token kept, a revoked one refused with a
clear message in English and German, and a hostile endpoint (10 MB, garbage, a token that
would inject an IMAP line) capped with a clear error.  No secret in any message."""
from __future__ import annotations

import http.server
import threading
import traceback

import pytest
from mailservers import TokenServer, free_port

from referee.mail.oauth import MAX_OUTPUT, RefreshGrant, SecretError

CLIENT_SECRET = "cs-very-secret-9"


@pytest.fixture
def server():
    token = TokenServer({"rt-1": "referee"}, lifetime=100)
    token.start()
    yield token
    token.stop()


def grant(server, refresh="rt-1", **kw) -> RefreshGrant:
    return RefreshGrant(server.token_url, "client-1", refresh, CLIENT_SECRET, "https://mail.example/", **kw)


def text_of(error: BaseException) -> str:
    return "".join(traceback.format_exception(error))


def test_the_access_token_is_reused_until_shortly_before_it_expires_then_refreshed(server):
    now = [1000.0]
    tokens = grant(server, margin=10, clock=lambda: now[0])
    first = tokens.token()
    now[0] += 89   # 11 s of 100 left: still good
    assert tokens.token() == first and tokens.refreshes == 1
    now[0] += 2    # within the margin: a fresh one
    second = tokens.token()
    assert second != first and tokens.refreshes == 2
    assert server.valid(second) == "referee"


def test_invalidate_after_a_refused_login_fetches_a_fresh_token(server):
    tokens = grant(server)
    first = tokens.token()
    tokens.invalidate()
    assert tokens.token() != first and tokens.refreshes == 2


def test_a_revoked_refresh_token_is_refused_with_a_clear_message_in_english_and_german(server):
    server.revoked.add("rt-1")
    with pytest.raises(SecretError) as caught:
        grant(server).token()
    error = caught.value
    assert "refused the refresh token (invalid_grant" in error.english and "authorize the referee again" in error.english
    assert "hat das Refresh-Token abgelehnt" in error.german
    assert "rt-1" not in text_of(error) and CLIENT_SECRET not in text_of(error)


def test_a_rotated_refresh_token_is_used_for_the_next_refresh(server):
    server.rotate = True   # each grant revokes the refresh token it was given
    tokens = grant(server)
    tokens.token()
    tokens.invalidate()
    assert server.valid(tokens.token()) == "referee"
    assert "rt-1" in server.revoked and tokens.refreshes == 2


def test_hostile_token_endpoint_answering_10_mb_is_capped(server):
    server.answer = b'{"access_token": "' + b"a" * 10_000_000 + b'"}'
    with pytest.raises(SecretError, match=f"answered more than {MAX_OUTPUT // 1024} kB.*mehr als"):
        grant(server).token()


@pytest.mark.parametrize("answer", [b"<html>Bad gateway</html>", b"[" * 60_000, b'{"access_token": 7}', b"\xff\xfe"])
def test_hostile_token_endpoint_answering_garbage_gets_a_clear_error(server, answer):
    server.answer = answer
    with pytest.raises(SecretError) as caught:
        grant(server).token()
    assert "access token" in caught.value.english and "Zugangstoken" in caught.value.german


def test_hostile_access_token_that_would_inject_an_imap_line_is_refused(server):
    server.answer = b'{"access_token": "abc\\r\\nA1 DELETE INBOX", "expires_in": 60}'
    with pytest.raises(SecretError, match="no single word of printable ASCII.*kein einzelnes Wort"):
        grant(server).token()


def test_an_unreachable_token_endpoint_is_named():
    with pytest.raises(SecretError, match="token endpoint 127.0.0.1 cannot be reached.*nicht erreichbar"):
        RefreshGrant(f"http://127.0.0.1:{free_port()}/token", "c", "rt", timeout=2).token()


def test_a_token_url_without_tls_off_loopback_is_refused():
    with pytest.raises(SecretError, match="must be an https:// address"):
        RefreshGrant("http://login.example.org/token", "c", "rt")


def test_a_slow_drip_token_endpoint_is_cut_off():
    stop = threading.Event()

    class Drip(http.server.BaseHTTPRequestHandler):
        def do_POST(self):   # noqa: N802
            self.send_response(200)
            self.end_headers()
            while not stop.is_set():
                self.wfile.write(b" ")
                self.wfile.flush()
                stop.wait(0.05)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Drip)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        with pytest.raises(SecretError, match="too slowly|more than"):
            RefreshGrant(f"http://127.0.0.1:{httpd.server_address[1]}/token", "c", "rt", timeout=0.5).token()
    finally:
        stop.set()
        httpd.shutdown()
        httpd.server_close()


def test_hostile_token_command_output_with_spaces_or_control_characters_is_refused(tmp_path):
    import sys

    from referee.mail.oauth import CommandToken
    script = tmp_path / "t.py"
    script.write_text("print('ya29 token\\x07with bell')")
    with pytest.raises(SecretError, match="no single word") as caught:
        CommandToken(f"{sys.executable} {script}").token()
    assert "ya29" not in str(caught.value)

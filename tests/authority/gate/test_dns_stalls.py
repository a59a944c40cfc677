"""Issue 32, item 3: DNS stalls.  A name server on loopback that reads every query
and never answers stands in for a mail domain whose DNS is down; the campaign's
referee.yaml points the referee's resolver at it (``authentication.nameservers``).
The DNS is asked only where the verdict matters (after the per-sender limit and the
key check), a mail gets one DNS budget for all its signatures, and a domain that
timed out is not asked again for a while."""
from __future__ import annotations

import socket
import threading
import time

import dns.message
import pytest
from dkimkit import sign
from doorkit import Door, match_file, to

from referee.app.config import ConfigError
from referee.app.config import load as load_config

BUDGET = 1.0    # dns_timeout: seconds of DNS look-ups for one mail
MATCH = match_file("stall", emails={"jay": "jay@mx.example.org"})


class SilentNameServer:
    """A UDP socket on 127.0.0.1 that reads each query, notes the name asked, and drops it."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.05)
        self.port = self.sock.getsockname()[1]
        self.asked: list[str] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            try:
                data, _ = self.sock.recvfrom(4096)
            except TimeoutError:
                continue
            try:
                self.asked.append(dns.message.from_wire(data).question[0].name.to_text(omit_final_dot=True))
            except Exception:
                self.asked.append("(unreadable)")

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.sock.close()


@pytest.fixture
def silent():
    server = SilentNameServer()
    yield server
    server.close()


@pytest.fixture
def door(tmp_path, monkeypatch, silent):
    config = f"authentication:\n  dns_timeout: {BUDGET}\n  nameservers: ['127.0.0.1:{silent.port}']\n"
    return Door(tmp_path, monkeypatch, MATCH, config)


def thrice_signed(door: Door, sender: str, body: str, selectors: tuple[str, str, str]) -> bytes:
    """Three DKIM signatures on top, the first of the From's domain, the second of its parent
    domain (aligned too), the third of the From's domain again; each with its own selector."""
    raw = door.raw(sender, body, subject="status")
    domain = sender.partition("@")[2]
    for selector, signer in reversed(list(zip(selectors, (domain, "example.org", domain), strict=True))):
        raw = sign(raw, signer, selector=selector)
    return raw


def status(door: Door, seat: str, key: str | None = None) -> str:
    return f"match: stall\nplayer: {seat}\nkey: {key or door.keys[seat]}\ncommand: status\n"


def test_dns_stalls_one_budget_a_mail_and_a_silent_domain_is_not_asked_again(door, silent):
    # a wrong key: nothing hangs on the sender's verdict, so the DNS is not asked at all
    wrong = thrice_signed(door, "jay@mx.example.org", status(door, "jay", "AAAA-BBBB-CCCC"), ("w1", "w2", "w3"))
    [refusal] = door.poll(wrong)
    assert "Not accepted" in str(refusal["Subject"]) and silent.asked == []
    assert (door.verdict(wrong)["verdict"], door.verdict(wrong)["detail"]) == \
        ("off", "not checked: no step needed the verdict")

    # two mails with the right key, three signatures each, and a player's command behind them
    first = thrice_signed(door, "jay@mx.example.org", status(door, "jay"), ("a1", "a2", "a3"))
    second = thrice_signed(door, "jay@mx.example.org", status(door, "jay"), ("b1", "b2", "b3"))
    plain = door.raw("king@example.org", status(door, "king"), subject="status")
    start = time.monotonic()
    sent = door.poll(first, second, plain)
    elapsed = time.monotonic() - start
    assert elapsed < 10 * BUDGET + 5, f"the poll took {elapsed:.1f} s"   # a guard against a hang, no speed claim
    # one look-up in all: the first signature's; its time-out spent the mail's budget (the parent domain's
    # signature was not asked) and the silent domain is remembered (the second mail asked nothing)
    assert len(set(silent.asked)) == 1, silent.asked
    assert silent.asked[0] in ("a1._domainkey.mx.example.org", "b1._domainkey.mx.example.org")
    for raw in (first, second):
        verdict = door.verdict(raw)
        assert (verdict["verdict"], verdict["detail"]) == ("none", "DNS did not answer in time")
    assert len(to(sent, "jay")) == 2 and len(to(sent, "king")) == 1     # every one answered
    assert not any("forged" in str(m["Subject"]) for m in sent)         # no answer accuses anyone


@pytest.mark.parametrize("servers", ["[evil.test]", "['127.0.0.1:99999']", "['127.0.0.1:x']",
                                     "['::1', '::2', '::3', '::4', '::5', '::6']", "'127.0.0.1'", "[[1]]"])
def test_dns_stalls_hostile_nameserver_settings_are_refused_naming_the_setting(tmp_path, servers):
    (tmp_path / "referee.yaml").write_text(f"address: referee@example.org\nauthentication:\n  nameservers: {servers}\n")
    with pytest.raises(ConfigError) as e:
        load_config(tmp_path / "referee.yaml")
    assert "nameservers" in str(e.value)

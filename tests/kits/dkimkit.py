"""What the sender-authentication tests share: a real RSA key made for the
test run, mails really signed with it (dkimpy), the DNS answered from a local
table (the public key published as a mail domain would), and a referee on
SQLite that trusts what the test says."""
from __future__ import annotations

import base64
import functools

import dkim
import toygame  # tests/ is on sys.path (tests/conftest.py)
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from seckit import CREATOR as BOSS
from seckit import REFEREE

from referee.app.referee import Referee
from referee.authority.base import Settings
from referee.mail.senderauth import DnsTrouble, Trust
from referee.render.renderer import Renderer
from referee.store import open_store

SELECTOR = "s2026"
TRUSTED = "mx.referee.test"     # the receiving server the operator names


@functools.cache
def key_pair(bits: int = 2048) -> tuple[bytes, bytes]:
    """(PKCS#1 PEM private key, DER public key), made once per test run."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=bits)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                serialization.NoEncryption())
    public = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return private, public


@functools.cache
def other_key() -> bytes:
    """A second private key: what a forger signs with."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                             serialization.NoEncryption())


class LocalDns:
    """The DNS as the tests want it: each domain's published DKIM key, looked up
    by name; ``down`` makes every look-up time out.  Counts the look-ups."""

    def __init__(self, domains=("example.org",)) -> None:
        public = key_pair()[1]
        self.records = {f"{SELECTOR}._domainkey.{d}": b"v=DKIM1; k=rsa; p=" + base64.b64encode(public)
                        for d in domains}
        self.down = False
        self.asked: list[str] = []

    def __call__(self, name: str, timeout: float) -> bytes | None:
        self.asked.append(name)
        if self.down:
            raise DnsTrouble("timeout")
        return self.records.get(name)


def sign(raw: bytes, domain: str = "example.org", private: bytes | None = None, selector: str = SELECTOR) -> bytes:
    """``raw`` with a DKIM-Signature of ``domain`` on top (relaxed/simple, as most servers sign)."""
    header = dkim.sign(raw, selector.encode(), domain.encode(), private or key_pair()[0],
                       include_headers=[b"from", b"to", b"subject", b"message-id"])
    return header + raw


def results(server: str, text: str) -> bytes:
    """An Authentication-Results field as ``server`` writes it."""
    return f"Authentication-Results: {server};\r\n {text}\r\n".encode()


def make_referee(root, clock, **trust) -> Referee:
    trust.setdefault("txt", LocalDns())
    return Referee(open_store(root / "referee.sqlite"), root / "turns", Renderer(extra_dirs=[toygame.TEMPLATES]),
                   clock, Settings(address=REFEREE, gm_keys={BOSS[0]: BOSS[1]}, rate_limit_per_hour=20,
                                   trust=Trust(**trust)))

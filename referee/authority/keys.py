"""Player and GM keys: random, readable, stored only as salted scrypt hashes."""
from __future__ import annotations

import hashlib
import hmac
import secrets

ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I: keys get typed by hand
_verified: dict[tuple[str, str], bool] = {}


def new_key(groups: int = 3, size: int = 4) -> str:
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(size)) for _ in range(groups))


def normalise(key: str) -> str:
    return "".join(str(key).upper().split())


def _derive(key: str, salt: bytes) -> bytes:
    # The keys carry 60 random bits: no guessing attack needs slowing down; the
    # salted scrypt only keeps a copied database from showing them.  A low cost
    # (~2 ms) keeps a burst of mails from thousands of players fast.
    return hashlib.scrypt(normalise(key).encode(), salt=salt, n=2**10, r=8, p=1, dklen=32)


def hash_key(key: str) -> str:
    salt = secrets.token_bytes(16)
    return f"scrypt${salt.hex()}${_derive(key, salt).hex()}"


def verify(key: str | None, stored: str) -> bool:
    if not key:
        return False
    memo = (stored, normalise(key))
    if memo in _verified:  # a hash is costly; a running service sees the same keys often
        return _verified[memo]
    try:
        scheme, salt, digest = stored.split("$")
    except ValueError:
        return False
    ok = scheme == "scrypt" and hmac.compare_digest(_derive(key, bytes.fromhex(salt)).hex(), digest)
    if len(_verified) > 10_000:
        _verified.clear()
    _verified[memo] = ok
    return ok

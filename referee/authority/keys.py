"""Player and GM keys: random, readable, stored only as salted keyed hashes.

A key carries 60 random bits, so no guessing attack needs slowing down: a
salted HMAC-SHA256 (``hmac$salt$digest``, ~1 µs) keeps a copied database from
showing the keys as well as a slow hash would, and lets a burst of first mails
from thousands of players pass without a 2 ms scrypt each.  Hashes written by
older versions (``scrypt$salt$digest``) are still accepted, and ``check`` says
when one should be written anew in the current scheme (the intake does so on
the first right key it sees).
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I: keys get typed by hand
MAX_KEY = 200    # far longer than any key this module makes (14); more is no key (and is not remembered)
CURRENT = "hmac"
_verified: dict[tuple[str, str], bool] = {}


def new_key(groups: int = 3, size: int = 4) -> str:
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(size)) for _ in range(groups))


def normalise(key: str) -> str:
    return "".join(str(key).upper().split())


def _keyed(key: str, salt: bytes) -> bytes:
    return hmac.digest(salt, normalise(key).encode(), "sha256")


def _scrypt(key: str, salt: bytes) -> bytes:
    # the scheme of stores written before the keyed hash; read, never written
    return hashlib.scrypt(normalise(key).encode(), salt=salt, n=2**10, r=8, p=1, dklen=32)


_SCHEMES = {"hmac": _keyed, "scrypt": _scrypt}


def hash_key(key: str) -> str:
    salt = secrets.token_bytes(16)
    return f"{CURRENT}${salt.hex()}${_keyed(key, salt).hex()}"


def verify(key: str | None, stored: str) -> bool:
    if not key or not isinstance(stored, str) or len(str(key)) > MAX_KEY:
        return False   # an over-long "key" is nobody's: refused before any hashing or remembering
    memo = (stored, normalise(key))
    if memo in _verified:  # a running service sees the same keys often (scrypt: 2 ms each)
        return _verified[memo]
    try:
        scheme, salt, digest = stored.split("$")
        derive = _SCHEMES[scheme]
        ok = hmac.compare_digest(derive(key, bytes.fromhex(salt)).hex(), digest)
    except (ValueError, KeyError):
        return False
    if len(_verified) > 10_000:
        _verified.clear()
    _verified[memo] = ok
    return ok


def check(key: str | None, stored: str) -> tuple[bool, str | None]:
    """(whether ``key`` fits ``stored``, the hash to store instead when it fits
    but was written in an older scheme; else None)."""
    if not verify(key, stored):
        return False, None
    return True, (None if stored.startswith(CURRENT + "$") else hash_key(str(key)))

"""Keys are stored as salted keyed hashes; hashes of older stores (scrypt) still verify."""
import hashlib

from referee_kit import clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.authority import keys


def test_a_new_hash_is_a_salted_hmac_that_verifies_the_key_only():
    key = keys.new_key()
    stored = keys.hash_key(key)
    assert stored.startswith("hmac$") and key not in stored
    assert keys.verify(key, stored)
    assert keys.verify(key.lower().replace("-", " - "), stored)  # typed by hand: case and spaces
    assert not keys.verify(keys.new_key(), stored)
    assert keys.hash_key(key) != stored  # a salt of its own each time


def test_an_old_stores_scrypt_hash_still_verifies():
    salt = bytes(range(16))
    digest = hashlib.scrypt(b"ABCD-EFGH-JKLM", salt=salt, n=2**10, r=8, p=1, dklen=32)
    stored = f"scrypt${salt.hex()}${digest.hex()}"
    assert keys.verify("abcd-efgh-jklm", stored)
    assert not keys.verify("ABCD-EFGH-JKLN", stored)


def test_a_hash_of_an_unknown_scheme_or_shape_verifies_nothing():
    key = keys.new_key()
    _, salt, digest = keys.hash_key(key).split("$")
    assert not keys.verify(key, f"md5${salt}${digest}")
    assert not keys.verify(key, "hmac$zz$zz")
    assert not keys.verify(key, "garbage")
    assert not keys.verify("", keys.hash_key(key))

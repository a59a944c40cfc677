"""Key hashes: the old scheme (scrypt) still lets its key in and is written anew as
the keyed hash on the first right key; a wrong key fails in both schemes; hostile
keys (10 kB, NUL) and a match that is not there are refused without harm."""
from __future__ import annotations

import hashlib

from seckit import SPEC, clock, keys_of, outbox, ref, text_of, to, toy_registered  # noqa: F401 (fixtures)

from referee.authority import keys
from referee.mail.inbound import parse_inbound
from referee.store import seats as seat_rows


def scrypt_hash(key: str, salt: bytes = bytes(range(16))) -> str:
    """A hash as stores written before the keyed hash hold them."""
    digest = hashlib.scrypt(keys.normalise(key).encode(), salt=salt, n=2**10, r=8, p=1, dklen=32)
    return f"scrypt${salt.hex()}${digest.hex()}"


def order(key: str, player: str = "ann", match: str = "toy1", bid: int = 2) -> str:
    return f"match: {match}\nplayer: {player}\nkey: {key}\nturn: 1\norders:\n  bid: {bid}\n"


def mail(sender: str, body: str, n: int):
    from email.message import EmailMessage
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "referee@example.org", "orders"
    msg["Message-ID"] = f"<keys-{n}@players.example>"
    msg.set_content(body)
    return parse_inbound(msg.as_bytes(), own_addresses=["referee@example.org"])


def started(ref, outbox) -> dict[str, str]:
    created = ref.create_match(SPEC)
    found = keys_of(outbox.flush())
    found["@gm"] = created.gm_key
    return found


def stored_hash(ref, player: str) -> str:
    return ref.store.player("toy1", player)["key_hash"]


def test_an_old_scrypt_hash_lets_its_key_in_and_is_written_anew_as_the_keyed_hash(ref, outbox):
    given = started(ref, outbox)
    with ref.store.transaction():
        seat_rows.set_key_hash(ref.store, "toy1", "ann", scrypt_hash(given["ann"]))
    assert stored_hash(ref, "ann").startswith("scrypt$")
    first = ref.handle(mail("ann@example.org", order(given["ann"]), 1))
    assert first.reason == "accepted"
    upgraded = stored_hash(ref, "ann")
    assert upgraded.startswith("hmac$") and keys.verify(given["ann"], upgraded)
    assert given["ann"] not in upgraded
    again = ref.handle(mail("ann@example.org", order(given["ann"], bid=3), 2))
    assert again.reason == "accepted" and stored_hash(ref, "ann") == upgraded   # written once, not at every mail
    assert ref.store.submissions("toy1", 1)["ann"]["orders"] == {"bid": 3}


def test_an_old_scrypt_gm_hash_lets_the_gm_in_and_is_written_anew(ref, outbox):
    given = started(ref, outbox)
    with ref.store.transaction():
        seat_rows.set_gm_key_hash(ref.store, "toy1", scrypt_hash(given["@gm"]))
    body = f"match: toy1\nplayer: \"@gm\"\nkey: {given['@gm']}\ncommand: status\n"
    handled = ref.handle(mail("gm@example.org", body, 3))
    assert handled.outcome == "processed"
    fresh = ref.store.match("toy1")["gm_key_hash"]
    assert fresh.startswith("hmac$") and keys.verify(given["@gm"], fresh)


def test_a_wrong_key_fails_in_both_schemes_and_changes_no_hash(ref, outbox):
    given = started(ref, outbox)
    wrong = "AAAA-BBBB-CCCC"
    assert not keys.verify(wrong, scrypt_hash(given["ann"])) and not keys.verify(wrong, keys.hash_key(given["ann"]))
    assert keys.check(wrong, scrypt_hash(given["ann"])) == (False, None)
    assert keys.check(given["ann"], keys.hash_key(given["ann"])) == (True, None)   # current scheme: nothing to write
    with ref.store.transaction():
        seat_rows.set_key_hash(ref.store, "toy1", "bob", scrypt_hash(given["bob"]))
    old_bob, old_ann = stored_hash(ref, "bob"), stored_hash(ref, "ann")
    for n, (who, hashed) in enumerate((("bob", old_bob), ("ann", old_ann))):
        h = ref.handle(mail(f"{who}@example.org", order(wrong, player=who), 10 + n))
        assert h.outcome == "refused" and h.reason == "key.wrong"
        assert stored_hash(ref, who) == hashed
    assert ref.store.submissions("toy1", 1) == {}


def test_hostile_keys_are_refused_without_being_hashed_or_remembered(ref, outbox):
    given = started(ref, outbox)
    stored = stored_hash(ref, "ann")
    huge = "A" * 10_000
    remembered = dict(keys._verified)
    assert not keys.verify(huge, stored) and not keys.verify(huge, scrypt_hash(given["ann"]))
    assert keys._verified == remembered   # a flood of long keys cannot fill the memo
    with_nul = given["ann"][:4] + "\x00" + given["ann"][4:]
    assert not keys.verify(with_nul, stored)
    for n, key in enumerate((huge, with_nul, given["ann"] + "\x00")):
        h = ref.handle(mail("ann@example.org", order(f'"{key}"'.replace("\x00", "\\0")), 20 + n))
        assert h.outcome == "refused" and h.reason == "key.wrong", (n, h)
    sent = outbox.flush()
    assert all(huge not in text_of(m) for m in sent)
    assert ref.store.submissions("toy1", 1) == {} and stored_hash(ref, "ann") == stored


def test_a_match_that_is_not_there_is_refused_and_nothing_stored(ref, outbox):
    given = started(ref, outbox)
    before = stored_hash(ref, "ann")
    h = ref.handle(mail("ann@example.org", order(given["ann"], match="nowhere"), 30))
    assert h.outcome == "refused" and h.reason == "match.unknown"
    assert ref.store.match("nowhere") is None and stored_hash(ref, "ann") == before
    [reply] = to(outbox.flush(), "ann@example.org")
    assert "nowhere" in text_of(reply) and given["ann"] not in text_of(reply)

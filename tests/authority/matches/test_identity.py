"""Issue 18, a seat's key and address by mail: ``new-key`` mails a fresh key to the
registered address only and the old key stops working; ``address`` sends a code
to the new address and the change takes effect when the code comes back from
there; codes expire, wrong ones are refused and capped; bad input changes nothing."""
from __future__ import annotations

import re
from datetime import timedelta

from seats_fixtures import seats_table, toy  # noqa: F401  (fixtures)

from referee.authority.matches.identity import CODES_PER_DAY, MAX_TRIES
from referee.store import seats as seat_rows

CODE = re.compile(r"code: (\S+)")


def test_new_key_goes_to_the_registered_address_only_and_the_old_key_dies(seats_table):
    t = seats_table()
    old = t.keys["ann"]
    assert t.command("ann", "new-key", sender="ann@elsewhere.example").reason == "new-key"
    sent = t.mails()
    [keymail] = [m for m in sent["ann@example.org"] if "Your new key" in m]
    assert "ann@elsewhere.example" in sent and not any("Your new key:" in m for m in sent["ann@elsewhere.example"])
    new = re.search(r"Your new key: (\S+)", keymail).group(1)
    assert new != old and old not in keymail
    assert t.bid("ann", 1, key=old).reason == "key.wrong"
    t.mails()
    assert t.bid("ann", 1, key=new).reason == "accepted"


def test_new_key_in_german(seats_table):
    t = seats_table()
    t.command("bob", "new-key")
    [keymail] = [m for m in t.mails()["bob@example.org"] if "Dein neuer Schlüssel:" in m]
    assert "Der alte gilt nicht mehr" in keymail


def ask(t, player: str, new: str, **kw):
    return t.command(player, "address", email=new, **kw)


def confirm(t, player: str, sender: str, code: str):
    return t.send(sender, f"match: toy1\nplayer: {player}\ncommand: address\ncode: {code}\n")


def test_an_address_changes_when_the_code_comes_back_from_the_new_address(seats_table):
    t = seats_table()
    assert ask(t, "ann", "ann@new.example").reason == "address"
    sent = t.mails()
    [codemail] = sent["ann@new.example"]
    code = CODE.search(codemail).group(1)
    assert code not in "".join(sent["ann@example.org"])
    assert t.ref.store.player("toy1", "ann")["email"] == "ann@example.org"   # nothing yet
    # the code from the old address does not count: it must come back from the new one
    assert confirm(t, "ann", "ann@example.org", code).reason == "address.no_request"
    assert confirm(t, "ann", "ann@new.example", code).reason == "address-confirmed"
    sent = t.mails()
    assert any("plays from a new address" in m for m in sent["ann@example.org"])
    assert any('"ann" plays from ann@new.example now' in m for m in sent["ann@new.example"])
    assert t.ref.store.player("toy1", "ann")["email"] == "ann@new.example"
    assert t.bid("ann", 2, sender="ann@new.example").reason == "accepted"   # the key is the same
    assert confirm(t, "ann", "ann@new.example", code).reason == "address.no_request"   # used once


def test_codes_expire(seats_table):
    t = seats_table()
    ask(t, "bob", "bob@neu.example")
    code = CODE.search(t.mails()["bob@neu.example"][0]).group(1)
    t.now += timedelta(hours=49)
    assert confirm(t, "bob", "bob@neu.example", code).reason == "address.expired"
    assert "abgelaufen" in t.mails()["bob@neu.example"][0]
    assert t.ref.store.player("toy1", "bob")["email"] == "bob@example.org"


def test_a_code_cannot_be_guessed(seats_table):
    t = seats_table()
    ask(t, "ann", "ann@new.example")
    code = CODE.search(t.mails()["ann@new.example"][0]).group(1)
    reasons = [confirm(t, "ann", "ann@new.example", f"ZZZZ-ZZZ{i}").reason for i in range(2, 2 + MAX_TRIES)]
    assert reasons == ["address.wrong_code"] * (MAX_TRIES - 1) + ["address.void"]
    # voided: the right code is no use now, and a flood from there is a stranger's
    assert confirm(t, "ann", "ann@new.example", code).reason == "address.no_request"
    assert not seat_rows.pending_address(t.ref.store, "toy1", "ann")["code_hash"], "no code holds (the count stays)"
    assert t.ref.store.player("toy1", "ann")["email"] == "ann@example.org"


def test_bad_and_hostile_addresses_are_refused_and_change_nothing(seats_table):
    t = seats_table()
    cases = {"referee@example.org": "address.ours", "REFEREE@Example.org": "address.ours",
             "bob@example.org": "address.taken", "gm@example.org": "address.taken",
             "ann@example.org": "address.same", "not an address": "address.bad",
             r'"a@b.c\nBcc: x@evil.example"': "address.bad", "x" * 300 + "@example.org": "address.bad", "'[1, 2]'": "address.bad"}
    for new, reason in cases.items():
        assert ask(t, "ann", new).reason == reason, new
    assert t.command("ann", "address").reason == "address.needs"
    sent = t.mails()
    assert set(sent) == {"ann@example.org"}, "no code went anywhere"
    assert "referee's own address" in "".join(sent["ann@example.org"])
    assert seat_rows.pending_address(t.ref.store, "toy1", "ann") is None


def test_codes_per_day_are_capped(seats_table):
    t = seats_table()
    for i in range(CODES_PER_DAY):
        assert ask(t, "ann", f"ann{i}@new.example").reason == "address"
    assert ask(t, "ann", "victim@new.example").reason == "address.too_many"
    assert "victim@new.example" not in t.mails()
    t.now += timedelta(days=1, minutes=1)
    assert ask(t, "ann", "ann@new.example").reason == "address"


def test_an_address_change_needs_the_key_and_a_stranger_learns_nothing(seats_table):
    t = seats_table()
    assert t.command("ann", "address", sender="eve@evil.example", key="WRNG-KEYS-2222",
                     email="eve@evil.example").reason == "key.wrong"
    assert confirm(t, "ann", "eve@evil.example", "ABCD-EFGH").reason == "address.no_request"
    sent = t.mails()
    assert "eve@evil.example" not in sent or all("toy1" not in m for m in sent["eve@evil.example"])


def lost_key(t, player: str, sender: str | None = None):
    return t.send(sender or f"{player}@example.org", f"match: toy1\nplayer: {player}\ncommand: new-key\n")


def test_a_lost_key_is_replaced_by_mail_from_the_registered_address(seats_table):
    # issue 33: "command: new-key" without a key was refused as "The key does not fit"
    t = seats_table()
    old = t.keys["ann"]
    assert lost_key(t, "ann").reason == "new-key"
    [keymail] = [m for m in t.mails()["ann@example.org"] if "Your new key" in m]
    new = re.search(r"Your new key: (\S+)", keymail).group(1)
    assert new != old
    assert t.bid("ann", 1, key=new).reason == "accepted"


def test_a_lost_key_asked_from_another_address_goes_nowhere(seats_table):
    t = seats_table()
    handled = lost_key(t, "ann", sender="bob@example.org")   # a member of the match, not ann's address
    assert handled.outcome == "refused"
    sent = t.mails()
    assert not any("Your new key" in m for ms in sent.values() for m in ms)
    assert any("command: new-key" in m and "without 'key:'" in m for m in sent["bob@example.org"])
    assert t.bid("ann", 1).reason == "accepted"   # ann's key still works
    assert lost_key(t, "ann", sender="mallory@evil.example").outcome != "processed"   # a stranger: nothing
    assert not any("Your new key" in m for ms in t.mails().values() for m in ms)


def test_lost_keys_are_capped_per_seat_and_day(seats_table):
    from referee.authority.matches.identity import LOST_KEYS_PER_DAY
    t = seats_table()
    for _ in range(LOST_KEYS_PER_DAY):
        assert lost_key(t, "bob").reason == "new-key"
    keys_sent = [m for m in t.mails()["bob@example.org"] if "Dein neuer Schlüssel:" in m]
    assert len(keys_sent) == LOST_KEYS_PER_DAY
    last = re.search(r"Dein neuer Schlüssel: (\S+)", keys_sent[-1]).group(1)
    assert lost_key(t, "bob").outcome == "refused"
    [refusal] = t.mails()["bob@example.org"]
    assert f"höchstens {LOST_KEYS_PER_DAY}-mal am Tag" in refusal
    assert t.bid("bob", 1, key=last).reason == "accepted"   # the refusal turned no key

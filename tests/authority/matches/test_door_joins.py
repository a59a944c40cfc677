"""Issue 32, item 2: forged joins.  A join holds nothing until the code mailed to
the joiner's address comes back from there; the codes come out of the strangers'
hourly budget; ``sender_auth: require`` holds for joins; refusals to someone who
holds no seat follow the strangers' policy; the GM frees a seat before the start
with ``remove``.  Mails in through ``Referee.handle`` and (one test) a Maildir
read by ``referee poll --once``; out into a Maildir."""
from __future__ import annotations

import mailbox
from email import message_from_bytes, policy

from joinkit import CODE, KEY, Lobby
from seckit import clock, hostile, toy_registered  # noqa: F401  (fixtures)

from referee.app.cli import main
from referee.authority.matches.identity import CODES_PER_DAY, MAX_TRIES
from referee.store import seats as seat_rows
from referee.store.senders import SenderRecords


def test_item2_forged_joins_by_poll_hold_no_seat_and_start_nothing(tmp_path, monkeypatch, capsys):
    """The probe as the issue ran it: ``referee init``, ``referee new``, four forged
    joins dropped into mail/in/new, ``poll --once``: the match stays open and empty,
    each victim gets one code and nothing else (no key, no welcome), the GM nothing."""
    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 0
    (tmp_path / "match.yaml").write_text(
        "id: ff\ngame: founding_fathers\nlang: en\ngm: gm@example.org\ntimezone: Europe/Berlin\n"
        "schedule: {period: 48h}\nplayers: []\nseats: 4\n")
    assert main(["new", "match.yaml"]) == 0
    box = mailbox.Maildir(str(tmp_path / "mail" / "out"), create=False)
    before = set(box.keys())
    inbox = mailbox.Maildir(str(tmp_path / "mail" / "in"), create=False)
    victims = [f"victim{i}@third.example" for i in range(4)]
    for i, victim in enumerate(victims):
        inbox.add(hostile(victim, f"match: ff\nplayer: any\ncommand: join\nname: Victim {i}\n",
                          message_id=f"<forged{i}@evil.test>"))
    assert main(["poll", "--once"]) == 0
    capsys.readouterr()
    sent = [message_from_bytes(box.get_bytes(k), policy=policy.default) for k in set(box.keys()) - before]
    assert sorted(str(m["To"]) for m in sent) == victims, "one mail each, to the victims only (no GM mail)"
    for m in sent:
        text = m.get_body(("plain",)).get_content()
        assert CODE.search(text) and not KEY.search(text) and "Nothing is held yet" in text
    assert main(["gm", "ff", "status"]) == 0
    assert "0 of 4 seats taken" in capsys.readouterr().out


def test_item2_a_join_flood_mails_nobody_beyond_the_strangers_budget(tmp_path, clock):
    t = Lobby(tmp_path, clock, seats=4, wait_list=20)
    reasons = [t.join(f"p{i}@flood.example", f"P{i}").reason for i in range(100)]
    assert reasons[:20] == ["join.code"] * 20 and set(reasons[20:]) == {"join.budget"}
    sent = t.mails()
    assert len(sent) == 20 and all(len(v) == 1 for v in sent.values()) and "gm@example.org" not in sent
    assert t.ref.store.players("toy1") == [] and seat_rows.waiting(t.ref.store, "toy1") == []
    assert t.ref.store.match("toy1")["status"] == "open"
    assert SenderRecords(t.ref.store).stranger_counts() == {"answered": 20, "ignored": 80}   # referee status


def test_item2_require_holds_for_joins(tmp_path, clock):
    t = Lobby(tmp_path, clock, seats=2, sender_auth="require")
    reasons = {t.join(f"p{i}@flood.example", f"P{i}").reason for i in range(100)}
    assert reasons == {"sender.unproven"} and t.mails() == {}
    # a proven From joins; its code, too, must come back proven
    assert t.join("dan@example.org", "Dan", signed=True).reason == "join.code"
    code = CODE.search(t.mails()["dan@example.org"][0]).group(1)
    assert t.confirm("dan@example.org", code).reason == "sender.unproven"
    assert t.confirm("dan@example.org", code, signed=True).reason == "join"
    assert t.ref.store.player("toy1", "seat1")["email"] == "dan@example.org"


def test_item2_the_code_comes_back_only_from_its_address_within_its_tries_and_a_cap(tmp_path, clock):
    t = Lobby(tmp_path, clock, strangers="all")
    assert t.join("dan@example.org", "Dan", lang="de").reason == "join.code"
    [asked] = t.mails()["dan@example.org"]
    assert "Bestätige deine Adresse" in asked and "Noch ist nichts reserviert" in asked
    code = CODE.search(asked).group(1)
    assert t.confirm("eve@evil.example", code).reason == "join.no_request"   # another address: nothing
    wrong = [t.confirm("dan@example.org", bad).reason for bad in ("ZZZZ-ZZZ2", "[1, 2]", "x" * 5000, "''")][:MAX_TRIES - 1]
    assert wrong == ["join.wrong_code"] * (MAX_TRIES - 1)
    assert all("Der Code passt nicht" in m for m in t.mails()["dan@example.org"])   # in the language asked for
    assert t.confirm("dan@example.org", "ZZZZ-ZZZ3").reason == "join.void_code"
    assert t.confirm("dan@example.org", code).reason == "join.no_request"   # void: the right code is no use now
    assert t.ref.store.players("toy1") == []
    # the day's codes: the voided request counted, and so do new ones
    assert [t.join("dan@example.org", "Dan").reason for _ in range(CODES_PER_DAY)] == \
        ["join.code"] * (CODES_PER_DAY - 1) + ["join.too_many"]
    t.mails()
    clock.advance(hours=49)
    assert t.confirm("dan@example.org", "ANYX-CODE").reason == "join.expired_code"
    clock.advance(days=1)
    assert t.join("dan@example.org", "Dan").reason == "join.code"


def test_item2_a_forged_joiner_is_no_member_and_unproven_strangers_hear_nothing(tmp_path, clock):
    t = Lobby(tmp_path, clock)
    assert t.join("victim@example.org", "Victim").reason == "join.code"
    t.mails()
    junk = "match: toy1\nplayer: seat1\nkey: AAAA-BBBB-CCCC\ncommand: status\n"
    assert t.send("victim@example.org", junk).outcome == "ignored"
    assert t.join("victim@example.org", "Victim", seat="nowhere").outcome == "ignored"
    t.ref.gm_command("toy1", "close-joining", {})
    assert t.join("stranger@example.org", "S").reason == "join.closed"
    assert t.mails() == {}, "no answer, and nothing naming the match, reaches an unproven stranger"
    # a proven From is answered, in the language it asked for
    assert t.join("dan@example.org", "Dan", signed=True, lang="de").reason == "join.closed"
    [refusal] = t.mails()["dan@example.org"]
    assert "der Beitritt ist geschlossen" in refusal


def test_item2_the_gm_removes_a_seat_before_the_start(tmp_path, clock):
    t = Lobby(tmp_path, clock, seats=3, strangers="all", language="de")
    t.seated("dan@example.org", "Dan")
    eve_key = t.seated("eve@example.org", "Eve", lang="en")
    assert t.gm("remove").reason == "gm.needs"
    for hostile_seat in ("seat9", "[1, 2]", "{a: b}", "x" * 5000, "'@gm'", "''"):
        assert t.gm("remove", seat=hostile_seat).reason == "gm.no_seat", hostile_seat
    assert len(t.ref.store.players("toy1")) == 2
    assert t.gm("remove", seat="seat2").reason == "remove"
    sent = t.mails()
    assert any("Der Platz ist wieder frei" in m for m in sent["gm@example.org"])
    [told] = sent["eve@example.org"]
    assert "The game master has freed your seat" in told and t.ref.store.player("toy1", "seat2") is None
    status = f"match: toy1\nplayer: seat2\nkey: {eve_key}\ncommand: status\n"
    assert t.send("eve@example.org", status).reason == "player.unknown"   # the key holds nothing now
    # the command line does the same; a German player hears it in German
    assert t.ref.gm_command("toy1", "remove", {"seat": "seat1"}) == "seat1 free again (Dan removed)"
    assert any("Die Spielleitung hat deinen Platz" in m for m in t.mails()["dan@example.org"])
    assert t.ref.store.players("toy1") == [] and t.ref.store.match("toy1")["status"] == "open"
    # once the match has started, seats change by replace
    for who in ("fay", "gil", "hal"):
        t.seated(f"{who}@example.org", who.title())
    assert t.ref.store.match("toy1")["status"] == "running"
    assert t.gm("remove", seat="seat1").reason == "command.failed"
    assert "nach dem Start" in t.mails()["gm@example.org"][-1]

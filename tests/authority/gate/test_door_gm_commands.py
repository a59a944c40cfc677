"""Findings 2, 3, 6 and 11: what a GM (or the holder of a creation key) sends is
checked where it enters, and a match created by mail has a GM key of its own."""
from __future__ import annotations

from datetime import datetime

import pytest
import yaml
from seckit import CREATOR, SPEC, clock, hostile, keys_of, mail, outbox, ref, text_of, to, toy_registered  # noqa: F401

from referee.authority.matches.match_file import MatchError


def gm_cmd(key: str, command: str, match: str = "toy1", **args) -> str:
    extra = "".join(f"{k}: {v}\n" for k, v in args.items())
    return f"match: {match}\nplayer: \"@gm\"\nkey: {key}\ncommand: {command}\n{extra}"


@pytest.fixture
def gm_key(ref, outbox):
    created = ref.create_match(SPEC)
    outbox.flush()
    return created.gm_key


def send_gm(ref, body: str, n: int = 1):
    return ref.handle(mail(hostile("gm@example.org", body, message_id=f"<gm{n}-{hash(body)}@example.org>")))


def test_finding2_a_mailed_create_gives_the_match_a_gm_key_of_its_own(ref, outbox):
    spec = dict(SPEC, id="toy2", gm="mallory@example.net")
    body = f"match: toy2\nplayer: \"@gm\"\nkey: {CREATOR[1]}\ncommand: create\nspec:\n" + \
        "".join("  " + line + "\n" for line in yaml.safe_dump(spec).splitlines())
    assert ref.handle(mail(hostile(CREATOR[0], body))).reason == "create"
    sent = outbox.flush()
    [welcome] = [m for m in to(sent, "mallory@example.net") if "GM key" in text_of(m)]
    own = keys_of([welcome])["mallory"]
    assert own != CREATOR[1]
    # the creation key is no key of the new match; its own key is
    steal = gm_cmd(CREATOR[1], "replace", match="toy2", seat="ann", email="mallory@example.net")
    assert ref.handle(mail(hostile("mallory@example.net", steal, message_id="<s1@evil.test>"))).reason == "gm.denied"
    assert ref.store.player("toy2", "ann")["email"] == "ann@example.org"
    ok = gm_cmd(own, "status", match="toy2")
    assert ref.handle(mail(hostile("mallory@example.net", ok, message_id="<s2@evil.test>"))).reason == "status"


@pytest.mark.sqlite_file
@pytest.mark.parametrize("lang", ["\"en./../../../../tmp/x\"", "\"en\\0\"", "\"en.\\0\"", "fr"])
def test_finding3_observer_language_is_checked_before_it_names_a_file(ref, outbox, gm_key, tmp_path, lang):
    h = send_gm(ref, gm_cmd(gm_key, "observer", email="fan@example.org", lang=lang))
    assert h.outcome == "refused" and ref.store.observers("toy1") == []
    [reply] = to(outbox.flush(), "gm@example.org")
    assert "not a language the referee writes; known: de, en" in text_of(reply)
    ref.force("toy1")   # the close and every later tick still work
    assert ref.store.current_turn("toy1")["number"] == 2 and ref.store.take_unarchived() == []
    assert not (tmp_path / "tmp").exists() and sorted(p.name for p in tmp_path.iterdir()) == \
        ["out", "referee.sqlite", "referee.sqlite-shm", "referee.sqlite-wal", "turns"]


def test_finding3_observer_with_a_known_language_still_gets_the_public_report(ref, outbox, gm_key):
    assert send_gm(ref, gm_cmd(gm_key, "observer", email="fan@example.org", lang="de")).reason == "observer"
    ref.force("toy1")
    assert to(outbox.flush(), "fan@example.org")


@pytest.mark.parametrize("args", [{"until": "\"9999-12-31 23:59\""}, {"by": "100000000000h"},
                                  {"by": 100000000000}, {"until": "\"2027-04-01 12:00\""}, {"by": "400d"}])
def test_finding6_extend_beyond_a_year_is_refused_at_the_door(ref, outbox, gm_key, clock, args):
    before = ref.store.current_turn("toy1")["deadline"]
    h = send_gm(ref, gm_cmd(gm_key, "extend", **args))
    assert h.outcome == "refused" and h.reason == "command.failed"
    assert "at most 366 days ahead" in text_of(to(outbox.flush(), "gm@example.org")[-1])
    assert ref.store.current_turn("toy1")["deadline"] == before
    assert ref.next_due() is not None
    clock.advance(hours=49)
    assert ref.tick().closed == [("toy1", 1)]


def test_finding6_extend_refusal_reads_in_german_too(ref, outbox):
    created = ref.create_match(dict(SPEC, language="de"))
    outbox.flush()
    send_gm(ref, gm_cmd(created.gm_key, "extend", until="\"9999-12-31 23:59\""))
    assert "höchstens 366 Tage in die Zukunft" in text_of(to(outbox.flush(), "gm@example.org")[-1])


def test_finding6_extend_within_a_year_still_works(ref, outbox, gm_key):
    assert send_gm(ref, gm_cmd(gm_key, "extend", by="240h")).reason == "extend"
    assert datetime.fromisoformat(ref.store.current_turn("toy1")["deadline"]).day == 14


@pytest.mark.parametrize("email", ["\"x@y.test\\r\\nBcc: all@evil.test\"", "\"jörg@example.de\"", "nobody"])
def test_finding1_gm_replace_and_observer_addresses_are_checked(ref, outbox, gm_key, email):
    assert send_gm(ref, gm_cmd(gm_key, "replace", seat="ann", email=email), 1).reason == "command.failed"
    assert send_gm(ref, gm_cmd(gm_key, "observer", email=email), 2).reason == "command.failed"
    assert ref.store.player("toy1", "ann")["email"] == "ann@example.org" and ref.store.observers("toy1") == []
    assert all("plain mail address" in text_of(m) for m in to(outbox.flush(), "gm@example.org"))


def test_finding11_a_seat_called_gm_is_refused(ref):
    spec = dict(SPEC, players=[dict(SPEC["players"][0], id="gm")] + SPEC["players"][1:])
    with pytest.raises(MatchError) as e:
        ref.create_match(spec)
    assert "reserved for the game master" in str(e.value)


@pytest.mark.parametrize("turn, reason", [(10**17, "resend.none"), (10**20, "yaml.syntax"), ("'1e999'", "envelope.wrong_type")])
def test_finding11_resend_of_a_turn_beyond_any_match_is_refused_politely(ref, outbox, turn, reason):
    ref.create_match(SPEC)
    keys = keys_of(outbox.flush())
    body = f"match: toy1\nplayer: ann\nkey: {keys['ann']}\ncommand: resend\nturn: {turn}\n"
    h = ref.handle(mail(hostile("ann@example.org", body)))
    assert h.outcome == "refused" and h.reason == reason
    assert "internal fault" not in text_of(to(outbox.flush(), "ann@example.org")[-1])


def test_finding11_a_sixty_thousand_digit_number_is_a_located_problem(ref, outbox):
    ref.create_match(SPEC)
    keys = keys_of(outbox.flush())
    body = f"match: toy1\nplayer: ann\nkey: {keys['ann']}\nturn: 1\norders:\n  bid: {'9' * 60000}\n"
    h = ref.handle(mail(hostile("ann@example.org", body)))
    assert h.outcome == "refused" and h.reason != "internal.error"
    [reply] = to(outbox.flush(), "ann@example.org")
    assert "more than 18 digits" in text_of(reply) and len(text_of(reply)) < 2000


@pytest.mark.parametrize("schedule", [{"period": "48h", "first_deadline": "9999-12-31 23:59"},
                                      {"period": "100000000000h"}, {"period": "400d"},
                                      {"period": "48h", "grace": "9000d"}, {"period": "48h", "reminders": ["500d"]}])
def test_finding6_a_match_file_schedule_beyond_a_year_is_refused(ref, schedule):
    with pytest.raises(MatchError) as e:
        ref.create_match(dict(SPEC, schedule=schedule))
    assert "schedule" in str(e.value)
    assert ref.store.matches() == [] and ref.next_due() is None

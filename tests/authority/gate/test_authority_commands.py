"""Player commands and the GM's, by mail and by method."""
from __future__ import annotations

import re
from datetime import datetime, timedelta

from referee_kit import BOSS, SPEC, clock, game, inbound, outbox, ref, text_of, to, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.archive.record import replay


def cmd(player, key, command, match="toy1", **args):
    extra = "".join(f"{k}: {v}\n" for k, v in args.items())
    return f"match: {match}\nplayer: \"{player}\"\nkey: {key}\ncommand: {command}\n{extra}"


def bid(player, key, value, turn=1):
    return f"match: toy1\nplayer: {player}\nkey: {key}\nturn: {turn}\norders:\n  bid: {value}\n"


def deadline(ref) -> datetime:
    return datetime.fromisoformat(ref.store.current_turn("toy1")["deadline"])


def test_withdraw_and_status(ref, outbox, game):
    ref.handle(inbound("ann@example.org", bid("ann", game["ann"], 2)))
    assert ref.handle(inbound("ann@example.org", cmd("ann", game["ann"], "status"))).reason == "status"
    assert ref.handle(inbound("ann@example.org", cmd("ann", game["ann"], "withdraw"))).reason == "withdraw"
    outbox.flush()
    texts = {m["Subject"]: text_of(m) for m in to(outbox.all(), "ann@example.org")}
    assert "Your orders for turn 1:\n  bid: 2" in texts["Re: [toy1] status"]
    assert "Awaited: Bob, Cyd" in texts["Re: [toy1] status"]
    assert "Your orders are withdrawn." in texts["Re: [toy1] withdraw"]
    assert "Awaited: Ann, Bob, Cyd" in texts["Re: [toy1] withdraw"]
    assert ref.store.submissions("toy1", 1) == {}


def test_wait_holds_an_early_close_until_no_wait(ref, outbox, game):
    ref.handle(inbound("bob@example.org", cmd("bob", game["bob"], "wait")))
    for p in ("ann", "bob", "cyd"):
        ref.handle(inbound(f"{p}@example.org", bid(p, game[p], 1)))
    assert ref.tick().closed == []
    ref.handle(inbound("bob@example.org", cmd("bob", game["bob"], "no-wait")))
    assert ref.tick().closed == [("toy1", 1)]


def test_resend_a_past_report_to_the_registered_address(ref, outbox, game):
    ref.force("toy1")
    outbox.flush()
    assert ref.handle(inbound("cyd@elsewhere.example", cmd("cyd", game["cyd"], "resend", turn=1))).reason == "resend"
    sent = outbox.flush()
    [resent] = [m for m in to(sent, "cyd@example.org") if "Report, turn 1" in m["Subject"]]
    assert "Bids:" in text_of(resent)
    assert ref.handle(inbound("cyd@example.org", cmd("cyd", game["cyd"], "resend", turn=5))).reason == "resend.none"


def test_pause_resume_shifts_the_deadline_and_nothing_closes_while_paused(ref, outbox, game, clock):
    before = deadline(ref)
    assert ref.handle(inbound("gm@example.org", cmd("@gm", game["@gm"], "pause"))).reason == "pause"
    notices = outbox.flush()
    # the three players, the GM and the observer (issue 10: GM and observers get every notice)
    assert len([m for m in notices if "paused" in m["Subject"] or "angehalten" in m["Subject"]]) == 5
    clock.advance(hours=100)
    assert ref.tick().closed == []
    ref.handle(inbound("gm@example.org", cmd("@gm", game["@gm"], "resume")))
    assert deadline(ref) == before + timedelta(hours=100)


def test_extend_force_preview(ref, outbox, game):
    before = deadline(ref)
    ref.handle(inbound("gm@example.org", cmd("@gm", game["@gm"], "extend", by="24h")))
    assert deadline(ref) == before + timedelta(hours=24)
    ref.handle(inbound("ann@example.org", bid("ann", game["ann"], 3)))
    outbox.flush()
    assert ref.handle(inbound("gm@example.org", cmd("@gm", game["@gm"], "preview"))).reason == "preview"
    sent = outbox.flush()
    [preview] = [m for m in sent if "[preview]" in m["Subject"]]
    assert preview["To"] == "gm@example.org" and "Bids: Ann 3, Bob 1, Cyd 1" in text_of(preview)
    assert {m["To"] for m in sent} == {"gm@example.org"}
    assert ref.store.current_turn("toy1")["status"] == "open"
    ref.handle(inbound("gm@example.org", cmd("@gm", game["@gm"], "force")))
    assert ref.store.turn("toy1", 1)["status"] == "resolved"
    assert ref.store.turn("toy1", 1)["result"]["orders"]["ann"]["orders"] == {"bid": 3}


def test_rollback_reopens_the_turn_and_it_resolves_again_identically(ref, outbox, game, tmp_path):
    ref.handle(inbound("ann@example.org", bid("ann", game["ann"], 3)))
    ref.force("toy1")
    first = ref.store.turn("toy1", 1)["result"]["hash"]
    assert ref.handle(inbound("gm@example.org", cmd("@gm", game["@gm"], "rollback"))).reason == "rollback"
    assert ref.store.current_turn("toy1")["number"] == 1 and ref.store.match("toy1")["status"] == "paused"
    assert (tmp_path / "turns" / "toy1" / "t001" / "rolled-back-0" / "turn.json").exists()
    ref.resume("toy1")
    ref.force("toy1")
    again = ref.store.turn("toy1", 1)
    assert again["result"]["hash"] == first and again["rev"] == 1
    reports = [m for m in to(outbox.flush(), "ann@example.org") if "Report, turn 1" in m["Subject"]]
    assert len(reports) == 2  # the first close and the one after the rollback
    assert replay(tmp_path / "turns" / "toy1").ok


def test_replace_player_new_key_works_old_one_not(ref, outbox, game):
    msg = cmd("@gm", game["@gm"], "replace", seat="cyd", email="dee@example.org", name="Dee")
    assert ref.handle(inbound("gm@example.org", msg)).reason == "replace"
    [welcome] = [m for m in to(outbox.flush(), "dee@example.org")]
    new_key = re.search(r"Your key: (\S+)", text_of(welcome)).group(1)
    assert ref.handle(inbound("cyd@example.org", bid("cyd", game["cyd"], 1))).reason == "key.wrong"
    assert ref.handle(inbound("dee@example.org", bid("cyd", new_key, 1))).reason == "accepted"
    assert ref.store.player_history("toy1")[0]["old_email"] == "cyd@example.org"


def test_observer_end_and_gm_auth(ref, outbox, game):
    assert ref.handle(inbound("gm@example.org", cmd("@gm", "WRONG-KEY0-0000", "end"))).reason == "gm.denied"
    assert ref.handle(inbound("gm@example.org", cmd("@gm", game["@gm"], "observer", email="fan@example.org"))).reason == "observer"
    ref.force("toy1")
    subjects = sorted(m["Subject"] for m in to(outbox.flush(), "fan@example.org"))
    assert len(subjects) == 2 and "(public)" in subjects[0] and "You follow" in subjects[1]   # welcomed, then the report
    assert ref.handle(inbound("gm@example.org", cmd("@gm", game["@gm"], "end"))).reason == "end"
    assert ref.store.match("toy1")["status"] == "ended"
    assert ref.handle(inbound("ann@example.org", bid("ann", game["ann"], 1, turn=2))).reason == "match.ended"


def test_create_by_mail_with_the_gm_key(ref, outbox):
    import yaml
    spec = dict(SPEC, id="toy2")
    body = "match: toy2\nplayer: \"@gm\"\nkey: " + BOSS[1] + "\ncommand: create\nspec:\n" + \
        "".join("  " + line + "\n" for line in yaml.safe_dump(spec).splitlines())
    assert ref.handle(inbound("mallory@example.net", body)).reason == "gm.denied"
    assert ref.handle(inbound(BOSS[0], body)).reason == "create"
    sent = outbox.flush()
    assert len(to(sent, "ann@example.org")) == 1
    assert any("created toy2" in text_of(m) for m in to(sent, BOSS[0]))
    assert ref.store.match("toy2")["status"] == "running"


def test_manual_start_sets_the_first_deadline(ref, outbox):
    ref.create_match(dict(SPEC, id="toy3", start="manual"))
    assert ref.store.current_turn("toy3")["deadline"] is None
    assert ref.tick().closed == []
    ref.start("toy3")
    assert ref.store.current_turn("toy3")["deadline"] is not None


def test_extend_until_a_local_time_and_refuse_an_earlier_one(ref, outbox, game):
    ref.extend("toy1", until="2026-03-06 20:00")
    assert deadline(ref).isoformat() == "2026-03-06T19:00:00+00:00"   # Berlin, CET
    h = ref.handle(inbound("gm@example.org", cmd("@gm", game["@gm"], "extend", until="'2026-03-05 20:00'")))
    assert h.reason == "command.failed"
    # the GM also gets the notice of the first extension (every notice goes to the GM too)
    assert any("later than the current one" in text_of(m) for m in to(outbox.flush(), "gm@example.org"))


def test_start_by_mail(ref, outbox):
    created = ref.create_match(dict(SPEC, id="toy4", start="manual"))
    outbox.flush()
    h = ref.handle(inbound("gm@example.org", cmd("@gm", created.gm_key, "start", match="toy4")))
    assert h.reason == "start" and ref.store.match("toy4")["status"] == "running"
    assert "Deadline: Wednesday, 4 March 2026" in text_of(to(outbox.flush(), "gm@example.org")[0])

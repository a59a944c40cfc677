"""A whole toy match through the authority: welcome, orders, replies, closes, reports, archive."""
from __future__ import annotations

import re

from referee_kit import SPEC, clock, game, inbound, outbox, ref, text_of, toy_registered  # noqa: F401  (the authority's fixtures)

from referee.archive.record import replay


def key_from(msg) -> str:
    return re.search(r"Your key: (\S+)", text_of(msg)).group(1)


def orders(player, key, bid, turn=1, match="toy1"):
    return f"Hi referee,\n\nmatch: {match}\nplayer: {player}\nkey: {key}\nturn: {turn}\norders:\n  bid: {bid}\n\n-- \nsig\n"


def test_a_match_from_welcome_to_final_report(ref, outbox, clock, tmp_path):
    created = ref.create_match(SPEC)
    sent = outbox.flush()
    # the match file's observer is welcomed too
    assert {m["To"] for m in sent} == {"ann@example.org", "bob@example.org", "cyd@example.org", "gm@example.org",
                                       "watcher@example.org"}
    welcome = {m["To"].split("@")[0]: m for m in sent}
    keys = {p: key_from(welcome[p]) for p in ("ann", "cyd")}
    keys["bob"] = re.search(r"Dein Schlüssel: (\S+)", text_of(welcome["bob"])).group(1)
    assert created.gm_key in text_of(welcome["gm"])
    assert "bid: 0" in text_of(welcome["ann"]) and "turn: 1" in text_of(welcome["ann"])
    assert "Willkommen" in welcome["bob"]["Subject"]

    # ann: accepted, threaded, no key echoed, deadline in Berlin time and UTC, who is awaited
    mail = inbound("Ann <ann@example.org>", orders("ann", keys["ann"], 3))
    assert ref.handle(mail).reason == "accepted"
    [reply] = outbox.flush()
    body = text_of(reply)
    assert reply["In-Reply-To"] == mail.message_id and mail.message_id in reply["References"]
    assert reply["Auto-Submitted"] == "auto-replied"
    assert keys["ann"] not in body
    assert "bid: 3" in body and "CET" in body and "UTC" in body
    assert "Still awaited: Bob, Cyd" in body

    # bob: over budget is refused with line and column (in German), then a resubmission wins
    bad = inbound("bob@example.org", orders("bob", keys["bob"], 4).replace("bid: 4", "bid: 9"))
    assert ref.handle(bad).outcome == "refused"
    [refusal] = outbox.flush()
    assert "Zeile 8, Spalte 8" in text_of(refusal) and keys["bob"] not in text_of(refusal)
    assert ref.handle(inbound("bob@example.org", orders("bob", keys["bob"], 2))).reason == "accepted"
    assert ref.handle(inbound("bob@example.org", orders("bob", keys["bob"], 4))).reason == "accepted"
    outbox.flush()

    # the turn stays open while cyd is out; her deadline passes (+ grace) and she gets the default
    assert ref.tick().closed == []
    clock.advance(hours=48, minutes=31)
    assert ref.tick().closed == [("toy1", 1)]
    reports = outbox.flush()
    by = {m["To"]: m for m in reports}
    assert set(by) == {"ann@example.org", "bob@example.org", "cyd@example.org", "gm@example.org", "watcher@example.org"}
    ann_report = text_of(by["ann@example.org"])
    assert "Bids: Ann 3, Bob 4, Cyd 1" in ann_report
    assert "No orders from: cyd" in ann_report and "No orders in time" not in ann_report  # the game says it
    assert "Keine Befehle rechtzeitig von: Cyd" in text_of(by["bob@example.org"])  # the wrapper says it
    assert "turn: 2" in ann_report and "orders:\n  bid: 0" in ann_report
    assert by["ann@example.org"].get_body(("html",)) is not None
    assert "Gebote: Ann 3, Bob 4, Cyd 1" in text_of(by["bob@example.org"])
    public = text_of(by["watcher@example.org"])
    assert "(public)" in by["watcher@example.org"]["Subject"] and "Secret" not in public and "Coin" not in public
    assert "Coin:" in text_of(by["gm@example.org"])

    # turn 2: everyone in → early close, final report with winners
    for p, bid in (("ann", 1), ("bob", 0), ("cyd", 5)):
        assert ref.handle(inbound(f"{p}@example.org", orders(p, keys[p], bid, turn=2))).outcome == "processed"
    outbox.flush()
    assert ref.tick().closed == [("toy1", 2)]
    final = {m["To"]: m for m in outbox.flush()}
    assert "Final report" in final["ann@example.org"]["Subject"]
    assert "Winners:" in text_of(final["ann@example.org"])
    assert ref.store.match("toy1")["status"] == "ended"

    # the archive alone replays to the same hashes
    rep = replay(tmp_path / "turns" / "toy1")
    assert rep.ok and rep.turns == 2, rep.summary()
    t1 = tmp_path / "turns" / "toy1" / "t001"
    assert (t1 / "reports" / "ann.en.txt").read_text() == ann_report.replace("\r\n", "\n") or (t1 / "reports" / "ann.en.txt").exists()
    assert "source: default" in (t1 / "orders.yaml").read_text()
    assert len(list((t1 / "inbox").glob("*.eml"))) == 4

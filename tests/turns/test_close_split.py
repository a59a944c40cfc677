"""A close is worked out with nothing locked and stored in a short transaction
that checks, under the match's claim, that nothing it read has changed (issue 8):
orders that came in meanwhile are used, another worker's close of the same turn
makes this one give way, and the store never holds a report body."""
from __future__ import annotations

import json

import pytest
from referee_kit import inbound, make_referee, to

from referee.authority.wording import Refusal
from referee.runtime import crash
from referee_kit import clock, game, outbox, ref, toy_registered  # noqa: F401  (the authority's fixtures)


@pytest.fixture
def between(monkeypatch):
    """between(point, action): run ``action`` the first time the close passes the crash
    point ``point`` (``close.staged``: worked out and written beside the archive, nothing locked)."""
    real, actions = crash.point, {}

    def point(name: str) -> None:
        action = actions.pop(name, None)
        if action is not None:
            action()
        real(name)
    monkeypatch.setattr(crash, "point", point)
    return actions.__setitem__


def hidden_files(ref, number: int = 1) -> list[str]:
    folder = ref.archive.turn_dir("toy1", number) / "reports"
    return sorted(f.name for f in folder.iterdir() if f.name.startswith("."))


def report_rows(ref) -> list[str]:
    return sorted(r["dedupe"] for r in ref.store.outbox("toy1") if r["dedupe"].startswith("report:"))


def orders(player: str, key: str, bid: int) -> str:
    return f"match: toy1\nplayer: {player}\nkey: {key}\nturn: 1\norders:\n  bid: {bid}\n"


def test_orders_stored_between_working_out_and_commit_are_used(ref, outbox, game, between):
    ref.handle(inbound("ann@example.org", orders("ann", game["ann"], 2)))
    came = []
    between("close.staged", lambda: came.append(ref.handle(inbound("cyd@example.org", orders("cyd", game["cyd"], 4)))))
    assert ref.force("toy1") == "turn 1 closed"
    assert came and came[0].outcome == "processed"
    result = ref.store.turn("toy1", 1)["result"]
    assert result["orders"]["cyd"] == {"source": "player", "stage": "bid", "orders": {"bid": 4}}
    assert result["missing"] == ["bob"]
    report = (ref.archive.turn_dir("toy1", 1) / "reports" / "cyd.en.txt").read_text(encoding="utf-8")
    assert "Cyd 4" in report
    assert hidden_files(ref) == []          # the first working-out's files are gone
    assert len(report_rows(ref)) == 5       # 3 players, the observer, the GM: once each


def test_another_workers_close_between_working_out_and_commit_makes_this_one_give_way(ref, outbox, game, tmp_path, clock, between):
    other = make_referee(tmp_path, clock)   # a second connection to the same store and archive
    try:
        between("close.staged", lambda: other.closing.close_turn("toy1", 1))
        assert ref.closing.close_turn("toy1", 1) is None
        assert [(t["number"], t["status"], t["rev"]) for t in ref.store.turns("toy1")] == \
            [(1, "resolved", 0), (2, "open", 0)]
        assert len(report_rows(ref)) == 5
        assert hidden_files(ref) == []
        sent = outbox.flush()
        for who in ("ann@", "bob@", "cyd@", "watcher@", "gm@"):
            assert len([m for m in to(sent, who) if "turn 1" in m["Subject"] or "Zug 1" in m["Subject"]]) == 1, who
    finally:
        other.store.close()


def test_a_gm_close_that_met_another_workers_says_that_turn_was_just_closed(ref, outbox, game, tmp_path, clock, between):
    other = make_referee(tmp_path, clock)
    try:
        between("close.staged", lambda: other.closing.close_turn("toy1", 1))
        with pytest.raises(Refusal) as refused:
            ref.force("toy1")
        assert refused.value.code == "gm.just_closed" and refused.value.params == {"turn": 1}
        assert "Turn 1 was just closed" in str(refused.value)
        assert ref.store.current_turn("toy1")["number"] == 2   # turn 2 stays open: nothing closed twice
        assert len(report_rows(ref)) == 5
    finally:
        other.store.close()


def test_the_just_closed_refusal_reads_in_english_and_german():
    from referee.authority.wording import TEXTS
    assert set(TEXTS["gm.just_closed"]) == {"en", "de"}
    assert "Zug 7" in TEXTS["gm.just_closed"]["de"].format(turn=7)


def test_the_store_holds_no_report_body_at_any_point_of_a_close(ref, outbox, game, between):
    seen = {}

    def look() -> None:   # committed, the turn's record not yet written
        raw = ref.store._one("SELECT result FROM turns WHERE match='toy1' AND number=1")["result"]
        seen["result"] = raw if isinstance(raw, str) else json.dumps(raw)
    between("close.committed", look)
    ref.force("toy1")
    stored = json.loads(seen["result"])
    assert set(stored["mails"]) == {"ann", "bob", "cyd", "_public.en", "_gm"}
    for who, m in stored["mails"].items():
        assert set(m) <= {"lang", "subject", "picture"}, who
    assert "Bids:" not in seen["result"] and "state" not in stored   # the next turn holds the state
    body = (ref.archive.turn_dir("toy1", 1) / "reports" / "bob.de.txt").read_text(encoding="utf-8")
    assert body and body not in seen["result"]
    for row in ref.store.outbox("toy1"):
        assert b"Bids:" not in row["message"], row["dedupe"]


def test_resend_after_a_close_worked_out_twice_gives_the_bytes_first_sent(ref, outbox, game, between):
    between("close.staged", lambda: ref.handle(inbound("cyd@example.org", orders("cyd", game["cyd"], 5))))
    ref.force("toy1")
    [original] = [m for m in to(outbox.flush(), "cyd@example.org") if "Report, turn 1" in m["Subject"]]
    assert "Cyd 5" in original.get_body(("plain",)).get_content()
    ref.handle(inbound("cyd@example.org", f"match: toy1\nplayer: cyd\nkey: {game['cyd']}\ncommand: resend\nturn: 1\n"))
    [resent] = [m for m in to(outbox.flush(), "cyd@example.org") if "Report, turn 1" in m["Subject"]]
    for kind in ("plain", "html"):
        assert resent.get_body((kind,)).get_payload(decode=True) == original.get_body((kind,)).get_payload(decode=True)


def test_a_hostile_report_name_never_leaves_the_turns_folder(ref, outbox, game):
    """Report files are named from checked ids only: a staged name with a path in it is refused."""
    from referee.archive import staging as archive_close
    from referee.intake.checks import Invalid
    with pytest.raises(Invalid):
        archive_close.stage_reports(ref.archive, "toy1", 1, {"../../escape.txt": "x"})
    assert not (ref.archive.root.parent / "escape.txt").exists()


def test_a_close_whose_inputs_keep_changing_is_worked_out_under_the_claim_at_last(ref, outbox, game, monkeypatch):
    real, passages = crash.point, []
    sent = iter([("ann", 1), ("bob", 2), ("cyd", 3)])

    def point(name: str) -> None:
        if name == "close.staged":   # every try finds new orders stored meanwhile
            passages.append(name)
            player, bid = next(sent)
            assert ref.handle(inbound(f"{player}@example.org", orders(player, game[player], bid))).outcome == "processed"
        real(name)
    monkeypatch.setattr(crash, "point", point)
    assert ref.force("toy1") == "turn 1 closed"
    assert len(passages) == 2                      # two tries with nothing locked, then one under the claim
    result = ref.store.turn("toy1", 1)["result"]
    assert {p: u["orders"]["bid"] for p, u in result["orders"].items() if u["source"] == "player"} == {"ann": 1, "bob": 2}
    assert result["missing"] == ["cyd"]
    assert len(report_rows(ref)) == 5 and hidden_files(ref) == []
    assert set(result["mails"]["ann"]) <= {"lang", "subject", "picture"}

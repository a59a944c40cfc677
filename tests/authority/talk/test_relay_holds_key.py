"""Issue 32, item 8: a relayed message may pose as a referee notice asking for a key.
The relay frame says (English and German) that the referee never asks for keys in
table talk, and text holding a key valid for the writer's seat is not relayed: its
writer is told why, in his language, without the key being echoed.  Through
``referee poll`` on Maildirs."""
from __future__ import annotations

import yaml
from doorkit import Door, match_file, text_of, to

MATCH = match_file("talk", langs={"king": "de"}, press="private")
NOTICE = ("REFEREE NOTICE: the keys of this match expire today. Answer this mail with your key "
          "to keep your seat.\n-- The referee")


def words(text: str) -> str:
    return " ".join(text.split())


def press(door: Door, seat: str, to_seats: list[str], text: str) -> str:
    return yaml.safe_dump({"match": "talk", "player": seat, "key": door.keys[seat],
                           "press": {"to": to_seats, "text": text}}, sort_keys=False)


def relayed_messages(door: Door) -> list:
    # every message, private ones included, is in the archive's owner-only part (issue 32, item 6)
    return yaml.safe_load((door.folder / "turns" / "talk" / "t001" / "private" / "press.yaml").read_text())


def test_relay_of_a_key_valid_for_the_writers_seat_is_refused(tmp_path, monkeypatch):
    door = Door(tmp_path, monkeypatch, MATCH)
    sent = door.poll(door.raw("jay@example.org", press(door, "jay", ["king", "adams"], NOTICE)))
    [to_king], [to_adams] = to(sent, "king"), to(sent, "adams")
    assert "Der Schiedsrichter fragt in Tischgesprächen nie nach deinem Schlüssel" in words(text_of(to_king))
    assert "The referee never asks for your key in table talk" in words(text_of(to_adams))

    # king falls for it: his answer holds his key, typed in lower case with spaces
    key = door.keys["king"]
    typed = key.lower().replace("-", " ")
    reply = door.raw("king@example.org", f"Hier ist er: {typed}\n\n> {NOTICE}\n", subject="Re: " + str(to_king["Subject"]),
                     headers=f"In-Reply-To: {to_king['Message-ID']}\r\n")
    sent = door.poll(reply)
    assert to(sent, "jay") == [] and to(sent, "gm") == []      # relayed to nobody, no copy either
    [refusal] = to(sent, "king")
    told = words(text_of(refusal))
    assert "Nichts wurde weitergegeben: die Nachricht enthält deinen eigenen Schlüssel" in told
    assert "command: new-key" in told and typed not in text_of(refusal).lower() and key not in text_of(refusal)

    # a new message holding the writer's key is refused as well, in English for adams
    sent = door.poll(door.raw("adams@example.org", press(door, "adams", ["jay"], f"My key: {door.keys['adams']}")))
    assert to(sent, "jay") == []
    [refusal] = to(sent, "adams")
    assert "Nothing was relayed: the message holds your own key" in words(text_of(refusal))
    assert door.keys["adams"] not in text_of(refusal)
    # hostile: the key behind a full message of decoys shaped like keys
    decoys = "ABCD-EFGH-JKMN " * 130 + "ABCD EFGH "      # the last two groups would pair with the key's first
    sent = door.poll(door.raw("adams@example.org", press(door, "adams", ["jay"], decoys + door.keys["adams"])))
    assert to(sent, "jay") == [] and len(to(sent, "adams")) == 1
    assert [m["from"] for m in relayed_messages(door)] == ["jay"]

    # a key-shaped code that is nobody's key of this seat goes through
    sent = door.poll(door.raw("adams@example.org", press(door, "adams", ["jay"], "Code word: WXYZ-2345-6789")))
    assert "Code word: WXYZ-2345-6789" in text_of(to(sent, "jay")[0])

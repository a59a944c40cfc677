"""A GM's mails as a new GM writes them: a match file mailed with ``command: create`` is
refused in the file's language, each problem at its line in the mail, without words about
orders that stand (there is no match yet); ``replace`` of a bot's seat needs the person's name."""
from __future__ import annotations

import yaml
from referee_kit import BOSS, SPEC, clock, inbound, keys_of, outbox, ref, text_of, to, toy_registered  # noqa: F401

from referee.store import bots as bot_rows


def create_mail(spec: dict) -> str:
    return ("match: toy2\nplayer: \"@gm\"\nkey: " + BOSS[1] + "\ncommand: create\nspec:\n"
            + "".join("  " + line + "\n" for line in yaml.safe_dump(spec, sort_keys=False).splitlines()))


def refusal(ref, outbox, body: str) -> str:
    assert ref.handle(inbound(BOSS[0], body)).outcome == "refused"
    [reply] = to(outbox.flush(), BOSS[0])
    return reply["Subject"] + "\n" + text_of(reply)


def test_a_mailed_match_file_is_refused_in_its_language_at_its_line(ref, outbox):
    players = [*SPEC["players"], {"id": "robo", "name": "Robo", "bot": "vielleicht"}]
    body = create_mail(dict(SPEC, id="toy2", language="de", players=players))
    line = body.splitlines().index("    bot: vielleicht") + 1   # as the mail counts its lines
    said = refusal(ref, outbox, body)
    assert said.startswith("Re: Partie toy2 nicht angelegt\n")
    assert (f"Zeile {line}: players[4].bot: bot ist true, false oder {{strength: ...}} mit einer Spielstärke aus "
            "fast, default; eine Spielstärke allein geht auch (bot: fast)") in said
    assert "gelten weiter" not in said and "Befehle" not in said
    assert ref.store.match("toy2") is None


def test_a_mailed_match_file_without_a_language_is_refused_in_the_referees(ref, outbox):
    spec = {k: v for k, v in SPEC.items() if k != "language"}
    body = create_mail(dict(spec, id="toy2", gm="not-an-address"))
    said = refusal(ref, outbox, body)
    line = body.splitlines().index("  gm: not-an-address") + 1
    assert said.startswith("Re: Match toy2 not created\n") and f"line {line}: gm:" in said
    assert "still stand" not in said and "orders" not in said


def test_a_wrong_creation_key_is_said_in_the_files_language_too(ref, outbox):
    said = refusal(ref, outbox, create_mail(dict(SPEC, id="toy2", language="de")).replace(BOSS[1], "WRNG-KEY2-3456"))
    assert "Nur die Spielleitung von 'toy2' mit dem Spielleitungs-Schlüssel darf das." in said


def test_a_bots_seat_goes_to_a_person_only_with_their_name(ref, outbox):
    players = [*SPEC["players"], {"id": "robo", "name": "Robo", "bot": True}]
    ref.create_match(dict(SPEC, id="toyb", language="de", players=players))
    gm_key = keys_of(outbox)["gm"]
    mail = f"match: toyb\nplayer: \"@gm\"\nkey: {gm_key}\ncommand: replace\nseat: robo\nemail: dee@example.org\n"
    said = refusal(ref, outbox, mail)
    assert ("Den Platz 'robo' spielt ein Bot als 'Robo'; wer ihn übernimmt, braucht einen eigenen Namen: "
            "gib ihn mit 'name:' neben 'seat:' und 'email:' an.") in said
    assert "robo" in bot_rows.bots(ref.store, "toyb")
    assert ref.handle(inbound("gm@example.org", mail + "name: Dee\n")).reason == "replace"
    assert ref.store.player("toyb", "robo")["name"] == "Dee" and "robo" not in bot_rows.bots(ref.store, "toyb")

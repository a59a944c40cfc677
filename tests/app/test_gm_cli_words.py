"""``referee gm`` as a new GM meets it: a bot's seat given to a person needs the person's
name (the bot's would pass on), ``replace bot=`` takes no ``name=``, a key a command does
not take is refused (in the match's language, nothing changed), and one mail is one mail."""
from __future__ import annotations

import mailbox
from email import message_from_bytes, policy

import pytest
from refkit import in_order

from referee.app.cli import main
from referee.store import bots as bot_rows

MATCH = """\
id: ff-{lang}
game: founding_fathers
lang: {lang}
gm: gm@example.org
schedule: {{period: 48h}}
players:
  - {{id: adams, name: John Adams, email: adams@example.org}}
  - {{id: jay, name: John Jay, email: jay@example.org}}
  - {{id: king, name: Rufus King, email: king@example.org}}
  - {{id: fasty, name: Fast Bot, bot: fast}}
"""


@pytest.fixture
def folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 0
    for lang in ("en", "de"):
        (tmp_path / f"{lang}.yaml").write_text(MATCH.format(lang=lang))
        assert main(["new", f"{lang}.yaml"]) == 0, capsys.readouterr().err
    capsys.readouterr()
    return tmp_path


def mails(folder) -> list:
    box = mailbox.Maildir(str(folder / "mail" / "out"), factory=None, create=False)
    return [message_from_bytes(box.get_bytes(k), policy=policy.default) for k in in_order(box)]


def store(folder):
    from referee.app.config import load
    from referee.app.wiring import open_referee
    return open_referee(load(folder / "referee.yaml"))


def run(capsys, *words: str) -> tuple[int, str, str]:
    got = main(list(words))
    out = capsys.readouterr()
    return got, out.out, out.err


@pytest.mark.parametrize("lang, said, hint", [
    ("en", "replace: A bot plays seat 'fasty' as 'Fast Bot', and the person who takes it over needs a name of "
           "their own: give it with 'name:' beside 'seat:' and 'email:'.",
     '  again, with name=: referee gm ff-en replace seat=fasty email=fiona@example.org name="Full Name"'),
    ("de", "replace: Den Platz 'fasty' spielt ein Bot als 'Fast Bot'; wer ihn übernimmt, braucht einen eigenen "
           "Namen: gib ihn mit 'name:' neben 'seat:' und 'email:' an.",
     '  noch einmal, mit name=: referee gm ff-de replace seat=fasty email=fiona@example.org name="Vorname Nachname"'),
])
def test_a_person_taking_a_bots_seat_needs_a_name_of_their_own(folder, capsys, lang, said, hint):
    before = len(mails(folder))
    got, _, err = run(capsys, "gm", f"ff-{lang}", "replace", "seat=fasty", "email=fiona@example.org")
    assert got == 1 and err.splitlines() == [f"referee: {said}", hint]
    ref = store(folder)
    assert "fasty" in bot_rows.bots(ref.store, f"ff-{lang}") and ref.store.player(f"ff-{lang}", "fasty")["email"] == ""
    assert len(mails(folder)) == before, "nothing was sent"
    got, out, _ = run(capsys, "gm", f"ff-{lang}", "replace", "seat=fasty", "email=fiona@example.org", "name=Fiona Fox")
    assert got == 0 and f"ff-{lang}: fasty now plays from fiona@example.org;" in out
    texts = [m.get_body(("plain",)).get_content() for m in mails(folder)[before:]]
    assert not any("Fast Bot" in t for t in texts)
    assert any(t.startswith(("Hello Fiona Fox,", "Hallo Fiona Fox,")) for t in texts)


@pytest.mark.parametrize("lang, said", [
    ("en", "replace: A bot plays under the seat's present name, so 'name:' goes only with 'email:'"),
    ("de", "replace: Ein Bot spielt unter dem bisherigen Namen des Platzes; 'name:' gehört darum nur zu 'email:'"),
])
def test_replace_with_a_bot_refuses_a_name_it_would_drop(folder, capsys, lang, said):
    got, _, err = run(capsys, "gm", f"ff-{lang}", "replace", "seat=jay", "bot=fast", "name=Robbie")
    assert got == 1 and err.startswith(f"referee: {said}")
    ref = store(folder)
    assert "jay" not in bot_rows.bots(ref.store, f"ff-{lang}")
    assert ref.store.player(f"ff-{lang}", "jay")["name"] == "John Jay"


@pytest.mark.parametrize("words, en, de", [
    (["replace", "seat=jay", "bot=fast", "colour=red"],
     "replace takes only seat=, email=, name=, bot= (not colour=)",
     "replace kennt nur seat=, email=, name=, bot= (nicht colour=)"),
    (["replace", "seat=jay", "email=jo@example.org", "nmae=Jo"],
     "replace takes only seat=, email=, name=, bot= (not nmae=); did you mean name=?",
     "replace kennt nur seat=, email=, name=, bot= (nicht nmae=); meintest du name=?"),
    (["observer", "email=fan@example.org", "language=de"],
     "observer takes only email=, lang= (not language=); did you mean lang=?",
     "observer kennt nur email=, lang= (nicht language=); meintest du lang=?"),
    (["extend", "hours=24"], "extend takes only by=, until= (not hours=)", "extend kennt nur by=, until= (nicht hours=)"),
    (["pause", "now=yes"], "pause takes no arguments (not now=)", "pause nimmt keine Argumente (nicht now=)"),
    (["chronicle", "fiel=story.md"], "chronicle takes only text=, file=, title=, seats= (not fiel=); did you mean file=?",
     "chronicle kennt nur text=, file=, title=, seats= (nicht fiel=); meintest du file=?"),
])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_key_the_command_does_not_take_is_refused_and_nothing_changes(folder, capsys, words, en, de, lang):
    before = len(mails(folder))
    got, out, err = run(capsys, "gm", f"ff-{lang}", *words)
    see = {"en": "see", "de": "siehe"}[lang]
    assert got == 2 and out == ""
    assert err.splitlines() == [f"referee: {en if lang == 'en' else de}", f"  {see}: referee gm ff-{lang} {words[0]} --help"]
    ref = store(folder)
    assert ref.store.match(f"ff-{lang}")["status"] == "running" and ref.store.observers(f"ff-{lang}") == []
    assert ref.store.player(f"ff-{lang}", "jay")["email"] == "jay@example.org"
    assert "jay" not in bot_rows.bots(ref.store, f"ff-{lang}")
    assert len(mails(folder)) == before


def test_missing_argument_hint_follows_the_match_language(folder, capsys):
    got, _, err = run(capsys, "gm", "ff-de", "replace", "email=x@example.org")
    assert got == 2 and err.splitlines() == ["referee: replace braucht auch seat=", "  siehe: referee gm ff-de replace --help"]


def test_one_mail_is_one_mail_in_gm_and_tick(folder, capsys):
    got, out, _ = run(capsys, "gm", "ff-en", "observer", "email=fan@example.org")
    assert got == 0 and out.strip() == "ff-en: observer fan@example.org added; 1 mail sent"
    ref = store(folder)
    ref.gm_command("ff-de", "observer", {"email": "fan@example.org"})   # queued, for the tick to send
    got, out, _ = run(capsys, "tick")
    assert got == 0 and out.strip() == "closed: nothing; 1 mail sent"
    got, out, _ = run(capsys, "tick")
    assert out.strip() == "closed: nothing; 0 mails sent"

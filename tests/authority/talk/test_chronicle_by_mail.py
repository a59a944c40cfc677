"""The chronicle and a letter through the real mail servers: the GM mails the
chronicle as a Markdown attachment, a player's letter waits for the GM, who approves
it by mail; the next reports of players and observer are headed by both."""
from __future__ import annotations

import yaml
from mail_table import MailTable


def test_chronicle_and_letter_by_mail(mailservers, tmp_path):
    t = MailTable(mailservers, tmp_path, press="private", match_id="chron")
    story = "# Der Winter\n\nDer Rat tagt bei Kerzenlicht; die Zünfte murren.\n"
    t.mail("gm", t.doc("gm", command="chronicle", title="Winter"), attachment=("winter.md", story))
    (done, text), = t.new_mail("gm")
    assert "Spielleitung chronicle: erledigt" in done["Subject"] and "Die Chronik ist gespeichert" in text

    t.mail("bob", t.doc("bob", command="letter", title="An den Rat", text="Ehrenwerte Herren, hört mich an."))
    (receipt, text), = t.new_mail("bob")
    assert "Brief 2 erhalten" in receipt["Subject"]
    (held, text), = t.new_mail("gm")
    assert "Brief 2 von Bob wartet" in held["Subject"] and "hört mich an" in text
    # a player cannot approve their own letter; a bad number is refused; nothing changes
    t.mail("bob", t.doc("bob", command="approve", number=2))
    assert "Nicht angenommen" in t.new_mail("bob")[0][0]["Subject"]
    t.mail("gm", t.doc("gm", command="approve", number=99))
    (refused, text), = t.new_mail("gm")
    assert "Es wartet kein Brief 99" in text
    t.mail("gm", t.doc("gm", command="approve", number=2))
    assert "erledigt" in t.new_mail("gm")[0][0]["Subject"]
    (told, text), = t.new_mail("bob")
    assert "Brief 2 freigegeben" in told["Subject"]

    t.ref.force(t.match_id)
    t.service.flush()
    for user in ("alice", "bob", "carol", "observer"):
        (report, text), = t.new_mail(user)
        assert "Der Rat tagt bei Kerzenlicht" in text, user
        assert text.index("Kerzenlicht") < text.index("Ehrenwerte Herren")
        assert ("A letter from Bob: An den Rat" if user in ("alice", "observer") else "Ein Brief von Bob: An den Rat") in text
    record = yaml.safe_load((t.turns / "chron" / "t001" / "private" / "chronicle.yaml").read_text())
    assert [(e["number"], e["kind"], e["by"]) for e in record] == [(1, "chronicle", "@gm"), (2, "letter", "bob")]

"""Table talk through the real mail servers: a message relayed at once, answered by
replying to the relayed mail, no address shown; a forwarded or forged answer relayed
to nobody; public talk in the observer's next report; all of it in the archive."""
from __future__ import annotations

import yaml
from mail_table import MailTable


def test_table_talk_by_mail(mailservers, tmp_path):
    t = MailTable(mailservers, tmp_path, press="private")
    s = t.s
    t.mail("alice", t.doc("alice", press={"to": ["bob"], "text": "Bob, shall we vote together on the harbour?"}))
    (receipt, text), = t.new_mail("alice")
    assert "went to Bob" in text
    (relayed, text), = t.new_mail("bob")
    raw = s.messages("bob")[-1]
    assert relayed["From"] == t.address and "Tischgespräch von Alice" in relayed["Subject"]
    assert "shall we vote together" in text
    assert s.address("alice").encode() not in raw, "no address of the writer anywhere in the relayed mail"
    (copy, text), = t.new_mail("gm")
    assert "Kopie des Tischgesprächs 1" in copy["Subject"] and "Alice (alice)" in text
    assert t.nothing_new("carol") and t.nothing_new("observer")

    # bob answers with his mail client: only his own lines go back, to alice alone
    t.reply("bob", relayed, "Einverstanden, Alice.", text)
    (back, text), = t.new_mail("alice")
    assert "Answer from Bob" in back["Subject"] and "Einverstanden, Alice." in text
    assert "shall we vote together" not in text and s.address("bob") not in text
    t.new_mail("bob")     # his receipt
    t.new_mail("gm")      # the GM's copy
    assert t.nothing_new("carol")

    # bob forwards the relayed mail to carol, who tries to answer through it: refused, nothing relayed
    t.reply("carol", relayed, "Ich lese mit.", "")
    (refusal, text), = t.new_mail("carol")
    assert "Nicht angenommen" in refusal["Subject"] and "eingetragenen Adresse" in text
    assert t.nothing_new("alice")
    # a forged token in the subject from a player: refused, nothing relayed
    t.mail("carol", "Hallo?", subject="Re: [talk] Tischgespräch von Alice #T-2222-3333")
    (refusal, text), = t.new_mail("carol")
    assert "#T-2222-3333" in text and t.nothing_new("alice") and t.nothing_new("bob")

    # public talk: every seat at once, the observer in the next (public) report
    t.mail("carol", t.doc("carol", press="Ich schlage allen einen Burgfrieden vor.", to="all"))
    for seat in ("alice", "bob"):
        (m, text), = t.new_mail(seat)
        assert "Burgfrieden" in text
    t.ref.force(t.match_id)
    t.service.flush()
    (report, text), = t.new_mail("observer")
    assert "(public)" in report["Subject"]
    assert "Table talk to everyone during this turn" in text and "Carol: Ich schlage allen einen Burgfrieden vor." in text

    inbox = [p.read_bytes() for p in (t.turns / "talk" / "t001" / "inbox").glob("*.eml")]
    assert any(b"Einverstanden, Alice." in raw for raw in inbox), "an answer is kept with its match and turn"
    archived = yaml.safe_load((t.turns / "talk" / "t001" / "private" / "press.yaml").read_text())
    assert [(m["from"], m["to"], m.get("answers")) for m in archived] == [
        ("alice", ["bob"], None), ("bob", ["alice"], 1), ("carol", "all", None)]

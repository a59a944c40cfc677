"""read_document finds the one YAML document in mails as real clients write them."""
from __future__ import annotations

from intake_mails import ORDERS, mail

from referee.intake import Document, read_document, read_text

EXPECTED = {"action": "declare_vote", "state": "PA", "side": "yea", "delegates": ["ingersoll", "mifflin"]}


def _doc(result) -> Document:
    assert isinstance(result, Document), [p.text["en"] for p in result]
    return result


def _codes(result) -> list[str]:
    assert not isinstance(result, Document), result
    return [p.code for p in result]


def test_german_greeting_and_thunderbird_signature_are_ignored():
    text = ("Hallo liebe Spielleitung,\n\nanbei meine Befehle für Runde 12:\n\n" + ORDERS +
            "\nViele Grüße\nJames\n\n-- \nJames Madison · Montpelier, Virginia\nTel. 0049 30 1234\n")
    doc = _doc(read_document(mail(text)))
    assert doc.data["orders"] == EXPECTED
    assert doc.data["match"] == "ff-winter"
    assert doc.source == "body"
    assert doc.position(("match",)) == (5, 8)   # as counted in the mail, greeting included


def test_gmail_bottom_post_under_quoted_order_form():
    quoted = "".join("> " + line + "\n" for line in ORDERS.replace("PA", "NJ").splitlines())
    text = ("Am Sa., 21. Nov. 2026 um 20:00 Uhr schrieb Referee <referee@example.net>:\n" + quoted +
            "\nHier die neuen:\n\n" + ORDERS)
    doc = _doc(read_document(mail(text)))
    assert doc.data["orders"]["state"] == "PA"


def test_top_post_with_quoted_old_orders_below():
    quoted = "".join(">" + line + "\n" for line in ORDERS.replace("PA", "NJ").splitlines())
    text = ORDERS + "\nThanks!\n\nOn Sat, Nov 21, 2026 at 8:00 PM Referee wrote:\n" + quoted
    assert _doc(read_document(mail(text))).data["orders"]["state"] == "PA"


def test_outlook_original_message_without_quote_marks_is_cut():
    old_form = ORDERS.replace("PA", "NJ").replace("key: 4F7Q-K2XD-9MRA     # my secret\n", "")
    text = (ORDERS + "\nMit freundlichen Grüßen\nJ. Madison\n\n-----Ursprüngliche Nachricht-----\n"
            "Von: Referee <referee@example.net>\nGesendet: Samstag, 21. November 2026 20:00\n"
            "An: madison@example.org\nBetreff: ff-winter turn 12\n\nYour order form:\n\n" + old_form)
    doc = _doc(read_document(mail(text)))
    assert doc.data["orders"]["state"] == "PA"


def test_outlook_underscore_rule_header_block_is_cut():
    text = (ORDERS + "\n________________________________\nFrom: Referee <referee@example.net>\n"
            "Sent: Saturday, November 21, 2026 8:00 PM\nTo: madison@example.org\n\n" + ORDERS.replace("PA", "NY"))
    assert _doc(read_document(mail(text))).data["orders"]["state"] == "PA"


def test_fenced_code_block_is_taken_whole():
    text = "Here you go:\n\n```yaml\n" + ORDERS + "```\n\nCheers\n"
    doc = _doc(read_document(mail(text)))
    assert doc.data["orders"] == EXPECTED


def test_syntax_error_inside_fence_is_reported_not_cut_away():
    broken = ORDERS.replace("  side: yea\n", "  side yea\n  note: x\n")
    problems = read_document(mail("Hi,\n```\n" + broken + "```\n"))
    assert _codes(problems) == ["yaml.syntax"]
    assert problems[0].line == 10   # "  side yea" counted from the top of the mail


def test_yaml_start_and_end_markers():
    text = "Moin,\n---\n" + ORDERS + "...\nBis bald\n"
    assert _doc(read_document(mail(text))).data["turn"] == 12


def test_crlf_bom_and_non_breaking_spaces():
    text = "\ufeffHallo,\r\n\r\n" + ORDERS.replace("\n", "\r\n").replace("  state", "\u00a0\u00a0state")
    doc = _doc(read_text(text))
    assert doc.data["orders"] == EXPECTED


def test_tab_indentation_is_read_and_noted():
    text = ORDERS.replace("  ", "\t")
    doc = _doc(read_text(text))
    assert doc.data["orders"] == EXPECTED
    assert [n.code for n in doc.notes] == ["document.tabs"]
    assert doc.notes[0].severity == "warning" and doc.notes[0].line == 6
    # the column as sent: "\tstate: PA" -> value "PA" starts at character 9
    assert doc.position(("orders", "state")) == (7, 9)


def test_latin1_mail_keeps_umlauts():
    text = "Grüße!\n\n" + ORDERS.replace("orders:\n", "orders:\n  note: Größe über Maß\n")
    doc = _doc(read_document(mail(text, charset="iso-8859-1")))
    assert doc.data["orders"]["note"] == "Größe über Maß"


def test_html_only_mail_is_read_through_its_text():
    html = "<html><body><p>Hallo!</p><pre>" + ORDERS + "</pre><p>Gruß</p></body></html>"
    doc = _doc(read_document(mail(html=html)))
    assert doc.data["orders"]["delegates"] == ["ingersoll", "mifflin"]


def test_attachment_wins_over_body_and_counts_its_own_lines():
    body = "See attachment.\n\n" + ORDERS.replace("PA", "NJ")
    m = mail(body, attachments=(("orders.yaml", ORDERS.replace("turn: 12", "turn: 13")),
                                ("old.yml", ORDERS)))
    doc = _doc(read_document(m))
    assert doc.source == "orders.yaml"
    assert doc.data["turn"] == 13 and doc.data["orders"]["state"] == "PA"
    assert doc.position(("turn",)) == (4, 7)
    assert [n.code for n in doc.notes] == ["document.other_attachments"]


def test_indented_document_is_dedented_and_columns_stay_as_sent():
    text = "Orders below\n\n" + "".join("    " + line + "\n" for line in ORDERS.splitlines())
    doc = _doc(read_text(text))
    assert doc.data["orders"] == EXPECTED
    assert doc.position(("player",)) == (4, 13)


def test_one_line_flow_mapping():
    doc = _doc(read_text("{match: ff-winter, player: madison, command: status}"))
    assert doc.data["command"] == "status"


def test_document_without_match_is_still_found():
    doc = _doc(read_text("Hallo,\n\nplayer: madison\norders:\n  state: PA\n\nGruß\n"))
    assert doc.data == {"player": "madison", "orders": {"state": "PA"}}


def test_two_documents_are_refused():
    problems = read_text(ORDERS + "\nOops, once more:\n\n" + ORDERS)
    assert _codes(problems) == ["document.several"]
    assert problems[0].params["lines"] == "1, 13"
    assert "2" in problems[0].text["de"]


def test_no_document():
    problems = read_document(mail("Hallo, wann geht es weiter?\n\nGruß\n"))
    assert _codes(problems) == ["document.not_found"]
    assert "match:" in problems[0].text["en"] and "match:" in problems[0].text["de"]


def test_only_quoted_orders_count_as_no_document():
    quoted = "".join("> " + line + "\n" for line in ORDERS.splitlines())
    assert _codes(read_document(mail("ok, passt so\n\n" + quoted))) == ["document.not_found"]


def test_blank_attachment_falls_back_to_body():
    doc = _doc(read_document(mail(ORDERS, attachments=(("empty.yaml", "  \n"),))))
    assert doc.source == "body"


def test_closing_words_after_the_document_end_it():
    text = ORDERS + "Danke und bis Donnerstag\nJames\n"
    doc = _doc(read_text(text))
    assert set(doc.data) == {"match", "player", "key", "turn", "orders"}


def test_command_arguments_named_from_and_to_are_not_mistaken_for_a_quoted_header():
    text = "match: m\nplayer: gm\nkey: K\ncommand: replace\nfrom: madison\nto: hamilton\nDate: soon\n"
    doc = _doc(read_text(text))
    assert doc.data["to"] == "hamilton"
    text = "match: m\nplayer: gm\ncommand: replace\nfrom: madison\ndate: 2026-12-01\n"
    assert _doc(read_text(text)).data["date"] == "2026-12-01"


def test_a_form_filled_in_inside_the_quote_is_read_with_a_note():
    quoted = "".join("> " + line + "\n" for line in ORDERS.splitlines())
    doc = read_document(mail("On Mon, 2 Mar 2026, referee@example.org wrote:\n" + quoted + "\n-- \nann\n"))
    assert isinstance(doc, Document) and doc.data["player"] == "madison"
    assert [n.code for n in doc.notes] == ["document.quoted"]
    assert doc.position(("player",)) == (3, 11)        # columns as sent, after the '> '


def test_a_quoted_form_with_the_placeholder_key_is_no_document():
    quoted = "".join("> " + line + "\n" for line in ORDERS.replace("4F7Q-K2XD-9MRA", "YOUR-KEY").splitlines())
    assert _codes(read_document(mail("On Mon, referee@example.org wrote:\n" + quoted))) == ["document.not_found"]

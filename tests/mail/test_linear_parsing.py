"""Issue 16, finding 4: no mail costs more than linear, capped parsing.

The audit's shapes each took seconds to minutes before (the times in the
comments); the bounds here are generous absolute ones, or counts of work done
when the input doubles.  ``bench/hostile_mail.py`` gives the figures.
"""
from __future__ import annotations

import time

from referee.intake import Document, finding, read_document, read_text
from referee.mail.inbound import parse_inbound

ORDER = "match: ff-1\nplayer: alice\nkey: K3Y\ncommand: status\n"


def head(ctype: str = "text/plain; charset=utf-8", extra: str = "", subject: str = "orders") -> str:
    return (f"From: alice@players.test\r\nTo: referee@referee.test\r\nSubject: {subject}\r\n"
            f"Message-ID: <hostile@players.test>\r\n{extra}Content-Type: {ctype}\r\n\r\n")


def whole_path(raw: bytes) -> float:
    start = time.perf_counter()
    read_document(parse_inbound(raw))
    return time.perf_counter() - start


def test_finding4_html_of_16000_open_tags_is_linear():
    # html.parser: 14-18 s for these 48 kB, 729 s for 255 kB of it.
    small = (head("text/html") + "<a " * 16_000).encode()
    at_cap = (head("text/html") + "<a " * 84_000).encode()
    assert whole_path(small) < 1.0
    assert whole_path(at_cap) < 1.0


def test_finding4_html_text_is_capped_however_deep_the_quote():
    # 1000 nested quotes and 60,000 line breaks would be 120 MB of "> " prefixes.
    raw = (head("text/html") + "<blockquote>" * 200 + "<br>" * 60_000).encode()
    mail = parse_inbound(raw)
    assert len(mail.text) < 1_000_000


def test_finding4_html_of_an_ordinary_mail_reads_as_before():
    html = ("<html><head><style>p {}</style></head><body><div>Hallo,</div><div><br></div>"
            "<div>match: ff-1</div><div>&nbsp;&nbsp;vote: Z&ouml;lle</div>"
            "<blockquote><div>old: quoted</div></blockquote><script>x()</script></body></html>")
    mail = parse_inbound((head("text/html; charset=utf-8") + html).encode())
    assert mail.text == "Hallo,\n\nmatch: ff-1\n  vote: Zölle\n> old: quoted\n"


def test_finding4_references_of_80000_ids_are_linear_even_on_a_too_large_mail():
    # An 'in' test on a list: 21 s, also on mails refused as too large.
    ids = [f"<{i}.thread@players.test>" for i in range(80_000)]
    raw = (head(extra="References: " + " ".join(ids) + "\r\n") + ORDER).encode()
    start = time.perf_counter()
    mail = parse_inbound(raw, max_bytes=1_000_000)
    assert time.perf_counter() - start < 1.0
    assert mail.too_large
    # what a reply threads on is capped: the thread's root, the latest ids, this mail
    assert 2 <= len(mail.references) <= 20
    assert mail.references[0] == ids[0] and mail.references[-1] == "<hostile@players.test>"


def test_finding4_references_keep_the_root_and_the_latest_ids():
    ids = [f"<{i}@players.test>" for i in range(100)]
    raw = (head(extra="References: " + " ".join(ids + ids[:10]) + "\r\n") + ORDER).encode()
    refs = parse_inbound(raw).references
    assert refs == (ids[0], *ids[-18:], "<hostile@players.test>")


def test_finding4_23000_match_lines_are_found_linearly():
    # Every block checked against every earlier one: 9 s.
    text = "match: m\nhello there\n" * 23_000
    start = time.perf_counter()
    problems = read_text(text)
    assert time.perf_counter() - start < 1.0
    [several] = problems
    assert several.code == "document.several"
    assert several.params["lines"].endswith(", …") and len(several.params["lines"]) < 80


def test_finding4_blocks_never_grow_back_over_earlier_ones():
    # A staircase of anchors, each less indented, between blank lines: every
    # block grew up over all the ones before it (work quadratic in the anchors).
    def work(anchors: int) -> int:
        lines = []
        for i in range(anchors, 0, -1):
            lines += [" " * i + "match: x"] + [""] * 50
        calls = 0
        real = finding._belongs

        def counting(line, indent):
            nonlocal calls
            calls += 1
            return real(line, indent)

        finding._belongs = counting
        try:
            finding.find_blocks(lines)
        finally:
            finding._belongs = real
        return calls

    small, double = work(100), work(200)
    assert double <= 2.5 * small   # linear: twice the lines, twice the work (quadratic: 4x)


def test_finding4_mail_text_is_read_to_a_capped_number_of_lines():
    raw = (head() + ORDER + "\n" * 250_000).encode()
    start = time.perf_counter()
    doc = read_document(parse_inbound(raw))
    assert time.perf_counter() - start < 1.0
    assert isinstance(doc, Document) and doc.data["match"] == "ff-1"
    assert len(doc.source_lines) <= finding.MAX_LINES


def test_finding4_unclosed_encoded_words_in_a_subject_are_capped():
    # email.header's encoded-word pattern scans to the end from every '=?': 7 s for 64 kB.
    raw = (head(subject="=?a?q?x" * 9_000) + ORDER).encode()
    assert whole_path(raw) < 1.0


def test_finding4_a_content_type_of_20000_parameters_is_capped():
    # email.message._parseparam re-counts quotes from the start for every ';': 4.8 s.
    raw = (head('text/plain; charset="utf-8' + ";a" * 20_000) + ORDER).encode()
    assert whole_path(raw) < 1.0


def test_finding4_4000_nested_mime_parts_count_as_too_large():
    nested = "".join(f"Content-Type: multipart/mixed; boundary=b{i}\r\n\r\n--b{i}\r\n" for i in range(4_000))
    raw = ("From: alice@players.test\r\n" + nested + "Content-Type: text/plain\r\n\r\n" + ORDER).encode()
    start = time.perf_counter()
    mail = parse_inbound(raw, max_bytes=1_000_000)
    assert time.perf_counter() - start < 1.0
    assert mail.too_large and mail.text == ""


def test_finding4_a_header_section_over_its_cap_is_refused_as_too_large():
    # Was read past the cut (finding 4); issue 32 item 15: a cut header section can lose its
    # Content-Transfer-Encoding and be read half, so it makes the mail too large instead.
    raw = (head(extra="X-Pad: " + "p" * 70_000 + "\r\n") + ORDER).encode()
    mail = parse_inbound(raw)
    assert mail.too_large and mail.over == "head" and mail.text == "" and len(mail.raw) <= 64_004

"""Raw sample mails as players' clients send them (built by hand, byte for byte)."""
from __future__ import annotations

import base64
import quopri

ORDERS = """match: ff-1
player: alice
key: K3Y-alice
turn: 1
orders:
  vote: Zölle senken
  note: Grüße aus Münster – ß
"""
UMLAUTS = ("Zölle senken", "Grüße aus Münster – ß")


def _head(subject: str, extra: str = "", msgid: str = "<s1@players.test>") -> str:
    return (f"From: =?utf-8?Q?Alice_=C3=84rger?= <Alice@Players.test>\r\nTo: referee@referee.test\r\n"
            f"Subject: {subject}\r\nDate: Sat, 21 Nov 2026 18:04:05 +0100\r\n"
            f"Message-ID: {msgid}\r\nMIME-Version: 1.0\r\n{extra}")


def crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def plain_utf8() -> bytes:
    body = "Hallo Schiri,\n\nhier meine Befehle:\n\n" + ORDERS + "\n-- \nAlice\n"
    return (_head("Befehle Runde 1", "Content-Type: text/plain; charset=utf-8\r\n"
                  "Content-Transfer-Encoding: 8bit\r\n", "<plain@players.test>")
            + "\r\n" + crlf(body)).encode("utf-8")


def yaml_attachment() -> bytes:
    payload = base64.encodebytes(ORDERS.encode("utf-8")).decode("ascii")
    return (_head("orders attached", 'Content-Type: multipart/mixed; boundary="XyZ"\r\n',
                  "<attach@players.test>") + "\r\n"
            "--XyZ\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\nSee attachment.\r\n"
            "--XyZ\r\nContent-Type: application/x-yaml; name=\"orders.yaml\"\r\n"
            "Content-Disposition: attachment; filename=\"orders.yaml\"\r\n"
            "Content-Transfer-Encoding: base64\r\n\r\n" + crlf(payload) + "--XyZ--\r\n").encode()


def quoted_printable() -> bytes:
    body = ORDERS + "Mit einer sehr langen Zeile, die der Client umbrechen muss, damit sie " \
        "unter sechsundsiebzig Zeichen bleibt: äöü ÄÖÜ.\n"
    qp = quopri.encodestring(body.encode("utf-8")).decode("ascii")
    return (_head("=?UTF-8?Q?Befehle_f=C3=BCr_M=C3=BCnster?=",
                  "Content-Type: text/plain; charset=UTF-8\r\n"
                  "Content-Transfer-Encoding: quoted-printable\r\n", "<qp@players.test>")
            + "\r\n" + crlf(qp)).encode("ascii")


def latin1() -> bytes:
    return (_head("=?ISO-8859-1?Q?Z=F6lle?=", "Content-Type: text/plain; charset=ISO-8859-1\r\n"
                  "Content-Transfer-Encoding: 8bit\r\n", "<latin1@players.test>")
            + "\r\n" + crlf(latin1_orders())).encode("latin-1")


def latin1_orders() -> str:
    return ORDERS.replace("–", "-")  # the en dash has no Latin-1 byte


def alternative() -> bytes:
    html = "<html><body><div>match: ff-1</div><p>ignored html</p></body></html>"
    return (_head("alt", 'Content-Type: multipart/alternative; boundary="alt1"\r\n',
                  "<alt@players.test>") + "\r\n"
            "--alt1\r\nContent-Type: text/plain; charset=utf-8\r\n"
            "Content-Transfer-Encoding: 8bit\r\n\r\n" + crlf(ORDERS) +
            "--alt1\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + html + "\r\n--alt1--\r\n"
            ).encode("utf-8")


def html_only() -> bytes:
    lines = ORDERS.rstrip("\n").split("\n")
    divs = "".join("<div>" + line.replace("  ", "&nbsp;&nbsp;").replace("ü", "&uuml;")
                   + "</div>\r\n" for line in lines)
    html = ("<html><head><style>div {color: red}</style></head><body>"
            "<div>Hallo,</div><div><br></div>\r\n" + divs +
            "<blockquote><div>old: quoted</div></blockquote><script>alert(1)</script>"
            "</body></html>")
    return (_head("html only", "Content-Type: text/html; charset=utf-8\r\n"
                  "Content-Transfer-Encoding: 8bit\r\n", "<html@players.test>")
            + "\r\n" + html + "\r\n").encode("utf-8")


SAMPLES = {
    "plain_utf8": plain_utf8,
    "yaml_attachment": yaml_attachment,
    "quoted_printable": quoted_printable,
    "latin1": latin1,
    "alternative": alternative,
}


def simple(sender: str = "alice@players.test", extra: str = "", body: str = "hello\r\n",
           msgid: str = "<simple@players.test>") -> bytes:
    return (f"From: {sender}\r\nTo: referee@referee.test\r\nSubject: test\r\n"
            f"Message-ID: {msgid}\r\n{extra}\r\n{body}").encode()

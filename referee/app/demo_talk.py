"""The table talk, letters and chronicle of ``referee demo`` (issue 18): scripted, in
the Ratsspiel's match only (its rules are "a skeleton to be filled with flesh in the
letter game").  The councillors write to each other, one answers by replying to the
relayed mail, one writes to everyone and unsigned; the GM writes the chronicle and
approves a letter; an observer gets the public reports.  All by mail, as a campaign
would, so ``turns/demo-perricumer_ratsspiel`` shows press.yaml, chronicle.yaml and
reports headed by the chronicle."""
from __future__ import annotations

import email
import hashlib
import mailbox
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import yaml

GAME = "perricumer_ratsspiel"
SPEC = {"press": "anonymous", "observers": [{"email": "chronist@demo.test", "lang": "de"}]}
GM = "gm@demo.test"


def spec_for(name: str) -> dict:
    """What the demo adds to the match file of game ``name``."""
    return dict(SPEC) if name == GAME else {}


def _mail(inbox: Path, clock, sender: str, subject: str, text: str, msgid: str, *,
          in_reply_to: str | None = None, attachment: tuple[str, str] | None = None) -> None:
    msg = EmailMessage(policy=policy.default)
    msg["From"] = sender
    msg["To"] = "referee@localhost"
    msg["Subject"] = subject
    msg["Date"] = format_datetime(clock.now)
    msg["Message-ID"] = msgid
    if in_reply_to:
        msg["In-Reply-To"], msg["References"] = in_reply_to, in_reply_to
    msg.set_content(text)
    if attachment:
        msg.add_attachment(attachment[1], subtype="markdown", filename=attachment[0])
        # the library draws a boundary from the global random; the demo's bytes must not vary
        msg.set_boundary("==" + hashlib.sha256(msgid.encode()).hexdigest()[:32] + "==")
    mailbox.Maildir(str(inbox), factory=None, create=True).add(msg.as_bytes())


def _doc(match_id: str, player: str, key: str, **fields) -> str:
    return "Hallo,\n\n" + yaml.safe_dump({"match": match_id, "player": player, "key": key, **fields},
                                         sort_keys=False, allow_unicode=True) + "\n-- \nGruß\n"


def _relayed(out: Path, to: str, seen: str) -> EmailMessage | None:
    """The newest relayed mail to ``to`` whose subject holds ``seen``."""
    box = mailbox.Maildir(str(out), factory=None, create=True)
    found = None
    for k in sorted(box.keys()):
        msg = email.message_from_bytes(box.get_bytes(k), policy=policy.default)
        if (msg["To"] or "").strip().lower() == to and seen in (msg["Subject"] or ""):
            found = msg
    return found


def play(name: str, match_id: str, turn: int, cfg, clock, keys: dict, gm_key: str, service) -> None:
    """The talk of turn ``turn``, sent and handled before the turn's orders."""
    if name != GAME:
        return
    inbox, key = cfg.mail_in.maildir, (lambda seat: keys[f"{seat}@demo.test"])

    def send(seat: str, tag: str, **fields) -> None:
        _mail(inbox, clock, f"{seat}@demo.test", f"{match_id} {tag}", _doc(match_id, seat, key(seat), **fields),
              f"<{match_id}.{turn}.{seat}.{tag}@demo.test>")

    if turn == 1:
        _mail(inbox, clock, GM, "Chronik", _doc(match_id, "gm", gm_key, command="chronicle", title="Der Rat tritt zusammen"),
              f"<{match_id}.{turn}.gm.chronicle@demo.test>",
              attachment=("chronik.md", "Im Rathaus von Perricum brennen die Kerzen bis spät.\n\n"
                                        "Die Zünfte murren über den Hafenzoll, und jeder Ratsherr zählt seine Freunde.\n"))
        send("alrik", "press", press={"to": ["boronian"], "text": "Boronian, stimmen wir beim Hafenzoll gemeinsam?"})
        service.poll_once()
        relayed = _relayed(cfg.mail_out.maildir, "boronian@demo.test", "Tischgespräch von Alrik")
        if relayed is not None:
            _mail(inbox, clock, "boronian@demo.test", "Re: " + relayed["Subject"],
                  "Einverstanden, aber nur, wenn Cordovan nichts davon erfährt.\n\n"
                  "Am Montag schrieb der Schiedsrichter:\n> Boronian, stimmen wir beim Hafenzoll gemeinsam?\n",
                  f"<{match_id}.{turn}.boronian.answer@demo.test>", in_reply_to=relayed["Message-ID"])
    elif turn == 2:
        send("cordovan", "press", press="Ich rufe alle Ratsherren zum Burgfrieden auf, bis die Flotte zurück ist.",
             to="all")
        send("cordovan", "letter", command="letter", title="An die Bürger von Perricum",
             text="Bürger! Der Rat streitet, während der Hafen verfällt. Ich stehe für die Zünfte ein.")
        service.poll_once()
        _mail(inbox, clock, GM, "Freigabe", _doc(match_id, "gm", gm_key, command="approve", number=2),
              f"<{match_id}.{turn}.gm.approve@demo.test>")
    elif turn == 3:
        send("boronian", "press", press={"to": ["alrik", "cordovan"], "anonymous": True,
                                         "text": "Einer von euch spricht heimlich mit den Zünften."})
    else:
        return
    service.poll_once()

"""Queueing outgoing mail: every mail the referee writes is put here, rendered,
under a dedupe key; the outbox (``outbox.Outbox``) sends it later."""
from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime

import orjson

from referee.authority.base import Settings
from referee.authority.order_mail import replace_stale_form
from referee.game_api import fastjson
from referee.intake import checks
from referee.mail.compose import compose
from referee.mail.wire import compose_bytes, envelope_of
from referee.outbox import no_pictures
from referee.pictures import board as pictures
from referee.render.order_page import page_html
from referee.render.renderer import inline_styles
from referee.store import seats as seat_rows


class MailQueue:
    def __init__(self, store, settings: Settings, now: Callable[[], datetime], archive=None) -> None:
        self.store, self.settings, self.now, self.archive = store, settings, now, archive
        self._results: dict[tuple, tuple[str, dict]] = {}   # report_body's decoded turn results
        self._inlined: OrderedDict[str, str] = OrderedDict()   # a report's HTML with its styles inline, by its HTML
        self._lock = threading.Lock()

    def queue(self, dedupe: str, match_id: str | None, to: str, subject: str, text: str,
              html: str | None = None, *, reply_to=None, auto: str = "auto-generated",
              picture: str | None = None, calendar: str | None = None, report: dict | None = None,
              page: dict | None = None) -> bool:
        """Queue a rendered message once per dedupe key.  The outbox keeps the
        rendered parts; the MIME message is assembled when it is sent.  Its
        Message-ID follows from the dedupe key, so a message rebuilt after a
        crash is the same message.  ``picture`` is the board's SVG (kept as
        text, turned into PNG when sent; the HTML names it ``cid:board-picture``),
        ``calendar`` an iCalendar part.  ``report``: the row names a turn's report
        (``outbox.refs.report_ref``); its body (read from the archive) and picture
        (from the turn's result) are filled in when the mail is built: a report
        is stored once.  ``page``: the order page's data (``render.order_page.page_data``),
        the page itself made from it when the mail is built.  A mail to no one (a bot's
        seat, issue 35) is dropped here."""
        if not to:
            return False
        digest = hashlib.sha256(dedupe.encode()).hexdigest()[:32]
        parts = {"from": self.settings.address, "to": to, "subject": subject, "text": text, "html": html,
                 "auto": auto, "date": self.now().isoformat(),
                 # the match in the id: a reply to this mail names it in In-Reply-To (the [match] tag of a refusal)
                 "message_id": f"<{digest}{'.' + match_id if match_id else ''}@{self.settings.domain}>",
                 "in_reply_to": None, "references": []}
        if report is not None:
            parts.update(report=report, text=None, html=None)
        if picture is not None or (report is not None and report.get("picture")):
            cid = f"board.{digest}@{self.settings.domain}"
            parts.update(picture=None if report is not None else picture, picture_cid=f"<{cid}>",
                         html=html.replace(PICTURE_CID, f"cid:{cid}") if html is not None and report is None else None)
        if calendar is not None:
            parts["calendar"] = calendar
        if page is not None:
            parts["page"] = page
        if reply_to is not None:  # only ids that can go into a header: the sender wrote them
            refs = [r for r in reply_to.references if checks.message_id(r)]
            parts.update(auto="auto-replied", references=refs,
                         in_reply_to=reply_to.message_id if checks.message_id(reply_to.message_id) else None)
        try:   # orjson: a fifth of json's time; what it refuses (a non-str key) json writes, after a blank
            data = orjson.dumps(parts)
        except (TypeError, orjson.JSONEncodeError):
            data = b" " + json.dumps(parts, ensure_ascii=False).encode("utf-8")
        return self.store.enqueue(dedupe, match_id, to, data, self.now())

    def wire_message(self, data: bytes) -> tuple[bytes, str, list[str]]:
        """(wire bytes, MAIL FROM, RCPT TO) of a queued entry: the very bytes
        ``build_message`` would serialise to, made without EmailMessage."""
        p = self._parts(data)
        raw = compose_bytes(p["from"], p["to"], p["subject"], p["text"], p["html"], auto=p["auto"],
                            domain=self.settings.domain, message_id=p["message_id"],
                            date=datetime.fromisoformat(p["date"]), in_reply_to=p["in_reply_to"],
                            references=p["references"], **_extras(p))
        return (raw, *envelope_of(p["from"], [p["to"]]))

    def build_message(self, data: bytes):
        """The outgoing message (``EmailMessage``, SMTP policy) from a queued entry."""
        p = self._parts(data)
        return compose(p["from"], p["to"], p["subject"], p["text"], p["html"], auto=p["auto"],
                       domain=self.settings.domain, message_id=p["message_id"],
                       date=datetime.fromisoformat(p["date"]), in_reply_to=p["in_reply_to"],
                       references=p["references"], **_extras(p))


    def _parts(self, data: bytes) -> dict:
        """A queued entry's parts with a report's body and picture filled in and
        the HTML's style sheet written inline (mail clients drop style sheets)."""
        p = fastjson.loads(data)   # either writing, and the rows json.dumps wrote before
        cid = None
        if p.get("report"):
            p["text"], p["html"], picture = self.report_body(p["report"])
            stale = p["report"].get("stale_form")
            if stale:   # a resent report whose form's turn has closed since (order_mail.stale_form)
                current = stale.get("current")
                p["text"], p["html"] = replace_stale_form(p["text"], p["html"], stale["lang"], stale["turn"],
                                                          tuple(current) if current else None)
            seat = no_pictures.seat_of(p["report"])
            if picture and seat and not seat_rows.wants_pictures(self.store, p["report"]["match"], seat):
                p["text"], p["html"] = no_pictures.without_picture(p["text"], p["html"], no_pictures.lang_of(p["report"]))
            elif picture and p.get("picture_cid"):   # issue 38: a seat's 'command: no-pictures' is honoured above
                p["picture"] = picture
                cid = "cid:" + p["picture_cid"].strip("<>")
        if p["html"]:
            p["html"] = self.inlined(p["html"])
            if cid:   # after the styles: the report's HTML is the same for each of its readers' mails until here
                p["html"] = p["html"].replace(PICTURE_CID, cid)
        return p

    def inlined(self, html: str) -> str:
        """``inline_styles(html)``, kept for the last ``INLINED`` distinct HTML texts: the observers
        of a match who read one language get one report, whose mails go out one after another
        (a hit compares the whole text: a dict's key)."""
        done = self._inlined.get(html)
        if done is None:
            done = inline_styles(html)
            with self._lock:   # a service's closing thread may build a mail meanwhile (a GM's preview)
                self._inlined[html] = done
                while len(self._inlined) > INLINED:
                    self._inlined.popitem(last=False)
        return done

    def report_body(self, ref: dict) -> tuple[str, str | None, str | None]:
        """(text, HTML, picture SVG) of a turn's report: the bodies from the archive,
        or, until the archive holds them, from the turn's result."""
        turn = self.store.turn(ref["match"], ref["turn"])
        result = self._result(ref, turn) if turn and turn["rev"] == ref["rev"] else {}
        kept = result.get("mails", {}).get(ref["who"], {})
        picture = (result.get("pictures") or {}).get(kept.get("picture") or "")   # kept once for all readers
        text = self.archive.read_report(ref["match"], ref["turn"], ref["rev"], ref["name"] + ".txt")
        if text is not None:
            return text, self.archive.read_report(ref["match"], ref["turn"], ref["rev"], ref["name"] + ".html"), picture
        if "text" not in kept:
            raise LookupError(f"report {ref['name']} of {ref['match']} turn {ref['turn']}.{ref['rev']} is nowhere")
        return kept["text"], kept["html"], picture

    def _result(self, ref: dict, turn) -> dict:
        """A turn's result, decoded once for all its readers' reports (sent one after
        another); a hit must match the stored text (a rollback makes the turn again)."""
        key = (ref["match"], ref["turn"], ref["rev"])
        raw = turn.raw("result") if hasattr(turn, "raw") else None
        held = self._results.get(key)
        if held is not None and raw is not None and held[0] == raw:
            return held[1]
        result = turn["result"] or {}
        if raw is not None:
            if len(self._results) >= 8:
                self._results.clear()
            self._results[key] = (raw, result)
        return result


PICTURE_CID = "cid:board-picture"   # what a report's HTML calls the picture until it is queued
INLINED = 8   # HTML texts kept with their styles inline (a report's is ~25 kB, inlined ~65 kB)


def _extras(p: dict) -> dict:
    """The picture (PNG, rendered from the queued SVG), calendar and order page parts of a queued message."""
    png = pictures.cached_png(p["picture"]) if p.get("picture") else None
    page = p.get("page")
    return {"picture": png, "picture_cid": p.get("picture_cid") if png else None, "calendar": p.get("calendar"),
            "page": (page["name"], page_html(page)) if page else None}

"""Queueing outgoing mail: every mail the referee writes is put here, rendered,
under a dedupe key; the outbox (``outbox.Outbox``) sends it later."""
from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Callable

from referee import checks, pictures
from referee.authority.base import Settings
from referee.mail.compose import compose
from referee.mail.wire import compose_bytes, envelope_of


class MailQueue:
    def __init__(self, store, settings: Settings, now: Callable[[], datetime]) -> None:
        self.store, self.settings, self.now = store, settings, now

    def queue(self, dedupe: str, match_id: str | None, to: str, subject: str, text: str,
              html: str | None = None, *, reply_to=None, auto: str = "auto-generated",
              picture: str | None = None, calendar: str | None = None) -> bool:
        """Queue a rendered message once per dedupe key.  The outbox keeps the
        rendered parts; the MIME message is assembled when it is sent.  Its
        Message-ID follows from the dedupe key, so a message rebuilt after a
        crash is the same message.  ``picture`` is the board's SVG (kept as
        text, turned into PNG when sent; the HTML names it ``cid:board-picture``),
        ``calendar`` an iCalendar part."""
        digest = hashlib.sha256(dedupe.encode()).hexdigest()[:32]
        parts = {"from": self.settings.address, "to": to, "subject": subject, "text": text, "html": html,
                 "auto": auto, "message_id": f"<{digest}@{self.settings.domain}>", "date": self.now().isoformat(),
                 "in_reply_to": None, "references": []}
        if picture is not None:
            cid = f"board.{digest}@{self.settings.domain}"
            parts.update(picture=picture, picture_cid=f"<{cid}>",
                         html=html.replace(PICTURE_CID, f"cid:{cid}") if html is not None else None)
        if calendar is not None:
            parts["calendar"] = calendar
        if reply_to is not None:  # only ids that can go into a header: the sender wrote them
            refs = [r for r in reply_to.references if checks.message_id(r)]
            parts.update(auto="auto-replied", references=refs,
                         in_reply_to=reply_to.message_id if checks.message_id(reply_to.message_id) else None)
        data = json.dumps(parts, ensure_ascii=False).encode("utf-8")
        return self.store.enqueue(dedupe, match_id, to, data, self.now())

    def wire_message(self, data: bytes) -> tuple[bytes, str, list[str]]:
        """(wire bytes, MAIL FROM, RCPT TO) of a queued entry: the very bytes
        ``build_message`` would serialise to, made without EmailMessage."""
        p = json.loads(data)
        raw = compose_bytes(p["from"], p["to"], p["subject"], p["text"], p["html"], auto=p["auto"],
                            domain=self.settings.domain, message_id=p["message_id"],
                            date=datetime.fromisoformat(p["date"]), in_reply_to=p["in_reply_to"],
                            references=p["references"], **_extras(p))
        return (raw, *envelope_of(p["from"], [p["to"]]))

    def build_message(self, data: bytes):
        """The outgoing message (``EmailMessage``, SMTP policy) from a queued entry."""
        p = json.loads(data)
        return compose(p["from"], p["to"], p["subject"], p["text"], p["html"], auto=p["auto"],
                       domain=self.settings.domain, message_id=p["message_id"],
                       date=datetime.fromisoformat(p["date"]), in_reply_to=p["in_reply_to"],
                       references=p["references"], **_extras(p))


PICTURE_CID = "cid:board-picture"   # what a report's HTML calls the picture until it is queued


def _extras(p: dict) -> dict:
    """The picture (PNG, rendered from the queued SVG) and calendar parts of a queued message."""
    png = pictures.cached_png(p["picture"]) if p.get("picture") else None
    return {"picture": png, "picture_cid": p.get("picture_cid") if png else None, "calendar": p.get("calendar")}

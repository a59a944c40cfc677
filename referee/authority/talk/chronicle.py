"""The chronicle (issue 18): the GM's story of the match, heading the next report
of every player and observer (or of named seats only), and players' in-character
letters, held until the GM approves (then published the same way) or declines them.

Entries are numbered within the match; ``approve``/``decline`` name a letter by its
number.  What is published is stored with the turn whose reports it heads and
written to ``tNNN/chronicle.yaml``; the match's pages show what is for everyone."""
from __future__ import annotations

import email
import re
from email import policy

from referee.authority.replies import Handled
from referee.authority.talk.press import clean_text
from referee.authority.talk.talk_archive import write_chronicle
from referee.authority.wording import Own, Refusal
from referee.intake import checks
from referee.store.talk import TalkRecords

MAX_CHRONICLE = 20_000      # characters of one chronicle entry
MAX_LETTER = 4_000          # characters of one letter
MAX_FILE = 64_000           # bytes of an attached Markdown file
MAX_HELD = 3                # letters of one player waiting for the GM
MAX_PARTS = 100             # MIME parts looked at for the attachment
MAX_REASON = 400
# what heads one turn's reports, chronicle entries and approved letters together: every
# report and its HTML twin carry them (30 entries of 20,000 characters made 1.35 MB mails)
MAX_TURN_ENTRIES = 10
MAX_TURN_CHARS = 40_000
_FILE_NAME = re.compile(r"\.(md|markdown|txt)$", re.I)


GM_KEYS = {"chronicle": ("text", "title", "seats", "for"), "approve": ("number", "letter"),
           "decline": ("number", "letter", "reason")}


def _known_keys(command: str, args: dict) -> None:
    """A misspelt key is refused (a 'seat:' for 'seats:' must not publish to everyone)."""
    for key in args:
        if key not in GM_KEYS[command]:
            raise Refusal("talk.unknown_key", str(key), key=checks.echo(key), command=command,
                          known=", ".join(GM_KEYS[command]))


def _number(value) -> int:
    try:
        return checks.integer(value, 1, 1_000_000, "number")
    except (checks.Invalid, TypeError, ValueError):
        raise Refusal("letter.bad_number", "number") from None


def markdown_attachment(mail) -> str | None:
    """The text of the first attached .md/.txt (or text/markdown) file of ``mail``;
    a Refusal if it is too large, set aside as too large, or not text."""
    for name, _size in getattr(mail, "set_aside", ()) or ():
        if _FILE_NAME.search(name or ""):
            raise Refusal("chronicle.bad_file", name=checks.echo(name), limit=MAX_FILE)
    msg = email.message_from_bytes(mail.raw, policy=policy.default)
    for i, part in enumerate(msg.walk()):
        if i > MAX_PARTS:
            break
        if part.is_multipart():
            continue
        name = part.get_filename() or ""
        ctype = part.get_content_type()
        if not (_FILE_NAME.search(name) or ctype in ("text/markdown", "text/x-markdown")):
            continue
        if part.get_content_disposition() != "attachment" and not name:
            continue
        payload = part.get_payload(decode=True) or b""
        try:
            if len(payload) > MAX_FILE:
                raise UnicodeError
            return payload.decode(part.get_content_charset() or "utf-8")
        except (LookupError, UnicodeError):
            raise Refusal("chronicle.bad_file", name=checks.echo(name or ctype), limit=MAX_FILE) from None
    return None


class Chronicle:
    def __init__(self, store, archive, renderer, lookups, queue, replies, settings, now) -> None:
        self.store, self.archive, self.renderer, self.lookups, self.queue = store, archive, renderer, lookups, queue
        self.replies, self.settings, self.now = replies, settings, now
        self.records = TalkRecords(store)

    # -- the GM -----------------------------------------------------------------
    def write(self, match_id: str, args: dict, mail=None) -> str:
        """``chronicle``: text (or an attached Markdown file), optional title and seats."""
        _known_keys("chronicle", args)
        with self.store.transaction():
            match, turn = self._open(match_id)
            text = clean_text(args.get("text"))
            if text is None and mail is not None:
                text = clean_text(markdown_attachment(mail))
            if text is None:
                raise Refusal("chronicle.no_text", "command", command="chronicle")
            if len(text) > MAX_CHRONICLE:
                raise Refusal("chronicle.too_long", "text", length=len(text), limit=MAX_CHRONICLE)
            title = self._title(args.get("title"))
            seats = self._seats(match, args.get("seats", args.get("for")))
            self._room(match_id, turn["number"], len(text) + len(title or ""), "chronicle.turn_full", "text")
            number = self.records.add_entry(match_id, "chronicle", "@gm", "published", turn["number"], seats, title,
                                            text, self.now())
            write_chronicle(self.archive, self.records, match_id, turn["number"])
        return f"chronicle {number} heads the reports of turn {turn['number']}"

    def decide(self, match_id: str, approve: bool, args: dict) -> str:
        """``approve`` / ``decline`` a held letter by number (decline: an optional reason for its writer)."""
        _known_keys("approve" if approve else "decline", args)
        number = _number(args.get("number", args.get("letter")))
        reason = checks.echo(args["reason"], MAX_REASON) if args.get("reason") is not None else None
        with self.store.transaction():
            match, turn = self._open(match_id)
            letter = self.records.entry(match_id, number)
            if letter is None or letter["kind"] != "letter" or letter["status"] != "held":
                raise Refusal("letter.none", "number", number=number)
            if approve:
                self._room(match_id, turn["number"], len(letter["text"]) + len(letter["title"] or ""),
                           "letter.turn_full", "number", number=number)
            self.records.decide(match_id, number, "published" if approve else "declined",
                                turn["number"] if approve else None)
            if approve:
                write_chronicle(self.archive, self.records, match_id, turn["number"])
            writer = self.store.player(match_id, letter["author"])
            if writer is not None:
                lang = self.lookups.lang_of(match, writer)
                subject, text = self.renderer.mail("letter_decided", lang, match=self._ctx(match), number=number,
                                                   approved=approve, reason=reason, turn=turn["number"],
                                                   title=letter["title"])
                self.queue.queue(f"letter-decided:{match_id}:{number}", match_id, writer["email"], subject, text)
        return f"letter {number} " + (f"heads the reports of turn {turn['number']}" if approve else "declined")

    # -- players ------------------------------------------------------------------
    def letter(self, mail, match, player, env, doc) -> Handled:
        lang = self.lookups.lang_of(match, player)

        def refuse(code: str, params: dict | None = None, where: str | None = None) -> Handled:
            at = _at(doc, where) if where else ()
            return self.replies.refuse(mail, match, lang, [Own(code, params or {}, *at)], player=player, code=code)

        unknown = [str(k) for k in env.args if k not in ("text", "title")]
        if unknown:
            return refuse("talk.unknown_key", {"key": unknown[0], "command": "letter", "known": "text, title"}, unknown[0])
        if match["status"] == "ended":
            return refuse("chronicle.ended")
        text = clean_text(env.args.get("text"))
        if text is None:
            return refuse("chronicle.no_text", {"command": "letter"}, "command")
        if len(text) > MAX_LETTER:
            return refuse("chronicle.too_long", {"length": len(text), "limit": MAX_LETTER}, "text")
        try:
            title = self._title(env.args.get("title"))
        except Refusal as e:
            return refuse(e.code, e.params, "title")
        held = self.records.held(match["id"], player["id"])
        if len(held) >= MAX_HELD:
            return refuse("letter.too_many", {"count": len(held)})
        number = self.records.add_entry(match["id"], "letter", player["id"], "held", None, None, title, text,
                                        self.now())
        ctx = self._ctx(match)
        subject, body = self.renderer.mail("letter_held", self.lookups.lang_of(match), match=ctx, number=number,
                                           writer={"id": player["id"], "name": player["name"]}, title=title, text=text)
        self.queue.queue(f"letter-held:{match['id']}:{number}", match["id"], match["gm_email"], subject, body)
        subject, body = self.renderer.mail("letter_received", lang, match=ctx, number=number)
        self.replies.reply(mail, match, player, subject, body)
        return Handled("processed", "letter", match["id"], player["id"])

    # -- helpers --------------------------------------------------------------------
    def _room(self, match_id: str, turn: int, length: int, code: str, where: str, **params) -> None:
        """Refuse an entry of ``length`` characters that would take the turn's heading past its caps."""
        entries = self.records.published(match_id, turn)
        chars = sum(len(e["text"]) + len(e["title"] or "") for e in entries)
        if len(entries) >= MAX_TURN_ENTRIES or chars + length > MAX_TURN_CHARS:
            raise Refusal(code, where, turn=turn, count=len(entries), chars=chars, length=length,
                          max_entries=MAX_TURN_ENTRIES, max_chars=MAX_TURN_CHARS, **params)

    def _open(self, match_id: str):
        match = self.store.match(match_id)
        turn = self.store.current_turn(match_id)
        if match["status"] == "ended" or turn is None or turn["status"] != "open":
            raise Refusal("chronicle.ended")
        return match, turn

    def _ctx(self, match) -> dict:
        return self.lookups.match_ctx(match, self.lookups.rules(match))

    def _title(self, value) -> str | None:
        if value is None:
            return None
        try:
            return checks.header_text(str(value) if isinstance(value, (int, float)) else value, "title", checks.MAX_NAME)
        except (checks.Invalid, TypeError):
            raise Refusal("chronicle.bad_title", "title") from None

    def _seats(self, match, value) -> list[str] | None:
        """None: everyone (and the observers); else the seats named."""
        if value is None:
            return None
        words = re.split(r"[,\s]+", value[:4000]) if isinstance(value, str) else value if isinstance(value, list) else [value]
        words = [w for w in words[:61] if w not in (None, "")]
        if any(isinstance(w, str) and w.strip().lower() in ("all", "alle") for w in words) or not words:
            return None
        seats = {p["id"] for p in self.store.players(match["id"])}
        unknown = [checks.echo(w, 40) for w in words if not (isinstance(w, str) and w.strip().lower() in seats)]
        if unknown:
            raise Refusal("press.bad_seats", "seats", seats=", ".join(f"'{u}'" for u in unknown[:5]),
                          known=", ".join(sorted(seats)[:60]))
        return sorted({w.strip().lower() for w in words})


def _at(doc, key: str) -> tuple:
    try:
        return tuple(doc.position((key,)))
    except Exception:
        return ()

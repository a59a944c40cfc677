"""``referee check FILE``: an order file checked offline against its match's
current turn, with the problems phrased as the referee's refusal would phrase
them.  The reading and the checks are the intake's own (``referee.intake``)
and the authority's wording; only the key cannot be checked here (it is
stored hashed and is the referee's to verify when the mail comes)."""
from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from referee.authority.gate.intake import _at
from referee.authority.wording import Own, describe
from referee.intake import Document, read_envelope, read_text

MAX_BYTES = 256_000     # the referee reads no larger mail either


def check_file(ref, path: Path, lang: str | None = None) -> tuple[list[str], bool]:
    """(lines to print, whether the orders would be accepted)."""
    raw = path.read_bytes()
    if len(raw) > MAX_BYTES:
        return _said([Own("mail.too_large")], lang or "en", None), False
    text = raw.decode("utf-8", errors="replace")
    # read as the whole document; places are said as for a mail body ("Line 4, column 7: ...")
    found = read_text(text, "body", whole=True)
    if not isinstance(found, Document):
        return _said(found, lang or _seat_lang(ref, text), None), False
    doc = found
    env = read_envelope(doc)
    if isinstance(env, list):
        return _said(env, lang or _seat_lang(ref, text), doc.source), False
    problems, seat_lang = _against_match(ref, env, doc, lang)
    said = _said(problems, seat_lang, doc.source)
    ok = not any(getattr(p, "severity", "error") == "error" for p in problems)
    if ok:
        said.append(_WORDS.get(seat_lang, _WORDS["en"])["ok"])
    return said, ok


# a document that does not read names its seat in plain lines, if at all: the first of each, capped
_SEAT_LINE = re.compile(r"^(match|player):[ \t]*[\"']?([A-Za-z0-9_.@-]{1,64})", re.M)


def _seat_lang(ref, text: str) -> str:
    """The language of the seat a document that does not read names in its 'match:' and
    'player:' lines (the match's, without a known player; English, without a known match)."""
    named: dict[str, str] = {}
    for m in _SEAT_LINE.finditer(text):
        named.setdefault(m.group(1), m.group(2))
        if len(named) == 2:
            break
    match = ref.store.match(named["match"]) if "match" in named else None
    if match is None:
        return "en"
    return ref.lookups.lang_of(match, ref.store.player(match["id"], named.get("player", "")))


# every line of the answer in the one language of the problems
_WORDS = {"en": {"warning": "warning", "error": "error",
                 "ok": "ok: these orders would be accepted (the key is checked when the mail comes)"},
          "de": {"warning": "Warnung", "error": "Fehler",
                 "ok": "ok: diese Befehle würden angenommen (der Schlüssel wird geprüft, wenn die Mail kommt)"}}


def _against_match(ref, env, doc, asked) -> tuple[list, str]:
    store = ref.store
    match = store.match(env.match)
    if match is None:
        return [Own("match.unknown", {"match": env.match}, *_at(doc, "match"))], asked or "en"
    lang = asked or ref.lookups.lang_of(match)
    player = store.player(match["id"], env.player)
    if player is None:
        return [Own("player.unknown", {"match": match["id"], "player": env.player}, *_at(doc, "player"))], lang
    lang = asked or ref.lookups.lang_of(match, player)
    turn = store.current_turn(match["id"])
    if match["status"] == "ended":
        return [Own("match.ended", {"match": match["id"]})], lang
    if env.turn is not None and env.turn != turn["number"]:
        return [Own("turn.wrong", {"sent": env.turn, "current": turn["number"]}, *_at(doc, "turn"))], lang
    if turn["deadline"] and not ref.lookups.timing(match).accepts_orders(datetime.fromisoformat(turn["deadline"]), ref.now()):
        info = ref.lookups.deadline_info(match, turn, lang)
        return [Own("turn.late", {"current": turn["number"], "deadline": info["local"]})], lang
    stage = turn["awaiting"].get(player["id"])
    if stage is None:
        return [Own("turn.not_awaited", {"current": turn["number"]})], lang
    if env.orders is None:
        return [Own("orders.missing")], lang
    rules = ref.rules(match)
    state = ref.turn_state(rules, match["id"], turn)
    _, problems = ref.orders.reader.check_orders(rules, state, stage, player["id"], env.orders, doc)
    return list(problems) + list(getattr(doc, "notes", ())), lang


def _said(problems, lang: str, source: str | None) -> list[str]:
    words = _WORDS.get(lang, _WORDS["en"])
    return [f"{words['warning' if getattr(p, 'severity', 'error') == 'warning' else 'error']}: {describe(p, lang, source)}"
            for p in problems]

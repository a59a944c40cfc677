"""The clickable order page (issue 36): one self-contained HTML file a mail to a seat
that owes orders carries as ``orders-<match>-t<N>.html``.

The page is the same script and style sheet for every game (``templates/order_page/``);
what differs is a small JSON block: the stage's schema as ``order_shape`` reduces it, the
game's ``order_choices`` (what may be chosen here, labelled in the reader's language), the
game's ``order_form`` read as the starting values, the envelope (match, player, turn, the
referee's address and the subject) and the page's words in the reader's language.  An
outbox row keeps only that block (``page_data``); the page is made when the mail is built
(``page_html``).  The key is never in it: the player types it on the page.

The page loads nothing: a Content-Security-Policy lets run only the one script and
style sheet whose hashes it names, so a label that escaped its quoting could not run.
"""
from __future__ import annotations

import base64
import functools
import hashlib
import json
import logging
import re
from html import escape
from typing import Any

import yaml

from referee.render.order_shape import shape
from referee.render.order_words import WORDS, field_labels, subject_of
from referee.render.renderer import template_root

log = logging.getLogger("referee.render.order_page")

MAX_PATHS = 200       # choice lists a game may offer on one page
MAX_VALUES = 400      # values in one choice list
MAX_LABEL = 200       # characters of one label
MAX_VALUE = 120       # characters of one string value
MAX_DATA = 120_000    # bytes of the page's JSON block: a bigger one is not attached
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # the same data: a form read in 0.03 ms, not 0.8 ms (FF, CPU)


class PageTooBig(ValueError):
    """The page's data is over ``MAX_DATA``: the mail goes without the page."""


def page_name(match_id: str, turn: int) -> str:
    """The attachment's file name (match ids are checked ids; anything else is replaced)."""
    return f"orders-{re.sub(r'[^A-Za-z0-9_-]', '_', match_id)[:64]}-t{int(turn)}.html"


def choices_of(rules, state, player: str, lang: str) -> dict[str, list[list[Any]]]:
    """The game's ``order_choices`` capped and checked: {path: [[value, label(, when)], ...]}."""
    hook = getattr(rules, "order_choices", None)
    raw = hook(state, player, lang) if hook is not None else {}
    out: dict[str, list[list[Any]]] = {}
    for path, items in list((raw or {}).items())[:MAX_PATHS]:
        if not isinstance(path, str) or len(path) > 200:
            continue
        kept = []
        for item in list(items or ())[:MAX_VALUES]:
            value = item.get("value") if isinstance(item, dict) else None
            if isinstance(value, str):
                value = value[:MAX_VALUE]
            elif not isinstance(value, (int, float, bool)):
                continue
            label = str(item.get("label") or value)[:MAX_LABEL]
            when = _when(item.get("when"))
            kept.append([value, label, when] if when else [value, label])
        out[path] = kept
    return out


def _when(raw: Any) -> dict[str, list] | None:
    """A choice's ``when`` ({field of its record: [values]}: offered only while that field holds
    one of them), capped like the choices; anything else is dropped."""
    if not isinstance(raw, dict):
        return None
    out = {}
    for key, values in list(raw.items())[:8]:
        if isinstance(key, str) and len(key) <= 64 and isinstance(values, (list, tuple)):
            out[key] = [v for v in list(values)[:MAX_VALUES] if isinstance(v, (str, int, float, bool))]
    return out or None


def start_values(form: str) -> dict:
    """The game's order form (the ``orders:`` mapping as YAML) as the page's first values."""
    try:
        data = yaml.load(form, Loader=_LOADER) if form.strip() else {}
    except yaml.YAMLError:
        return {}
    return data if isinstance(data, dict) else {}


def page_data(rules, state, player: str, lang: str, *, match_id: str, turn: int, stage: str,
              address: str, title: str, player_name: str, form: str | None = None) -> dict:
    """Everything a page differs by, as plain data (kept in the outbox row)."""
    lang = lang if lang in WORDS else "en"
    tree = _tree(rules.order_schema(state, stage))
    if form is None:
        form = rules.order_form(state, player, lang)
    data = {"lang": lang, "w": WORDS[lang], "name": page_name(match_id, turn),
            "h": {"match": match_id, "player": player, "turn": int(turn)},
            "to": address, "subj": subject_of(lang, match_id, turn),
            "title": f"{title} · {player_name}",
            "s": tree, "c": choices_of(rules, state, player, lang), "v": start_values(form),
            "lb": field_labels(rules, lang)}
    if len(_json(data)) > MAX_DATA:
        raise PageTooBig(f"the order page's data is over {MAX_DATA} bytes")
    return data


def offer(rules, state, player: str, lang: str, *, match_ctx: dict, turn: int, stage: str | None,
          address: str, player_name: str, form: str | None = None) -> dict | None:
    """``page_data`` for a mail to ``player``, or None when they owe nothing or the page cannot be
    made: the page is an offer, and the mail goes without it (logged) rather than not at all."""
    if not stage or form == "":
        return None
    try:
        return page_data(rules, state, player, lang, match_id=match_ctx["id"], turn=turn, stage=stage,
                         address=address, title=match_ctx["title"], player_name=player_name, form=form)
    except Exception:   # noqa: BLE001 — a game's hook or schema must not cost the player the mail
        log.exception("no order page for %s in %s turn %s", player, match_ctx.get("id"), turn)
        return None


@functools.lru_cache(maxsize=64)
def _tree(model) -> dict:
    """The page's tree of a stage's model, made once a model (a close asks it once a reader);
    the page only reads it."""
    return shape(model.model_json_schema())


def _json(data: dict) -> str:
    """JSON that is safe inside a ``<script type="application/json">``: no ``<``, ``>``, ``&``
    and no line separators that older parsers end a line at."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for ch, esc in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                    ("\u2029", "\\u2029")):
        text = text.replace(ch, esc)
    return text


@functools.lru_cache(maxsize=1)
def _skeleton() -> tuple[str, ...]:
    """The page's HTML with the style sheet, script and CSP in place, split at the slots left."""
    folder = template_root() / "order_page"
    css = (folder / "page.css").read_text("utf-8").strip()
    # the script as the mail carries it: without indentation and comment lines (no line holds
    # a string running on to the next, so this changes nothing the script does)
    js = "\n".join(line.strip() for line in (folder / "page.js").read_text("utf-8").splitlines()
                   if line.strip() and not line.strip().startswith("//"))
    html = (folder / "page.html").read_text("utf-8").strip()

    def digest(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"
    csp = (f"default-src 'none'; script-src {digest(js)}; style-src {digest(css)}; "
           "img-src 'none'; connect-src 'none'; form-action 'none'; base-uri 'none'")
    pieces = _SLOT.split(html)
    pieces[1::2] = [{"CSS": css, "JS": js, "CSP": csp}.get(name, "{{" + name + "}}") for name in pieces[1::2]]
    return tuple(_SLOT.split("".join(pieces)))


_SLOT = re.compile(r"\{\{([A-Z]+)\}\}")


def page_html(data: dict) -> str:
    """The whole page of ``data`` (``page_data``): the slots filled in one pass, so no
    value can put a slot of its own into the page."""
    pieces = list(_skeleton())
    values = {"LANG": escape(data["lang"]), "DATA": _json(data),
              "TITLE": escape(data["w"]["title"].format(turn=data["h"]["turn"]) + " · " + data["title"])}
    pieces[1::2] = [values[name] for name in pieces[1::2]]
    return "".join(pieces)

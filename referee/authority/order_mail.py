"""What an order form carries besides the game's form, and a resent report's form.

Every form the referee sends (welcome, report, reminder) is a whole order mail:
the envelope on top, then the game's form under ``orders:``
(``templates/mail/_parts.*.j2``).  When ``referee.yaml`` names the public
address of the match sites (``site_url:``), its first line is
``# yaml-language-server: $schema=<url>``: the JSON Schema that ``referee site``
publishes for the stage, at ``<site_url>/<match>/schemas/<stage>.json`` (the
site's default folder is ``site/<match>``), so an editor with the YAML
language server checks the order while it is written.

A report resent later (``command: resend``) is the archived original; if the
turn its form was for has closed since, the form is cut off (it would be
refused), and the player's current form put in its place if one is owed.
"""
from __future__ import annotations

import re
from urllib.parse import quote

from markupsafe import escape

from referee.game_api import registry

# how the report wrapper (templates/mail/report.*.txt.j2) starts its form section
FORM_HEAD = {"en": "\n\nYour orders for turn {turn}: ", "de": "\n\nDeine Befehle für Zug {turn}: "}
HTML_MARK = "<!-- order-form -->"   # report_html.en.html.j2 puts it before the form
_BODY_END = re.compile(r"</body>\s*</html>\s*$")

STALE = {
    "en": "\n\n(The order form of turn {turn} is left out of this copy: that turn is closed.)\n",
    "de": "\n\n(Das Befehlsformular für Zug {turn} fehlt in dieser Kopie: dieser Zug ist abgeschlossen.)\n",
}
CURRENT = {
    "en": "Your orders for the current turn {turn}: fill in, put your key in place of YOUR-KEY, and send "
          "this to the referee.\n\n",
    "de": "Deine Befehle für den laufenden Zug {turn}: ausfüllen, deinen Schlüssel statt DEIN-SCHLUESSEL "
          "einsetzen und an den Schiedsrichter schicken.\n\n",
}
PLACEHOLDER = {"en": "YOUR-KEY", "de": "DEIN-SCHLUESSEL"}


def schema_url(site_url: str | None, match_id: str, stage: str | None) -> str | None:
    """Where ``referee site`` publishes the schema of ``stage``'s order document
    under the configured public address; None without one (then no schema line)."""
    if not site_url or not stage:
        return None
    return f"{site_url.rstrip('/')}/{quote(match_id, safe='')}/schemas/{quote(stage, safe='')}.json"


def order_mail(match_id: str, player_id: str, turn: int, form: str, lang: str, schema: str | None = None) -> str:
    """The whole order mail as text (what ``_parts.envelope`` writes), key still to fill in."""
    head = f"# yaml-language-server: $schema={schema}\n" if schema else ""
    body = "".join("  " + line if line.strip() else line for line in form.rstrip().splitlines(True))
    return (f"{head}match: {match_id}\nplayer: {player_id}\nkey: {PLACEHOLDER.get(lang, 'YOUR-KEY')}\n"
            f"turn: {turn}\norders:\n{body}\n")


def replace_stale_form(text: str, html: str | None, lang: str, closed_turn: int,
                       current: tuple[int, str] | None) -> tuple[str, str | None]:
    """A resent report without the form of ``closed_turn`` (closed since it was sent);
    with ``current`` (turn, whole order mail) the player's form for the open turn instead."""
    head = FORM_HEAD.get(lang, FORM_HEAD["en"]).format(turn=closed_turn)
    at = text.rfind(head)
    if at < 0:
        return text, html
    note = STALE.get(lang, STALE["en"]).format(turn=closed_turn)
    extra = ""
    if current is not None:
        extra = "\n" + CURRENT.get(lang, CURRENT["en"]).format(turn=current[0]) + current[1]
    text = text[:at] + note + extra
    if html is not None and HTML_MARK in html:
        cut = html[:html.rfind(HTML_MARK)]
        tail = f"<p>{escape(note.strip())}</p>\n"
        if current is not None:
            tail += (f"<p>{escape(CURRENT.get(lang, CURRENT['en']).format(turn=current[0]).strip())}</p>\n"
                     f"<pre style=\"white-space: pre-wrap\">{escape(current[1])}</pre>\n")
        html = cut + tail + "</body></html>\n" if _BODY_END.search(html) else cut + tail
    return text, html


def stale_form(store, lookups, match: dict, player: dict, past: dict, lang: str) -> dict:
    """What a resend of ``past``'s report must change (``{"stale_form": ...}`` for the
    outbox row's report reference), or {} when its form is still the one to answer."""
    current = store.current_turn(match["id"])
    form_turn = past["number"] + 1
    if current is None or (current["number"] == form_turn and current["status"] == "open"):
        return {}
    now = None
    if current["status"] == "open" and match["status"] != "ended" and player["id"] in current["awaiting"]:
        rules = lookups.rules(match)
        form = rules.order_form(lookups.turn_state(rules, match["id"], current), player["id"], lang)
        if form:
            url = schema_url(lookups.settings.site_url, match["id"], current["awaiting"][player["id"]])
            now = [current["number"], order_mail(match["id"], player["id"], current["number"], form, lang, url)]
    return {"stale_form": {"turn": form_turn, "lang": lang, "current": now}}


def rules_page_name(lang: str) -> str:
    """The match site's page with the game's rules for players in ``lang`` (site/build.py)."""
    return f"rules.{lang}.html"


def rules_for_mail(rules, lang: str, site_url: str | None, match_id: str) -> dict | None:
    """Where a welcome sends a reader for the rules (issue 33): the match site's rules page when
    the sites are published (``site_url``), else the text itself; None if the game has none."""
    if lang not in rules.languages or registry.player_rules(rules, lang) is None:
        lang = rules.languages[0]
    text = registry.player_rules(rules, lang)
    if text is None:
        return None
    if site_url:
        return {"url": f"{site_url.rstrip('/')}/{quote(match_id, safe='')}/{rules_page_name(lang)}", "text": None}
    return {"url": None, "text": text.rstrip()}


def queue_rules_mail(renderer, queue, about: dict | None, match_ctx: dict, tag: str, address: str, lang: str) -> None:
    """Without a site to link, the rules come in a mail of their own — never inside the mail with
    the order form, where a reply quoting the form would carry each example as another document."""
    if about and about["text"]:
        subject, text = renderer.mail("rules", lang, match=match_ctx, text=about["text"])
        queue.queue(tag, match_ctx["id"], address, subject, text)

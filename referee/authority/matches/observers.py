"""An observer's welcome: what the match is, the game in brief, the position now and the
seats bots play.  One mail, whether the match file names the observer (at creation) or the
GM adds one later; queued under one key, so an observer is welcomed once."""
from __future__ import annotations

from referee.authority.matches.bot_seats import other_bots
from referee.authority.matches.position import position_text, summary_text
from referee.authority.order_mail import rules_for_mail


def welcome_observer(parts, match: dict, turn: dict, rules, state, email: str, lang: str | None) -> None:
    """``parts``: what the authority's parts share (``store``, ``renderer``, ``lookups``, ``queue``)."""
    lookups = parts.lookups
    lang = lang or lookups.lang_of(match)
    ctx = lookups.match_ctx(match, rules)
    subject, text = parts.renderer.mail(
        "observer_welcome", lang, match=ctx, summary=summary_text(rules, lang),
        rules_for_players=rules_for_mail(rules, lang, lookups.settings.site_url, match["id"]),
        position=position_text(parts.renderer, rules, ctx, state, None, lang, turn["number"] - (turn["status"] == "open"),
                               lookups.names(match["id"])),
        bots=other_bots(parts.store, match["id"], ""))
    parts.queue.queue(f"observer_welcome:{match['id']}:{email}", match["id"], email, subject, text)

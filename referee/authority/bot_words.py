"""The words of issue 35's bot seats, in en + de: the GM's refusals (``wording.TEXTS``
takes them in, see the block at its end) and the match file's problems with a bot
option (``spec.BotProblem``, said in the GM's language by ``MatchError.said``)."""
from __future__ import annotations

BOT_TEXTS: dict[str, dict[str, str]] = {
    "gm.bad_bot": {
        "en": "'bot: {value}' is not true, false or a bot strength ({known}).",
        "de": "'bot: {value}' ist weder true noch false noch eine Spielstärke ({known})."},
    "gm.bot_and_email": {
        "en": "'replace' gives the seat either to a bot ('bot: true') or to a person ('email:'), not both.",
        "de": "'replace' gibt den Platz entweder einem Bot ('bot: true') oder einer Person ('email:'), nicht beidem."},
}

# the match file's bot options: (en, de), with {where} the field and {known} the strengths
SPEC_TEXTS: dict[str, tuple[str, str]] = {
    "bot.value": ("{where}: bot is true, false or {{strength: ...}} with a strength of {known}",
                  "{where}: bot ist true, false oder {{strength: ...}} mit einer Spielstärke aus {known}"),
    "bot.email": ("{where}: a bot seat has no mail address (leave out email:)",
                  "{where}: ein Bot-Platz hat keine Mailadresse (email: weglassen)"),
    "bot.no_email": ("{where}: email is missing (only a bot seat, bot: true, has none)",
                     "{where}: email fehlt (nur ein Bot-Platz, bot: true, hat keine)"),
    "bot.dropouts": ("{where}: to_bot is true, false or a strength of {known}",
                     "{where}: to_bot ist true, false oder eine Spielstärke aus {known}"),
}

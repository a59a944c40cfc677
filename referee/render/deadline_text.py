"""Deadlines and durations as words, in the reader's language (babel's CLDR
data gives the day and month names, unit words and list joining)."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from babel.dates import format_date
from babel.lists import format_list
from babel.units import format_unit

# CLDR has no short name for Central European time in English; these are what
# players here write.  Zones without a letter abbreviation show their offset.
_ZONE_DE = {"CET": "MEZ", "CEST": "MESZ"}
_DATE = {"de": "EEEE, d. MMMM y"}
_TINY = {"en": "less than a minute", "de": "weniger als eine Minute"}


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError("a naive datetime has no place on a deadline; give a time zone")
    return moment.astimezone(UTC)


def _zone_name(moment: datetime, lang: str) -> str:
    name = moment.tzname() or ""
    if not name or name[0] in "+-":
        offset = moment.utcoffset() or timedelta(0)
        sign = "-" if offset < timedelta(0) else "+"
        minutes = abs(int(offset.total_seconds())) // 60
        return f"UTC{sign}{minutes // 60:02d}:{minutes % 60:02d}"
    return _ZONE_DE.get(name, name) if lang == "de" else name


def _date_text(moment: datetime, lang: str) -> str:
    return format_date(moment.date(), _DATE.get(lang, "EEEE, d MMMM y"), locale=lang)


def _clock(moment: datetime, lang: str) -> str:
    return f"{moment:%H:%M} Uhr" if lang == "de" else f"{moment:%H:%M}"


def format_local(moment: datetime, zone: str | ZoneInfo, lang: str = "en") -> str:
    """``Sunday, 29 March 2026, 20:00 CEST`` / ``Sonntag, 29. März 2026, 20:00 Uhr MESZ``."""
    local = _utc(moment).astimezone(ZoneInfo(zone) if isinstance(zone, str) else zone)
    return f"{_date_text(local, lang)}, {_clock(local, lang)} {_zone_name(local, lang)}"


def format_utc(moment: datetime, lang: str = "en") -> str:
    """``Sunday, 29 March 2026, 18:00 UTC``."""
    utc = _utc(moment)
    return f"{_date_text(utc, lang)}, {_clock(utc, lang)} UTC"


def format_deadline(moment: datetime, zone: str | ZoneInfo, lang: str = "en") -> str:
    """Local time with UTC in brackets (the UTC date only when it differs)."""
    utc = _utc(moment)
    local = utc.astimezone(ZoneInfo(zone) if isinstance(zone, str) else zone)
    utc_text = f"{_clock(utc, lang)} UTC" if utc.date() == local.date() else format_utc(moment, lang)
    return f"{format_local(moment, zone, lang)} ({utc_text})"


def format_duration(amount: timedelta, lang: str = "en") -> str:
    """``2 days and 3 hours`` / ``2 Tage und 3 Stunden`` (the two largest units)."""
    minutes = int(amount.total_seconds() // 60)
    if minutes < 1:
        return _TINY.get(lang, _TINY["en"])
    parts = [format_unit(value, unit, length="long", locale=lang)
             for value, unit in ((minutes // 1440, "duration-day"), (minutes // 60 % 24, "duration-hour"),
                                 (minutes % 60, "duration-minute")) if value]
    return format_list(parts[:2], locale=lang)

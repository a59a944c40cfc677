"""What an outbox row holds of a report instead of its body: the report's name in the archive
and where to find it, so a resend or a retry reads the very file the close wrote."""
from __future__ import annotations


def report_name(who: str, lang: str) -> str:
    """A report's file name in the archive, without .txt/.html: ``ann.en``, ``_gm.de``, ``_public.en``."""
    return who if "." in who else f"{who}.{lang}"


def report_ref(match_id: str, number: int, rev: int, who: str, m: dict) -> dict:
    """What an outbox row holds of a report instead of its body (``m``: the rendered or kept report)."""
    return {"match": match_id, "turn": number, "rev": rev, "who": who, "name": report_name(who, m["lang"]),
            "picture": bool(m.get("picture"))}

"""Pydantic validation errors phrased for players and game masters, in English and German.

Pydantic's own ``msg`` is English and talks about Python types; players get
the common error types rephrased here (by ``type`` and ``ctx``), with the
value they wrote.  Types not listed fall back to pydantic's message.  Part of
the game contract (``invalid_edition``): a game's edition check words its
errors the same way.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import ValidationError

_KIND = {  # (en, de) for the "wrong type" family
    "string": ("a word or text", "ein Wort oder ein Text"),
    "int": ("a whole number", "eine ganze Zahl"),
    "float": ("a number", "eine Zahl"),
    "bool": ("true or false", "true oder false"),
    "list": ("a list such as [a, b]", "eine Liste wie [a, b]"),
    "tuple": ("a list such as [a, b]", "eine Liste wie [a, b]"),
    "set": ("a list such as [a, b]", "eine Liste wie [a, b]"),
    "dict": ("indented 'name: value' lines", "eingerückte Zeilen 'Name: Wert'"),
    "model": ("indented 'name: value' lines", "eingerückte Zeilen 'Name: Wert'"),
}

_TYPE_KIND = {
    "string_type": "string", "int_type": "int", "int_parsing": "int", "int_from_float": "int",
    "float_type": "float", "float_parsing": "float", "bool_type": "bool", "bool_parsing": "bool",
    "list_type": "list", "tuple_type": "tuple", "set_type": "set", "frozen_set_type": "set",
    "dict_type": "dict", "model_type": "model", "model_attributes_type": "model",
}

_TEXTS: dict[str, tuple[str, str]] = {
    "missing": ("'{field}' is missing.", "'{field}' fehlt."),
    "extra_forbidden": ("'{field}' is not allowed here.", "'{field}' ist hier nicht erlaubt."),
    "literal_error": ("'{value}' is not one of the allowed values: {expected}.",
                      "'{value}' ist keiner der erlaubten Werte: {expected_de}."),
    "enum": ("'{value}' is not one of the allowed values: {expected}.",
             "'{value}' ist keiner der erlaubten Werte: {expected_de}."),
    "too_short": ("'{field}' needs at least {min_length} entries (has {actual_length}).",
                  "'{field}' braucht mindestens {min_length} Einträge (hat {actual_length})."),
    "too_long": ("'{field}' allows at most {max_length} entries (has {actual_length}).",
                 "'{field}' erlaubt höchstens {max_length} Einträge (hat {actual_length})."),
    "string_too_short": ("'{field}' must have at least {min_length} characters.",
                         "'{field}' muss mindestens {min_length} Zeichen haben."),
    "string_too_long": ("'{field}' may have at most {max_length} characters.",
                        "'{field}' darf höchstens {max_length} Zeichen haben."),
    "string_pattern_mismatch": ("'{value}' does not have the required form.",
                                "'{value}' hat nicht die verlangte Form."),
    "greater_than": ("'{field}' must be more than {gt}.", "'{field}' muss größer als {gt} sein."),
    "greater_than_equal": ("'{field}' must be at least {ge}.", "'{field}' muss mindestens {ge} sein."),
    "less_than": ("'{field}' must be less than {lt}.", "'{field}' muss kleiner als {lt} sein."),
    "less_than_equal": ("'{field}' must be at most {le}.", "'{field}' darf höchstens {le} sein."),
    "multiple_of": ("'{field}' must be a multiple of {multiple_of}.",
                    "'{field}' muss ein Vielfaches von {multiple_of} sein."),
    "union_tag_invalid": ("'{value}' is not one of the allowed kinds: {expected_tags}.",
                          "'{value}' ist keine der erlaubten Arten: {expected_tags_de}."),
    "union_tag_not_found": ("'{discriminator}' is missing.", "'{discriminator}' fehlt."),
    "value_error": ("{error}", "Ungültiger Wert: {error}"),
    "assertion_error": ("{error}", "Ungültiger Wert: {error}"),
}


def flow(value: Any, depth: int = 0) -> str:
    """A value as the player would write it in YAML flow style (``{buy: {column: 2}}``),
    never Python's repr of it; cut short after 60 characters."""
    if depth > 4:
        text = "..."
    elif isinstance(value, dict):
        text = "{" + ", ".join(f"{flow(k, depth + 1)}: {flow(v, depth + 1)}" for k, v in value.items()) + "}"
    elif isinstance(value, (list, tuple)):
        text = "[" + ", ".join(flow(v, depth + 1) for v in value) + "]"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif value is None:
        text = "null"
    else:
        text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."


_show = flow


def _german_list(text: str) -> str:
    return text.replace(" or ", " oder ").replace(" and ", " und ")


def phrase_error(error: dict) -> dict[str, str]:
    """``{"en": ..., "de": ...}`` for one entry of ``ValidationError.errors()``."""
    kind = error.get("type", "")
    ctx = dict(error.get("ctx") or {})
    loc = [p for p in error.get("loc", ()) if isinstance(p, (str, int))]
    names = [p for p in loc if isinstance(p, str)]
    field = str(loc[-1]) if loc else "orders"
    if isinstance(loc[-1] if loc else None, int) and names:
        field = f"{names[-1]} #{int(loc[-1]) + 1}"
    params = {"field": field, "value": _show(error.get("input")), **{k: _show(v) for k, v in ctx.items()}}
    params["expected_de"] = _german_list(str(ctx.get("expected", "")))
    params["expected_tags_de"] = _german_list(str(ctx.get("expected_tags", "")))
    if "error" in ctx:
        params["error"] = str(ctx["error"])
    if kind in _TYPE_KIND:
        en, de = _KIND[_TYPE_KIND[kind]]
        return {"en": f"'{field}' must be {en}, not '{params['value']}'.",
                "de": f"'{field}' muss {de} sein, nicht '{params['value']}'."}
    if kind in _TEXTS:
        en, de = _TEXTS[kind]
        try:
            return {"en": en.format(**params), "de": de.format(**params)}
        except (KeyError, IndexError, ValueError):
            pass
    msg = str(error.get("msg", kind))
    return {"en": f"'{field}': {msg}.", "de": f"'{field}': ungültig ({msg})."}


def place(loc: tuple) -> str:
    """A field's place as a GM reads it: ``players[3].bot`` (1-based list positions)."""
    out = ""
    for part in loc:
        out += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def invalid_edition(raw: Any, build: Callable[[dict], Any], most: int = 3) -> dict[str, str] | None:
    """Why ``raw`` (a match's ``options.edition``) makes no edition, as ``{"en": ..., "de": ...}``
    (a ``Problem`` parameter ``phrase`` words per language); None if ``build(raw)`` takes it
    (or there is none).  Pydantic's errors are worded as for orders, at most ``most`` of them,
    each with its place in the edition; a game's own ``ValueError`` keeps its words."""
    if raw is None:
        return None
    if isinstance(raw, str):
        return {"en": f"options.edition is a file name ({flow(raw)}); name an edition file at the top "
                      f"of the match file instead (edition: {flow(raw)}), or give the edition itself here",
                "de": f"options.edition ist ein Dateiname ({flow(raw)}); nenne eine Editionsdatei oben in der "
                      f"Partiedatei (edition: {flow(raw)}) oder gib die Edition selbst hier an"}
    if not isinstance(raw, Mapping):
        return {"en": f"options.edition must be a mapping (name: value lines), not {flow(raw)}",
                "de": f"options.edition muss eine Zuordnung (Zeilen Name: Wert) sein, nicht {flow(raw)}"}
    try:
        build(dict(raw))
    except ValidationError as e:
        errors = e.errors()
        words = []
        for err in errors[:most]:
            said = {lang: text.rstrip(".") for lang, text in phrase_error(err).items()}
            where = place(tuple(p for p in err.get("loc", ()) if isinstance(p, (str, int)))[:-1])
            words.append({lang: f"{where}: {text}" if where else text for lang, text in said.items()})
        more = len(errors) - most
        en, de = "; ".join(w["en"] for w in words), "; ".join(w["de"] for w in words)
        if more > 0:
            en, de = f"{en} (and {more} more)", f"{de} (und {more} weitere)"
        return {"en": en, "de": de}
    except (ValueError, TypeError) as e:   # the game's own checks (an unknown card, a count): its words
        text = str(e)[:500]
        return {"en": text, "de": text}
    return None

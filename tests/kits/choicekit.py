"""Checking a game's ``order_choices`` (issue 36): every value offered, put into an
orders mapping as a page would put it, must be orders the game takes as legal.

A choice's ``when`` ({field: [values]}) names fields of its record: the part of the
path up to its last ``*`` (one list item: a plan step, an influence), else its first
part (one phase of the session: ``ereigniskarte``).  ``witness`` builds the smallest
orders holding one offered value: the record's ``when`` fields, the fields the game
needs in such a record (``required``: a field, or a tuple of alternatives), and every
other field of the record whose offers all depend on what is set (a card's target).
A path that other offered paths continue offers the keys of a mapping (``abstimmung``)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def record_of(path: str) -> tuple[str, str]:
    """(the record's path, the field's path inside it); a path ending in ``*`` (a list of
    plain values: ``nachziehen.*``) is the list's field in its record."""
    parts = path.removesuffix(".*").split(".")
    cut = max((i + 1 for i, p in enumerate(parts) if p == "*"), default=1 if len(parts) > 1 else 0)
    return ".".join(parts[:cut]), ".".join(parts[cut:])


def _holds(record: dict, when: Mapping[str, list]) -> bool:
    return all(record.get(k, _MISSING) in allowed for k, allowed in when.items())


_MISSING = object()


def _first(entries: list[dict], record: dict) -> dict | None:
    return next((e for e in entries if _holds(record, e.get("when") or {})), None)


def witness(choices: Mapping[str, list[dict]], path: str, entry: dict,
            required: Mapping[str, tuple] = (), fixed: Mapping[str, dict] = (),
            counts: Mapping[str, int] = ()) -> dict:
    """The orders mapping (``*`` as a one-item list) holding ``entry``'s value at ``path``;
    ``fixed`` gives a record's fields no choice offers (a title), ``counts`` how many
    different values a list of plain values needs (three event cards)."""
    if any(p.startswith(path + ".") for p in choices):     # the keys of a mapping: one key, its first value
        below = choices.get(f"{path}.{entry['value']}")
        if below:
            return witness(choices, f"{path}.{entry['value']}", below[0], required, fixed, counts)
    rec_path, field = record_of(path)
    siblings = {record_of(p)[1]: (p, es) for p, es in choices.items() if record_of(p)[0] == rec_path and es
                and not any(q.startswith(p + ".") for q in choices)}     # a mapping's keys are no field
    record: dict[str, Any] = dict(dict(fixed).get(rec_path, {}))

    def put(name: str, chosen: dict) -> None:
        full = siblings[name][0] if name in siblings else path
        if full.endswith(".*"):
            more = [e["value"] for e in choices[full] if e["value"] != chosen["value"]]
            record[name] = [chosen["value"], *more[:dict(counts).get(full, 1) - 1]]
        else:
            record[name] = chosen["value"]
    for k, allowed in (entry.get("when") or {}).items():
        record[k] = allowed[0]
    put(field, entry)
    for need in dict(required).get(rec_path, ()):
        names = need if isinstance(need, tuple) else (need,)
        for name in names if not any(n in record for n in names) else ():
            chosen = _first(siblings.get(name, ("", []))[1], record)
            if chosen is not None:
                put(name, chosen)
                break
    changed = True
    while changed:        # fill what depends on what is set, until nothing more fits
        changed = False
        for name, (_, entries) in siblings.items():
            if name in record or not all(e.get("when") for e in entries):
                continue
            chosen = _first(entries, record)
            if chosen is not None:
                put(name, chosen)
                changed = True
    return _place(rec_path.split(".") if rec_path else [], _nest(record))


def _nest(flat: dict) -> dict:
    out: dict = {}
    for key, value in flat.items():
        *head, last = key.split(".")
        at = out
        for h in head:
            at = at.setdefault(h, {})
        at[last] = value
    return out


def _place(parts: list[str], item: Any) -> Any:
    if not parts:
        return item
    if parts[0] == "*":
        return [_place(parts[1:], item)]
    return {parts[0]: _place(parts[1:], item)}


def refusals(rules, state, player: str, stage: str, lang: str, bad: Callable[[Any], bool], **how) -> list[str]:
    """Every offered value whose witness orders the game does not take, with why."""
    out = []
    choices = rules.order_choices(state, player, lang)
    for path, entries in choices.items():
        for entry in entries:
            orders = witness(choices, path, entry, **how)
            model = rules.order_schema(state, stage).model_validate(orders)
            wrong = [p.code for p in rules.validate(state, player, model) if bad(p)]
            if wrong:
                out.append(f"{path}={entry['value']!r}: {orders} -> {wrong}")
    return out


def label_problems(rules, state, player: str) -> list[str]:
    """The same paths and values in English and German, each with a label the page shows whole."""
    en, de = (rules.order_choices(state, player, lang) for lang in ("en", "de"))
    out = []
    if en.keys() != de.keys():
        out.append(f"paths differ: {sorted(en.keys() ^ de.keys())}")
    for path in en.keys() & de.keys():
        if [e["value"] for e in en[path]] != [e["value"] for e in de[path]]:
            out.append(f"{path}: values differ between en and de")
        for lang, entries in (("en", en[path]), ("de", de[path])):
            out += [f"{path}={e['value']!r}: no {lang} label (or over the page's 200 characters)" for e in entries
                    if not isinstance(e.get("label"), str) or not e["label"].strip() or len(e["label"]) > 200]
    return out


def schema_paths(model) -> set[str]:
    """Every field's dotted path in ``model``'s JSON Schema (``*`` for a list item), as the
    order page names fields (a union's kinds are not in the path)."""
    schema = model.model_json_schema()
    defs = schema.get("$defs", {})
    out: set[str] = set()

    def walk(s: dict, path: str, depth: int) -> None:
        if depth > 12:
            return
        while "$ref" in s:
            s = defs[s["$ref"].rpartition("/")[2]]
        for alt in [*s.get("anyOf", ()), *s.get("oneOf", ())]:
            walk(alt, path, depth + 1)
        if path:
            out.add(path)
        for key, sub in (s.get("properties") or {}).items():
            walk(sub, f"{path}.{key}" if path else key, depth + 1)
        if isinstance(s.get("items"), dict):
            walk(s["items"], f"{path}.*", depth + 1)
    walk(schema, "", 0)
    return out

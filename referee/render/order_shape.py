"""A stage's JSON Schema (as pydantic publishes it) turned into the small tree the
order page builds its form from.

The page's script stays short and the data small: ``$ref`` is resolved here, nested
``anyOf``/``oneOf`` flattened into one list of kinds, ``null`` among them turned into
"may be left out", string enums of a union split into one kind per value, and a
discriminated union's kinds named by their tag.  Every node is a dict whose ``t`` is
one of ``obj map arr alt enum const str int num bool any`` (``map``: keys from the
game's choices at its path); the walk is bounded in depth
and in nodes, so a schema a game builds wrongly cannot make the page huge.
"""
from __future__ import annotations

from typing import Any

MAX_DEPTH = 12      # nesting of objects, lists and unions
MAX_NODES = 2_000   # nodes in one page's tree


class ShapeError(ValueError):
    """The schema is beyond what the page can offer (too deep, too big, an unknown $ref)."""


def shape(schema: dict) -> dict:
    """The page's tree of ``schema`` (a model's ``model_json_schema()``)."""
    return _Walk(schema.get("$defs") or {}).node(schema, 0)


class _Walk:
    def __init__(self, defs: dict) -> None:
        self.defs, self.count = defs, 0

    def resolve(self, s: dict, depth: int) -> dict:
        while "$ref" in s:
            name = s["$ref"].rpartition("/")[2]
            if name not in self.defs or depth > MAX_DEPTH:
                raise ShapeError(f"cannot resolve {s['$ref']!r}")
            merged = {k: v for k, v in s.items() if k != "$ref"}
            s = {**self.defs[name], **merged}
            depth += 1
        return s

    def kinds(self, s: dict, depth: int) -> list[dict]:
        """The alternatives of a union, flattened (an ``anyOf`` inside an ``anyOf``), refs resolved."""
        s = self.resolve(s, depth)
        union = s.get("anyOf") or s.get("oneOf")
        if not union:
            return [s]
        out = []
        for alt in union:
            out += self.kinds(alt, depth + 1)
        return out

    def node(self, s: dict, depth: int) -> dict:
        self.count += 1
        if depth > MAX_DEPTH or self.count > MAX_NODES:
            raise ShapeError("the order schema is too deep or too big for the order page")
        s = self.resolve(s, depth)
        if "anyOf" in s or "oneOf" in s:
            return self.union(s, depth)
        out: dict[str, Any]
        if "const" in s:
            out = {"t": "const", "v": s["const"]}
        elif "enum" in s:
            out = {"t": "enum", "v": list(s["enum"])}
        else:
            kind = s.get("type")
            if "properties" not in s and isinstance(s.get("additionalProperties"), dict):
                # a mapping whose keys the game offers (the Ratsspiel's vote per proposal)
                out = {"t": "map", "i": self.node(s["additionalProperties"], depth + 1)}
            elif kind == "object" or "properties" in s:
                req = set(s.get("required") or ())
                fields = []
                for key, sub in (s.get("properties") or {}).items():
                    f = {"k": key, "n": self.node(sub, depth + 1)}
                    if key in req:
                        f["req"] = 1
                    if "default" in sub:
                        f["d"] = sub["default"]
                    if sub.get("title"):
                        f["ti"] = sub["title"]
                    fields.append(f)
                out = {"t": "obj", "f": fields}
            elif kind == "array":
                out = {"t": "arr", "i": self.node(s.get("items") or {}, depth + 1)}
                _bounds(out, s, ("minItems", "lo"), ("maxItems", "hi"))
            elif kind == "string":
                out = {"t": "str"}
                _bounds(out, s, ("minLength", "lo"), ("maxLength", "hi"))
            elif kind in ("integer", "number"):
                out = {"t": "int" if kind == "integer" else "num"}
                _bounds(out, s, ("minimum", "lo"), ("maximum", "hi"), ("exclusiveMinimum", "xlo"),
                        ("exclusiveMaximum", "xhi"))
            elif kind == "boolean":
                out = {"t": "bool"}
            elif kind == "null":
                out = {"t": "const", "v": None}
            else:
                out = {"t": "any"}
        if s.get("title"):
            out["ti"] = s["title"]
        return out

    def union(self, s: dict, depth: int) -> dict:
        alts = self.kinds(s, depth)
        nullable = any(a.get("type") == "null" for a in alts)
        kept: list[dict] = []
        for a in alts:
            if a.get("type") == "null":
                continue
            if "enum" in a and len(alts) > 1:   # one kind per value: "pass", "ask", ... beside a step
                kept += [{"const": v} for v in a["enum"]]
            else:
                kept.append(a)
        tag = (s.get("discriminator") or {}).get("propertyName")
        if len(kept) == 1:
            out = self.node(kept[0], depth + 1)
        elif all("const" in a for a in kept):
            out = {"t": "enum", "v": [a["const"] for a in kept]}
        else:
            options = []
            for a in kept:
                n = self.node(a, depth + 1)
                if tag and n["t"] == "obj":
                    for f in n["f"]:
                        if f["k"] == tag and f["n"]["t"] in ("const", "enum"):
                            n["tag"] = f["n"]["v"] if f["n"]["t"] == "const" else f["n"]["v"][0]
                            n["tk"] = tag
                options.append(n)
            out = {"t": "alt", "o": options}
        if nullable:
            out["nul"] = 1
        if s.get("title") and "ti" not in out:
            out["ti"] = s["title"]
        return out


def _bounds(out: dict, s: dict, *pairs: tuple[str, str]) -> None:
    for key, short in pairs:
        if isinstance(s.get(key), (int, float)) and not isinstance(s.get(key), bool):
            out[short] = s[key]

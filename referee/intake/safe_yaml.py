"""Loading untrusted YAML: ``safe_load`` semantics with hard limits.

* C loader (libyaml) when available, the pure-Python one otherwise.
* Size limit (bytes), nesting depth, number of values.
* **No anchors or aliases at all.**  Order documents never need them, and
  refusing them outright makes a "billion laughs" document cost one linear
  parse: the composed node tree shares the aliased node, and the first node
  seen twice stops the walk before anything is constructed.
* Deep nesting is checked *before* libyaml composes the tree: its composer
  recurses in C and crashes the process (segfault) somewhere between 5,000 and
  30,000 levels of ``[[[[`` (less in a thread with a small stack).  Every
  nesting level needs one of ``[{-:?``, so only texts with more than 256 of
  those get a cheap, iterative event pass first.
* YAML 1.2-style scalars: only ``true``/``false`` are booleans (``yes``,
  ``no``, ``on``, ``NO`` stay strings: the "Norway problem"), integers are
  decimal without leading zeros (``007`` stays a string), ``20:00`` is the
  string "20:00" rather than the YAML 1.1 sexagesimal 1200, and dates stay
  strings.  No merge keys, no tags beyond the plain scalar/seq/map ones.
* Duplicate keys are refused (PyYAML would silently keep the last one).

Problems raise ``YamlRefused`` with 0-based line/column in the loaded text;
``referee.intake.document`` shifts them to the mail as sent.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

MAX_BYTES = 64_000
MAX_DEPTH = 32
MAX_NODES = 5_000
_GATE = 256  # fewer nesting indicators than this cannot nest deep enough to matter

STR = "tag:yaml.org,2002:str"
SEQ = "tag:yaml.org,2002:seq"
MAP = "tag:yaml.org,2002:map"
_SCALAR_TAGS = {STR, "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
                "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"}


class StrictResolver(Resolver):
    """Implicit typing close to the YAML 1.2 core schema (see module doc)."""


StrictResolver.yaml_implicit_resolvers = {}
for _tag, _rx, _first in (
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("tag:yaml.org,2002:int", r"^[-+]?(?:0|[1-9][0-9]*)$", "-+0123456789"),
    ("tag:yaml.org,2002:float",
     r"^(?:[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
     "-+.0123456789"),
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
):
    StrictResolver.add_implicit_resolver(_tag, re.compile(_rx), list(_first))


MAX_INT_DIGITS = 18   # any count or bid fits; a 60,000-digit number is refused, not converted


class StrictConstructor(SafeConstructor):
    def construct_yaml_int(self, node):  # decimal only: no octal/sexagesimal surprises
        digits = self.construct_scalar(node)
        if len(digits.lstrip("+-")) > MAX_INT_DIGITS:
            raise yaml.constructor.ConstructorError(None, None, _TOO_LONG, node.start_mark)
        return int(digits)

    def construct_object(self, node, deep=False):
        # An explicit tag on a value that is not of its kind (``!!int x``, ``!!float y``,
        # ``!!bool maybe``, ``!!timestamp 2026-13-45``) makes PyYAML's constructors raise
        # plain Python errors: refuse it as a YAML problem at the value (found by fuzzing, issue 13).
        try:
            return super().construct_object(node, deep=deep)
        except (ValueError, KeyError, TypeError, AttributeError, OverflowError, IndexError):
            raise yaml.constructor.ConstructorError(None, None, _NOT_OF_TAG, node.start_mark) from None


StrictConstructor.add_constructor("tag:yaml.org,2002:int", StrictConstructor.construct_yaml_int)

try:  # libyaml
    from yaml.cyaml import CParser as _Parser  # the parser PyYAML's own CSafeLoader is built on
    WITH_LIBYAML = True
except ImportError:  # pragma: no cover - depends on the build of PyYAML
    WITH_LIBYAML = False


if WITH_LIBYAML:
    class StrictLoader(_Parser, StrictConstructor, StrictResolver):
        def __init__(self, stream):
            _Parser.__init__(self, stream)
            StrictConstructor.__init__(self)
            StrictResolver.__init__(self)
else:  # pragma: no cover
    from yaml.composer import Composer
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class StrictLoader(Reader, Scanner, Parser, Composer, StrictConstructor, StrictResolver):
        def __init__(self, stream):
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)
            Composer.__init__(self)
            StrictConstructor.__init__(self)
            StrictResolver.__init__(self)


@dataclass
class YamlRefused(Exception):
    """Why a text was not loaded: a referee code, 0-based place, params."""

    code: str
    line: int | None = None
    column: int | None = None
    params: dict | None = None

    def __str__(self) -> str:
        return f"{self.code} at {self.line}:{self.column} {self.params or {}}"


# Marks of one value: (key line, key column) or None for the root / list items,
# (value line, value column), and whether the value is a list or mapping; 0-based.
Marks = tuple[tuple[int, int] | None, tuple[int, int], bool]


@dataclass
class Loaded:
    data: Any
    marks: dict[tuple, Marks]   # path (keys as written, list indexes) -> marks


# Plain-language German for libyaml's most common complaints.
_TOO_LONG = f"a number of more than {MAX_INT_DIGITS} digits"
_NOT_OF_TAG = "a value that does not fit its '!!' tag"
_PROBLEMS_DE = {
    _TOO_LONG: f"eine Zahl mit mehr als {MAX_INT_DIGITS} Ziffern",
    _NOT_OF_TAG: "ein Wert, der nicht zu seinem '!!'-Tag passt",
    "could not find expected ':'": "ein ':' fehlt",
    "did not find expected key": "hier wurde ein Eintrag 'Name:' erwartet (Einrückung?)",
    "mapping values are not allowed in this context": "hier darf kein 'Name: Wert' stehen (Einrückung oder fehlende Anführungszeichen?)",
    "did not find expected ',' or ']'": "ein ',' oder ']' fehlt",
    "did not find expected ',' or '}'": "ein ',' oder '}' fehlt",
    "found unexpected end of stream": "der Text endet unerwartet (Anführungszeichen nicht geschlossen?)",
    "did not find expected node content": "hier fehlt ein Wert",
    "found character that cannot start any token": "ein Zeichen, mit dem kein Wert beginnen darf",
    "block sequence entries are not allowed in this context": "hier darf kein Listeneintrag '- ' stehen",
    "did not find expected '-' indicator": "hier wurde ein Listeneintrag '- ' erwartet (Einrückung?)",
    "found a tab character that violates indentation": "ein Tabulator in der Einrückung",
    "found unknown escape character": "unbekannte Escape-Sequenz",
    "found undefined alias": "unbekannter Alias",
    "expected a single document in the stream, but found another document":
        "mehr als ein Dokument (nur ein '---' pro Mail)",
    "did not find expected <document start>": "Text nach dem Dokumentende",
    "found undefined tag handle": "unbekanntes '!'-Tag",
}


def _syntax(err: yaml.YAMLError, text: str | None = None, max_depth: int = MAX_DEPTH) -> YamlRefused:
    problem = (getattr(err, "problem", None) or str(err)).strip()
    context = getattr(err, "context", None)
    mark = getattr(err, "problem_mark", None)
    # libyaml 0.2.5 as bundled since PyYAML 6.0.3/6.0.4 stops at its own nesting limit in the
    # scanner, before our event check sees the depth: the player's answer is the same either way.
    if "nesting depth" in problem:
        return YamlRefused("yaml.too_deep", mark.line if mark else None, mark.column if mark else None,
                           {"limit": max_depth})
    if problem.startswith("but ") and context:  # "expected X" + "but found Y"
        problem = f"{context.strip()}, {problem}"
    context_mark = getattr(err, "context_mark", None)
    # A key without ':' is noticed on the next line; the line to fix is the key's.
    if problem.startswith("could not find expected ':'") and context_mark is not None:
        mark = context_mark
    # An unclosed bracket or quote is noticed only at the end of the text; the
    # line to fix is where it was opened.
    at_end = mark is not None and text is not None and mark.line >= len(text.rstrip().splitlines())
    if context_mark is not None and ("end of stream" in problem or at_end):
        mark = context_mark
    if isinstance(err, yaml.reader.ReaderError):
        problem = "special characters are not allowed"
    if problem.startswith("found character that cannot start any token") and mark is not None and text:
        quoted = _quoted(text, mark.line, mark.column)
        if quoted is not None:
            return YamlRefused("yaml.reserved", mark.line, mark.column, quoted)
    problem_de = _PROBLEMS_DE.get(problem)
    if problem_de is None:
        problem_de = next((de for en, de in _PROBLEMS_DE.items() if problem.startswith(en)), problem)
    line = mark.line if mark is not None else None
    column = mark.column if mark is not None else None
    return YamlRefused("yaml.syntax", line, column, {"problem": problem, "problem_de": problem_de})


RESERVED = "@`%"   # characters YAML keeps for itself at the start of a plain value


def _quoted(text: str, line: int, column: int) -> dict | None:
    """For a value starting with a reserved character (``player: @gm``): the character
    and the line with that value in double quotes, as the player should write it."""
    lines = text.split("\n")
    if line >= len(lines) or column >= len(lines[line]) or lines[line][column] not in RESERVED:
        return None
    row = lines[line]
    before, rest = row[:column], row[column:]
    in_flow = before.count("[") + before.count("{") > before.count("]") + before.count("}")
    stop = re.search(r"[,\]}]|\s#" if in_flow else r"\s#", rest)
    end = stop.start() if stop else len(rest)
    value = rest[:end].rstrip()
    tail = rest[len(value):]
    fixed = before + '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"' + tail
    return {"char": row[column], "fixed": fixed.strip()}


def _check_depth_by_events(text: str, max_depth: int) -> None:
    """Iterative nesting check with the event parser (no recursion anywhere); refuses
    anchors and aliases where they are written."""
    loader = StrictLoader(text)
    depth = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > max_depth:
                    mark = event.start_mark
                    raise YamlRefused("yaml.too_deep", mark.line, mark.column, {"limit": max_depth})
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
                mark = event.start_mark   # an anchor alone is refused too: the documentation promises "none at all"
                raise YamlRefused("yaml.alias", mark.line, mark.column, {})
    except yaml.YAMLError as err:
        raise _syntax(err, text, max_depth) from None
    finally:
        loader.dispose()


def _walk(root: yaml.Node, max_depth: int, max_nodes: int) -> dict[tuple, Marks]:
    """Check the composed tree and record where every path starts."""
    marks: dict[tuple, Marks] = {}
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, tuple, int, tuple[int, int] | None]] = [(root, (), 0, None)]
    while stack:
        node, path, depth, key_mark = stack.pop()
        start = (node.start_mark.line, node.start_mark.column)
        if id(node) in seen:  # the same node twice: an alias was used
            at = key_mark or start
            raise YamlRefused("yaml.alias", at[0], at[1], {})
        seen.add(id(node))
        if len(seen) > max_nodes:
            raise YamlRefused("yaml.too_many_nodes", start[0], start[1], {"limit": max_nodes})
        if depth > max_depth:
            raise YamlRefused("yaml.too_deep", start[0], start[1], {"limit": max_depth})
        if node.tag not in _SCALAR_TAGS and node.tag not in (SEQ, MAP):
            raise YamlRefused("yaml.tag", start[0], start[1], {"tag": node.tag})
        marks[path] = (key_mark, start, not isinstance(node, yaml.ScalarNode))
        # Children are pushed in reverse so the walk goes in document order
        # and an alias is reported where it is used, not where it was defined.
        if isinstance(node, yaml.SequenceNode):
            for index in range(len(node.value) - 1, -1, -1):
                stack.append((node.value[index], path + (index,), depth + 1, None))
        elif isinstance(node, yaml.MappingNode):
            names: set[str] = set()
            pending = []
            for key_node, value_node in node.value:
                if id(key_node) in seen:
                    raise YamlRefused("yaml.alias", key_node.start_mark.line, key_node.start_mark.column, {})
                seen.add(id(key_node))
                if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in _SCALAR_TAGS:
                    raise YamlRefused("yaml.syntax", key_node.start_mark.line, key_node.start_mark.column,
                                      {"problem": "an entry's name must be a plain word",
                                       "problem_de": "der Name eines Eintrags muss ein einfaches Wort sein"})
                name = key_node.value
                k = (key_node.start_mark.line, key_node.start_mark.column)
                if name in names:
                    raise YamlRefused("yaml.duplicate_key", k[0], k[1], {"key": name})
                names.add(name)
                pending.append((value_node, path + (name,), depth + 1, k))
            stack.extend(reversed(pending))
    return marks


def _blame_missing_colon(text: str, refused: YamlRefused) -> YamlRefused:
    """``state PA`` followed by ``side: yea`` makes libyaml complain about the
    *second* line (a plain scalar ran on into it); the line to fix is the first."""
    problem = (refused.params or {}).get("problem", "")
    if refused.code != "yaml.syntax" or not problem.startswith("mapping values are not allowed") \
            or refused.line is None:
        return refused
    lines = text.split("\n")
    here = lines[refused.line] if refused.line < len(lines) else ""
    before = refused.line - 1
    while before >= 0 and not lines[before].strip():
        before -= 1
    if before < 0:
        return refused
    prev = lines[before]
    indent = len(prev) - len(prev.lstrip(" "))
    if ":" in prev or prev.lstrip().startswith(("-", "#")) or indent != len(here) - len(here.lstrip(" ")):
        return refused
    return YamlRefused("yaml.syntax", before, indent, {"problem": "could not find expected ':'",
                                                         "problem_de": _PROBLEMS_DE["could not find expected ':'"]})


def load_checked(text: str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH,
                 max_nodes: int = MAX_NODES) -> Loaded:
    """Compose once, check, construct.  Raises ``YamlRefused``."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise YamlRefused("document.too_large", None, None, {"size": size, "limit": max_bytes})
    if "&" in text or sum(text.count(c) for c in "[{-:?") > _GATE:
        _check_depth_by_events(text, max_depth)   # also finds anchors, which the composed tree forgets
    try:
        loader = StrictLoader(text)
    except yaml.YAMLError as err:  # the pure-Python reader checks characters up front
        raise _syntax(err, text) from None
    try:
        try:
            root = loader.get_single_node()
        except yaml.YAMLError as err:
            raise _blame_missing_colon(text, _syntax(err, text, max_depth)) from None
        except RecursionError:  # pure-Python composer on absurd nesting
            raise YamlRefused("yaml.too_deep", None, None, {"limit": max_depth}) from None
        if root is None:
            return Loaded(None, {})
        marks = _walk(root, max_depth, max_nodes)
        try:
            data = loader.construct_document(root)
        except yaml.YAMLError as err:
            raise _syntax(err, text) from None
    finally:
        loader.dispose()
    return Loaded(data, marks)


def load(text: str, **limits: Any) -> Any:
    """``safe_load`` with the limits and scalar rules above (for match files too)."""
    return load_checked(text, **limits).data


class EchoDumper(yaml.emitter.Emitter, yaml.serializer.Serializer, yaml.representer.SafeRepresenter,
                 StrictResolver):
    """Writes YAML as this loader reads it: ``on``, ``yes``, ``no`` stay plain words
    (PyYAML's own dumper quotes them as the booleans YAML 1.1 made of them)."""

    def __init__(self, stream, default_style=None, default_flow_style=False, canonical=None, indent=None,
                 width=None, allow_unicode=None, line_break=None, encoding=None, explicit_start=None,
                 explicit_end=None, version=None, tags=None, sort_keys=True):
        yaml.emitter.Emitter.__init__(self, stream, canonical=canonical, indent=indent, width=width,
                                      allow_unicode=allow_unicode, line_break=line_break)
        yaml.serializer.Serializer.__init__(self, encoding=encoding, explicit_start=explicit_start,
                                            explicit_end=explicit_end, version=version, tags=tags)
        yaml.representer.SafeRepresenter.__init__(self, default_style=default_style,
                                                  default_flow_style=default_flow_style, sort_keys=sort_keys)
        StrictResolver.__init__(self)


def dump(data: Any) -> str:
    """``data`` as a player writes it back (block style, in order, plain words unquoted)."""
    return yaml.dump(data, Dumper=EchoDumper, allow_unicode=True, sort_keys=False)

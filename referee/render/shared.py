"""``{% shared name=expr, ... %}…{% endshared %}``: a part of a report every reader shares,
rendered once and reused.

The body is compiled as a template of its own whose context holds ONLY the
named values (and the environment's globals): its output can depend on nothing
else, so equal values give equal text, by construction.  A body that names a
variable it was not given is refused when the template loads; what the body
imports or includes sees the same narrow context, and reading anything else
there fails on render (the environments are strict about undefined names).

A value may leave out what its part does not read, so readers who differ only
there still share the part: ``pub=view.public | without("since_last_turn")``
(the ``without`` filter the extension brings: a copy of a dict without those keys).

The text is cached by (the compiled body, the values' key): the body is compiled as a
block of its template's own code, so a reloaded template's body is a new one.  A value's key is
its pickle itself, the bytes (the cache's dict hashes them and, on a hit, compares them whole:
equal keys are equal values, with no hash collision to fear), taken only for plain data (str,
int, float, bool, None, and lists, tuples, dicts, sets of them: pickle tells 1, 1.0 and True
apart; a subclass is refused, a cycle too) and only up to ``MAX_DIGEST_BYTES``; values it cannot
take render the body every time, which is slower but the same text.  The cache counts its keys'
bytes with its parts' characters, so keys do not grow it past its bound.

Inside ``one_report()`` (the renderer enters it for the text and HTML of one
reader's report, a close for all its reports) a value is digested once: the text's
and the HTML's parts are given the same public view, and the values do not change
while the scope lasts.  Those digests are remembered by the value's identity, holding
the value, for that scope only; ``without`` gives the same copy again there too.
There a part given the very same objects again (the players, the labels a template
imports) is found by their identity, with no digest at all.
"""
from __future__ import annotations

import hashlib
import pickle
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from jinja2 import nodes
from jinja2.exceptions import TemplateSyntaxError
from jinja2.ext import Extension
from jinja2.meta import find_undeclared_variables

MAX_DIGEST_BYTES = 1 << 20          # a larger set of values is rendered, not digested


class NotDigestible(Exception):
    pass


class _Capped:
    """Where the pickler writes: the pickle's bytes, refused past ``cap`` bytes.  The C pickler
    buffers a frame (~64 KB) and writes it whole, so this runs once for a value under a frame
    (as cheap as an in-memory buffer, measured) and a huge value stops a frame past the cap."""

    __slots__ = ("left", "parts")

    def __init__(self, cap: int) -> None:
        self.left, self.parts = cap, []

    def write(self, b) -> int:
        self.left -= len(b)
        if self.left < 0:
            raise NotDigestible("too large")
        self.parts.append(bytes(b))
        return len(b)


class _PlainPickler(pickle.Pickler):
    # called for everything but None, bools and exact ints, floats, str, bytes, lists, tuples, dicts, sets:
    # a subclass or an object may render as something its pickle does not show
    def reducer_override(self, obj):
        raise NotDigestible(type(obj).__name__)


def digest(values: Any, cap: int = MAX_DIGEST_BYTES) -> bytes | None:
    """The key of plain ``values``: their pickle's bytes, or None if they are not plain data or
    their pickle is larger than ``cap``."""
    sink = _Capped(cap)
    try:
        pickler = _PlainPickler(sink, protocol=5)
        # no memo: a tenth faster, and the bytes follow the values' structure alone (an object seen
        # twice is written twice, not as a back-reference); a cycle is refused (ValueError)
        pickler.fast = True
        pickler.dump(values)
    except (NotDigestible, pickle.PicklingError, RecursionError, TypeError, ValueError):
        return None
    return sink.parts[0] if len(sink.parts) == 1 else b"".join(sink.parts)


_scope = threading.local()   # .memo: {id(value): (value, digest)} while one report renders


@contextmanager
def one_report() -> Iterator[None]:
    """The values given to shared parts do not change until this ends: each is digested once."""
    outer = getattr(_scope, "memo", None)
    if outer is None:
        _scope.memo = {}
    try:
        yield
    finally:
        _scope.memo = outer


def digest_of(values: dict) -> tuple | None:
    """The cache key of a part's ``values``: each name and its value's ``digest`` (inside
    ``one_report()`` remembered, so a value's bytes are hashed once), or None if one has none."""
    memo = getattr(_scope, "memo", None)
    key: list = []
    for name, value in values.items():
        held = None if memo is None else memo.get(id(value))
        if held is None or held[0] is not value:
            held = (value, digest(value))
            if memo is not None:
                memo[id(value)] = held
        if held[1] is None:
            return None
        key += (name, held[1])
    return tuple(key)


class PartCache:
    """A bounded LRU of rendered parts: at most ``entries`` parts and ``chars`` characters,
    each part counted with its key's bytes (a key holds its values' pickles)."""

    # a close needs a few parts at once (its public parts and standings, per language); parts of
    # closes before are seldom asked for again, and each holds its key (~10-30 KB of pickle)
    def __init__(self, entries: int = 128, chars: int = 16 << 20) -> None:
        self.max_entries, self.max_chars = entries, chars
        self._parts: OrderedDict[tuple, tuple[str, int]] = OrderedDict()   # key -> (part, its size)
        self._chars = 0
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._parts)

    @property
    def size(self) -> int:
        """The characters of the parts held and the bytes of their keys."""
        return self._chars

    def get(self, key: tuple) -> str | None:
        with self._lock:
            held = self._parts.get(key)
            if held is None:
                self.misses += 1
                return None
            self.hits += 1
            self._parts.move_to_end(key)
            return held[0]

    def put(self, key: tuple, part: str) -> None:
        size = len(part) + _key_size(key)
        if size > self.max_chars:
            return
        with self._lock:
            old = self._parts.pop(key, None)
            if old is not None:
                self._chars -= old[1]
            self._parts[key] = (part, size)
            self._chars += size
            while len(self._parts) > self.max_entries or self._chars > self.max_chars:
                self._chars -= self._parts.popitem(last=False)[1][1]

    def clear(self) -> None:
        with self._lock:
            self._parts.clear()
            self._chars = 0


def _key_size(key) -> int:
    """The bytes and characters a key holds (its tuples' strings and bytes, nested)."""
    if isinstance(key, (bytes, str)):
        return len(key)
    if isinstance(key, tuple):
        return sum(map(_key_size, key))
    return 0


def without(value: dict, *keys: str) -> dict:
    """A copy of the dict ``value`` without ``keys`` (missing ones are fine); inside
    ``one_report()`` the same copy each time it is asked for the same value and keys."""
    memo = getattr(_scope, "memo", None)
    if memo is None:
        return {k: v for k, v in value.items() if k not in keys}
    key = ("without", id(value), keys)
    held = memo.get(key)
    if held is None or held[0] is not value:
        held = memo[key] = (value, {k: v for k, v in value.items() if k not in keys})
    return held[1]


class SharedExtension(Extension):
    """The ``shared`` tag; the environment's ``shared_parts`` (a PartCache) holds the texts."""

    tags = {"shared"}

    def __init__(self, environment) -> None:
        super().__init__(environment)
        environment.extend(shared_parts=PartCache())
        environment.filters.setdefault("without", without)

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        names: list[str] = []
        pairs = []
        while parser.stream.current.type != "block_end":
            if names:
                parser.stream.expect("comma")
            target = parser.stream.expect("name")
            if target.value in names:
                parser.fail(f"shared: {target.value!r} named twice", target.lineno)
            value = parser.parse_expression() if parser.stream.skip_if("assign") \
                else nodes.Name(target.value, "load", lineno=target.lineno)
            names.append(target.value)
            pairs.append(nodes.Pair(nodes.Const(target.value), value, lineno=target.lineno))
        body = parser.parse_statements(("name:endshared",), drop_needle=True)
        if parser.name is None:   # rendered in a context of its template's own (_render): one loaded by name
            parser.fail("a shared part needs a template loaded by its name", lineno)
        tree = nodes.Template(body, lineno=lineno).set_environment(self.environment)
        if any(True for _ in tree.find_all(nodes.Block)):   # the body's context holds its template's blocks alone
            parser.fail("a shared part holds no {% block %}", lineno)
        unknown = find_undeclared_variables(tree) - set(names) - set(self.environment.globals)
        if unknown:
            raise TemplateSyntaxError(f"a shared part reads {', '.join(sorted(unknown))}, which it is not given "
                                      f"(it sees only {', '.join(names) or 'nothing'})",
                                      lineno, parser.name, parser.filename)
        # the body becomes a block of the template (never output where it stands): compiled
        # with the template's own code, so a bytecode cache holds it too, and rendered by
        # _render in a context of its own that holds only the named values; its name is one
        # the parser gives no other node, prefixed by the template's (blocks of templates that
        # extend one another share a context)
        free = parser.free_identifier(lineno).name
        name = f"shared_{hashlib.sha256(parser.name.encode()).hexdigest()[:12]}_{free}"
        block = nodes.Block(name, body, False, False, lineno=lineno)
        hidden = nodes.If(nodes.Const(False), [block], [], [], lineno=lineno)
        call = self.call_method("_render", [nodes.Const(name), nodes.Dict(pairs, lineno=lineno),
                                            nodes.ContextReference()], lineno=lineno)
        return [hidden, nodes.Output([nodes.MarkSafeIfAutoescape(call, lineno=lineno)], lineno=lineno)]

    def _render(self, name: str, values: dict, context) -> str:
        body = context.blocks[name][0]
        memo = getattr(_scope, "memo", None)
        if memo is not None:   # inside one_report(): the very same values give the text they gave
            given = tuple(values.values())
            same = ("part", body, tuple(map(id, given)))
            held = memo.get(same)
            if held is not None and all(a is b for a, b in zip(held[0], given)):
                return held[1]
        key = digest_of(values)
        part = None if key is None else self.environment.shared_parts.get((body, key))
        if part is None:   # the body in a context of the template's that holds the values alone
            own = self.environment.get_template(context.name).new_context(values)
            part = "".join(body(own))
            if key is not None:
                self.environment.shared_parts.put((body, key), part)
        if memo is not None:
            memo[same] = (given, part)   # holds the values: their ids are not reused while it lasts
        return part

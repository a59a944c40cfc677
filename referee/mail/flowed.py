"""Undo RFC 3676 format=flowed, which Thunderbird and others send by default.

Flowed text wraps long lines with a trailing space and "space-stuffs" lines
that start with a space, so an indented YAML line arrives with one extra
leading space and a long one arrives split in two.  Reading it back joins
the soft breaks and removes the stuffing, giving the text the player typed.
"""
from __future__ import annotations

SIGNATURE = "-- "


def unflow(text: str, delsp: bool = False) -> str:
    out: list[str] = []
    buffer: list[str] | None = None   # the pieces of a flowed paragraph (joined once: linear)
    buffer_depth = 0
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        if content.startswith(" "):
            content = content[1:]  # space-stuffing (or the space after quote marks)
        flowed = content.endswith(" ") and content != SIGNATURE
        if flowed and delsp:
            content = content[:-1]
        if buffer is not None and depth != buffer_depth:
            out.append(_quoted("".join(buffer), buffer_depth))  # quote depth changed: no join
            buffer = None
        if buffer is None:
            buffer = []
        buffer.append(content)
        buffer_depth = depth
        if not flowed:
            out.append(_quoted("".join(buffer), depth))
            buffer = None
    if buffer is not None:
        out.append(_quoted("".join(buffer), buffer_depth))
    return "\n".join(out)


def _quoted(content: str, depth: int) -> str:
    return (">" * depth + " " + content) if depth else content

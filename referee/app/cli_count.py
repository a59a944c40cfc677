"""How every ``referee`` command counts what it read and sent: ``1 mail``, ``2 mails``."""
from __future__ import annotations


def count(n: int, noun: str) -> str:
    """``n`` and ``noun``, in the plural unless ``n`` is one."""
    return f"{n} {noun}" + ("" if n == 1 else "s")

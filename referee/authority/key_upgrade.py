"""A key hash written in an older scheme (scrypt) is written anew in the current
one the first time its key is seen right (``keys.check``), inside the mail's
transaction: later mails of that seat cost a keyed hash, not a scrypt."""
from __future__ import annotations


def seat(store, match: str, player: str, fresh: str) -> None:
    store._exec("UPDATE players SET key_hash=? WHERE match=? AND id=?", (fresh, match, player))


def gm(store, match: str, fresh: str) -> None:
    store._exec("UPDATE matches SET gm_key_hash=? WHERE id=?", (fresh, match))

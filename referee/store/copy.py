"""Copying a whole store from one backend to another (``referee store copy``):
every table, every row, every column as stored, in one transaction on the
target; then a row-by-row comparison of the two."""
from __future__ import annotations

from referee.store.batches import insert_rows

BATCH = 200   # rows per INSERT statement


def tables_of(store) -> list[str]:
    """The tables to copy: all the target's schema holds except its version stamp."""
    return [t for t in store._db.tables() if t != "meta"]


def _rows(store, table: str, columns: list[str]) -> list[tuple]:
    """Every row, sorted here (the backends' text collations may differ)."""
    rows = store._db.execute(f"SELECT {', '.join(columns)} FROM {table}")
    return sorted((tuple(_plain(v) for v in r) for r in rows), key=repr)


def _plain(v):
    return bytes(v) if isinstance(v, memoryview) else v


def copy_store(source, target) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``target`` (both at the same
    schema version); returns the rows copied per table."""
    missing = set(tables_of(source)) - set(tables_of(target))
    if missing:
        raise ValueError(f"the target has no table {', '.join(sorted(missing))}: are both at the same schema version?")
    if any(target._one(f"SELECT 1 AS x FROM {t} LIMIT 1") for t in tables_of(target)):
        raise ValueError(f"{target.location} is not empty: copy only into a new database")
    counts = {}
    with target.transaction():
        for table in tables_of(source):
            columns = source._db.columns(table)
            rows = _rows(source, table, columns)
            insert_rows(target, f"INSERT INTO {table} ({', '.join(columns)}) VALUES ", rows, BATCH)
            counts[table] = len(rows)
            after = getattr(target._db, "after_copy", None)
            if after is not None:
                after(table)
    return counts


def differences(source, target) -> list[str]:
    """Tables whose rows differ between the two stores (empty: the copy is exact)."""
    found = []
    for table in tables_of(source):
        columns = source._db.columns(table)
        a, b = _rows(source, table, columns), _rows(target, table, columns)
        if a != b:
            found.append(f"{table}: {len(a)} rows in the source, {len(b)} in the target"
                         + ("" if len(a) != len(b) else ", some differ"))
    return found

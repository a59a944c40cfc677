"""Table talk and the chronicle in the archive and at the head of reports.

``turns/<match>/tNNN/private/press.yaml``      every message relayed while turn NNN was open (who, to whom, the text)
``turns/<match>/tNNN/private/chronicle.yaml``  the chronicle entries and letters that head turn NNN's reports
``turns/<match>/tNNN/press.yaml``, ``chronicle.yaml``  of these what was for all, an unsigned message without
                                       its writer: what the match's pages show (the rest is the owner's alone)

Both are written again from the store whenever a message is relayed or an entry
published, so a file is always the whole record of its turn.  ``heading`` is what
a report's wrapper shows first: the chronicle for its reader, and in the public
report (observers', the match pages') the public table talk of the turn."""
from __future__ import annotations

from referee.archive.record import write_turn_record
from referee.store.talk import TalkRecords


def write_press(archive, records: TalkRecords, match_id: str, turn: int) -> None:
    rows = [{"number": r["number"], "sent": r["sent"], "from": r["sender"],
             "to": "all" if r["public"] else list(r["recipients"]), "anonymous": r["anonymous"],
             **({"answers": r["answers"]} if r["answers"] else {}), "text": r["text"]}
            for r in records.press_of_turn(match_id, turn)]
    write_turn_record(archive, match_id, turn, "press.yaml", rows, private=True)
    public = [{k: v for k, v in r.items() if k != "from" or not r["anonymous"]} for r in rows if r["to"] == "all"]
    if public:   # rows are only ever added: no public file means none was public
        write_turn_record(archive, match_id, turn, "press.yaml", public)


def write_chronicle(archive, records: TalkRecords, match_id: str, turn: int) -> None:
    rows = [{"number": e["number"], "kind": e["kind"], "by": e["author"], "for": e["seats"] or "all",
             **({"title": e["title"]} if e["title"] else {}), "text": e["text"]}
            for e in records.published(match_id, turn)]
    write_turn_record(archive, match_id, turn, "chronicle.yaml", rows, private=True)
    public = [r for r in rows if r["for"] == "all"]
    if public:
        write_turn_record(archive, match_id, turn, "chronicle.yaml", public)


def heading(store, match_id: str, turn: int, viewer, names_of) -> dict:
    """``chronicle`` (entries for ``viewer``: a seat, None for the public, "@gm" sees all) and
    ``table_talk`` (the public press of the turn, for the public report only).  ``names_of()``
    gives the seats' names; it is asked only when there is something to show (a close renders
    one report per reader, most turns without either)."""
    records = TalkRecords(store)
    entries = records.published(match_id, turn)
    talk_rows = records.press_of_turn(match_id, turn) if viewer is None else []
    if not entries and not talk_rows:
        return {"chronicle": [], "table_talk": []}
    names = names_of()
    chronicle = []
    for e in entries:
        if e["seats"] and viewer != "@gm" and viewer not in e["seats"]:
            continue
        author = None if e["author"] == "@gm" else names.get(e["author"], {"name": e["author"]})["name"]
        chronicle.append({"kind": e["kind"], "number": e["number"], "title": e["title"], "text": e["text"],
                          "author": author})
    talk = []
    for r in talk_rows:
        if r["public"]:
            talk.append({"number": r["number"], "text": r["text"],
                         "sender": None if r["anonymous"] else names.get(r["sender"], {"name": r["sender"]})["name"]})
    return {"chronicle": chronicle, "table_talk": talk}

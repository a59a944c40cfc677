"""``order_choices``: the player's dice, markers and the tiles on the board, labelled as the
order form names them, for the clickable order page (issue 36)."""
from __future__ import annotations

from .edition import cost_currency
from .form import COL, SYM, T, show_face, tile_text
from .state import face, markers_free

KINDS = {"en": {"ask": "ask: stop here and ask me", "pass": "pass: no more actions this age",
                "build": "build: work on my wonder (paid automatically)", "reroll": "reroll: all my dice"},
         "de": {"ask": "ask: hier anhalten und mich fragen", "pass": "pass: keine weiteren Aktionen in diesem Zeitalter",
                "build": "build: an meinem Wunder bauen (automatisch bezahlt)", "reroll": "reroll: alle meine Würfel"}}
AUTO = {"en": {"auto": "auto: least surplus", "none": "none", "all": "all"},
        "de": {"auto": "auto: wenigster Überschuss", "none": "none: nichts", "all": "all: alle"}}


def _items(pairs) -> list[dict]:
    return [{"value": v, "label": str(label)} for v, label in pairs]


def _dice(ed, q: dict, lang: str, spent: bool | None = False) -> list[dict]:
    return _items((x[0], f"{x[0]} ({COL[lang][x[1]]}) {show_face(face(ed, x), lang)}")
                  for x in q["dice"] if spent is None or x[3] == spent)


def order_choices(state, player: str, lang: str) -> dict[str, list[dict]]:
    d, ed = state.d, state.ed
    lang = lang if lang in T else "en"
    stage = d["waiting"].get(player)
    if stage is None:
        return {}
    q, auto = d["p"][player], AUTO[lang]
    trades = _items((k, auto[k]) for k in ("auto", "none"))
    if stage == "books":
        return {"hold.*": _items((x[0], f"{x[0]} {show_face(face(ed, x), lang)}")
                                 for x in q["dice"] if not x[3] and face(ed, x).get("book")),
                "trade.*": []}   # no trade while books are held (R101): the page hides the field
    if stage == "famine":
        return {"trade": trades, "trade.*.*": _dice(ed, q, lang)}
    dice = _dice(ed, q, lang)
    markers = _items((k, SYM[lang][k]) for k in q["markers"] if k != "reroll" and markers_free(q, k))
    tiles, columns, rows = [], [], 0
    for c, column in enumerate(d["board"]):
        columns.append((c + 1, str(c + 1)))
        rows = max(rows, len(column))
        for r, tid in enumerate(column):
            if tid is not None:
                cur = cost_currency(ed.tiles[tid])
                tiles.append((tid, f"{tile_text(ed, tid, lang)}: {r + 1} {SYM[lang][cur]} ({c + 1}/{r + 1})"))
    out = {"steps.*": _items(KINDS[lang].items()),
           "steps.*.buy.tile": _items(tiles), "steps.*.buy.column": _items(columns),
           "steps.*.buy.row": _items((r, str(r)) for r in range(1, rows + 1)),
           "steps.*.buy.replace": _items((i, str(i)) for i in range(1, len(q["devs"]) + 1)),
           "steps.*.buy.give_back.*": _dice(ed, q, lang, None),
           "steps.*.reroll": _items([("all", auto["all"])]), "steps.*.reroll.*": dice}
    for act in ("buy", "build"):
        out[f"steps.*.{act}.pay"] = _items([("auto", auto["auto"])])
        out[f"steps.*.{act}.pay.*"] = dice + markers
        out[f"steps.*.{act}.trade"] = trades
        out[f"steps.*.{act}.trade.*.*"] = dice
    out["steps.*.pass.food_trade"] = trades
    out["steps.*.pass.food_trade.*.*"] = dice
    return out

"""Order documents after the seed's copy template (Ereigniskarte, Aktionen,
Abstimmung, Auswahl) and their reading: every faulty part falls back to its
Standardaktion, which ``check`` reports as a warning."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, PrivateAttr, field_validator, model_validator

from referee.game_api.contract import FAULT, Problem

from . import council as C
from .words import MISPLACED, allowed, canon, choices, hint

CARDS: tuple[str, ...] = (
    "familienstern", "fremdes_revier", "fremde_schichten", "aufstaende",
    "klassenkampf", "entfuehrung", "marionette", "kaiserhof",
)
AP = 12
# which extra field each card needs
CARD_PARAM = {
    "familienstern": None, "fremdes_revier": "viertel", "fremde_schichten": "schicht",
    "aufstaende": "viertel", "klassenkampf": "schicht", "entfuehrung": "ziel",
    "marionette": "ziel", "kaiserhof": "vorschlag",
}
_NONE_WORDS = {"", "keine", "keiner", "none", "no", "-"}


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Einflussnahme(_Doc):
    ziel: str                  # member id of an NPC
    vorschlag: int             # proposal number on this session's agenda
    richtung: str              # pro | contra | a candidate's member id
    punkte: int = 1


REST = "rest"   # verwaltungsarbeit: rest = every AP the other actions leave


class Aktionen(_Doc):
    verwaltungsarbeit: int | Literal["rest"] = 0

    @field_validator("verwaltungsarbeit", mode="before")
    @classmethod
    def _rest_any_case(cls, v: Any):
        return REST if isinstance(v, str) and v.strip().lower() in (REST, "rest_ap", "restliche") else v
    einflussnahme: list[Einflussnahme] = []
    wahlkampf: int = 0


class Ereigniskarte(_Doc):
    karte: str
    viertel: str | None = None
    schicht: str | None = None
    ziel: str | None = None
    vorschlag: int | None = None
    seite: str | None = None                 # kaiserhof: pro | contra | candidate
    abstimmung: dict[int, str] = {}          # marionette: the puppet's votes


def _card_may_be_a_word(schema: dict) -> None:
    """``ereigniskarte: keine`` (or a bare card name) is read by ``_keine``: the
    published JSON Schema must accept the word the form is pre-filled with too."""
    card = schema.get("properties", {}).get("ereigniskarte", {})
    if isinstance(card.get("anyOf"), list):
        card["anyOf"].insert(1, {"type": "string"})   # after the card's mapping: the order page offers that first


class SessionOrders(_Doc):
    model_config = ConfigDict(extra="forbid", json_schema_extra=_card_may_be_a_word)

    spielername: str | None = None          # the copy template's header lines, ignored
    spielerfigur: str | None = None
    ereigniskarten: list[str] | None = None  # round one only: the three cards chosen
    ereigniskarte: Ereigniskarte | None = None
    aktionen: Aktionen | None = None
    abstimmung: dict[int, str] = {}
    auswahl: int | None = None
    _misplaced: list[str] = PrivateAttr(default_factory=list)

    @model_validator(mode="wrap")
    @classmethod
    def _set_aside_misplaced(cls, data: Any, handler):
        """Keys that belong inside ``ereigniskarte``/``aktionen`` written at the top are
        set aside here and refused by ``read`` with the place they belong (one error each,
        in the game's words); the schema alone could only say "not allowed here"."""
        found = [k for k in data if k in MISPLACED] if isinstance(data, dict) else []
        if found:
            data = {k: v for k, v in data.items() if k not in MISPLACED}
        model = handler(data)
        model._misplaced = found
        return model

    @field_validator("ereigniskarte", mode="before")
    @classmethod
    def _keine(cls, v: Any):
        if isinstance(v, str) and v.strip().lower() in _NONE_WORDS:
            return None
        if isinstance(v, str):
            return {"karte": v.strip()}
        return v

    @field_validator("abstimmung", mode="before")
    @classmethod
    def _none_is_empty(cls, v: Any):
        return {} if v is None else v


class NewProposal(_Doc):
    title_de: str
    title_en: str = ""
    kind: str = "vorschlag"
    value: str | None = None
    direction: str = "up"
    pro: list[str] = []
    contra: list[str] = []
    office: str | None = None
    candidates: list[str] = []


class GmOrders(_Doc):
    nachziehen: list[int] = []        # proposals to fill gaps / refill with, in this order
    neue_vorschlaege: list[NewProposal] = []
    agenda_veroeffentlichen: list[str] = []   # players whose agenda bonus is published


def _w(code: str, where: str, **params) -> Problem:
    return Problem(code, where, "warning", params)


def _f(code: str, where: str, **params) -> Problem:
    """A faulty part the session will replace by its Standardaktion: said first in the
    reply, and the turn does not close early while the player's orders carry it."""
    return Problem(FAULT + code, where, "warning", params)


def proposal(state: dict, nr: int) -> dict | None:
    return state["proposals"].get(str(nr))


def _sides(state: dict, nr: int) -> dict[str, str]:
    p = proposal(state, nr)
    return choices(p["candidates"] if p["kind"] == "wahl" else ("pro", "contra"),
                   {m: x["name"] for m, x in C.members(state).items()} if p["kind"] == "wahl" else None)


def _choice(state: dict, nr: int, choice: Any) -> str | None:
    """The canonical vote or direction on proposal ``nr`` (any case; a candidate by
    id or name), None if it is none of them."""
    sides = _sides(state, nr)
    found = canon(choice, sides)
    return found if found in sides.values() else None


def _npc_table(state: dict) -> dict[str, str]:
    mems = C.members(state)
    return choices(C.npcs(state), {m: mems[m]["name"] for m in C.npcs(state)})


CARD_TABLE = choices(CARDS)


def read_card(state: dict, player: str, card: Ereigniskarte | None) -> tuple[dict | None, list[Problem]]:
    if card is None:
        return None, []
    if state["round"] == 1:
        return None, [_w("phase.skipped", "ereigniskarte", part="Ereigniskarte")]
    left = state["cards"].get(player) or []
    name = canon(card.karte, CARD_TABLE)
    if name not in CARDS:
        return None, [_f("card.unknown", "ereigniskarte.karte", card=card.karte, hint=hint(card.karte, CARD_TABLE))]
    if name not in left:
        return None, [_f("card.used", "ereigniskarte.karte", card=name, left=", ".join(left) or "—")]
    need = CARD_PARAM[name]
    camp = state["campaign"]
    out: dict[str, Any] = {"karte": name}
    if need in ("viertel", "schicht"):
        ids = camp["viertel"] if need == "viertel" else camp["schichten"]
        table = choices(ids, ids)
        given = getattr(card, need)
        value = canon(given, table)
        if value not in ids:
            return None, [_f("card.param", f"ereigniskarte.{need}", card=name, field=need,
                             value=given if given is not None else "—", hint=hint(given, table))]
        out[need] = value
    elif need == "ziel":
        table = _npc_table(state)
        target = canon(card.ziel, table)
        if target not in C.npcs(state):
            return None, [_f("card.target", "ereigniskarte.ziel", card=name, target=card.ziel,
                             hint=hint(card.ziel, table))]
        out["ziel"] = target
        if name == "marionette":
            votes = {}
            for nr, choice in sorted(card.abstimmung.items()):
                vote = _choice(state, nr, choice) if nr in state["session"] else None
                if vote is None:
                    shown = list(dict.fromkeys(_sides(state, nr).values())) if nr in state["session"] else state["session"]
                    return None, [_f("card.param", f"ereigniskarte.abstimmung.{nr}", card=name,
                                     field=f"abstimmung {nr}", value=choice, hint=allowed(shown))]
                votes[str(nr)] = vote
            out["abstimmung"] = votes
    elif need == "vorschlag":
        if card.vorschlag not in state["session"]:
            return None, [_f("card.param", "ereigniskarte.vorschlag", card=name, field="vorschlag",
                             value=card.vorschlag if card.vorschlag is not None else "—", hint=allowed(state["session"]))]
        side = _choice(state, card.vorschlag, card.seite)
        if side is None:
            return None, [_f("card.param", "ereigniskarte.seite", card=name, field="seite",
                             value=card.seite if card.seite is not None else "—",
                             hint=allowed(list(dict.fromkeys(_sides(state, card.vorschlag).values()))))]
        out["vorschlag"] = card.vorschlag
        out["seite"] = side
    return out, []


def read_actions(state: dict, player: str, act: Aktionen | None) -> tuple[dict, list[Problem]]:
    default = {"verwaltung": AP, "einfluss": [], "wahlkampf": 0, "default": True}
    if state["round"] == 1:
        return {"verwaltung": 0, "einfluss": [], "wahlkampf": 0, "default": False}, (
            [_w("phase.skipped", "aktionen", part="Aktionen")] if act is not None else [])
    if act is None:
        return default, [_w("actions.missing", "aktionen")]
    probs: list[Problem] = []
    others = act.wahlkampf + sum(e.punkte for e in act.einflussnahme)
    verwaltung = max(AP - others, 0) if act.verwaltungsarbeit == REST else act.verwaltungsarbeit
    if verwaltung < 0 or act.wahlkampf < 0:
        probs.append(_f("actions.negative", "aktionen"))
    table = _npc_table(state)
    einfluss = []
    for i, e in enumerate(act.einflussnahme):
        where = f"aktionen.einflussnahme.{i}"
        target = canon(e.ziel, table)
        richtung = _choice(state, e.vorschlag, e.richtung) if e.vorschlag in state["session"] else None
        if target not in table.values():
            probs.append(_f("actions.target", where + ".ziel", target=e.ziel, n=i + 1, hint=hint(e.ziel, table)))
        elif e.vorschlag not in state["session"]:
            probs.append(_f("actions.proposal", where + ".vorschlag", nr=e.vorschlag, n=i + 1,
                            session=", ".join(map(str, state["session"])) or "—"))
        elif richtung is None:
            probs.append(_f("actions.direction", where + ".richtung", choice=e.richtung, n=i + 1,
                            allowed=" | ".join(_sides(state, e.vorschlag).values())))
        elif e.punkte < 1:
            probs.append(_f("actions.negative", where + ".punkte"))
        else:
            einfluss.append({"ziel": target, "vorschlag": e.vorschlag, "richtung": richtung, "punkte": e.punkte})
    spent = verwaltung + others
    if spent > AP:   # said beside the other problems: the player fixes all at once
        probs.append(_f("actions.ap", "aktionen", spent=spent, ap=AP))
    if probs:
        return default, probs
    return {"verwaltung": verwaltung, "einfluss": einfluss, "wahlkampf": act.wahlkampf,
            "default": False}, []


def read_votes(state: dict, votes: dict[int, str]) -> tuple[dict[str, str], list[Problem]]:
    """Valid votes by proposal number; the rest will be cast as an NPC would."""
    if state["round"] == 1:
        return {}, ([_w("phase.skipped", "abstimmung", part="Abstimmung")] if votes else [])
    out, probs = {}, []
    for nr, choice in sorted(votes.items()):
        if nr not in state["session"]:
            probs.append(_f("vote.proposal", f"abstimmung.{nr}", nr=nr,
                            session=", ".join(map(str, state["session"])) or "—"))
        elif (vote := _choice(state, nr, choice)) is None:
            probs.append(_f("vote.choice", f"abstimmung.{nr}", nr=nr, choice=choice,
                            allowed=" | ".join(_sides(state, nr).values())))
        else:
            out[str(nr)] = vote
    for nr in state["session"]:
        if str(nr) not in out and nr not in votes:
            probs.append(_w("vote.missing", f"abstimmung.{nr}", nr=nr))
    return out, probs


def read_selection(state: dict, pick: int | None) -> tuple[int | None, list[Problem]]:
    if state["round"] >= state["campaign"]["rounds"]:
        return None, ([_w("select.last_round", "auswahl")] if pick is not None else [])
    if pick is None:
        return None, [_w("select.missing", "auswahl")]
    if pick not in state["selection"]:
        return None, [_f("select.unknown", "auswahl", nr=pick, selection=", ".join(map(str, state["selection"])))]
    return pick, []


def read_picks(state: dict, player: str, picks: list[str] | None) -> tuple[list[str] | None, list[Problem]]:
    if state["cards"].get(player) is not None:
        return None, ([_w("picks.late", "ereigniskarten")] if picks is not None else [])
    if not picks:   # none or [] (an empty list is no choice, not a faulty one)
        return None, [_w("picks.missing", "ereigniskarten")]
    named = [canon(p, CARD_TABLE) for p in picks]
    for i, (given, card) in enumerate(zip(picks, named)):
        if card not in CARDS:
            return None, [_f("picks.unknown", f"ereigniskarten.{i}", card=given, hint=hint(given, CARD_TABLE))]
        if card in named[:i]:
            return None, [_f("picks.twice", f"ereigniskarten.{i}", card=card)]
    if len(named) != 3:
        return None, [_f("picks.count", "ereigniskarten", n=len(named))]
    return sorted(named, key=CARDS.index), []


def misplaced(orders: SessionOrders) -> list[Problem]:
    """Errors (the mail is refused): keys written at the top that belong one level down."""
    return [Problem("orders.misplaced", key, "error", {"key": key, "example": MISPLACED[key]})
            for key in orders._misplaced]


def read(state: dict, player: str, orders: SessionOrders) -> tuple[dict, list[Problem]]:
    """The orders as the session will use them (None/defaults = Standardaktion); the
    faulty parts' problems first, as the reply says them first."""
    card, p1 = read_card(state, player, orders.ereigniskarte)
    actions, p2 = read_actions(state, player, orders.aktionen)
    votes, p3 = read_votes(state, orders.abstimmung)
    pick, p4 = read_selection(state, orders.auswahl)
    picks, p5 = read_picks(state, player, orders.ereigniskarten)
    probs = misplaced(orders) + p5 + p1 + p2 + p3 + p4
    return ({"card": card, "actions": actions, "votes": votes, "pick": pick, "picks": picks},
            [p for p in probs if p.code.startswith(FAULT)] + [p for p in probs if not p.code.startswith(FAULT)])


def understood(state: dict, player: str, orders: SessionOrders) -> dict:
    """The orders as the session will use them, in the order document's words: what
    a reply echoes.  A part replaced by its Standardaktion shows the Standardaktion
    (Verwaltungsarbeit 12), a card or pick not played is left out, and so is every
    empty or null field; votes not valid are left to be cast as an NPC would."""
    used = read(state, player, orders)[0]
    out: dict[str, Any] = {}
    if used["picks"] is not None:
        out["ereigniskarten"] = list(used["picks"])
    if used["card"] is not None:
        out["ereigniskarte"] = {k: v for k, v in used["card"].items() if v not in (None, {}, [])}
    elif state["round"] > 1:
        out["ereigniskarte"] = "keine"
    if state["round"] > 1:
        act = used["actions"]
        out["aktionen"] = {"verwaltungsarbeit": act["verwaltung"], "wahlkampf": act["wahlkampf"],
                           **({"einflussnahme": [dict(e) for e in act["einfluss"]]} if act["einfluss"] else {})}
    if used["votes"]:
        out["abstimmung"] = {int(nr): choice for nr, choice in used["votes"].items()}
    if used["pick"] is not None:
        out["auswahl"] = used["pick"]
    return out


def read_gm(state: dict, orders: GmOrders) -> tuple[dict, list[Problem]]:
    probs = []
    known = set(state["selection"]) | set(state["deck"])
    prio = []
    for i, nr in enumerate(orders.nachziehen):
        if nr in known:
            prio.append(nr)
        else:
            probs.append(_w("gm.proposal", f"nachziehen.{i}", nr=nr))
    camp = state["campaign"]
    symbols = set(camp["viertel"]) | set(camp["schichten"])
    offices = {o["id"] for o in camp["offices"]}
    ids = set(C.member_ids(state))
    sym = choices(symbols, {**camp["viertel"], **camp["schichten"]})
    mem = choices(ids, {m: x["name"] for m, x in C.members(state).items()})
    new = []
    for i, p in enumerate(orders.neue_vorschlaege):
        p = p.model_copy(update={   # the GM's words in any case, as for the players
            "kind": canon(p.kind, choices(("vorschlag", "wahl"))), "direction": canon(p.direction, choices(("up", "down"))),
            "value": canon(p.value, choices(state["values"])), "office": canon(p.office, choices(offices)),
            "pro": [canon(x, sym) for x in p.pro], "contra": [canon(x, sym) for x in p.contra],
            "candidates": [canon(x, mem) for x in p.candidates]})
        ok = (set(p.pro + p.contra) <= symbols and p.direction in ("up", "down") and (
            (p.kind == "vorschlag" and p.value in state["values"]) or
            (p.kind == "wahl" and p.office in offices and len(p.candidates) >= 2 and set(p.candidates) <= ids)))
        if ok:
            new.append(p.model_dump())
        else:
            probs.append(_w("gm.new_proposal", f"neue_vorschlaege.{i}"))
    publish = []
    seats = choices(state["players"])
    for i, player in enumerate(orders.agenda_veroeffentlichen):
        player = canon(player, seats)
        if player in state["players"]:
            publish.append(player)
        else:
            probs.append(_w("gm.player", f"agenda_veroeffentlichen.{i}", player=player))
    return {"prio": prio, "new": new, "publish": sorted(set(publish))}, probs

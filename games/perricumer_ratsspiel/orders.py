"""Order documents after the seed's copy template (Ereigniskarte, Aktionen,
Abstimmung, Auswahl) and their reading: every faulty part falls back to its
Standardaktion, which ``check`` reports as a warning."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from referee.game_api.contract import Problem, Rng

from . import council as C

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


class Aktionen(_Doc):
    verwaltungsarbeit: int = 0
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
        card["anyOf"].insert(0, {"type": "string"})


class SessionOrders(_Doc):
    model_config = ConfigDict(extra="forbid", json_schema_extra=_card_may_be_a_word)

    spielername: str | None = None          # the copy template's header lines, ignored
    spielerfigur: str | None = None
    ereigniskarten: list[str] | None = None  # round one only: the three cards chosen
    ereigniskarte: Ereigniskarte | None = None
    aktionen: Aktionen | None = None
    abstimmung: dict[int, str] = {}
    auswahl: int | None = None

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


def proposal(state: dict, nr: int) -> dict | None:
    return state["proposals"].get(str(nr))


def _choice_ok(state: dict, nr: int, choice: str) -> bool:
    p = proposal(state, nr)
    if p["kind"] == "wahl":
        return choice in p["candidates"]
    return choice in ("pro", "contra")


def read_card(state: dict, player: str, card: Ereigniskarte | None) -> tuple[dict | None, list[Problem]]:
    if card is None:
        return None, []
    if state["round"] == 1:
        return None, [_w("phase.skipped", "ereigniskarte", part="Ereigniskarte")]
    left = state["cards"].get(player) or []
    if card.karte not in CARDS:
        return None, [_w("card.unknown", "ereigniskarte.karte", card=card.karte)]
    if card.karte not in left:
        return None, [_w("card.used", "ereigniskarte.karte", card=card.karte)]
    need = CARD_PARAM[card.karte]
    camp = state["campaign"]
    out = {"karte": card.karte}
    if need == "viertel":
        if card.viertel not in camp["viertel"]:
            return None, [_w("card.param", "ereigniskarte.viertel", card=card.karte, field="viertel")]
        out["viertel"] = card.viertel
    elif need == "schicht":
        if card.schicht not in camp["schichten"]:
            return None, [_w("card.param", "ereigniskarte.schicht", card=card.karte, field="schicht")]
        out["schicht"] = card.schicht
    elif need == "ziel":
        if card.ziel not in C.npcs(state):
            return None, [_w("card.target", "ereigniskarte.ziel", card=card.karte, target=card.ziel)]
        out["ziel"] = card.ziel
        if card.karte == "marionette":
            votes = {}
            for nr, choice in sorted(card.abstimmung.items()):
                if nr not in state["session"] or not _choice_ok(state, nr, choice):
                    return None, [_w("card.param", f"ereigniskarte.abstimmung.{nr}", card=card.karte, field="abstimmung")]
                votes[str(nr)] = choice
            out["abstimmung"] = votes
    elif need == "vorschlag":
        if card.vorschlag not in state["session"] or not _choice_ok(state, card.vorschlag, card.seite or ""):
            return None, [_w("card.param", "ereigniskarte", card=card.karte, field="vorschlag/seite")]
        out["vorschlag"] = card.vorschlag
        out["seite"] = card.seite
    return out, []


def read_actions(state: dict, player: str, act: Aktionen | None) -> tuple[dict, list[Problem]]:
    default = {"verwaltung": AP, "einfluss": [], "wahlkampf": 0, "default": True}
    if state["round"] == 1:
        return {"verwaltung": 0, "einfluss": [], "wahlkampf": 0, "default": False}, (
            [_w("phase.skipped", "aktionen", part="Aktionen")] if act is not None else [])
    if act is None:
        return default, [_w("actions.missing", "aktionen")]
    probs: list[Problem] = []
    if act.verwaltungsarbeit < 0 or act.wahlkampf < 0:
        probs.append(_w("actions.negative", "aktionen"))
    npc = set(C.npcs(state))
    for i, e in enumerate(act.einflussnahme):
        where = f"aktionen.einflussnahme.{i}"
        if e.ziel not in npc:
            probs.append(_w("actions.target", where + ".ziel", target=e.ziel))
        elif e.vorschlag not in state["session"]:
            probs.append(_w("actions.proposal", where + ".vorschlag", nr=e.vorschlag))
        elif not _choice_ok(state, e.vorschlag, e.richtung):
            probs.append(_w("actions.direction", where + ".richtung", choice=e.richtung))
        elif e.punkte < 1:
            probs.append(_w("actions.negative", where + ".punkte"))
    spent = act.verwaltungsarbeit + act.wahlkampf + sum(e.punkte for e in act.einflussnahme)
    if spent > AP:   # said beside the other problems: the player fixes all at once
        probs.append(_w("actions.ap", "aktionen", spent=spent, ap=AP))
    if probs:
        return default, probs
    return {
        "verwaltung": act.verwaltungsarbeit,
        "einfluss": [{"ziel": e.ziel, "vorschlag": e.vorschlag, "richtung": e.richtung,
                      "punkte": e.punkte} for e in act.einflussnahme],
        "wahlkampf": act.wahlkampf, "default": False,
    }, []


def read_votes(state: dict, votes: dict[int, str]) -> tuple[dict[str, str], list[Problem]]:
    """Valid votes by proposal number; the rest will be cast as an NPC would."""
    if state["round"] == 1:
        return {}, ([_w("phase.skipped", "abstimmung", part="Abstimmung")] if votes else [])
    out, probs = {}, []
    for nr, choice in sorted(votes.items()):
        if nr not in state["session"]:
            probs.append(_w("vote.proposal", f"abstimmung.{nr}", nr=nr))
        elif not _choice_ok(state, nr, str(choice)):
            probs.append(_w("vote.choice", f"abstimmung.{nr}", nr=nr, choice=choice))
        else:
            out[str(nr)] = str(choice)
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
        return None, [_w("select.unknown", "auswahl", nr=pick)]
    return pick, []


def read_picks(state: dict, player: str, picks: list[str] | None) -> tuple[list[str] | None, list[Problem]]:
    if state["cards"].get(player) is not None:
        return None, ([_w("picks.late", "ereigniskarten")] if picks is not None else [])
    if picks is None:
        return None, [_w("picks.missing", "ereigniskarten")]
    if len(picks) != 3 or len(set(picks)) != 3 or any(p not in CARDS for p in picks):
        return None, [_w("picks.invalid", "ereigniskarten")]
    return sorted(picks, key=CARDS.index), []


def read(state: dict, player: str, orders: SessionOrders) -> tuple[dict, list[Problem]]:
    """The orders as the session will use them (None/defaults = Standardaktion)."""
    card, p1 = read_card(state, player, orders.ereigniskarte)
    actions, p2 = read_actions(state, player, orders.aktionen)
    votes, p3 = read_votes(state, orders.abstimmung)
    pick, p4 = read_selection(state, orders.auswahl)
    picks, p5 = read_picks(state, player, orders.ereigniskarten)
    return ({"card": card, "actions": actions, "votes": votes, "pick": pick, "picks": picks},
            p5 + p1 + p2 + p3 + p4)


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
    new = []
    for i, p in enumerate(orders.neue_vorschlaege):
        ok = (set(p.pro + p.contra) <= symbols and p.direction in ("up", "down") and (
            (p.kind == "vorschlag" and p.value in state["values"]) or
            (p.kind == "wahl" and p.office in offices and len(p.candidates) >= 2 and set(p.candidates) <= ids)))
        if ok:
            new.append(p.model_dump())
        else:
            probs.append(_w("gm.new_proposal", f"neue_vorschlaege.{i}"))
    publish = []
    for i, player in enumerate(orders.agenda_veroeffentlichen):
        if player in state["players"]:
            publish.append(player)
        else:
            probs.append(_w("gm.player", f"agenda_veroeffentlichen.{i}", player=player))
    return {"prio": prio, "new": new, "publish": sorted(set(publish))}, probs


def random_orders(state: dict, player: str, rng: Rng) -> dict:
    """Random legal orders (scripted players, conformance test, demo)."""
    if player not in state["players"]:
        return {}
    out: dict[str, Any] = {}
    if state["cards"].get(player) is None:
        out["ereigniskarten"] = rng.sample(list(CARDS), 3)
    if state["round"] > 1:
        session = list(state["session"])
        votes = {}
        for nr in session:
            p = proposal(state, nr)
            votes[nr] = rng.choice(p["candidates"] if p["kind"] == "wahl" else ["pro", "contra"])
        out["abstimmung"] = votes
        budget = AP
        acts: dict[str, Any] = {"einflussnahme": []}
        npc = C.npcs(state)
        for _ in range(rng.below(3)):
            if not session or not npc:
                break
            nr = rng.choice(session)
            p = proposal(state, nr)
            pts = 1 + rng.below(2)
            acts["einflussnahme"].append({
                "ziel": rng.choice(npc), "vorschlag": nr, "punkte": pts,
                "richtung": rng.choice(p["candidates"] if p["kind"] == "wahl" else ["pro", "contra"])})
            budget -= pts
        acts["wahlkampf"] = rng.below(budget + 1)
        acts["verwaltungsarbeit"] = budget - acts["wahlkampf"]
        out["aktionen"] = acts
        left = state["cards"].get(player) or []
        if left and rng.below(3) == 0:
            out["ereigniskarte"] = _random_card(state, rng.choice(left), rng, npc, session)
    if state["round"] < state["campaign"]["rounds"] and state["selection"]:
        out["auswahl"] = rng.choice(state["selection"])
    return out


def _random_card(state: dict, card: str, rng: Rng, npc: list[str], session: list[int]) -> dict | str:
    need = CARD_PARAM[card]
    camp = state["campaign"]
    if need is None:
        return {"karte": card}
    if need == "viertel":
        return {"karte": card, "viertel": rng.choice(sorted(camp["viertel"]))}
    if need == "schicht":
        return {"karte": card, "schicht": rng.choice(sorted(camp["schichten"]))}
    if need == "ziel":
        return {"karte": card, "ziel": rng.choice(npc)} if npc else "keine"
    if not session:
        return "keine"
    nr = rng.choice(session)
    p = proposal(state, nr)
    return {"karte": card, "vorschlag": nr,
            "seite": rng.choice(p["candidates"] if p["kind"] == "wahl" else ["pro", "contra"])}

"""A bot's orders through the front door (issue 35).  When a turn is open and a bot
seat owes orders, ``referee.bots.decide`` is asked once (seed: the match seed's
``bot:<turn>:<seat>``), its ``orders:`` written as the order document a player would
mail, read back and checked by the intake as a player's mail is (``read_text``,
``read_envelope``, ``check_orders``), then stored as a submission marked as the bot's
(``BOT_MARK`` in its Message-ID: orders.yaml says ``source: bot``) and kept in the turn's
inbox as a mail, so the archive holds what the bot sent and ``referee replay``
needs nothing else.  A bot that fails (raises, or sends orders the checks refuse)
never holds a turn: a placeholder marks its seat as in (``BOT_FAILED``: an early close
still comes when the humans are in), the seat gets the game's default orders at the
close, and the GM is told (a fault of stage ``bot``)."""
from __future__ import annotations

import hashlib
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime

from referee import bots
from referee import intake as reader
from referee.game_api.contract import derive_seed
from referee.intake.safe_yaml import dump as dump_yaml
from referee.store import bots as bot_rows

BOT_MARK = "bot:"   # how a bot's submission's message_id begins (compute: source "bot")
BOT_FAILED = "bot-failed:"   # a failed bot's placeholder: its seat is in, and gets the game's defaults at the close


class BotFailed(Exception):
    """The bot could not play the turn: why, for the GM."""


class BotOrders:
    def __init__(self, store, archive, lookups, faults, now) -> None:
        self.store, self.archive, self.lookups, self.faults, self.now = store, archive, lookups, faults, now

    def play(self, match_id: str, rows: list[dict] | None = None) -> int:
        """Every bot of the match that owes orders for its open turn decides, once a turn
        (``rows``: its undecided bots, as ``store.bots.undecided`` gave them).  Returns
        how many orders were stored."""
        rows = rows if rows is not None else bot_rows.undecided(self.store, match_id).get(match_id, [])
        stored = 0
        for row in rows:
            stored += self._one(match_id, row["player"], row["strength"])
        return stored

    def _one(self, match_id: str, seat: str, strength: str) -> int:
        match = self.store.match(match_id)
        turn = self.store.current_turn(match_id)
        if match is None or turn is None or turn["status"] != "open":
            return 0
        key = bot_rows.turn_key(turn["number"], turn["rev"])
        stage = turn["awaiting"].get(seat)
        if stage is None or seat in self.store.submitted(match_id, turn["number"]):
            with self.store.transaction():
                bot_rows.mark_decided(self.store, match_id, seat, key)
            return 0
        rules = self.lookups.rules(match)
        try:   # the bot's CPU outside any transaction: nothing is locked while it thinks
            orders, text = self._decide(rules, match, turn, seat, stage, strength)
        except Exception as error:   # any failure of the bot: defaults at the close, the GM told
            self._failed(match_id, turn, seat, key, error)
            return 0
        raw = self._mail(match, turn, seat, strength, text)
        digest = hashlib.sha256(raw).hexdigest()
        with self.store.transaction():
            self.store.claim_match(match_id)   # as a mail's orders: never beside a close of this match
            now_turn = self.store.current_turn(match_id)
            if (now_turn is None or now_turn["status"] != "open" or now_turn["number"] != turn["number"]
                    or now_turn["rev"] != turn["rev"]):
                return 0   # closed or rolled back meanwhile: the next look decides afresh
            self.archive.save_mail(match_id, turn["number"], digest, raw)
            self.store.put_submission(match_id, turn["number"], seat, orders,
                                      f"{BOT_MARK}{match_id}:{key}:{seat}", digest, self.now())
            bot_rows.mark_decided(self.store, match_id, seat, key)
        return 1

    def _failed(self, match_id: str, turn: dict, seat: str, key: str, error: Exception) -> None:
        with self.store.transaction():
            self.store.claim_match(match_id)
            now_turn = self.store.current_turn(match_id)
            if now_turn is not None and (now_turn["number"], now_turn["rev"]) == (turn["number"], turn["rev"]) \
                    and now_turn["status"] == "open":
                self.store.put_submission(match_id, turn["number"], seat, {}, f"{BOT_FAILED}{match_id}:{key}:{seat}",
                                          "", self.now())
            bot_rows.mark_decided(self.store, match_id, seat, key)
        self.faults.note_fault("bot", f"{match_id}:{key}:{seat}", _said(seat, error), match_id, turn["number"])

    def _decide(self, rules, match, turn, seat: str, stage: str, strength: str) -> tuple[dict, str]:
        """(the checked orders as stored, the order document's text), or BotFailed."""
        state = rules.load(turn["state"])   # a fresh copy: the bot may not touch the turn's own
        orders = bots.decide(rules, state, seat, seed=derive_seed(match["seed"], f"bot:{turn['number']}:{seat}"),
                             strength=strength)
        if not isinstance(orders, dict):
            raise BotFailed(f"decide gave {type(orders).__name__}, not an orders: mapping")
        text = dump_yaml({"match": match["id"], "player": seat, "turn": turn["number"], "orders": orders})
        doc = reader.read_text(text)
        if isinstance(doc, list):
            raise BotFailed(_first(doc))
        env = reader.read_envelope(doc)
        if isinstance(env, list):
            raise BotFailed(_first(env))
        state = rules.load(turn["state"])
        model, problems = reader.check_orders(rules, state, stage, seat, env.orders, doc)
        if model is None or any(p.severity == "error" for p in problems):
            raise BotFailed(_first([p for p in problems if p.severity == "error"]))
        return model.model_dump(mode="json"), text

    def _mail(self, match: dict, turn: dict, seat: str, strength: str, text: str) -> bytes:
        """The order mail the bot 'sent', as the turn's inbox keeps a player's: marked as a bot's."""
        settings = self.lookups.settings
        msg = EmailMessage(policy=SMTP)
        msg["From"] = f"bot {seat} <{settings.address}>"
        msg["To"] = settings.address
        msg["Subject"] = f"[{match['id']}] turn {turn['number']}: orders of the bot in seat {seat}"
        msg["Date"] = format_datetime(self.now())
        msg["Message-ID"] = f"<bot.{turn['number']}.{turn['rev']}.{seat}.{match['id']}@{settings.domain}>"
        msg["Auto-Submitted"] = "auto-generated"
        msg["X-Referee-Bot"] = strength
        msg.set_content(text)
        return msg.as_bytes()


def _first(problems) -> str:
    return problems[0].text.get("en", problems[0].code) if problems else "refused"


def _said(seat: str, error: BaseException) -> Exception:
    """What the GM reads: the seat, and the bot's error (capped by ``note_fault``)."""
    return BotFailed(f"seat {seat}: {error}" if isinstance(error, BotFailed) else f"seat {seat}: {type(error).__name__}: {error}")

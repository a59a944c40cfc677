"""The whole path a real mail takes, for the intake fuzzing (issue 13): raw
bytes -> ``parse_inbound`` -> ``Referee.handle`` (SQLite, the real games, the
matches of the turns/ samples with the keys their order mails carry, the
sender judged with DKIM through a local DNS) -> the outbox, which builds the
wire bytes of every queued reply and hands them to a sink that drops them.

``FuzzPath.run(raw)`` says how long that took, how much memory it rose by, and
the internal error it ended in, if any: an exception, a mail refused as
``internal.error`` (the intake's guard), or a new row in the faults table."""
from __future__ import annotations

import logging
import re
import time
import traceback
from dataclasses import dataclass
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from pathlib import Path

import yaml
from dkimkit import LocalDns, sign

from referee.app.referee import Referee
from referee.authority import keys
from referee.authority.base import Settings
from referee.authority.matches.spec import MatchSpec
from referee.game_api.contract import Rng
from referee.mail.inbound import parse_inbound
from referee.mail.senderauth import Trust
from referee.store import open_store

ROOT = Path(__file__).resolve().parents[2]
REFEREE = "referee@localhost"
GM_KEY = "FUZZ-GMKY-2345-6789"
NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
_ENVELOPE = re.compile(rb"^match: (\S+)\s*\nplayer: (\S+)\s*\nkey: (\S+)", re.M)


def samples() -> list[bytes]:
    return [p.read_bytes() for p in sorted((ROOT / "turns").glob("*/t*/inbox/*.eml"))]


class NullSink:
    """Takes the finished bytes and drops them (the outbox has built them)."""

    def send(self, msg) -> None:
        msg.as_bytes()

    def send_bytes(self, data: bytes, sender: str, rcpts) -> None:
        pass


class _Errors(logging.Handler):
    """Keeps the tracebacks the referee logs (the intake's guard logs the one it caught)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.seen.append("".join(traceback.format_exception(*record.exc_info))[-3000:])


@dataclass
class Result:
    seconds: float
    memory: int                # bytes the peak resident set rose by while the mail went through
    error: str | None          # the internal error, None if there was none
    outcome: str = ""
    peak: int = 0              # the process's peak resident set while it went through
    cpu: float = 0.0           # seconds of CPU it took (wall time also counts other processes on the machine)


def _status(field: str) -> int:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _reset_peak() -> None:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")      # resets VmHWM to the current resident set
    except OSError:
        pass


class FuzzPath:
    def __init__(self, root: Path) -> None:
        dns = LocalDns(domains=("demo.test",))
        trust = Trust(txt=dns, strangers="all", strangers_per_hour=10_000)
        self.ref = Referee(open_store(root / "referee.sqlite"), root / "turns", clock=lambda: NOW,
                           settings=Settings(address=REFEREE, rate_limit_per_hour=100_000, trust=trust))
        self.sink = NullSink()
        found = samples()
        for folder in sorted((ROOT / "turns").iterdir()):
            self._create(folder)
        self._keys(found)
        self.seeds = found + self._orders()
        self.seeds += [sign(s, "demo.test") for s in self.seeds[::9]]   # a real DKIM check, then mutated
        self.ref.send_pending(self.sink)
        self.errors = _Errors()
        logging.getLogger("referee").addHandler(self.errors)
        self.faults = len(self.ref.store.faults())

    def _create(self, folder: Path) -> None:
        record = yaml.safe_load((folder / "match.yaml").read_text())
        spec = {k: v for k, v in record.items() if k in MatchSpec.model_fields}
        spec["gm"] = "gm@demo.test"
        # a bot's seat has no address (its mails in the sample are the bot's own, never a sender's)
        spec["players"] = [dict(p) if p.get("bot") else dict(p, email=f"{p['id']}@demo.test") for p in record["players"]]
        self.ref.create_match(spec, gm_key=GM_KEY, seed=record.get("seed"))

    def _keys(self, found: list[bytes]) -> None:
        """Each seat gets the key its sample mails carry: a mutated real order goes all the way."""
        with self.ref.store.transaction():
            for match, player, key in {m.groups() for raw in found for m in _ENVELOPE.finditer(raw)}:
                m, p, k = match.decode(), player.decode(), key.decode()
                if self.ref.store.player(m, p) is not None:
                    self.ref.store.replace_player(m, p, f"{p}@demo.test", keys.hash_key(k), None, NOW)

    def _orders(self) -> list[bytes]:
        """A valid order mail of every seat for its match's current turn, and a GM command."""
        out, n = [], 0
        for match in self.ref.store.matches():
            rules = self.ref.rules(match)
            turn = self.ref.store.current_turn(match["id"])
            state = rules.load(turn["state"])
            for player in self.ref.store.players(match["id"]):
                raw = self._samples_key(match["id"], player["id"])
                if raw is None or player["id"] not in turn["awaiting"]:
                    continue
                n += 1
                orders = rules.random_orders(state, player["id"], Rng(n))
                doc = {"match": match["id"], "player": player["id"], "key": raw, "turn": turn["number"], "orders": orders}
                out.append(_mail(player["email"], yaml.safe_dump(doc, allow_unicode=True), n))
            gm = {"match": match["id"], "player": "@gm", "key": GM_KEY, "command": "observer", "email": "fan@demo.test"}
            out.append(_mail("gm@demo.test", yaml.safe_dump(gm), n + 1000))
        return out

    def _samples_key(self, match: str, player: str) -> str | None:
        for raw in samples():
            for m in _ENVELOPE.finditer(raw):
                if m.group(1).decode() == match and m.group(2).decode() == player:
                    return m.group(3).decode()
        return None

    def run(self, raw: bytes) -> Result:
        self.errors.seen.clear()
        base = _status("VmRSS")
        _reset_peak()
        start, cpu = time.perf_counter(), time.process_time()
        error, outcome = None, ""
        try:
            handled = self.ref.handle(parse_inbound(raw, own_addresses=[REFEREE]))
            outcome = handled.outcome
            self.ref.send_pending(self.sink)
            if handled.reason == "internal.error":
                error = self.errors.seen[-1] if self.errors.seen else "refused as internal.error"
        except Exception:
            error = traceback.format_exc()[-3000:]
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        peak = _status("VmHWM")
        memory = max(peak - base, 0)
        faults = self.ref.store.faults()
        if len(faults) > self.faults and error is None:
            error = f"fault recorded: {faults[-1]['stage']} {faults[-1]['error']}"
        self.faults = len(faults)
        return Result(seconds, memory, error, outcome, peak, cpu)

    def close(self) -> None:
        logging.getLogger("referee").removeHandler(self.errors)
        self.ref.store.close()


def _mail(sender: str, body: str, n: int) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, REFEREE, "orders"
    msg["Message-ID"] = f"<seed{n}@demo.test>"
    msg.set_content(body)
    return msg.as_bytes(policy=policy.SMTP)

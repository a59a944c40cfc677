"""What the join and address tests of issue 32 share: a toy match open for joining
on a referee with the operator's default stranger policy (only a proven From is
answered), real DKIM signatures for the senders that prove themselves, mails in
through ``Referee.handle`` and out into a Maildir."""
from __future__ import annotations

import re

from dkimkit import LocalDns, make_referee, sign
from seckit import SPEC, Outbox, hostile, mail, text_of

CODE = re.compile(r"^code: (\S+)$", re.M)
KEY = re.compile(r"(?:Your key|Dein Schlüssel): (\S+)")


class Lobby:
    """``toy1`` open for joining (``seats`` free seats, no one named), GM gm@example.org."""

    def __init__(self, root, clock, seats: int = 3, domains=("example.org",), **extra) -> None:
        trust = {k: extra.pop(k) for k in ("strangers", "strangers_per_hour") if k in extra}
        root.mkdir(parents=True, exist_ok=True)   # on PostgreSQL no store file makes the folder
        self.ref = make_referee(root, clock, txt=LocalDns(domains), **trust)
        self.box = Outbox(self.ref, root / "out")
        spec = SPEC | {"players": [], "seats": seats} | extra
        self.gm_key = self.ref.create_match(spec).gm_key
        self.box.flush()
        self.n = 0

    def send(self, sender: str, body: str, signed: bool = False):
        self.n += 1
        raw = hostile(sender, body, message_id=f"<m{self.n}@{sender.rpartition('@')[2]}>")
        return self.ref.handle(mail(sign(raw, sender.rpartition("@")[2]) if signed else raw))

    def join(self, sender: str, name: str = "Joiner", seat: str = "any", signed: bool = False, **args):
        extra = "".join(f"{k}: {v}\n" for k, v in args.items())
        return self.send(sender, f"match: toy1\nplayer: {seat}\ncommand: join\nname: {name}\n{extra}", signed)

    def confirm(self, sender: str, code: str, seat: str = "any", signed: bool = False):
        return self.send(sender, f"match: toy1\nplayer: {seat}\ncommand: join\ncode: {code}\n", signed)

    def gm(self, command: str, signed: bool = False, key: str | None = None, **args):
        extra = "".join(f"{k}: {v}\n" for k, v in args.items())
        return self.send("gm@example.org", f"match: toy1\nplayer: gm\nkey: {key or self.gm_key}\n"
                                           f"command: {command}\n{extra}", signed)

    def mails(self) -> dict[str, list[str]]:
        """Subject + text of what went out since last asked, by recipient."""
        out: dict[str, list[str]] = {}
        for m in self.box.flush():
            out.setdefault(str(m["To"]), []).append(f"{m['Subject']}\n{text_of(m)}")
        return out

    def seated(self, sender: str, name: str = "Joiner", signed: bool = False, **args) -> str:
        """A joiner who proves the address: the request, the code back; returns the seat's key."""
        assert self.join(sender, name, signed=signed, **args).reason == "join.code"
        code = CODE.search(self.mails()[sender][-1]).group(1)
        assert self.confirm(sender, code, signed=signed).reason in ("join", "join.waiting")
        joined = self.mails()[sender]
        return KEY.search(joined[0]).group(1) if KEY.search(joined[0]) else ""

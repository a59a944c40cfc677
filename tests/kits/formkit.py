"""Order forms sent back by mail, as a player would (issue 33): the form as it came,
and each commented example in it with its # removed.  A commented example is a
comment line whose text starts with one of the stage's order keys (``# ereigniskarte:
{…}``), with the ``#   - …`` lines under it; every other comment is prose."""
from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field

from referee_kit import inbound, text_of, to


def examples(form: str, keys) -> list[tuple[str, str]]:
    """(the example's first line, the form with that example uncommented) for each example."""
    lines = form.splitlines()
    head = re.compile(r"^(\s*)# (?:" + "|".join(re.escape(k) for k in keys) + r")(?=[:\s]|$)")
    out = []
    for i, line in enumerate(lines):
        m = head.match(line)
        if not m:
            continue
        ind = m.group(1)
        new = list(lines)
        new[i] = ind + line[len(ind) + 2:]
        j = i + 1
        while j < len(lines) and lines[j].startswith(ind + "#   "):
            new[j] = ind + lines[j][len(ind) + 2:]
            j += 1
        out.append((new[i].strip(), "\n".join(new) + "\n"))
    return out


@dataclass
class Table:
    """Players of one match mailing the referee: ``send`` returns (outcome, reply text)."""

    ref: object
    outbox: object
    match: str
    keys: dict = field(default_factory=dict)
    emails: dict = field(default_factory=dict)
    clock: object = None   # advanced a little before each mail: the per-sender rate limit stays far



    @classmethod
    def create(cls, ref, outbox, spec: dict, clock=None, seed: str = "issue-33") -> Table:
        created = ref.create_match(spec, seed=seed)   # a fixed seed: the same position every run
        table = cls(ref, outbox, spec["id"], clock=clock)
        table.emails = {p["id"]: p["email"] for p in spec["players"]}
        table.emails["@gm"] = spec["gm"]
        for m in outbox.flush():
            hit = re.search(r"(?:Your key|Dein Schlüssel): (\S+)", text_of(m))
            if hit:
                seat = next(p for p, e in table.emails.items() if e == m["To"].split()[-1].strip("<>"))
                table.keys[seat] = hit.group(1)
        table.keys["@gm"] = created.gm_key
        return table

    def turn(self) -> dict:
        return self.ref.store.current_turn(self.match)

    def rules(self):
        return self.ref.rules(self.ref.store.match(self.match))

    def state(self):
        return self.rules().load(self.turn()["state"])

    def form(self, seat: str, lang: str) -> str:
        return self.rules().order_form(self.state(), seat, lang)

    def send(self, seat: str, orders: str) -> tuple[str, str]:
        player = f"'{seat}'" if seat.startswith("@") else seat
        body = (f"match: {self.match}\nplayer: {player}\nkey: {self.keys[seat]}\nturn: {self.turn()['number']}\n"
                f"orders:\n{textwrap.indent(orders, '  ')}")
        if self.clock is not None:
            self.clock.advance(minutes=4)
        handled = self.ref.handle(inbound(self.emails[seat], body))
        replies = to(self.outbox.flush(), self.emails[seat])
        return handled.reason, text_of(replies[-1]) if replies else ""

"""Issue 32, items 5, 9 and 10, through ``Referee.handle`` and the outgoing Maildir:
an address request voided keeps the day's count of codes and the new address,
unproven, hears only what the strangers' policy allows; two seats cannot both
move onto one address; ``sender_auth: require`` holds for the GM's and the
players' commands on a match still open for joining; the referee's own address
is no observer's, no replacement's and no joiner's."""
from __future__ import annotations

from dkimkit import make_referee
from joinkit import CODE, Lobby
from seckit import SPEC, Outbox, hostile, keys_of, mail, text_of, toy_registered  # noqa: F401  (fixtures)
from seckit import clock as clock  # noqa: F401  (fixture)

from referee.authority.matches.identity import CODES_PER_DAY, MAX_TRIES
from referee.authority.wording import Refusal


class Running:
    """SPEC's toy match, started; the operator's default stranger policy."""

    def __init__(self, root, clock, **extra) -> None:
        self.ref = make_referee(root, clock)
        self.box = Outbox(self.ref, root / "out")
        self.gm_key = self.ref.create_match(SPEC | extra).gm_key
        self.keys, self.n = keys_of(self.box.flush()), 0

    def send(self, sender: str, body: str):
        self.n += 1
        return self.ref.handle(mail(hostile(sender, body, message_id=f"<a{self.n}@x.test>")))

    def command(self, who: str, command: str, **args):
        extra = "".join(f"{k}: {v}\n" for k, v in args.items())
        key = self.gm_key if who == "gm" else self.keys[who]
        return self.send(f"{who}@example.org", f"match: toy1\nplayer: {who}\nkey: {key}\ncommand: {command}\n{extra}")

    def confirm(self, player: str, sender: str, code: str):
        return self.send(sender, f"match: toy1\nplayer: {player}\ncommand: address\ncode: {code}\n")

    def to(self, address: str) -> list[str]:
        return [f"{m['Subject']}\n{text_of(m)}" for m in self.box.flush() if str(m["To"]) == address]


def test_item5_a_voided_address_request_keeps_the_days_count(tmp_path, clock):
    t = Running(tmp_path, clock)
    victim, reasons = "victim@third.example", []
    for _ in range(CODES_PER_DAY + 2):
        reasons.append(t.command("ann", "address", email=victim).reason)
        for i in range(MAX_TRIES):   # wrong codes "from" the victim, until the request is void
            t.confirm("ann", victim, f"ZZZZ-ZZZ{i + 2}")
    assert reasons == ["address"] * CODES_PER_DAY + ["address.too_many"] * 2
    got = t.to(victim)
    assert len(got) == CODES_PER_DAY and all(CODE.search(m) for m in got), "the codes only: no refusal"
    assert t.ref.store.player("toy1", "ann")["email"] == "ann@example.org"


def test_item5_two_seats_cannot_both_confirm_onto_one_address(tmp_path, clock):
    t = Running(tmp_path, clock)
    assert t.command("ann", "address", email="shared@example.org").reason == "address"
    assert t.command("cyd", "address", email="shared@example.org").reason == "address"
    codes = {("ann" if "for ann" in m else "cyd"): CODE.search(m).group(1) for m in t.to("shared@example.org")}
    assert t.confirm("ann", "shared@example.org", codes["ann"]).reason == "address-confirmed"
    assert t.confirm("cyd", "shared@example.org", codes["cyd"]).reason == "address.taken"
    assert t.ref.store.player("toy1", "cyd")["email"] == "cyd@example.org"
    assert any("already plays another seat" in m for m in t.to("shared@example.org"))
    assert t.confirm("cyd", "shared@example.org", codes["cyd"]).reason == "address.no_request"   # void now


def test_item9_require_holds_for_gm_and_player_commands_on_an_open_match(tmp_path, clock):
    t = Lobby(tmp_path, clock, seats=3, sender_auth="require")
    assert t.gm("status").reason == "sender.unproven"
    assert t.gm("close-joining").reason == "sender.unproven"
    assert all("not proven" in m for m in t.mails()["gm@example.org"])   # the GM's own address is told
    assert t.gm("status", signed=True).reason == "status"
    key = t.seated("dan@example.org", "Dan", signed=True)
    status = f"match: toy1\nplayer: seat1\nkey: {key}\ncommand: status\n"
    assert t.send("dan@example.org", status).reason == "sender.unproven"
    leave = f"match: toy1\nplayer: seat1\nkey: {key}\ncommand: leave\n"
    assert t.send("dan@example.org", leave).reason == "sender.unproven"
    assert t.ref.store.player("toy1", "seat1") is not None
    assert t.send("dan@example.org", status, signed=True).reason == "status"
    assert t.gm("close-joining", signed=True).reason == "close-joining"


def test_item10_the_referees_own_address_is_no_observer_replacement_or_joiner(tmp_path, clock):
    t = Running(tmp_path, clock, language="de")
    for own in ("referee@example.org", "REFEREE@Example.ORG", "postmaster@example.org"):
        assert t.command("gm", "observer", email=own).reason == "command.failed"
        assert t.command("gm", "replace", seat="bob", email=own).reason == "command.failed"
    answers = t.to("gm@example.org")
    assert len(answers) == 6 and all("Adresse des Schiedsrichters selbst" in m for m in answers)
    assert t.ref.store.observers("toy1") == [] and t.ref.store.player("toy1", "bob")["email"] == "bob@example.org"
    for command, args in (("observer", {"email": "referee@example.org"}),
                          ("replace", {"seat": "bob", "email": "mailer-daemon@example.org"})):
        try:
            t.ref.gm_command("toy1", command, args)
        except Refusal as e:
            assert "the referee's own address" in str(e)
        else:
            raise AssertionError(f"{command} took the referee's own address")
    # a join from it: no seat, no answer
    u = Lobby(tmp_path / "open", clock, strangers="all")
    for own in ("referee@example.org", "Referee@EXAMPLE.org", "postmaster@example.org", "mailer-daemon@example.org"):
        assert u.join(own, "Me").outcome == "ignored"   # the intake's loop guards, else joining's own check
    assert u.mails() == {} and u.ref.store.players("toy1") == []

"""Issue 13, sender authentication: each mail's sender is judged and the
verdict stored with it, from the trusted server's Authentication-Results or
the referee's own DKIM check (real signatures, made with a key of this test
run, verified through a local DNS answer); ``sender_auth: require`` refuses
unproven orders, and a forged From with the right key is reported to the
seat's registered address and the GM either way."""
from __future__ import annotations

import pytest
from dkimkit import TRUSTED, LocalDns, make_referee, other_key, results, sign
from seckit import SPEC, Outbox, clock, hostile, keys_of, mail, order, text_of, to, toy_registered  # noqa: F401

from referee.authority.matches.spec_check import check_spec
from referee.store.senders import SenderRecords


class Table:
    def __init__(self, tmp_path, clock, policy: str = "record", **trust) -> None:
        self.dns = trust.setdefault("txt", LocalDns())
        self.ref = make_referee(tmp_path, clock, **trust)
        self.box = Outbox(self.ref, tmp_path / "out")
        self.ref.create_match(SPEC | {"sender_auth": policy})
        self.keys = keys_of(self.box.flush())

    def send(self, raw: bytes):
        handled = self.ref.handle(mail(raw))
        parsed = mail(raw)
        return handled, SenderRecords(self.ref.store).verdict(parsed.message_id, parsed.content_hash)

    def bid(self, who: str, n: int, bid: int = 2, key: str | None = None) -> bytes:
        return hostile(f"{who}@example.org", order(who, key or self.keys[who], bid=bid), message_id=f"<{who}{n}@example.org>")

    def bid_of(self, who: str):
        subs = self.ref.store.submissions("toy1", 1)
        return subs[who]["orders"]["bid"] if who in subs else None


@pytest.fixture
def table(tmp_path, clock):
    t = Table(tmp_path, clock)
    yield t
    t.ref.store.close()


def test_a_signed_order_is_proven_by_dkim_and_the_verdict_is_stored(table):
    handled, verdict = table.send(sign(table.bid("ann", 1)))
    assert handled.outcome == "processed" and table.bid_of("ann") == 2
    assert (verdict["verdict"], verdict["method"], verdict["sender"]) == ("pass", "dkim", "ann@example.org")
    assert table.dns.asked == ["s2026._domainkey.example.org"]


def test_an_unsigned_order_is_recorded_as_unproven_and_taken_under_record(table):
    handled, verdict = table.send(table.bid("ann", 1))
    assert handled.outcome == "processed" and verdict["verdict"] == "none"
    assert table.dns.asked == []        # nothing to look up: no signature of the From's domain


def test_a_mail_changed_after_signing_with_the_right_key_is_reported_to_the_seat_and_the_gm(table):
    signed = sign(table.bid("bob", 1, bid=2))
    changed = signed.replace(b"bid: 2", b"bid: 3")
    handled, verdict = table.send(changed)
    assert verdict["verdict"] == "fail" and verdict["method"] == "dkim"
    assert handled.outcome == "processed" and table.bid_of("bob") == 3     # record: taken, but told
    sent = table.box.flush()
    [seat] = [m for m in to(sent, "bob@example.org") if "Absender" in str(m["Subject"])]
    [gm] = to(sent, "gm@example.org")
    assert "gefälschtem Absender" in str(seat["Subject"]) and "bob@example.org" in text_of(seat)
    assert "neuen Schlüssel" in text_of(seat)
    assert "forged sender (bob)" in str(gm["Subject"]) and "give the seat a" in text_of(gm)


def test_forgery_notices_come_at_most_once_an_hour_per_seat(table, clock):
    for n in range(5):
        table.send(sign(table.bid("ann", n), private=other_key()))
    sent = table.box.flush()
    assert len([m for m in to(sent, "ann@example.org") if "forged" in str(m["Subject"])]) == 1
    assert len(to(sent, "gm@example.org")) == 1
    clock.advance(hours=1)
    table.send(sign(table.bid("ann", 9), private=other_key()))
    assert len(to(table.box.flush(), "gm@example.org")) == 1


@pytest.mark.parametrize(("who", "says"), [("ann", "this mail's sender is not proven: nothing proves the sender"),
                                           ("bob", "der Absender dieser Mail ist nicht belegt: nichts belegt den Absender")])
def test_require_refuses_unproven_orders_with_a_reason_in_the_seats_language(tmp_path, clock, who, says):
    t = Table(tmp_path, clock, policy="require")
    handled, verdict = t.send(t.bid(who, 1))
    assert handled.outcome == "refused" and handled.reason == "sender.unproven" and t.bid_of(who) is None
    [reply] = to(t.box.flush(), f"{who}@example.org")
    assert says in " ".join(text_of(reply).split())


def test_require_takes_signed_orders_and_refuses_forged_ones_telling_seat_and_gm(tmp_path, clock):
    t = Table(tmp_path, clock, policy="require")
    assert t.send(sign(t.bid("ann", 1)))[0].outcome == "processed" and t.bid_of("ann") == 2
    handled, verdict = t.send(sign(t.bid("cyd", 1), private=other_key()))
    assert (handled.outcome, verdict["verdict"]) == ("refused", "fail") and t.bid_of("cyd") is None
    sent = t.box.flush()
    subjects = [str(m["Subject"]) for m in to(sent, "cyd@example.org")]
    assert any("forged sender" in s for s in subjects) and any("Not accepted" in s for s in subjects)
    assert "its signature does not fit the sender" in " ".join(text_of(m) for m in to(sent, "cyd@example.org"))
    assert len(to(sent, "gm@example.org")) == 1


def test_authentication_results_of_a_foreign_server_are_ignored(tmp_path, clock):
    t = Table(tmp_path, clock, policy="require", authserv_ids=(TRUSTED,))
    forged = results("mx.evil.test", "dkim=pass header.d=example.org; dmarc=pass header.from=example.org")
    handled, verdict = t.send(forged + t.bid("ann", 1))
    assert verdict["verdict"] == "none" and handled.outcome == "refused" and t.bid_of("ann") is None


def test_the_trusted_servers_result_counts_and_one_with_its_id_below_another_field_does_not(tmp_path, clock):
    t = Table(tmp_path, clock, policy="require", authserv_ids=(TRUSTED,))
    fake = results(TRUSTED, "dmarc=pass header.from=example.org")   # written by the sender, under the server's line
    real = results(TRUSTED, "dkim=none; dmarc=fail header.from=example.org")
    handled, verdict = t.send(real + b"Received: from mx.referee.test by imap\r\n" + fake + t.bid("ann", 1))
    assert (verdict["verdict"], verdict["method"], verdict["detail"]) == ("fail", "authentication-results", "dmarc=fail")
    assert handled.outcome == "refused"
    only_dkim = results(TRUSTED, "dkim=none")
    handled, verdict = t.send(only_dkim + fake + t.bid("ann", 2))    # directly under it: still not the server's
    assert verdict["verdict"] == "none" and handled.outcome == "refused"
    handled, verdict = t.send(results(TRUSTED, "spf=pass; dmarc=pass header.from=example.org") + t.bid("ann", 3))
    assert (verdict["verdict"], handled.outcome) == ("pass", "processed") and t.bid_of("ann") == 2
    assert t.dns.asked == []      # the trusted result is enough


def test_the_trusted_servers_dkim_result_counts_only_for_the_froms_domain(tmp_path, clock):
    t = Table(tmp_path, clock, policy="require", authserv_ids=(TRUSTED,))
    handled, verdict = t.send(results(TRUSTED, "dkim=pass header.d=evil.test") + t.bid("ann", 1))
    assert verdict["verdict"] == "none" and handled.outcome == "refused"
    handled, verdict = t.send(results(TRUSTED, "dkim=pass (good) header.d=example.org") + t.bid("ann", 2))
    assert verdict["verdict"] == "pass" and handled.outcome == "processed"


def test_a_dns_that_does_not_answer_proves_nothing_and_accuses_no_one(tmp_path, clock):
    t = Table(tmp_path, clock)
    t.dns.down = True
    handled, verdict = t.send(sign(t.bid("ann", 1)))
    assert (verdict["verdict"], verdict["detail"]) == ("none", "DNS did not answer in time")
    assert handled.outcome == "processed"
    assert [m for m in t.box.flush() if "forged" in str(m["Subject"])] == []


def test_sender_auth_off_acts_on_no_verdict_and_asks_no_dns_for_one(tmp_path, clock):
    t = Table(tmp_path, clock, policy="off")
    handled, verdict = t.send(sign(t.bid("ann", 1), private=other_key()))
    assert (verdict["verdict"], verdict["method"]) == ("off", "dkim") and handled.outcome == "processed"
    assert t.dns.asked == []     # issue 32, item 3: the DNS is asked only where the verdict matters
    assert [m for m in t.box.flush() if "forged" in str(m["Subject"])] == []


def test_a_forged_gm_mail_with_the_gm_key_is_reported_and_refused_under_require(tmp_path, clock):
    t = Table(tmp_path, clock, policy="require")
    gm = f"match: toy1\nplayer: \"@gm\"\nkey: {t.keys['gm']}\ncommand: pause\n"
    handled, verdict = t.send(sign(hostile("gm@example.org", gm, message_id="<g1@example.org>"), private=other_key()))
    assert (handled.outcome, verdict["verdict"]) == ("refused", "fail")
    assert t.ref.store.match("toy1")["status"] == "running"
    subjects = [str(m["Subject"]) for m in to(t.box.flush(), "gm@example.org")]
    assert any("forged sender (@gm)" in s for s in subjects) and any("Not accepted" in s for s in subjects)


def test_a_match_file_with_an_unknown_sender_auth_is_refused_with_its_line():
    spec, problems = check_spec(SPEC | {"sender_auth": "maybe"}, None)
    assert spec is None and any("sender_auth" in p for p in problems)
    assert check_spec(SPEC | {"sender_auth": "require"}, None)[0].sender_auth == "require"

"""Issue 13, no backscatter: a mail from a sender who is no player or GM (so it
names no match or seat the sender may hear of) is answered only where the
sender's From is proven, or as the operator's policy in referee.yaml says
(``strangers: {answer, per_hour}``), never more than a global number an hour;
the rest is filed as ignored and counted by ``referee status``."""
from __future__ import annotations

import pytest
from dkimkit import make_referee, sign
from seckit import SPEC, Clock, Outbox, hostile, mail, order, toy_registered  # noqa: F401

from referee.app.cli import main
from referee.app.config import ConfigError, load
from referee.app.wiring import open_referee, trust_of
from referee.store.senders import SenderRecords


def strangers_mail(ref, n: int, *, signed: bool = False, domain: str = "example.org") -> str:
    raw = hostile(f"someone{n}@{domain}", order("ann", "AAAA-BBBB-CCCC", match="nope"), message_id=f"<s{n}@x.test>")
    return ref.handle(mail(sign(raw, domain) if signed else raw)).outcome


def setup(tmp_path, **trust):
    ref = make_referee(tmp_path, Clock(), **trust)
    box = Outbox(ref, tmp_path / "out")
    ref.create_match(SPEC)
    box.flush()
    return ref, box


def test_unproven_strangers_are_filed_as_ignored_and_never_answered(tmp_path):
    ref, box = setup(tmp_path)
    assert [strangers_mail(ref, n) for n in range(30)] == ["ignored"] * 30
    assert box.flush() == []
    assert SenderRecords(ref.store).stranger_counts() == {"answered": 0, "ignored": 30}


def test_proven_strangers_get_the_short_answer_within_the_hourly_budget(tmp_path):
    ref, box = setup(tmp_path, strangers_per_hour=5)
    outcomes = [strangers_mail(ref, n, signed=True) for n in range(8)]
    assert outcomes == ["refused"] * 5 + ["ignored"] * 3
    sent = box.flush()
    assert len(sent) == 5 and all("Not accepted / Nicht angenommen" == str(m["Subject"]) for m in sent)
    assert SenderRecords(ref.store).stranger_counts() == {"answered": 5, "ignored": 3}


@pytest.mark.parametrize(("answer", "signed", "outcome"), [("all", False, "refused"), ("none", True, "ignored"),
                                                           ("authenticated", False, "ignored")])
def test_the_operators_policy_decides_who_of_the_strangers_is_answered(tmp_path, answer, signed, outcome):
    ref, box = setup(tmp_path, strangers=answer)
    assert strangers_mail(ref, 1, signed=signed) == outcome
    assert len(box.flush()) == (1 if outcome == "refused" else 0)


def test_referee_yaml_sets_the_policy_and_status_counts_the_ignored(tmp_path, monkeypatch, capsys):
    (tmp_path / "referee.yaml").write_text(
        "address: referee@example.org\nauthentication:\n  authserv_id: MX.Example.ORG\n  dns_timeout: 2\n"
        "strangers:\n  answer: all\n  per_hour: 2\n")
    cfg = load(tmp_path / "referee.yaml")
    trust = trust_of(cfg)
    assert (trust.authserv_ids, trust.dns_timeout, trust.strangers, trust.strangers_per_hour) == \
        (("mx.example.org",), 2.0, "all", 2)
    ref = open_referee(cfg)
    ref.create_match(SPEC)
    assert [strangers_mail(ref, n, domain="elsewhere.test") for n in range(3)] == ["refused", "refused", "ignored"]
    ref.store.close()
    monkeypatch.chdir(tmp_path)
    assert main(["status"]) == 0
    assert "mail from strangers: 1 filed as ignored, 2 answered" in capsys.readouterr().out


@pytest.mark.parametrize("bad", ["authentication:\n  authserv_id: 'mx; dmarc=pass'\n",
                                 "authentication:\n  dns_timeout: 0\n", "strangers:\n  answer: everyone\n",
                                 "strangers:\n  per_hour: 0\n", "authentication:\n  authserv_id: [[1]]\n"])
def test_hostile_authentication_settings_are_refused_naming_the_setting(tmp_path, bad):
    (tmp_path / "referee.yaml").write_text("address: referee@example.org\n" + bad)
    with pytest.raises(ConfigError) as e:
        load(tmp_path / "referee.yaml")
    assert "line" in str(e.value) and ("authentication" in str(e.value) or "strangers" in str(e.value))

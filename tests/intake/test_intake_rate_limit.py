"""The per-sender token bucket: pure, clock injected, state round-trips through JSON."""
from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest

from referee.intake import Bucket, RateLimit

T0 = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


def test_burst_up_to_capacity_then_refused_with_retry_time():
    limit = RateLimit(capacity=5, window=timedelta(hours=1))
    bucket = None
    for _ in range(5):
        decision = limit.take(bucket, T0)
        assert decision.allowed
        bucket = decision.bucket
    refused = limit.take(bucket, T0)
    assert not refused.allowed and refused.notify
    assert refused.retry_after == T0 + timedelta(minutes=12)   # one token per 12 minutes


def test_only_the_first_refusal_of_a_run_notifies():
    limit = RateLimit(capacity=1, window=timedelta(hours=1))
    bucket = limit.take(None, T0).bucket
    first = limit.take(bucket, T0 + timedelta(minutes=1))
    second = limit.take(first.bucket, T0 + timedelta(minutes=2))
    assert (first.allowed, first.notify) == (False, True)
    assert (second.allowed, second.notify) == (False, False)
    later = limit.take(second.bucket, T0 + timedelta(hours=1, minutes=1))
    assert later.allowed and later.bucket.refused == 0
    again = limit.take(later.bucket, T0 + timedelta(hours=1, minutes=2))
    assert not again.allowed and again.notify   # a new run of refusals is told again


def test_tokens_refill_evenly_and_cap_at_capacity():
    limit = RateLimit(capacity=20, window=timedelta(hours=1))
    bucket = Bucket(0.0, T0)
    assert not limit.take(bucket, T0 + timedelta(minutes=2)).allowed
    assert limit.take(bucket, T0 + timedelta(minutes=3)).allowed
    full = limit.take(bucket, T0 + timedelta(days=3))
    assert full.bucket.tokens == pytest.approx(19.0)


def test_a_clock_step_backwards_grants_nothing():
    limit = RateLimit(capacity=2, window=timedelta(hours=1))
    bucket = Bucket(0.5, T0)
    decision = limit.take(bucket, T0 - timedelta(hours=5))
    assert not decision.allowed and decision.bucket.updated == T0


def test_state_round_trips_through_json():
    limit = RateLimit(capacity=3)
    decision = limit.take(None, T0)
    stored = json.loads(json.dumps(decision.bucket.to_json()))
    assert Bucket.from_json(stored) == decision.bucket


def test_refusal_problem_is_phrased():
    limit = RateLimit(capacity=20)
    bucket = Bucket(0.0, T0)
    decision = limit.take(bucket, T0)
    problem = limit.problem("a@example.org", decision, "10:03 UTC")
    assert problem.code == "mail.rate_limited"
    assert problem.text["en"].startswith("Too many mails from a@example.org: at most 20 per hour.")
    assert "pro Stunde" in problem.text["de"] and "10:03 UTC" in problem.text["de"]


def test_nonsense_limits_are_refused():
    with pytest.raises(ValueError):
        RateLimit(capacity=0)

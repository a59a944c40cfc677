"""Issue 13, fuzzing: hypothesis drives hostile mails (``fuzzmail``: mutated
real order mails, random MIME trees, charsets, broken base64/QP, RFC 2047,
YAML tags, aliases, merge keys, very long lines, NUL bytes) through the whole
path a real mail takes (``fuzzpath``: raw bytes to the sent reply, on a real
authority with SQLite and the real games).  No input may end in an internal
error, take more than 1 s or raise the memory by more than 200 MB.
``bench/fuzz_intake.py`` runs the same generator on 100,000 inputs; each
internal error it found has a named regression test below."""
from __future__ import annotations

import pytest
from fuzzmail import HypothesisDraw, build
from fuzzpath import FuzzPath
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# the fuzzing runs on a real authority with SQLite; its store lives for the module,
# which the PostgreSQL pass's per-test stores do not allow
pytestmark = pytest.mark.sqlite_file

LIMIT_S, LIMIT_BYTES = 1.0, 200_000_000


@pytest.fixture(scope="module")
def path(tmp_path_factory):
    fuzz = FuzzPath(tmp_path_factory.mktemp("fuzz"))
    yield fuzz
    fuzz.close()


@settings(max_examples=400, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example])
@given(data=st.data())
def test_no_hostile_mail_ends_in_an_internal_error_or_takes_too_long(path, data):
    raw = build(HypothesisDraw(data), path.seeds)
    result = path.run(raw)
    assert result.error is None, result.error
    assert result.cpu < LIMIT_S, f"{result.cpu:.2f} s of CPU"   # CPU: other processes on the machine do not count
    assert result.memory < LIMIT_BYTES, f"{result.memory / 1e6:.0f} MB"


def test_the_unmutated_seeds_go_all_the_way(path):
    """The generator's real orders are valid: a mutation starts from mail that is accepted."""
    outcomes = [path.run(raw).outcome for raw in path.seeds if b"seed" in raw[:400]]
    assert outcomes and outcomes.count("processed") >= len(outcomes) // 2


# -- regression tests: one per internal error the fuzzing found ------------------
def _with_value(path, value: bytes) -> bytes:
    """A real order mail of the generator's seeds with its turn's value replaced."""
    raw = next(r for r in path.seeds if b"<seed1@demo.test>" in r)
    return raw.replace(b"turn: 1", b"turn: " + value, 1)


@pytest.mark.parametrize("value", [b"!!int x", b"!!float y", b"!!bool maybe", b"[!!int q]", b"{a: !!float .x}"])
def test_fuzz_finding1_a_value_that_does_not_fit_its_tag_is_a_yaml_problem_not_an_internal_error(path, value):
    raw = _with_value(path, value)
    assert value in raw
    result = path.run(raw)
    assert result.error is None and result.outcome == "refused"

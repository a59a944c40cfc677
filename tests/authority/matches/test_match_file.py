"""Issue 10: a match file is checked in one pass, every problem at once, each
with its line, in the GM's words (`referee new`)."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from gm_files import FF_WINTER

from referee.app.cli import main

GOOD = FF_WINTER


@pytest.fixture
def folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    main(["init"])
    capsys.readouterr()
    return tmp_path


def refused(folder, capsys, text: str) -> list[str]:
    (folder / "match.yaml").write_text(text)
    assert main(["new", "match.yaml"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "pydantic" not in err and "Input should" not in err
    assert not (folder / "turns" / "ff-winter").exists()
    return [line.strip() for line in err.splitlines()[1:]]


def test_a_gm_address_that_is_not_one_is_refused_at_its_line(folder, capsys):
    assert refused(folder, capsys, GOOD.replace("gm@example.org", "not-an-email")) == [
        "line 4: gm: 'not-an-email' is not a plain mail address (ASCII, user@domain)"]


def test_two_seats_with_one_address_are_refused(folder, capsys):
    problems = refused(folder, capsys, GOOD.replace("jay@example.org", "adams@example.org"))
    assert problems == ["line 9: players[2]: adams@example.org already plays players[1]; one address, one seat"]


def test_two_seats_with_one_id_are_refused(folder, capsys):
    problems = refused(folder, capsys, GOOD.replace("id: king", "id: jay"))
    assert problems == ["line 10: players[3]: the id 'jay' is taken by players[2]; every seat needs an id of its own"]


def test_every_problem_at_once_in_line_order(folder, capsys):
    text = (GOOD.replace("founding_fathers", "founding_fatehrs").replace("lang: en", "lang: fr")
            .replace("gm@example.org", "not-an-email").replace("period: 48h", "period: 48x")
            .replace("email: king@example.org}", "email: king@example.org, langg: en}") + "titel: x\n")
    problems = refused(folder, capsys, text)
    assert [p.split(":")[0] for p in problems] == ["line 2", "line 3", "line 4", "line 6", "line 10", "line 11"]
    assert "did you mean 'founding_fathers'" in problems[0]
    assert "'fr' is not one of de or en" in problems[1]
    assert "48x" in problems[3]
    assert "unknown field 'langg' (did you mean 'lang'?)" in problems[4]
    assert "unknown field 'titel' (did you mean 'title'?)" in problems[5]


def test_a_first_deadline_in_the_past_is_refused(folder, capsys):
    past = (datetime.now(UTC) - timedelta(days=2)).strftime("%Y-%m-%d 20:00")
    problems = refused(folder, capsys, GOOD.replace("{period: 48h,", f'{{period: 48h, first_deadline: "{past}",'))
    assert problems == [f"line 6: schedule.first_deadline {past} (Europe/Berlin) has passed; give a later one, "
                        "or leave it out to start the clock now"]


def test_a_missing_field_is_named(folder, capsys):
    problems = refused(folder, capsys, GOOD.replace("gm: gm@example.org\n", ""))
    assert problems == ["gm is missing"]


def test_a_good_match_file_is_created(folder, capsys):
    (folder / "match.yaml").write_text(GOOD)
    assert main(["new", "match.yaml"]) == 0
    assert "created match ff-winter" in capsys.readouterr().out

"""Finding 11 (configuration): values in referee.yaml that would silently weaken
the referee are refused when it is read, with the field named."""
from __future__ import annotations

import pytest
from pydantic import ValidationError

from referee.app.config import STARTER, Config, load


@pytest.mark.parametrize("field, value", [
    ("rate_limit_per_hour", 0),                         # would have meant no limit at all
    ("rate_limit_per_hour", -5),
    ("rate_limit_per_hour", 10**30),
    ("poll_interval", 0),
    ("address", "referee@example.org\r\nBcc: all@evil.test"),
    ("address", "schiedsrichter@bücher.example"),
    ("gm_keys", {"gm@example.org\nBcc: x@evil.test": "LONG-ENOUGH-KEY1"}),
    ("gm_keys", {"gm@example.org": "short"}),
])
def test_finding11_config_values_that_weaken_the_referee_are_refused(field, value):
    with pytest.raises(ValidationError) as e:
        Config.model_validate({field: value})
    assert field in str(e.value)


def test_finding11_the_starter_config_still_loads(tmp_path):
    (tmp_path / "referee.yaml").write_text(STARTER)
    cfg = load(tmp_path / "referee.yaml")
    assert cfg.rate_limit_per_hour == 30 and cfg.address == "referee@localhost"

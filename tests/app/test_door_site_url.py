"""Issue #11: ``site_url`` in referee.yaml goes into the first line of every order form
(``# yaml-language-server: $schema=<url>``); only a plain http(s) address is taken, so
nothing from the file can break that line, the YAML around it or the mail."""
from __future__ import annotations

import pytest
from pydantic import ValidationError

from referee.app.config import Config
from referee.authority.order_mail import schema_url


@pytest.mark.parametrize("value", [
    "javascript:alert(1)", "file:///etc/passwd", "https://example.org/a b", "https://example.org/\n# injected",
    "https://example.org/'x'", 'https://example.org/"', "https://exa mple.org/", "//example.org/", "example.org",
    "https://example.org/" + "a" * 400, "https://user:pw@example.org/", "https://example.org/#frag",
])
def test_a_site_url_that_is_not_a_plain_web_address_is_refused(value):
    with pytest.raises(ValidationError) as e:
        Config.model_validate({"site_url": value})
    assert "site_url" in str(e.value)


@pytest.mark.parametrize("value", ["https://example.org", "https://games.example.org/pbem/site/",
                                   "http://localhost:8080/sites"])
def test_a_plain_site_url_is_taken(value):
    assert Config.model_validate({"site_url": value}).site_url == value


def test_the_schema_url_names_the_match_and_stage_as_referee_site_publishes_them():
    assert schema_url("https://x.org/site/", "ff-winter", "keep") == "https://x.org/site/ff-winter/schemas/keep.json"
    assert schema_url("https://x.org/site", "m", "plan") == "https://x.org/site/m/schemas/plan.json"
    assert schema_url(None, "m", "plan") is None and schema_url("https://x.org", "m", None) is None

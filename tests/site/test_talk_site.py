"""The match pages show what was for everyone: the chronicle, approved letters and
table talk to all (an unsigned message without its writer); never private talk or a
chronicle for named seats."""
from __future__ import annotations

import pytest
from talk_table import TalkTable

from referee.site.build import build_site


@pytest.fixture
def table(tmp_path):
    t = TalkTable(tmp_path, press="anonymous")
    yield t
    t.close()


def test_turn_pages_show_public_talk_and_the_chronicle_only(table, tmp_path):
    table.ref.gm_command("talk1", "chronicle", {"text": "Spring comes to <the> harbour.", "title": "Spring"})
    table.ref.gm_command("talk1", "chronicle", {"text": "Only Ann knows.", "seats": ["ann"]})
    table.send("bob", command="letter", text="Bürger, hört!")
    table.ref.gm_command("talk1", "approve", {"number": 3})
    table.send("ann", press={"to": "all", "text": "Peace to all."})
    table.send("cat", press={"to": "all", "text": "Beware.", "anonymous": True})
    table.send("cat", press={"to": "bob", "text": "Private deal."})
    table.ref.close_turn("talk1")
    page = (build_site(table.turns / "talk1", tmp_path / "site").parent / "turns" / "t001.html").read_text()
    assert "The chronicle: Spring" in page and "Spring comes to &lt;the&gt; harbour." in page
    assert "A letter from Bob" in page and "Bürger, hört!" in page
    assert "<b>Ann:</b> Peace to all." in page and "<b>(unsigned):</b> Beware." in page
    assert "Only Ann knows." not in page and "Private deal." not in page

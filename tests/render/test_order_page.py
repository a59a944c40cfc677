"""Issue 36: the order page's builder — the schema tree it offers, what it holds (never a key,
never a way out of its data block), its policy, its size per game, and the mail that carries it."""
from __future__ import annotations

import base64
import email
import hashlib
import json
import re
from datetime import UTC, datetime
from email import policy
from typing import Annotated, Literal, Union

import pytest
from pydantic import BaseModel, Field

from referee.game_api import registry
from referee.game_api.contract import Rng
from referee.mail.compose import compose
from referee.mail.wire import compose_bytes
from referee.render import order_page
from referee.render.order_shape import ShapeError, shape
from referee.render.order_words import WORDS

HOSTILE = "</script><script>alert(1)</script>"


class Buy(BaseModel):
    kind: Literal["buy"] = "buy"
    column: int = Field(ge=1, le=9)


class Sell(BaseModel):
    kind: Literal["sell"] = "sell"
    what: str | None = Field(None, max_length=40)


class Plan(BaseModel):
    steps: list[Annotated[Union[Buy, Sell], Field(discriminator="kind")]] = Field(default_factory=list, max_length=5)
    mode: Literal["fast", "slow"]
    note: Union[Literal["auto", "none"], list[str], None] = None


def test_the_schema_tree_resolves_refs_and_makes_unions_kinds():
    tree = shape(Plan.model_json_schema())
    fields = {f["k"]: f for f in tree["f"]}
    steps = fields["steps"]["n"]
    assert steps["t"] == "arr" and steps["hi"] == 5
    assert steps["i"]["t"] == "alt" and [o["tag"] for o in steps["i"]["o"]] == ["buy", "sell"]
    buy = steps["i"]["o"][0]
    column = next(f for f in buy["f"] if f["k"] == "column")
    assert column["n"] == {"t": "int", "lo": 1, "hi": 9, "ti": "Column"} and column.get("req") == 1
    assert fields["mode"]["n"]["t"] == "enum" and fields["mode"].get("req") == 1
    note = fields["note"]["n"]
    assert note["nul"] == 1 and [o.get("v", o["t"]) for o in note["o"]] == ["auto", "none", "arr"]


def test_a_schema_too_deep_or_with_a_dangling_ref_is_refused():
    deep = {"type": "object", "properties": {}}
    at = deep
    for _ in range(20):
        at["properties"]["x"] = {"type": "object", "properties": {}}
        at = at["properties"]["x"]
    with pytest.raises(ShapeError):
        shape(deep)
    with pytest.raises(ShapeError):
        shape({"$ref": "#/$defs/Nowhere"})


def started(game: str, lang: str = "en", name: str = "Alice", title: str = "Test"):
    rules = registry.get(game)
    seats = list(getattr(rules, "demo_seats", (["alice", "bob", "carol"],))[0])[:max(rules.min_players, 3)]
    state = rules.setup(seats, {}, Rng(5))
    player, stage = next(iter(rules.awaiting(state).items()))
    data = order_page.page_data(rules, state, player, lang, match_id="m-1", turn=1, stage=stage,
                                address="referee@example.org", title=title, player_name=name)
    return rules, state, player, data


@pytest.mark.parametrize("game", sorted(registry.names()))
def test_every_games_first_page_is_small_and_names_no_key(game):
    rules, state, player, data = started(game)
    html = order_page.page_html(data)
    size = len(html.encode())
    print(f"{game}: order page {size} bytes")
    assert size < 60_000, f"{game}: {size} bytes"
    assert data["h"] == {"match": "m-1", "player": player, "turn": 1}
    assert "key" not in data["h"] and 'id="key"' in html and "value=" not in html.split('id="key"')[1][:80]
    assert re.search(r"https?://|src=|<link", html) is None, "nothing from outside"


def test_the_policy_lets_run_only_the_pages_own_script_and_style():
    _, _, _, data = started("founding_fathers")
    html = order_page.page_html(data)
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)
    script = re.search(r"<script>(.*?)</script>", html, re.S).group(1)
    style = re.search(r"<style>(.*?)</style>", html, re.S).group(1)
    for text in (script, style):
        digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in csp
    assert "default-src 'none'" in csp and "unsafe-inline" not in csp


class WithChoices:
    """Founding Fathers whose ``order_choices`` is ``choices(state, player, lang)``."""

    def __init__(self, choices) -> None:
        self.rules, self.order_choices = registry.get("founding_fathers"), choices

    def __getattr__(self, name):
        return getattr(self.rules, name)


def test_hostile_names_and_labels_stay_inside_the_data_block():
    hostile = WithChoices(lambda *_: {"keep.*": [{"value": HOSTILE, "label": HOSTILE + "{{DATA}}\u2028"}]})
    state = hostile.setup(["alice", "bob", "carol"], {}, Rng(5))
    data = order_page.page_data(hostile, state, "alice", "en", match_id="m", turn=1, stage="keep",
                                address="referee@example.org", title=HOSTILE, player_name=HOSTILE + "{{JS}}")
    html = order_page.page_html(data)
    assert html.count("<script") == 2 and html.count("</script>") == 2
    assert "{{JS}}</title>" in html, "a slot in a name stays the name's text: it is never filled"
    block = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S).group(1)
    assert json.loads(block)["c"]["keep.*"][0][0] == HOSTILE
    assert "&lt;/script&gt;" in html.split("</title>")[0]


def test_choices_are_capped_and_a_broken_hook_costs_only_the_page(caplog):
    def fails(*_):
        raise RuntimeError("the game's hook broke")
    many = WithChoices(lambda *_: {f"p{i}": [{"value": "x" * 500, "label": "y" * 500}] * 1000 for i in range(300)})
    state = many.setup(["alice", "bob", "carol"], {}, Rng(5))
    capped = order_page.choices_of(many, state, "alice", "en")
    assert len(capped) == order_page.MAX_PATHS and all(len(v) == order_page.MAX_VALUES for v in capped.values())
    assert {len(v[0][0]) for v in capped.values()} == {order_page.MAX_VALUE}
    ctx = {"id": "m", "title": "T"}
    assert order_page.offer(many, state, "alice", "en", match_ctx=ctx, turn=1, stage="keep",
                            address="r@example.org", player_name="A") is None, "over MAX_DATA: no page"
    assert order_page.offer(WithChoices(fails), state, "alice", "en", match_ctx=ctx, turn=1, stage="keep",
                            address="r@example.org", player_name="A") is None
    assert "no order page" in caplog.text


def test_words_read_in_both_languages():
    assert WORDS["en"].keys() == WORDS["de"].keys()
    assert all(WORDS["en"][k] != WORDS["de"][k] for k in ("title", "key", "need_key", "mail", "copy", "add"))


@pytest.mark.parametrize("html", [True, False])
@pytest.mark.parametrize("picture", [None, b"\x89PNG" * 300])
def test_the_page_is_attached_last_and_both_send_paths_write_the_same_bytes(html, picture):
    _, _, _, data = started("nations_dice")
    page = (data["name"], order_page.page_html(data))
    # a fixed Date: each path would read the clock, and a second could turn between the two
    kw = dict(domain="example.org", message_id="<m1@example.org>", auto="auto-generated", picture=picture,
              picture_cid="<c@example.org>", calendar="BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", page=page,
              date=datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    body = "<p>report</p>" if html else None
    raw = compose("r@example.org", "p@example.org", "Report", "text\n", body, **kw).as_bytes(policy=policy.SMTP)
    assert compose_bytes("r@example.org", "p@example.org", "Report", "text\n", body, **kw) == raw
    msg = email.message_from_bytes(raw, policy=policy.default)
    last = list(msg.iter_attachments())[-1]
    assert last.get_filename() == "orders-m-1-t1.html"
    assert last.get_content().replace("\r\n", "\n").rstrip("\n") == page[1].rstrip("\n")

"""The site's files on their own: self-contained, escaped, schemas that validate
the orders the sample used."""
from __future__ import annotations

import json
import re
import shutil

import jsonschema
import pytest
import yaml
from seekit import FF, RS

from referee.site.build import build_site


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """Each sample's site, built once for these tests."""
    out = {}
    for sample in (FF, RS):
        out[sample] = tmp_path_factory.mktemp(sample.name)
        build_site(sample, out[sample])
    return out


def test_no_page_loads_anything_from_outside_its_folder(sites):
    out = sites[RS]
    for page in out.rglob("*.html"):
        html = page.read_text()
        assert not re.search(r"""(src|href)=["']?(https?:|//)""", html), page
    for svg in out.rglob("*.svg"):
        assert "href" not in svg.read_text(), svg


def test_names_and_titles_from_the_archive_are_escaped(tmp_path):
    sample = tmp_path / RS.name
    shutil.copytree(RS, sample)
    meta = yaml.safe_load((sample / "match.yaml").read_text())
    meta["title"] = "<script>alert(1)</script>"
    meta["players"][0]["name"] = "Alrik <b>&</b>"
    (sample / "match.yaml").write_text(yaml.safe_dump(meta, allow_unicode=True))
    index = build_site(sample, tmp_path / "site").read_text()
    assert "<script>" not in index and "&lt;script&gt;" in index
    assert "Alrik &lt;b&gt;&amp;&lt;/b&gt;" in index


def test_the_published_schemas_take_every_order_document_the_samples_used(sites):
    for sample, out in sites.items():
        meta = yaml.safe_load((sample / "match.yaml").read_text())
        checked = 0
        for orders in sorted(sample.glob("t*/orders.yaml")):
            number = int(orders.parent.name[1:])
            for player, used in yaml.safe_load(orders.read_text()).items():
                schema = json.loads((out / "schemas" / f"{used['stage']}.json").read_text())
                doc = {"match": meta["id"], "player": player, "key": "ABCD-EFGH-JKLM", "turn": number,
                       "orders": used["orders"]}
                jsonschema.validate(doc, schema)
                checked += 1
        assert checked > len(list(sample.glob("t*")))


def test_a_schema_refuses_an_unknown_order_and_a_missing_envelope(sites):
    schema = json.loads((sites[FF] / "schemas" / "action.json").read_text())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"match": "m", "player": "p", "orders": {"action": "vote", "bribe": 3}}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"orders": {"action": "snub"}}, schema)


def test_site_of_a_match_not_in_the_archive_is_refused(tmp_path, monkeypatch, capsys):
    from referee.app.cli import main
    monkeypatch.chdir(tmp_path)
    assert main(["site", "no-such-match"]) == 2
    assert "no archived match" in capsys.readouterr().err
    assert not (tmp_path / "site").exists()

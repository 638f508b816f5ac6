"""The published JSON Schema of `explain --format json` holds for real outputs, and is strict enough to fail."""

from __future__ import annotations

import copy
import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tilefit.kb.repository import load_kb
from tilefit.match.matcher import CONFIDENCES
from tilefit.render.view import MatchView
from tilefit.report import explain
from tilefit.resources import RESOURCES

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((resources.files("tilefit") / "data" / "schemas" / "explain.schema.json").read_text("utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
LOGS = sorted((ROOT / "examples" / "logs").glob("*.log"))


def _errors(view: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.path))}: {e.message}" for e in VALIDATOR.iter_errors(view)]


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.stem)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_example_logs_validate(log: Path, lang: str) -> None:
    view = json.loads(explain(log.read_bytes()).render("json", lang))
    assert view["matches"] and _errors(view) == []


def test_every_kb_example_validates_and_names_its_confidence() -> None:
    seen = set()
    for entry in load_kb():
        for ex in entry.examples:
            view = explain(ex.log).to_json()
            assert _errors(view) == [], (entry.id, _errors(view))
            seen |= {m["confidence"] for m in view["matches"]}
    assert seen == {"exact", "partial", "inferred"}


def test_schema_rejects_a_wrong_confidence_and_a_missing_key() -> None:
    view = dict(explain(LOGS[0].read_bytes()).to_json())
    bad = copy.deepcopy(view)
    bad["matches"][0]["confidence"] = "sure"
    assert any("confidence" in e for e in _errors(bad))
    del bad["matches"][0]["required_bytes"]
    assert any("required_bytes" in e for e in _errors(bad))


def test_schema_keys_and_enums_follow_the_code() -> None:
    match = SCHEMA["$defs"]["match"]
    assert set(match["required"]) == set(MatchView.__annotations__)
    assert SCHEMA["$defs"]["resource"]["enum"] == list(RESOURCES)
    assert match["properties"]["confidence"]["enum"] == list(CONFIDENCES)

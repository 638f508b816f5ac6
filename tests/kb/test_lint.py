"""`tilefit kb lint` finds real problems and passes the shipped knowledge base."""

from __future__ import annotations

from typing import Any

import pytest

from tilefit.errors import KnowledgeBaseError
from tilefit.kb.lint import _comment_problems, _pattern_problems, _schema_problems, lint
from tilefit.kb.model import entry_from_dict
from tilefit.kb.repository import load_kb


def _raw(**over: Any) -> dict[str, Any]:
    raw = {
        "id": "test/entry", "title": "A test entry title", "title_zh": "测试条目标题", "resource": "shared-memory",
        "on_chip": True, "frameworks": ["triton"], "phase": "load", "keywords": ["boom"],
        "patterns": ["boom (?P<required>\\d+)"],
        "examples": [{"log": "boom 12345 happened", "source": "https://example.org/1"}],
        "root_cause": "A long enough root cause sentence for the schema to accept it.",
        "root_cause_zh": "足够长的根本原因说明文字。",
        "fixes": [{"action": "a", "action_zh": "甲", "how": "h", "how_zh": "乙", "when": "w",
                   "evidence": ["https://example.org/2"]}],
    }
    raw.update(over)
    return raw


def test_shipped_kb_is_clean() -> None:
    assert [str(p) for p in lint()] == []


def test_schema_catches_missing_and_unknown_fields() -> None:
    raw = _raw(colour="red")
    del raw["root_cause"]
    messages = " ".join(str(p) for p in _schema_problems(raw, "x"))
    assert "root_cause" in messages and "colour" in messages


def test_nested_quantifier_is_rejected() -> None:
    entry = entry_from_dict(_raw(patterns=["(a+)+b"]), "x")
    assert "nested quantifier" in str(_pattern_problems([entry])[0])


def test_slow_pattern_is_rejected() -> None:
    # Overlapping alternatives under a star: exponential on a long run of 'a' with no final match.
    entry = entry_from_dict(_raw(patterns=["(?:a|a)*!z"]), "x")
    problems = _pattern_problems([entry], timeout_s=3.0)
    assert problems and ("slow" in str(problems[0]) or "did not finish" in str(problems[0]))


def test_rate_without_measurement_record_is_rejected() -> None:
    raw = _raw()
    raw["fixes"][0]["measured"] = {"rate": 0.72}
    with pytest.raises(KnowledgeBaseError, match="measurement record"):
        entry_from_dict(raw, "x")


def test_rate_must_equal_fixed_over_n() -> None:
    raw = _raw()
    raw["fixes"][0]["measured"] = {"rate": 0.72, "n": 10, "fixed": 5, "targets": ["sm_86"], "kernels": ["mm"],
                                   "method": "exact", "date": "2026-11-22", "tools": {"triton": "3.9.0"}}
    with pytest.raises(KnowledgeBaseError, match="fixed/n"):
        entry_from_dict(raw, "x")


def test_on_chip_must_follow_resource() -> None:
    with pytest.raises(KnowledgeBaseError, match="on_chip"):
        entry_from_dict(_raw(resource="hbm"), "x")


def test_every_shipped_entry_has_chinese_text() -> None:
    for e in load_kb():
        assert e.title_zh and e.root_cause_zh and all(f.action_zh and f.how_zh for f in e.fixes)


def test_hash_that_truncates_plain_text_is_caught() -> None:
    assert _comment_problems("  how: fixed by PR #684 upstream\n", "x")
    assert not _comment_problems("  how: 'fixed by PR #684 upstream'\n", "x")
    assert not _comment_problems("  how: >-\n    fixed by PR #684\n", "x")


def test_every_example_resolves_to_its_own_entry() -> None:
    from tilefit.match.selfcheck import example_problems

    assert [str(p) for p in example_problems(load_kb())] == []

"""`make demo` runs scripts/demo.py: its explain summary must keep working (it once imported a moved name)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_demo_summary_names_every_bundled_log(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("demo", ROOT / "scripts" / "demo.py")
    assert spec is not None and spec.loader is not None
    demo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(demo)
    demo.summary()
    out = capsys.readouterr().out
    logs = sorted((ROOT / "examples" / "logs").glob("*.log"))
    assert logs and all(log.name in out for log in logs)
    assert "526336 B (514.00 KiB) > 232448 B (227.00 KiB)" in out
    assert "hbm                  NOT on-chip" in out

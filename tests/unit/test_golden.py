"""explain's output on the bundled real logs, as a user sees it, against reviewed golden files.

After an intended change of the knowledge base or the renderers, regenerate with
`TILEFIT_UPDATE_GOLDEN=1 make test` and review the diff of tests/golden/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tilefit.report import explain

ROOT = Path(__file__).resolve().parents[2]
LOGS = sorted((ROOT / "examples" / "logs").glob("*.log"))
GOLDEN = ROOT / "tests" / "golden"


@pytest.mark.parametrize(("log", "fmt", "lang"), [(log, fmt, lang) for log in LOGS
                                                  for fmt, lang in (("text", "en"), ("json", "en"), ("text", "zh"))],
                         ids=lambda v: v.stem if isinstance(v, Path) else str(v))
def test_rendering_matches_golden(log: Path, fmt: str, lang: str) -> None:
    got = explain(log.read_bytes()).render(fmt, lang)
    path = GOLDEN / f"{log.stem}.{lang}.{'json' if fmt == 'json' else 'txt'}"
    if os.environ.get("TILEFIT_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(got, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with TILEFIT_UPDATE_GOLDEN=1 and review it"
    assert got == path.read_text(encoding="utf-8")

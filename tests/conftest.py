from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

# libtpu reads LIBTPU_INIT_ARGS once, when the first test in the session starts it: ask for its VMEM reports
# (what exact mode reads, in two compiles) before any test can start it without them.
try:
    from tilefit.estimate import pallas_report

    pallas_report.enable()
except ImportError:
    pass

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = SHARED / "corpus"


# Real logs vendored with the tests (public issue text; every record keeps its source URL).
VENDORED = Path(__file__).resolve().parent / "data" / "corpus"


def load_jsonl(name: str) -> list[dict[str, Any]]:
    path = VENDORED / name if (VENDORED / name).exists() else CORPUS / name
    if not path.exists():
        if os.environ.get("CI") == "true":
            raise FileNotFoundError(f"{path}: the corpus must be present in CI")
        pytest.skip(f"{path} is not present (the shared corpus lies beside the checkout)", allow_module_level=True)
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture(autouse=True, scope="session")
def _fresh_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Every test session estimates afresh: a cache left by an earlier run must not answer for the compiler."""
    import os

    os.environ["TILEFIT_CACHE_DIR"] = str(tmp_path_factory.mktemp("tilefit-cache"))

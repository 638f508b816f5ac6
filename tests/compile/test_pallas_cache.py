"""Exact Pallas results are cached on disk, so measurements and fits resume instead of recompiling."""

from __future__ import annotations

import dataclasses
import importlib.util
import time
from pathlib import Path

import pytest

from tilefit.estimate.pallas import PallasEstimator, load_kernel
from tilefit.settings import Settings
from tilefit.targets import get_target

pytestmark = [
    pytest.mark.compile,
    pytest.mark.skipif(
        importlib.util.find_spec("jax") is None or importlib.util.find_spec("libtpu") is None,
        reason="needs jax[tpu] (jax with libtpu); install tilefit[tpu]",
    ),
]
KERNELS = Path(__file__).resolve().parents[2] / "examples" / "kernels"


def test_a_second_estimator_reads_the_exact_result_from_disk(tmp_path: Path) -> None:
    k = load_kernel(f"{KERNELS / 'pallas_elementwise.py'}:kernel")
    k = dataclasses.replace(k, params={"rows": 4096, "cols": 4096})
    cfg = {"block_rows": 512, "block_cols": 1024}
    settings = Settings(cache_dir=tmp_path)
    first = PallasEstimator(k, settings=settings).estimate(cfg, "v5e", "exact")
    t0 = time.perf_counter()
    again = PallasEstimator(k, settings=settings).estimate(cfg, "v5e", "exact")
    assert time.perf_counter() - t0 < first.seconds
    assert (again.bytes, again.limit, again.fits) == (first.bytes, first.limit, first.fits)
    assert list(tmp_path.glob("pallas/*/*.json"))
    other = dataclasses.replace(k, params={"rows": 4096, "cols": 8192})  # other params: another key
    v5e = get_target("v5e")
    assert PallasEstimator(other, settings=settings)._key(v5e, cfg, "exact") != PallasEstimator(
        k, settings=settings
    )._key(v5e, cfg, "exact")

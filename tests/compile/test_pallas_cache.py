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
    assert (again.bytes, again.limit, again.fits, again.vmem) == (first.bytes, first.limit, first.fits, first.vmem)
    assert list(tmp_path.glob("pallas/*/*.json"))
    other = dataclasses.replace(k, params={"rows": 4096, "cols": 8192})  # other params: another key
    v5e = get_target("v5e")
    assert PallasEstimator(other, settings=settings)._key(v5e, cfg) != PallasEstimator(
        k, settings=settings
    )._key(v5e, cfg)


def test_the_cache_is_read_before_build_and_trace(tmp_path: Path) -> None:
    k = load_kernel(f"{KERNELS / 'pallas_elementwise.py'}:kernel")
    calls: list[dict[str, int]] = []

    def counting_build(config: dict[str, int], **params: int) -> object:
        calls.append(dict(config))
        return k.build(config, **params)

    counted = dataclasses.replace(k, build=counting_build, params={"rows": 1024, "cols": 1024})
    cfg = {"block_rows": 256, "block_cols": 512}
    settings = Settings(cache_dir=tmp_path)
    first = PallasEstimator(counted, settings=settings).estimate(cfg, "v6e", "exact")
    assert first.error is None and len(calls) == 1
    again = PallasEstimator(counted, settings=settings).estimate(cfg, "v6e", "exact")
    assert len(calls) == 1 and again.bytes == first.bytes  # a hit never builds nor traces

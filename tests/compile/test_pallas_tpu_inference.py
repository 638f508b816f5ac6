"""Kernels of another project (vLLM's TPU backend, PyPI tpu-inference 0.32.0) through tilefit, on a small shape.

Runs where the wheel is at hand: `make test` downloads it into `.cache/wheels/` (as it does SGLang's), or
`TILEFIT_TPU_INFERENCE` names an unpacked copy; the test unpacks, it never downloads. The sweep
is benchmarks/pallas_real.py (`ti_*` kernels, BENCHMARKS.md).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import sys
from pathlib import Path

import pytest

from tilefit.estimate.pallas import PallasEstimator
from tilefit.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
_UNPACKED = Path(os.environ.get("TILEFIT_TPU_INFERENCE") or ROOT / ".cache" / "wheels" / "tpu_inference-0.32.0")
_WHEEL = ROOT / ".cache" / "wheels" / "tpu_inference-0.32.0-py3-none-any.whl"

pytestmark = [
    pytest.mark.compile,
    pytest.mark.skipif(
        importlib.util.find_spec("jax") is None or importlib.util.find_spec("libtpu") is None,
        reason="needs jax[tpu] (jax with libtpu); install tilefit[tpu]",
    ),
    pytest.mark.skipif(not ((_UNPACKED / "tpu_inference").is_dir() or _WHEEL.is_file()),
                       reason="tpu-inference's wheel is not in .cache/wheels (make test downloads it)"),
]

sys.path.insert(0, str(ROOT / "examples" / "kernels"))


def test_quantized_matmul_int8_blocks_fit_at_the_kernels_own_limit(tmp_path: Path) -> None:
    import pallas_tpu_inference as ti

    k = dataclasses.replace(ti.quantized_matmul, params={"batch": 512, "n_in": 1024, "n_out": 1024})
    est = PallasEstimator(k, settings=Settings(cache_dir=tmp_path))
    cfg = {"batch_block": 256, "out_block": 512, "in_block": 512}
    a, e = est.estimate(cfg, "v5e", "analytic"), est.estimate(cfg, "v5e", "exact")
    assert a.error is None and e.error is None, (a.error, e.error)
    assert a.vmem is not None and e.vmem is not None and e.vmem.compiles == 2
    blocks = dict(a.vmem.buffers)
    assert blocks["input 1"] == 2 * 512 * 512  # int8 w block, (32,128) tiles: no padding, two buffers
    assert a.limit == e.limit < 16 << 20  # the kernel passes its own vmem_limit_bytes
    assert a.bytes is not None and e.bytes is not None and abs(a.bytes - e.bytes) <= 0.15 * e.bytes
    assert a.fits is e.fits is True

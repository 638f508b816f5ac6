"""fit() on a real Triton matmul, compiled for sm_86 and sm_90 on the CPU."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

pytest.importorskip("triton", reason="the compile tier needs triton")

import triton

from tilefit.estimate.triton import TritonEstimator, load_module_file
from tilefit.fit import as_config, fit

pytestmark = pytest.mark.compile

KERNELS = Path(__file__).resolve().parents[2] / "examples" / "kernels"
# The matmul's declared argument types, from its spec (what torch tensors give the JIT).
SIG = yaml.safe_load((KERNELS / "matmul.yaml").read_text())["args"]
SPACE = {"BLOCK_M": [64, 128, 256], "BLOCK_N": [64, 128, 256], "BLOCK_K": [32, 64], "GROUP_M": [8],
         "num_warps": [4, 8], "num_stages": [3, 4]}
LIMITS = {"sm_86": 101376, "sm_90": 232448}


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILEFIT_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def matmul() -> Any:
    return load_module_file(str(KERNELS / "matmul.py")).matmul_kernel


def test_sm86_and_sm90_get_different_configs_that_fit(matmul: Any) -> None:
    problem = {"BLOCK_M": 4096, "BLOCK_N": 4096}
    r86 = fit(matmul, SPACE, "sm_86", signature=SIG, problem=problem, workers=2)
    r90 = fit(matmul, SPACE, "sm_90", signature=SIG, problem=problem, workers=2)
    assert r86.config != r90.config
    assert r86.usage.bytes is not None and r86.usage.bytes <= LIMITS["sm_86"]
    assert r90.usage.bytes is not None and r90.usage.bytes <= LIMITS["sm_90"]
    # sm_90 uses the room it has: its choice would not fit an sm_86 GPU.
    on86 = TritonEstimator(matmul, signature=SIG).estimate(r90.config, "sm_86")
    assert on86.fits is False
    # Every config is accounted for; sm_86 drops more (less shared memory, same space).
    for r in (r86, r90):
        assert len(r.ranked) + len(r.dropped) == r.tried == 72
        assert all((d.bytes or 0) > LIMITS[r.target] for d in r.dropped if d.reason == "over-limit")
    assert len(r86.dropped) > len(r90.dropped)


def test_fit_takes_triton_configs(matmul: Any) -> None:
    configs = [
        triton.Config({"BLOCK_M": 256, "BLOCK_N": 256, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=8, num_stages=4),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=4, num_stages=3),
    ]
    result = fit(matmul, configs, "sm_90", signature=SIG, workers=1)
    assert result.config == as_config(configs[1])
    assert result.usage.bytes == 98304  # 3 x (128x64 + 64x128) x 2 B on sm_90 (every stage on Hopper)
    (dropped,) = result.dropped
    assert dropped.bytes == 262144 and dropped.over_by == 262144 - 232448

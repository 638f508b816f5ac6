"""On a GPU: guarded and fitted kernels launch and compute the right thing where stock ones die.

Run with the device tool (benchmarks/fit_gpu_proof.py measures the same things with timings).
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch", reason="needs torch")
triton = pytest.importorskip("triton", reason="needs triton")
if not torch.cuda.is_available():
    pytest.skip("needs a CUDA GPU", allow_module_level=True)

from tilefit.errors import TilefitWarning  # noqa: E402
from tilefit.guard.fallback import guard  # noqa: E402
from tilefit.settings import Settings  # noqa: E402

pytestmark = pytest.mark.device
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "kernels"))


def _limit() -> int:
    from triton.runtime.driver import driver

    return int(driver.active.utils.get_device_properties(torch.cuda.current_device())["max_shared_mem"])


def test_guarded_matmul_with_an_oversized_config_runs_and_is_correct(tmp_path: Path) -> None:
    from matmul import matmul_kernel

    m = n = k = 1024
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    c = torch.empty(m, n, device="cuda", dtype=torch.float16)
    # 256x256x128 with 4 stages: 4 x (256x128 + 128x256) x 2 B = 524288 B on sm_90, over any GPU's limit.
    cfg = {"BLOCK_M": 256, "BLOCK_N": 256, "BLOCK_K": 128, "GROUP_M": 8, "num_warps": 8, "num_stages": 4}
    grid = lambda meta: (triton.cdiv(m, meta["BLOCK_M"]) * triton.cdiv(n, meta["BLOCK_N"]),)  # noqa: E731
    args = (a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    with pytest.raises(Exception, match="out of resource"):
        matmul_kernel[grid](*args, **cfg)
    g = guard(matmul_kernel, settings=Settings(cache_dir=tmp_path), tunable=("BLOCK_K",))
    try:
        with pytest.warns(TilefitWarning, match=str(_limit())):
            g[grid](*args, **cfg)  # guarded after the crash: Triton's cached dead kernel is not served
    finally:
        g.close()
    torch.testing.assert_close(c, a @ b, rtol=2e-2, atol=2e-1)


def test_seed_helion_kernel_runs_with_a_fitting_config() -> None:
    pytest.importorskip("helion", reason="needs helion")
    import helion_geglu as seed

    from tilefit.integrations.helion import use_fitting_config

    args = seed.make_args(**seed.SMALL, device="cuda")
    with pytest.raises(Exception, match="out of resource"):
        seed.make_kernel()(*args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TilefitWarning)
        bound = use_fitting_config(seed.make_kernel(), args)
    out = bound(*args)
    torch.testing.assert_close(out, seed.reference(*args), rtol=2e-2, atol=2e-2)


def test_autotune_with_the_fitting_prune_never_compiles_an_oversized_config(tmp_path: Any) -> None:
    from matmul import matmul_kernel

    from tilefit.integrations.triton_autotune import early_config_prune

    configs = [triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=8,
                             num_stages=3),
               triton.Config({"BLOCK_M": 256, "BLOCK_N": 256, "BLOCK_K": 128, "GROUP_M": 8}, num_warps=8,
                             num_stages=4)]
    tuned = triton.autotune(configs=configs, key=["M", "N", "K"],
                            prune_configs_by={"early_config_prune": early_config_prune})(matmul_kernel)
    m = n = k = 512
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    c = torch.empty(m, n, device="cuda", dtype=torch.float16)
    grid = lambda meta: (triton.cdiv(m, meta["BLOCK_M"]) * triton.cdiv(n, meta["BLOCK_N"]),)  # noqa: E731
    with pytest.warns(TilefitWarning, match="1 of 2"):
        tuned[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    assert tuned.best_config.kwargs["BLOCK_M"] == 128
    torch.testing.assert_close(c, a @ b, rtol=2e-2, atol=2e-1)

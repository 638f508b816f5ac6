"""On a GPU: the plug-in makes autotuners skip oversized configs after TTGIR, and a plain launch fail fast.

Not run in CI (no GPU); benchmarks/plugin_gpu.sh measures the same things stock vs plug-in on an H100.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="needs torch")
triton = pytest.importorskip("triton", reason="needs triton")
if not torch.cuda.is_available():
    pytest.skip("needs a CUDA GPU", allow_module_level=True)

from triton.runtime.errors import OutOfResources  # noqa: E402

import tilefit  # noqa: E402
from tilefit.plugin import installed  # noqa: E402

pytestmark = pytest.mark.device
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "kernels"))


@pytest.fixture(autouse=True)
def _plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "triton"))
    tilefit.install()
    yield
    tilefit.uninstall()


def _operands(n: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    a = torch.randn(n, n, device="cuda", dtype=torch.float16)
    b = torch.randn(n, n, device="cuda", dtype=torch.float16)
    return a, b, torch.empty(n, n, device="cuda", dtype=torch.float16)


def _launch(kernel: object, a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, **meta: int) -> None:
    n = a.shape[0]

    def grid(m: dict[str, int]) -> tuple[int]:
        return (triton.cdiv(n, m["BLOCK_M"]) * triton.cdiv(n, m["BLOCK_N"]),)

    kernel[grid](a, b, c, n, n, n, a.stride(0), a.stride(1), b.stride(0), b.stride(1),  # type: ignore[index]
                 c.stride(0), c.stride(1), **meta)


def test_triton_autotune_skips_oversized_configs_and_picks_one_that_fits() -> None:
    from matmul import matmul_kernel

    configs = [triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": 64, "GROUP_M": 8}, num_stages=s, num_warps=8)
               for bm, bn, s in ((256, 256, 4), (256, 256, 5), (128, 128, 3))]  # 262144, 327680, 98304 B
    kernel = triton.autotune(configs=configs, key=["M", "N", "K"])(matmul_kernel)
    a, b, c = _operands(1024)
    _launch(kernel, a, b, c)
    torch.cuda.synchronize()
    assert kernel.best_config.kwargs["BLOCK_M"] == 128
    assert installed().stats.rejected == 2  # type: ignore[union-attr]
    torch.testing.assert_close(c.float(), a.float() @ b.float(), atol=0.5, rtol=1e-2)


def test_a_plain_launch_that_cannot_fit_fails_in_seconds_with_the_numbers() -> None:
    from matmul import matmul_kernel

    a, b, c = _operands(1024)
    start = time.perf_counter()
    with pytest.raises(OutOfResources) as info:
        _launch(matmul_kernel, a, b, c, BLOCK_M=256, BLOCK_N=256, BLOCK_K=64, GROUP_M=8, num_stages=5, num_warps=8)
    assert time.perf_counter() - start < 10
    assert info.value.required == 327680 and info.value.name == "shared memory"
    assert "tilefit:" in str(info.value) and "BLOCK_M=256" in str(info.value)

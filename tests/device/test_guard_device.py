"""On a GPU: guarded launches of real library kernels (Liger-Kernel through its own wrappers), a matmul in
positional and keyword style, and TMA kernels (host and device descriptors) with configs on both sides of
the device's limit: no false NoConfigFits, outputs equal to unguarded launches, oversized configs replaced.

Run with the device tool; benchmarks/guard_launch.py measures the per-launch cost.
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
from tilefit.guard import guard  # noqa: E402
from tilefit.guard.jit import uninstall  # noqa: E402
from tilefit.settings import Settings  # noqa: E402

pytestmark = pytest.mark.device
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "kernels"))


@pytest.fixture(autouse=True)
def _fresh_kernels() -> Any:
    """Each test starts with unguarded kernels and empty Triton caches (another test may have guarded them)."""
    from matmul import matmul_kernel
    from tma_matmul import device_tma_matmul_kernel, tma_matmul_kernel

    kernels = (matmul_kernel, tma_matmul_kernel, device_tma_matmul_kernel)
    for k in kernels:
        uninstall(k)
        k.device_caches.clear()
    yield
    for k in kernels:
        uninstall(k)


def _limit() -> int:
    from triton.runtime.driver import driver

    return int(driver.active.utils.get_device_properties(torch.cuda.current_device())["max_shared_mem"])


def _liger_cases() -> list[tuple[str, Any, Any, Any]]:
    """(name, module, kernels to guard, call) for Liger-Kernel ops called through Liger's own wrappers."""
    pytest.importorskip("liger_kernel", reason="needs liger-kernel")
    from liger_kernel.ops import geglu, layer_norm, rms_norm, softmax, swiglu

    x = torch.randn(64, 4096, device="cuda", dtype=torch.bfloat16)
    y = torch.randn(64, 4096, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(4096, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(4096, device="cuda", dtype=torch.bfloat16)
    xs = torch.randn(32768, 256, device="cuda", dtype=torch.bfloat16)  # many short rows: the block kernel
    ws = torch.randn(256, device="cuda", dtype=torch.bfloat16)
    return [
        ("geglu", geglu, ["_geglu_tanh_forward_kernel"], lambda: geglu.geglu_forward(x, y)[2]),
        ("swiglu", swiglu, ["_swiglu_forward_kernel", "_swiglu_forward_kernel_tiled"],
         lambda: swiglu.swiglu_forward(x, y)[2]),
        ("rms_norm", rms_norm, ["_rms_norm_forward_kernel", "_block_rms_norm_forward_kernel"],
         lambda: rms_norm.rms_norm_forward(x, w, 1e-6, 0.0, "llama", False)[0]),
        ("block_rms_norm", rms_norm, ["_rms_norm_forward_kernel", "_block_rms_norm_forward_kernel"],
         lambda: rms_norm.rms_norm_forward(xs, ws, 1e-6, 0.0, "llama", False)[0]),
        ("layer_norm", layer_norm, ["_layer_norm_forward_kernel"],
         lambda: layer_norm.layer_norm_forward(x, w, b, 1e-6)[0]),
        ("softmax", softmax, ["_softmax_single_block_forward_kernel", "_softmax_multi_block_forward_kernel"],
         lambda: softmax._softmax_forward(x)[0]),
    ]


def test_liger_kernels_guarded_through_their_own_wrappers(tmp_path: Path) -> None:
    for name, module, kernels, call in _liger_cases():
        expected = call()  # unguarded
        fns = [getattr(module, k) for k in kernels if hasattr(module, k)]
        for fn in fns:
            fn.device_caches.clear()
            guard(fn, settings=Settings(cache_dir=tmp_path))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", TilefitWarning)  # every Liger config fits: no fallback, no error
                got = call()
        finally:
            for fn in fns:
                uninstall(fn)
        torch.testing.assert_close(got, expected, rtol=0, atol=0, msg=name)


def _matmul_args(m: int, n: int, k: int) -> tuple[Any, ...]:
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    c = torch.empty(m, n, device="cuda", dtype=torch.float16)
    return a, b, c


@pytest.mark.parametrize("style", ["positional", "keyword"])
def test_matmul_both_sides_of_the_limit(style: str, tmp_path: Path) -> None:
    from matmul import matmul_kernel

    m = n = k = 1024
    a, b, c = _matmul_args(m, n, k)
    names = ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn",
             "stride_cm", "stride_cn"]
    values = (a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    args, kwargs = (values, {}) if style == "positional" else ((), dict(zip(names, values, strict=True)))
    grid = lambda meta: (triton.cdiv(m, meta["BLOCK_M"]) * triton.cdiv(n, meta["BLOCK_N"]),)  # noqa: E731
    fits = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8, "num_warps": 8, "num_stages": 3}
    over = {**fits, "BLOCK_N": 256, "num_stages": 5}  # 5 x (128x64 + 64x256) x 2 B = 245760 B on sm_90
    matmul_kernel[grid](*args, **kwargs, **fits)
    plain = c.clone()
    with pytest.raises(Exception, match="out of resource"):
        matmul_kernel[grid](*args, **kwargs, **over)
    g = guard(matmul_kernel, settings=Settings(cache_dir=tmp_path))  # after the crash: the dead kernel goes
    try:
        c.zero_()
        with warnings.catch_warnings():
            warnings.simplefilter("error", TilefitWarning)
            g[grid](*args, **kwargs, **fits)
        assert torch.equal(c, plain)  # same kernel, same result as the unguarded launch
        c.zero_()
        with pytest.warns(TilefitWarning, match=str(_limit())):
            g[grid](*args, **kwargs, **over)
        torch.testing.assert_close(c, a @ b, rtol=2e-2, atol=2e-1)
    finally:
        uninstall(matmul_kernel)


def test_tma_kernels_both_sides_of_the_limit(tmp_path: Path) -> None:
    if torch.cuda.get_device_capability()[0] < 9:
        pytest.skip("TMA needs sm_90 or newer")
    from tma_matmul import device_tma_matmul_kernel, tma_matmul_kernel
    from triton.tools.tensor_descriptor import TensorDescriptor

    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    m = n = k = 1024
    a, b, c = _matmul_args(m, n, k)
    ref = a @ b
    for stages in (4, 5):  # 196640 B fits an H100/H200; 245792 B does not
        cfg = {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "num_warps": 8, "num_stages": stages}
        grid = (triton.cdiv(m, 128) * triton.cdiv(n, 256),)
        descs = (TensorDescriptor.from_tensor(a, [128, 64]), TensorDescriptor.from_tensor(b, [64, 256]),
                 TensorDescriptor.from_tensor(c, [128, 256]))
        for kernel, args in ((tma_matmul_kernel, descs), (device_tma_matmul_kernel, (a, b, c))):
            kernel.device_caches.clear()
            g = guard(kernel, settings=Settings(cache_dir=tmp_path))
            try:
                c.zero_()
                with warnings.catch_warnings(record=True) as rec:
                    warnings.simplefilter("always", TilefitWarning)
                    g[grid](*args, m, n, k, **cfg)
                replaced = [w for w in rec if issubclass(w.category, TilefitWarning)]
                assert bool(replaced) == (stages == 5), (kernel.__name__, stages, [str(w.message) for w in rec])
                torch.testing.assert_close(c, ref, rtol=2e-2, atol=2e-1)
            finally:
                uninstall(kernel)

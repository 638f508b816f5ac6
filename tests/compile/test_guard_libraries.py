"""Real kernels of two libraries from PyPI, launched by the libraries' own wrappers through guard(), on
Triton's real JIT path (a stand-in driver compiles for sm_90 on the CPU); and TMA kernels sized exactly.

Liger-Kernel launches with positional and keyword runtime arguments and `num_warps`; flash-linear-attention
(fla-core) launches with keywords only, None arguments, `do_not_specialize`, and `@triton.heuristics`
outside `@triton.autotune`. The guard must give no false NoConfigFits and change nothing that fits.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("triton", reason="the compile tier needs triton")
torch = pytest.importorskip("torch", reason="the library wrappers take torch tensors")

import triton  # noqa: E402

from tilefit.errors import TilefitWarning  # noqa: E402
from tilefit.estimate.triton import TritonEstimator, unwrap_kernel  # noqa: E402
from tilefit.guard import guard  # noqa: E402
from tilefit.guard.jit import uninstall  # noqa: E402
from tilefit.settings import Settings  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "kernels"))
from standin import stand_in  # noqa: E402

pytestmark = pytest.mark.compile
H100 = 232448


def _liger() -> list[tuple[str, Any, list[str], Any]]:
    pytest.importorskip("liger_kernel", reason="needs liger-kernel (the test extra)")
    from liger_kernel.ops import geglu, rms_norm, swiglu

    x, y, w = torch.randn(4, 2048), torch.randn(4, 2048), torch.randn(2048)
    xs, ws = torch.randn(32768, 256), torch.randn(256)  # many short rows: Liger's block RMS norm kernel
    return [
        ("geglu", geglu, ["_geglu_tanh_forward_kernel"], lambda: geglu.geglu_forward(x, y)),  # keywords
        ("swiglu", swiglu, ["_swiglu_forward_kernel", "_swiglu_forward_kernel_tiled"],
         lambda: swiglu.swiglu_forward(x, y)),
        ("rms_norm", rms_norm, ["_rms_norm_forward_kernel", "_block_rms_norm_forward_kernel"],  # positional
         lambda: rms_norm.rms_norm_forward(x, w, 1e-6, 0.0, "llama", False)),
        ("block_rms_norm", rms_norm, ["_rms_norm_forward_kernel", "_block_rms_norm_forward_kernel"],
         lambda: rms_norm.rms_norm_forward(xs, ws, 1e-6, 0.0, "llama", False)),
    ]


@pytest.mark.parametrize("case", [0, 1, 2, 3], ids=["geglu", "swiglu", "rms_norm", "block_rms_norm"])
def test_liger_ops_through_their_own_wrappers(case: int, tmp_path: Path) -> None:
    name, module, names, call = _liger()[case]
    fns = [getattr(module, n) for n in names if hasattr(module, n)]
    with stand_in(90, H100, *fns) as drv:
        checks = {fn.__name__: guard(fn, settings=Settings(cache_dir=tmp_path)).check for fn in fns}
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", TilefitWarning)
                call()
        finally:
            for fn in fns:
                uninstall(fn)
    assert drv.launches, name
    launch = drv.launches[-1]
    (decision,) = checks[launch.name].decisions.values()  # one specialisation, checked once
    assert not decision.changes  # launched as the library asked
    # The guard's size (the allocation pass on the JIT's own specialisation) equals the full compile loaded.
    assert decision.usage is not None and decision.usage.bytes == launch.shared


def test_fla_heuristics_outside_autotune_with_keywords_and_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    pytest.importorskip("fla", reason="needs fla-core (the test extra)")
    pytest.importorskip("einops", reason="fla-core needs einops")
    from fla.modules.norm import layernorm

    tuned = layernorm.layer_norm_fwd_kernel  # Autotuner over a do_not_specialize=['T'] JIT kernel
    monkeypatch.setattr(tuned, "configs", tuned.configs[:2])  # two configs keep the compile tier short
    fn = unwrap_kernel(tuned)
    x, w, b = torch.randn(64, 256), torch.randn(256), torch.randn(256)
    with stand_in(90, H100, fn) as drv:
        assert guard(tuned, settings=Settings(cache_dir=tmp_path)) is tuned
        with warnings.catch_warnings():
            warnings.simplefilter("error", TilefitWarning)
            layernorm.layer_norm_fwd(x, w, b)  # keyword launch; residual=None, res_out=None
    assert drv.launches[-1].name == "layer_norm_fwd_kernel"
    assert drv.launches[-1].constants["res"] is None


def test_tma_descriptor_sizes_equal_full_compiles_and_the_jit_launch(tmp_path: Path) -> None:
    from tma_matmul import device_tma_matmul_kernel, tma_matmul_kernel
    from triton.tools.tensor_descriptor import TensorDescriptor

    m = n = k = 512
    a, b = torch.empty(m, k, dtype=torch.float16), torch.empty(k, n, dtype=torch.float16)
    c = torch.empty(m, n, dtype=torch.float16)
    cfg = {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "num_warps": 8, "num_stages": 4}
    descs = [TensorDescriptor.from_tensor(a, [128, 64]), TensorDescriptor.from_tensor(b, [64, 256]),
             TensorDescriptor.from_tensor(c, [128, 256])]
    declared = {"a_desc": "tensordesc<fp16[128, 64]>", "b_desc": "tensordesc<fp16[64, 256]>",
                "c_desc": "tensordesc<fp16[128, 256]>", "M": "i32:16", "N": "i32:16", "K": "i32:16"}
    real = TritonEstimator(tma_matmul_kernel, args=[*descs, m, n, k], cache=False)
    spec = TritonEstimator(tma_matmul_kernel, signature=declared, cache=False)
    device = TritonEstimator(device_tma_matmul_kernel, args=[a, b, c, m, n, k], cache=False)
    fast = real.estimate(cfg, "sm_90")
    assert fast.bytes == spec.estimate(cfg, "sm_90").bytes == real.estimate(cfg, "sm_90", "full").bytes
    # 4 stages x (128x64 + 64x256) x 2 B of tiles plus the barriers: 196640 B (Triton 3.6 and 3.9).
    assert fast.bytes == 196640 and fast.fits
    assert device.estimate(cfg, "sm_90").bytes == device.estimate(cfg, "sm_90", "full").bytes == 196640
    with stand_in(90, H100, tma_matmul_kernel) as drv:
        tma_matmul_kernel[(1,)](*descs, m, n, k, **cfg)
        g = guard(tma_matmul_kernel, settings=Settings(cache_dir=tmp_path))
        tma_matmul_kernel.device_caches.clear()
        with pytest.warns(TilefitWarning, match=r"num_stages=5 does not fit .*num_stages=4 instead"):
            g[(1,)](*descs, m, n, k, **{**cfg, "num_stages": 5})  # 245792 B > 232448 B
        uninstall(tma_matmul_kernel)
    assert [x.shared for x in drv.launches] == [196640, 196640]


def test_tma_descriptor_in_a_spec_is_checked() -> None:
    from tilefit.errors import InputError
    from tilefit.estimate.triton_args import Arg

    assert str(Arg.parse("tensordesc<bf16[64,32]>")) == "tensordesc<bf16[64, 32]>"
    with pytest.raises(InputError, match="power of 2"):
        Arg.parse("tensordesc<fp16[96, 64]>")
    assert triton.__version__  # the stand-in descriptor is Triton's own TensorDescriptor

"""guard() on Triton's real JIT path, on a CPU: a stand-in driver compiles for a chosen GPU target with the
real compiler, checks shared memory at load as a GPU driver does (OutOfResources), and records launches.

Every argument style Triton accepts goes through unchanged; an oversized config is replaced before it
compiles; later launches are served by Triton's own cache; decisions persist per compiler version.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("triton", reason="the compile tier needs triton")
torch = pytest.importorskip("torch", reason="the stand-in launches take torch tensors")

import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from tilefit.errors import NoConfigFits, TilefitWarning  # noqa: E402
from tilefit.guard import GuardedKernel, guard  # noqa: E402
from tilefit.guard.jit import uninstall  # noqa: E402
from tilefit.settings import Settings  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "kernels"))
from matmul import matmul_kernel  # noqa: E402
from standin import stand_in  # noqa: E402

pytestmark = pytest.mark.compile

SM86 = 101376  # an sm_86 card's opt-in shared memory per block
# On sm_86 a pointer-load matmul keeps (S - 1) x (BM*BK + BK*BN) fp16 elements
# (mma_v2 keeps one stage fewer than Hopper; test_triton_estimate.py measures it):
# 5 stages of 128x128x64 need 131072 B > 101376 B; 4 stages need 98304 B.
BIG = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8, "num_warps": 4, "num_stages": 5}
M = N = K = 256


@pytest.fixture(autouse=True)
def _unguard() -> Any:
    yield
    for fn in (matmul_kernel, _scale, _flags):
        uninstall(fn)


def tensors() -> tuple[Any, ...]:
    a = torch.empty(M, K, dtype=torch.float16)
    b = torch.empty(K, N, dtype=torch.float16)
    c = torch.empty(M, N, dtype=torch.float16)
    return a, b, c


def positional(a: Any, b: Any, c: Any) -> tuple[Any, ...]:
    return (a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))


def keywords(a: Any, b: Any, c: Any) -> dict[str, Any]:
    names = ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn",
             "stride_cm", "stride_cn"]
    return dict(zip(names, positional(a, b, c), strict=True))


def settings(tmp_path: Path) -> Settings:
    return Settings(cache_dir=tmp_path / "cache")


@pytest.mark.parametrize("style", ["positional", "keyword", "mixed"])
def test_oversized_config_falls_back_in_every_argument_style(style: str, tmp_path: Path) -> None:
    a, b, c = tensors()
    pos, kw = positional(a, b, c), keywords(a, b, c)
    args, kwargs = {"positional": (pos, {}), "keyword": ((), kw),
                    "mixed": (pos[:3], dict(list(kw.items())[3:]))}[style]
    with stand_in(86, SM86, matmul_kernel) as drv:
        with pytest.raises(triton.runtime.errors.OutOfResources):  # what the plain launch does
            matmul_kernel[(1,)](*args, **kwargs, **BIG)
        g = guard(matmul_kernel, settings=settings(tmp_path))
        with pytest.warns(TilefitWarning, match=r"num_stages=5 does not fit .*101376 B.*num_stages=4 instead"):
            g[(1,)](*args, **kwargs, **BIG)
        assert drv.launches[-1].num_stages == 4 and drv.launches[-1].shared == 98304
        uninstall(matmul_kernel)  # and without the guard, Triton compiles what was asked again
        with pytest.raises(triton.runtime.errors.OutOfResources):
            matmul_kernel[(1,)](*args, **kwargs, **BIG)


def test_later_launches_are_served_by_tritons_cache_and_the_decision_persists(tmp_path: Path) -> None:
    a, b, c = tensors()
    with stand_in(86, SM86, matmul_kernel) as drv:
        g = guard(matmul_kernel, settings=settings(tmp_path))
        assert g[(1,)].__code__ is matmul_kernel[(1,)].__code__  # the launcher is Triton's own lambda
        with pytest.warns(TilefitWarning):
            g[(1,)](*positional(a, b, c), **BIG)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            for _ in range(3):
                g[(1,)](*positional(a, b, c), **BIG)
        assert len(g.check.decisions) == 1  # checked once: the other launches never reached the check
        assert [x.num_stages for x in drv.launches] == [4, 4, 4, 4]
        (record,) = (tmp_path / "cache" / "guard").rglob("*.json")
        assert f"triton {triton.__version__}" in record.read_text()  # a decision names the compiler that made it

        matmul_kernel.device_caches.clear()  # a new process: the decision comes from disk
        again = guard(matmul_kernel, settings=settings(tmp_path))
        with pytest.warns(TilefitWarning, match="loaded from an earlier run"):
            again[(1,)](*positional(a, b, c), **BIG)
    assert drv.launches[-1].num_stages == 4


def test_a_decision_of_another_triton_version_is_not_reused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tilefit.guard import decide

    a, b, c = tensors()
    with stand_in(86, SM86, matmul_kernel):
        with pytest.warns(TilefitWarning):
            guard(matmul_kernel, settings=settings(tmp_path))[(1,)](*positional(a, b, c), **BIG)
        matmul_kernel.device_caches.clear()
        monkeypatch.setattr(decide, "triton_version", lambda: "triton 0.0-other")
        g = guard(matmul_kernel, settings=settings(tmp_path))
        with pytest.warns(TilefitWarning) as rec:
            g[(1,)](*positional(a, b, c), **BIG)
    assert "earlier run" not in str(rec[0].message) and "triton 0.0-other" in str(rec[0].message)


def test_config_that_fits_is_launched_unchanged_and_silently(tmp_path: Path) -> None:
    a, b, c = tensors()
    with stand_in(86, SM86, matmul_kernel) as drv:
        g = guard(matmul_kernel, settings=settings(tmp_path))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            g[(1,)](**keywords(a, b, c), **{**BIG, "num_stages": 4})
    assert drv.launches[-1].num_stages == 4


def test_tunable_tiles_relaunch_with_the_smaller_tile_and_a_grid_of_it(tmp_path: Path) -> None:
    a, b, c = tensors()
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)  # noqa: E731
    with stand_in(86, 40960, matmul_kernel) as drv:  # a card with 40 KiB
        g = GuardedKernel(matmul_kernel, settings=settings(tmp_path), tunable=("BLOCK_K",))
        with pytest.warns(TilefitWarning, match="instead"):
            g[grid](*positional(a, b, c), **{**BIG, "BLOCK_M": 256, "BLOCK_N": 256, "num_stages": 2})
    last = drv.launches[-1]
    assert last.grid[0] == 1  # the grid is computed from the tiles launched (256 x 256 over 256 x 256)
    assert last.constants["BLOCK_M"] == 256 and last.constants["BLOCK_K"] < 64 and last.shared <= 40960


def test_nothing_fits_raises_before_any_launch(tmp_path: Path) -> None:
    a, b, c = tensors()
    with stand_in(86, 8192, matmul_kernel) as drv:
        g = guard(matmul_kernel, settings=settings(tmp_path))
        with pytest.raises(NoConfigFits, match="8192"):
            g[(1,)](*positional(a, b, c), **BIG)
    assert drv.launches == []


def test_warmup_and_run_are_guarded(tmp_path: Path) -> None:
    a, b, c = tensors()
    with stand_in(86, SM86, matmul_kernel) as drv:
        g = guard(matmul_kernel, settings=settings(tmp_path))
        with pytest.warns(TilefitWarning):
            compiled = g.warmup(*positional(a, b, c), grid=(1,), **BIG)
        assert compiled.metadata.num_stages == 4 and drv.launches == []
        del compiled  # a compiled kernel unloads through the driver that loaded it
        g.run(*positional(a, b, c), grid=(1,), warmup=False, **BIG)
    assert drv.launches[-1].num_stages == 4


@triton.jit(do_not_specialize=["n"])
def _scale(x_ptr, y_ptr, n, alpha, bias_ptr, BLOCK: tl.constexpr, ACT: tl.constexpr = "none",
           HAS_BIAS: tl.constexpr = False, EPS: tl.constexpr = 1e-6, DTYPE: tl.constexpr = tl.float32):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n).to(DTYPE)
    if HAS_BIAS:
        x += tl.load(bias_ptr + offs, mask=offs < n).to(DTYPE)
    if ACT == "relu":
        x = tl.maximum(x, 0.0)
    tl.store(y_ptr + offs, x * alpha + EPS, mask=offs < n)


@triton.jit
def _flags(x_ptr, n, BLOCK: tl.constexpr, FLAG: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + FLAG, mask=offs < n)


def test_constexprs_of_every_type_none_defaults_and_do_not_specialize(tmp_path: Path) -> None:
    x, y = torch.empty(4096), torch.empty(4096)
    with stand_in(90, 232448, _scale) as drv:
        g = guard(_scale, settings=settings(tmp_path))
        with warnings.catch_warnings():
            warnings.simplefilter("error", TilefitWarning)
            g[(4,)](x, y, 4096, 0.5, None, BLOCK=1024)  # defaults, None, a float runtime argument
            g[(4,)](x_ptr=x, y_ptr=y, n=4096, alpha=2.0, bias_ptr=x, BLOCK=1024, ACT="relu", HAS_BIAS=True,
                    EPS=1e-3, DTYPE=tl.float16)
    assert [launch.constants.get("ACT", "none") for launch in drv.launches] == ["none", "relu"]
    assert len(g.check.decisions) == 2


def test_heuristics_outside_autotune_run_and_prune(tmp_path: Path) -> None:
    configs = [triton.Config({"BLOCK": 1024}, num_warps=4), triton.Config({"BLOCK": 512}, num_warps=2)]
    tuned = triton.heuristics({"FLAG": lambda args: args["n"] % 2})(
        triton.autotune(configs=configs, key=["n"])(_flags))
    x = torch.empty(4096)
    with stand_in(90, 232448, _flags) as drv:
        assert guard(tuned, settings=settings(tmp_path)) is tuned  # launched as before, pruned in place
        tuned[lambda meta: (triton.cdiv(4096, meta["BLOCK"]),)](x, n=4096)
    assert drv.launches and drv.launches[-1].constants["FLAG"] == 0


def test_heuristics_over_a_bare_jit_kernel_are_not_skipped(tmp_path: Path) -> None:
    kernel = triton.heuristics({"BLOCK": lambda args: 256, "FLAG": lambda args: 1})(_flags)
    x = torch.empty(1024)
    with stand_in(90, 232448, _flags) as drv:
        g = guard(kernel, settings=settings(tmp_path))
        with warnings.catch_warnings():
            warnings.simplefilter("error", TilefitWarning)
            g[(4,)](x, 1024)
    assert drv.launches[-1].constants == {"BLOCK": 256, "FLAG": 1}


def test_a_failure_of_tilefit_itself_launches_as_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tilefit.guard import jit

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("estimator exploded")

    monkeypatch.setattr(jit, "triton_handle", broken)
    a, b, c = tensors()
    with stand_in(86, SM86, matmul_kernel) as drv:
        g = guard(matmul_kernel, settings=settings(tmp_path))
        with pytest.warns(TilefitWarning, match="could not check .*estimator exploded.*launched as asked"):
            g[(1,)](*positional(a, b, c), **{**BIG, "num_stages": 4})
    assert drv.launches[-1].num_stages == 4

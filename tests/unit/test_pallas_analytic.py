"""Pallas TPU analytic model and limit advice: no libtpu, no compile (tracing uses jax when present)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tilefit.errors import InputError
from tilefit.estimate.pallas import PallasKernel, load_kernel
from tilefit.estimate.pallas_layout import padded_bytes, sublane_rows, tiling_problem
from tilefit.fit.pallas import headroom_limit, vmem_limit_for
from tilefit.targets import get_target

KERNELS = Path(__file__).resolve().parents[2] / "examples" / "kernels"
MIB = 1 << 20


@pytest.mark.parametrize(("itemsize", "rows"), [(4, 8), (2, 16), (1, 32)])
def test_sublane_packing(itemsize: int, rows: int) -> None:
    assert sublane_rows(itemsize) == rows


@pytest.mark.parametrize(
    ("shape", "itemsize", "expected"),
    [
        ((512, 512), 2, 512 * 512 * 2),  # already tile-aligned
        ((8, 100), 4, 8 * 128 * 4),  # lanes pad to 128
        ((8, 128), 2, 16 * 128 * 2),  # bf16 rows pad to 16
        ((40, 128), 1, 64 * 128),  # int8 rows pad to 32
        ((3, 5, 128), 4, 3 * 8 * 128 * 4),  # leading dims multiply
        ((128,), 4, 8 * 128 * 4),  # a 1-D block takes a whole tile
    ],
)
def test_padded_bytes(shape: tuple[int, ...], itemsize: int, expected: int) -> None:
    assert padded_bytes(shape, itemsize) == expected


def test_tiling_rule() -> None:
    assert tiling_problem((512, 256), (4096, 4096), 2) is None
    assert tiling_problem((100, 4096), (100, 4096), 4) is None  # equal to the array dims
    assert "128" in (tiling_problem((256, 200), (4096, 4096), 4) or "")
    assert "multiple of 8" in (tiling_problem((100, 128), (4096, 4096), 4) or "")
    assert "multiple of 32" in (tiling_problem((8, 128), (4096, 4096), 1) or "")


def test_headroom_limit_rounds_up_and_caps_at_physical() -> None:
    assert headroom_limit(19247104, 128 * MIB) == 21 * MIB  # E1001 "18.36M" on v5e -> 21 MiB
    assert headroom_limit(63 * MIB, 64 * MIB) == 64 * MIB  # capped at tpu7x physical VMEM
    assert headroom_limit(20 * MIB, 16 * MIB) == 16 * MIB


def test_vmem_limit_for_names_generations_without_room() -> None:
    targets = [get_target(n) for n in ("v4", "v5e", "v6e", "tpu7x")]
    advice = vmem_limit_for(40 * MIB, targets)
    assert advice.too_small == ("v4",)
    assert advice.per_target["v5e"] == 44 * MIB and advice.per_target["tpu7x"] == 44 * MIB
    assert advice.vmem_limit_bytes == 44 * MIB
    assert advice.snippet == f"compiler_params=pltpu.CompilerParams(vmem_limit_bytes={44 * MIB})"
    assert vmem_limit_for(100 * MIB, [get_target("tpu7x")]).vmem_limit_bytes is None


def test_kernel_space_and_spec_overlay() -> None:
    k = PallasKernel(build=lambda c: (print, ()), space={"a": [1, 2], "b": [3]})
    assert k.configs() == [{"a": 1, "b": 3}, {"a": 2, "b": 3}]
    k2 = k.with_spec({"space": {"b": "4,5"}, "params": {"n": 7}})
    assert k2.configs() == [{"a": 1, "b": 4}, {"a": 1, "b": 5}, {"a": 2, "b": 4}, {"a": 2, "b": 5}]
    assert k2.params == {"n": 7}


@pytest.mark.parametrize("ref", ["nofile.py:kernel", "examples", f"{KERNELS / 'pallas_matmul.py'}:nothing"])
def test_bad_kernel_reference_is_an_input_error(ref: str) -> None:
    with pytest.raises(InputError):
        load_kernel(ref)


def test_gpu_target_is_refused() -> None:
    pytest.importorskip("jax")
    from tilefit.estimate.pallas import PallasEstimator

    k = load_kernel(f"{KERNELS / 'pallas_elementwise.py'}:kernel")
    with pytest.raises(InputError, match="not a TPU target"):
        PallasEstimator(k).estimate({"block_rows": 256, "block_cols": 512}, "sm_90", "analytic")


def _est(name: str, **params: int) -> object:
    pytest.importorskip("jax")
    from tilefit.estimate.pallas import PallasEstimator

    k = load_kernel(f"{KERNELS / name}:kernel")
    return PallasEstimator(dataclasses.replace(k, params={**k.params, **params}))


def test_matmul_blocks_buffers_and_scratch_from_the_trace() -> None:
    est = _est("pallas_matmul.py", m=2048, n=2048, k=2048)
    u = est.estimate({"bm": 512, "bn": 256, "bk": 1024}, "v5e", "analytic")  # type: ignore[attr-defined]
    # a: 512x1024 bf16 x2, b: 1024x256 bf16 x2, out 512x256 bf16 x2, acc 512x256 f32
    blocks = 2 * (1 * MIB) + 2 * (512 * 1024) + 2 * (256 * 1024) + 512 * 1024
    assert u.extra["block_bytes"] == blocks
    assert u.bytes == blocks + u.extra["internal_allowance"]
    assert u.limit == 16 * MIB and u.extra["physical"] == 128 * MIB
    assert u.extra["grid_steps"] == 4 * 8 * 2
    assert u.resource == "scoped-vmem" and u.fits is True


def test_buffered_pipeline_mode_and_single_step_grid() -> None:
    est = _est("pallas_elementwise.py", rows=1024, cols=1024, buffers=1)
    u = est.estimate({"block_rows": 512, "block_cols": 1024}, "v6e", "analytic")  # type: ignore[attr-defined]
    assert u.extra["block_bytes"] == 1 * 2 * (2 * MIB) + 2 * (2 * MIB)  # inputs x1, output x2
    one = est.estimate({"block_rows": 1024, "block_cols": 1024}, "v6e", "analytic")  # type: ignore[attr-defined]
    assert one.extra["block_bytes"] == 3 * (4 * MIB)  # grid of one step: one buffer each


def test_over_limit_gives_the_limit_to_pass() -> None:
    est = _est("pallas_matmul.py", m=4096, n=4096, k=4096)
    u = est.estimate({"bm": 2048, "bn": 2048, "bk": 512}, "v5e", "analytic")  # type: ignore[attr-defined]
    assert u.fits is False and u.bytes > 16 * MIB
    assert u.extra["vmem_limit_bytes"] >= u.bytes and u.extra["vmem_limit_bytes"] <= 128 * MIB
    assert u.extra["margin"] == 16 * MIB - u.bytes


def test_bad_block_shape_is_a_result_not_an_abort() -> None:
    est = _est("pallas_matmul.py", m=2048, n=2048, k=2048)
    rows = est.estimate_many(  # type: ignore[attr-defined]
        [{"bm": 100, "bn": 128, "bk": 128}, {"bm": 128, "bn": 128, "bk": 128}], ["v5e"], "analytic"
    )
    assert rows[0].fits is None and "second-last block dim 100" in (rows[0].error or "")
    assert rows[1].fits is True and rows[1].error is None


def test_fit_without_raising_names_the_consumer_and_the_limit_to_pass() -> None:
    pytest.importorskip("jax")
    from tilefit.errors import NoConfigFits
    from tilefit.fit.pallas import fit

    k = load_kernel(f"{KERNELS / 'pallas_elementwise.py'}:kernel")
    k = dataclasses.replace(k, space={"block_rows": [1024], "block_cols": [2048]}, params={"rows": 4096})
    with pytest.raises(NoConfigFits) as info:
        fit(k, "v5e", mode="analytic", allow_raise=False)
    err = info.value
    assert err.limit == 16 * MIB and err.smallest is not None and err.smallest > 48 * MIB
    assert "input 0 f32[1024,2048] x2" in err.consumer and "vmem_limit_bytes=" in err.fix
    chosen = fit(k, "v5e", mode="analytic")
    assert chosen.vmem_limit_bytes is not None and chosen.vmem_limit_bytes >= err.smallest

"""Pallas TPU analytic model and limit advice: no libtpu, no compile (tracing uses jax when present)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tilefit.errors import InputError
from tilefit.estimate.pallas import PallasKernel, load_kernel, prefetched_inputs, scoped_need, smallest_limit
from tilefit.estimate.pallas_layout import (
    Buffer,
    CallLayout,
    contiguous_block,
    padded_bytes,
    sublane_rows,
    tiling_problem,
)
from tilefit.targets import get_target
from tilefit.vmem import headroom_limit, vmem_limit_for

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
        PallasEstimator(k, libtpu=False).estimate({"block_rows": 256, "block_cols": 512}, "sm_90", "analytic")


def _est(name: str, **params: int) -> object:
    pytest.importorskip("jax")
    from tilefit.estimate.pallas import PallasEstimator

    k = load_kernel(f"{KERNELS / name}:kernel")
    return PallasEstimator(dataclasses.replace(k, params={**k.params, **params}), libtpu=False)


def _blocks(u: object) -> int:
    """Bytes of all pipeline buffers and scratch of an estimate (the typed VMEM detail)."""
    return sum(n for _, n in u.vmem.buffers)  # type: ignore[attr-defined]


def test_matmul_blocks_buffers_and_scratch_from_the_trace() -> None:
    est = _est("pallas_matmul.py", m=2048, n=2048, k=2048)
    u = est.estimate({"bm": 512, "bn": 256, "bk": 1024}, "v5e", "analytic")  # type: ignore[attr-defined]
    # a: 512x1024 bf16 x2, b: 1024x256 bf16 x2, out 512x256 bf16 x2, acc 512x256 f32
    blocks = 2 * (1 * MIB) + 2 * (512 * 1024) + 2 * (256 * 1024) + 512 * 1024
    assert _blocks(u) == blocks
    assert u.bytes == blocks + u.vmem.internal_allowance
    assert u.limit == 16 * MIB and u.vmem.physical == 128 * MIB
    assert u.vmem.grid_steps == 4 * 8 * 2
    assert u.resource == "scoped-vmem" and u.fits is True


def test_buffered_pipeline_mode_and_single_step_grid() -> None:
    est = _est("pallas_elementwise.py", rows=1024, cols=1024, buffers=1)
    u = est.estimate({"block_rows": 512, "block_cols": 1024}, "v6e", "analytic")  # type: ignore[attr-defined]
    assert _blocks(u) == 1 * 2 * (2 * MIB) + 2 * (2 * MIB)  # inputs x1, output x2
    one = est.estimate({"block_rows": 1024, "block_cols": 1024}, "v6e", "analytic")  # type: ignore[attr-defined]
    assert _blocks(one) == 3 * (4 * MIB)  # grid of one step: one buffer each


def test_over_limit_gives_the_limit_to_pass() -> None:
    est = _est("pallas_matmul.py", m=4096, n=4096, k=4096)
    u = est.estimate({"bm": 2048, "bn": 2048, "bk": 512}, "v5e", "analytic")  # type: ignore[attr-defined]
    assert u.fits is False and u.bytes > 16 * MIB
    assert u.bytes <= u.vmem.vmem_limit_bytes <= 128 * MIB
    assert [(o.resource, o.required, o.limit) for o in u.over] == [("scoped-vmem", u.bytes, 16 * MIB)]


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
    from tilefit.estimate.pallas import PallasEstimator
    from tilefit.fit.pallas import fit_pallas as fit

    k = load_kernel(f"{KERNELS / 'pallas_elementwise.py'}:kernel")
    k = dataclasses.replace(k, space={"block_rows": [1024], "block_cols": [2048]}, params={"rows": 4096})
    with pytest.raises(NoConfigFits) as info:
        fit(k, "v5e", mode="analytic", allow_raise=False, estimator=PallasEstimator(k, libtpu=False))
    err = info.value
    assert err.limit == 16 * MIB and err.smallest is not None and err.smallest > 48 * MIB
    assert "input 0 16.00 MiB" in err.consumer and "vmem_limit_bytes=" in err.fix
    chosen = fit(k, "v5e", mode="analytic", estimator=PallasEstimator(k, libtpu=False))
    assert chosen.vmem_limit_bytes is not None and chosen.vmem_limit_bytes >= err.smallest


@pytest.mark.parametrize(
    ("block", "array", "contiguous"),
    [  # each measured with libtpu on tpu7x (x + y, f32, both arrays prefetched into VMEM)
        ((256, 1024), (4096, 1024), True),
        ((8, 1024), (4096, 1024), True),
        ((1, 256, 128), (8, 4096, 128), True),  # flash attention's (None, block, 128)
        ((2, 4096, 128), (8, 4096, 128), True),
        ((1, 2, 256, 128), (8, 16, 256, 128), True),
        ((256, 512), (4096, 1024), False),
        ((256, 128), (4096, 256), False),
        ((2, 256, 128), (8, 4096, 128), False),
        ((1, 4, 128, 128), (8, 16, 256, 128), False),
        ((1, 1024), (4096, 1024), False),  # not measured: one row of each (8,128) tile
    ],
)
def test_contiguous_block(block: tuple[int, ...], array: tuple[int, ...], contiguous: bool) -> None:
    assert contiguous_block(block, array, 4) is contiguous


def _call(*arrays_mib: int) -> CallLayout:
    """Inputs of (N, 1024) f32 arrays with contiguous (256, 1024) blocks, and a 1 MiB x2 output."""
    bufs = [Buffer(f"input {i}", (256, 1024), "f32", 4, 2, "input", (mib * 256, 1024), True)
            for i, mib in enumerate(arrays_mib)]
    bufs.append(Buffer("output 0", (256, 1024), "f32", 4, 2, "output", (4096, 1024), True))
    return CallLayout("k", (16,), tuple(bufs), None)


def test_tpu7x_prefetch_budget_is_physical_less_limit_less_10_mib() -> None:
    tpu7x, v6e = get_target("tpu7x"), get_target("v6e")
    one = _call(16)
    assert [b.name for b in prefetched_inputs(tpu7x, one, 38 * MIB)] == ["input 0"]  # 64 - 38 - 10 = 16
    assert prefetched_inputs(tpu7x, one, 38 * MIB + 4096) == ()
    assert prefetched_inputs(v6e, one, 4096) == ()  # v5e/v6e compiles never prefetch
    # smallest array first: of 32, 8 and 16 MiB at a 10 MiB limit (44 MiB budget), the 8 and 16 MiB ones
    mixed = _call(32, 8, 16)
    assert [b.name for b in prefetched_inputs(tpu7x, mixed, 10 * MIB)] == ["input 1", "input 2"]


def test_prefetched_contiguous_inputs_take_no_buffers_and_a_lower_limit_can_compile() -> None:
    tpu7x = get_target("tpu7x")
    call = _call(16, 16)  # inputs 2 MiB each, output 2 MiB, internal 10% of nothing (no values traced)
    assert scoped_need(tpu7x, call, 22 * MIB) == 2 * MIB  # both prefetched: 64 - 22 - 10 = 32
    assert scoped_need(tpu7x, call, 22 * MIB + 4096) == 4 * MIB  # one
    assert scoped_need(tpu7x, call, 40 * MIB) == 6 * MIB  # none
    assert smallest_limit(tpu7x, call) == 2 * MIB
    strided = dataclasses.replace(call, buffers=tuple(dataclasses.replace(b, contiguous=False)
                                                      for b in call.buffers))
    assert smallest_limit(tpu7x, strided) == scoped_need(tpu7x, strided, 4096) == 6 * MIB


def test_flash_attention_inputs_are_free_on_tpu7x_only() -> None:
    est = _est("pallas_flash_attention.py", batch_heads=8, seq=4096, head_dim=128)
    cfg = {"block_q": 128, "block_kv": 128}
    t7 = est.estimate(cfg, "tpu7x", "analytic")  # type: ignore[attr-defined]
    v6 = est.estimate(cfg, "v6e", "analytic")  # type: ignore[attr-defined]
    # blocks: q, k, v, o 32 KiB x2 each; scratch 3 x 64 KiB; the (128,128) f32 scores stay in vregs
    assert v6.bytes == 4 * 64 * 1024 + 3 * 64 * 1024  # 448 KiB, libtpu's number
    assert t7.bytes == 64 * 1024 + 3 * 64 * 1024  # 256 KiB, libtpu's number: q, k, v read in place
    assert t7.vmem.prefetched_inputs == ("input 0", "input 1", "input 2")
    assert t7.vmem.bytes_without_prefetch == v6.bytes


def test_a_block_with_a_constant_index_map_has_one_buffer() -> None:
    jax = pytest.importorskip("jax")
    from jax.experimental import pallas as pl

    from tilefit.estimate.pallas_layout import trace_layouts

    def body(x: object, y: object, o: object) -> None:
        o[...] = x[...] + y[...]  # type: ignore[index]

    f = pl.pallas_call(
        body, grid=(8,), out_shape=jax.ShapeDtypeStruct((4096, 1024), "float32"),
        in_specs=[pl.BlockSpec((512, 1024), lambda i: (i, 0)), pl.BlockSpec((512, 1024), lambda i: (0, 0))],
        out_specs=pl.BlockSpec((512, 1024), lambda i: (i, 0)),
    )
    args = (jax.ShapeDtypeStruct((4096, 1024), "float32"), jax.ShapeDtypeStruct((512, 1024), "float32"))
    (call,) = trace_layouts(f, args)
    # libtpu 0.0.42.1 on v5e: the (0, 0) block is allocated once (12 MiB, not 16, for this shape)
    assert [(b.name, b.count) for b in call.buffers] == [("input 0", 2), ("input 1", 1), ("output 0", 2)]


def test_a_block_indexed_only_by_grid_axes_of_extent_one_has_one_buffer() -> None:
    jax = pytest.importorskip("jax")
    from jax.experimental import pallas as pl

    from tilefit.estimate.pallas_layout import trace_layouts

    def body(x: object, w: object, o: object) -> None:
        o[...] = x[...] + w[...]  # type: ignore[index]

    # tpu-inference's quantized matmul, grid (1, 4, 1): x at (b, i) = (0, 0) on every step; libtpu's VMEM
    # report (v6e) lists its window once
    f = pl.pallas_call(
        body, grid=(1, 4, 1), out_shape=jax.ShapeDtypeStruct((512, 4096), "float32"),
        in_specs=[pl.BlockSpec((512, 1024), lambda b, o, i: (b, i)),
                  pl.BlockSpec((512, 1024), lambda b, o, i: (i, o))],
        out_specs=pl.BlockSpec((512, 1024), lambda b, o, i: (b, o)),
    )
    args = (jax.ShapeDtypeStruct((512, 1024), "float32"), jax.ShapeDtypeStruct((512, 4096), "float32"))
    (call,) = trace_layouts(f, args)
    assert [(b.name, b.count) for b in call.buffers] == [("input 0", 1), ("input 1", 2), ("output 0", 2)]


def test_an_operand_the_program_computes_is_kept_in_vmem_on_v5e_and_v6e_not_v5p() -> None:
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp
    from jax.experimental import pallas as pl

    from tilefit.estimate.pallas_layout import trace_layouts

    def body(x: object, s: object, o: object) -> None:
        o[...] = x[...] + s[...].astype(jnp.float32)  # type: ignore[index]

    spec = pl.BlockSpec((512, 128), lambda i: (i, 0))
    call_ = pl.pallas_call(body, grid=(8,), out_shape=jax.ShapeDtypeStruct((4096, 128), "float32"),
                           in_specs=[spec, spec], out_specs=spec)

    def fn(x: object) -> object:
        # splash attention's q_sequence: an int32 iota the program computes, not an argument
        ids = jax.lax.broadcasted_iota(jnp.int32, (4096, 128), 0)
        return call_(jnp.reshape(x, (4096, 128)), ids)  # a reshape of an argument is still the argument

    (call,) = trace_layouts(fn, (jax.ShapeDtypeStruct((512, 8, 128), "float32"),))
    assert [(b.name, b.produced) for b in call.buffers] == [("input 0", False), ("input 1", True),
                                                            ("output 0", False)]
    # libtpu 0.0.42.1: splash attention's iota is in VMEM (S(1)) at the default limits on v5e and v6e,
    # so its blocks cost nothing; v5p allocates them (the (128,128) config needs 128 KiB more there)
    assert [b.name for b in prefetched_inputs(get_target("v5e"), call, 16 * MIB)] == ["input 1"]
    assert [b.name for b in prefetched_inputs(get_target("v6e"), call, 32 * MIB)] == ["input 1"]
    assert prefetched_inputs(get_target("v5p"), call, 16 * MIB) == ()
    assert smallest_limit(get_target("v5e"), call) == smallest_limit(get_target("v5p"), call) - 2 * 512 * 128 * 4


@pytest.mark.parametrize(("target", "copies", "expected_mib"), [
    ("v5e", 1, 4.0), ("v5e", 2, 7.0), ("v5e", 4, 13.0), ("v6e", 2, 6.4), ("v5p", 2, 7.0)])
def test_unrolled_score_copies_count_at_the_generations_share(target: str, copies: int, expected_mib: float) -> None:
    from tilefit.estimate.pallas import internal_allowance

    # libtpu's VMEM report, v5e: two unrolled (1024,1024) f32 score copies (splash 1024/2048/1024) spill
    # 6.2 MiB, four (2048,512) copies (splash 2048/2048/512) 14.6 MiB; v6e spills less (2.9 copies of 4)
    call = CallLayout("k", (8,), (), None, reduced_value=4 * MIB, largest_value=4 * MIB, reduced_copies=copies)
    assert internal_allowance(get_target(target), call) == pytest.approx(expected_mib * MIB, abs=4096)


def test_tpu7x_counts_the_narrowed_copy_of_unrolled_scores() -> None:
    from tilefit.estimate.pallas import internal_allowance

    # libtpu's VMEM report, tpu7x, JAX flash attention 1024/1024/512: two unrolled (1024,512) f32 score
    # copies and their bf16 casts (p fed to the second matmul) spill 4263936 B; v6e 2.5 MiB, no cast term
    call = CallLayout("k", (8,), (), None, reduced_value=2 * MIB, largest_value=2 * MIB, reduced_copies=2,
                      narrowed_value=MIB)
    assert internal_allowance(get_target("tpu7x"), call) == pytest.approx(4.2 * MIB, abs=0.05 * MIB)
    assert internal_allowance(get_target("v6e"), call) == pytest.approx(3.2 * MIB, abs=0.05 * MIB)
    single = CallLayout("k", (8,), (), None, reduced_value=2 * MIB, largest_value=2 * MIB, narrowed_value=MIB)
    assert internal_allowance(get_target("tpu7x"), single) == 2 * MIB


def test_scratch_with_a_small_second_minor_dim_takes_a_smaller_tile() -> None:
    from tilefit.estimate.pallas_layout import Buffer, scratch_tile_rows

    assert [scratch_tile_rows(r, 2) for r in (1, 2, 3, 9, 16, 64)] == [2, 2, 4, 16, 16, 16]
    assert [scratch_tile_rows(r, 4) for r in (1, 2, 8, 100)] == [1, 2, 8, 8]
    # tpu-inference's ragged paged attention v3 KV double buffer, bf16 (2, 128, 9, 2, 128): raw size as
    # scratch (libtpu: 2.4 MiB for the whole kernel), full (16, 128) tiles as a pipeline window
    kv = Buffer("scratch 0", (2, 128, 9, 2, 128), "bf16", 2, 1, "scratch")
    assert kv.padded_bytes == 2 * 128 * 9 * 2 * 128 * 2
    assert dataclasses.replace(kv, kind="input").padded_bytes == 8 * kv.padded_bytes

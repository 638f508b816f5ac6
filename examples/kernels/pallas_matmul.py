"""Blocked Pallas TPU matmul with an f32 accumulator: `tilefit estimate pallas_matmul.py:kernel`.

Config: bm, bn, bk (block sizes); params: m, n, k (problem size), dtype.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tilefit.estimate.pallas import PallasKernel


def build(
    config: Mapping[str, int], *, m: int = 4096, n: int = 4096, k: int = 4096, dtype: str = "bfloat16",
    vmem_limit_bytes: int | None = None,
) -> tuple[Callable[..., Any], Sequence[Any]]:
    """(jitted matmul, abstract args) for one block config."""
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu

    bm, bn, bk = config["bm"], config["bn"], config["bk"]

    def body(a_ref: Any, b_ref: Any, o_ref: Any, acc_ref: Any) -> None:
        @pl.when(pl.program_id(2) == 0)
        def _init() -> None:
            acc_ref[...] = jnp.zeros_like(acc_ref)

        acc_ref[...] += jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32)

        @pl.when(pl.program_id(2) == pl.num_programs(2) - 1)
        def _store() -> None:
            o_ref[...] = acc_ref[...].astype(o_ref.dtype)

    fn = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct((m, n), dtype),
        grid=(pl.cdiv(m, bm), pl.cdiv(n, bn), pl.cdiv(k, bk)),
        in_specs=[
            pl.BlockSpec((bm, bk), lambda i, j, kk: (i, kk)),
            pl.BlockSpec((bk, bn), lambda i, j, kk: (kk, j)),
        ],
        out_specs=pl.BlockSpec((bm, bn), lambda i, j, kk: (i, j)),
        scratch_shapes=[pltpu.VMEM((bm, bn), jnp.float32)],
        compiler_params=pltpu.CompilerParams(
            dimension_semantics=("parallel", "parallel", "arbitrary"), vmem_limit_bytes=vmem_limit_bytes
        ),
    )
    args = (jax.ShapeDtypeStruct((m, k), dtype), jax.ShapeDtypeStruct((k, n), dtype))
    return jax.jit(fn), args


SPACE = {"bm": [128, 256, 512, 1024], "bn": [128, 256, 512, 1024], "bk": [128, 256, 512, 1024]}

kernel = PallasKernel(build=build, space=SPACE, name="pallas_matmul")

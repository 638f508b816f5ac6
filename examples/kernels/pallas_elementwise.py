"""Elementwise Pallas TPU kernel (x * sigmoid(x) + y, f32): `tilefit estimate pallas_elementwise.py:kernel`.

Config: block_rows, block_cols; params: rows, cols, dtype, buffers (pl.Buffered count for the inputs:
1 or 2; jax 0.10.2's Mosaic lowering rejects 3 with "Only single (1) and double (2) buffering").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tilefit.estimate.pallas import PallasKernel


def build(
    config: Mapping[str, int], *, rows: int = 8192, cols: int = 8192, dtype: str = "float32",
    buffers: int = 2,
) -> tuple[Callable[..., Any], Sequence[Any]]:
    """(jitted elementwise kernel, abstract args) for one block config."""
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl

    br, bc = config["block_rows"], config["block_cols"]

    def body(x_ref: Any, y_ref: Any, o_ref: Any) -> None:
        x = x_ref[...].astype(jnp.float32)
        o_ref[...] = (x * jax.nn.sigmoid(x) + y_ref[...].astype(jnp.float32)).astype(o_ref.dtype)

    mode = pl.Buffered(buffers) if buffers != 2 else None
    spec = pl.BlockSpec((br, bc), lambda i, j: (i, j), pipeline_mode=mode)
    fn = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct((rows, cols), dtype),
        grid=(pl.cdiv(rows, br), pl.cdiv(cols, bc)),
        in_specs=[spec, spec],
        out_specs=pl.BlockSpec((br, bc), lambda i, j: (i, j)),
    )
    args = (jax.ShapeDtypeStruct((rows, cols), dtype), jax.ShapeDtypeStruct((rows, cols), dtype))
    return jax.jit(fn), args


SPACE = {"block_rows": [256, 512, 1024, 2048, 4096], "block_cols": [512, 1024, 2048, 4096, 8192]}

kernel = PallasKernel(build=build, space=SPACE, name="pallas_elementwise")

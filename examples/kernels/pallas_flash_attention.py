"""Flash-attention-like forward pass in Pallas TPU (online softmax over KV blocks).

`tilefit estimate pallas_flash_attention.py:kernel`. Config: block_q, block_kv; params: batch_heads,
seq, head_dim, dtype.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tilefit.estimate.pallas import PallasKernel


def build(
    config: Mapping[str, int], *, batch_heads: int = 16, seq: int = 8192, head_dim: int = 128,
    dtype: str = "bfloat16",
) -> tuple[Callable[..., Any], Sequence[Any]]:
    """(jitted attention forward, abstract q, k, v) for one block config."""
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu

    bq, bkv = config["block_q"], config["block_kv"]
    scale = head_dim**-0.5

    def body(q_ref: Any, k_ref: Any, v_ref: Any, o_ref: Any, m_ref: Any, l_ref: Any, acc_ref: Any) -> None:
        @pl.when(pl.program_id(2) == 0)
        def _init() -> None:
            m_ref[...] = jnp.full_like(m_ref, -jnp.inf)
            l_ref[...] = jnp.zeros_like(l_ref)
            acc_ref[...] = jnp.zeros_like(acc_ref)

        s = jax.lax.dot_general(
            q_ref[...], k_ref[...], (((1,), (1,)), ((), ())), preferred_element_type=jnp.float32
        ) * scale
        m_prev = m_ref[:, 0:1]
        m_new = jnp.maximum(m_prev, s.max(axis=-1, keepdims=True))
        p = jnp.exp(s - m_new)
        alpha = jnp.exp(m_prev - m_new)
        l_ref[...] = jnp.broadcast_to(alpha * l_ref[:, 0:1] + p.sum(axis=-1, keepdims=True), l_ref.shape)
        m_ref[...] = jnp.broadcast_to(m_new, m_ref.shape)
        acc_ref[...] = alpha * acc_ref[...] + jnp.dot(
            p.astype(v_ref.dtype), v_ref[...], preferred_element_type=jnp.float32
        )

        @pl.when(pl.program_id(2) == pl.num_programs(2) - 1)
        def _store() -> None:
            o_ref[...] = (acc_ref[...] / l_ref[:, 0:1]).astype(o_ref.dtype)

    shape = (batch_heads, seq, head_dim)
    q_spec = pl.BlockSpec((None, bq, head_dim), lambda b, i, j: (b, i, 0))
    kv_spec = pl.BlockSpec((None, bkv, head_dim), lambda b, i, j: (b, j, 0))
    fn = pl.pallas_call(
        body,
        out_shape=jax.ShapeDtypeStruct(shape, dtype),
        grid=(batch_heads, pl.cdiv(seq, bq), pl.cdiv(seq, bkv)),
        in_specs=[q_spec, kv_spec, kv_spec],
        out_specs=q_spec,
        scratch_shapes=[
            pltpu.VMEM((bq, 128), jnp.float32),
            pltpu.VMEM((bq, 128), jnp.float32),
            pltpu.VMEM((bq, head_dim), jnp.float32),
        ],
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel", "arbitrary")),
    )
    args = tuple(jax.ShapeDtypeStruct(shape, dtype) for _ in range(3))
    return jax.jit(fn), args


SPACE = {"block_q": [128, 256, 512, 1024, 2048], "block_kv": [128, 256, 512, 1024, 2048]}

kernel = PallasKernel(build=build, space=SPACE, name="pallas_flash_attention")

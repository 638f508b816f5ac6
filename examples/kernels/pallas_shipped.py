"""The Pallas TPU kernels that ship with JAX (and tokamax's ragged dot), as tilefit kernels.

Each `build(config, **params)` is the glue a user writes: call the library's public entry point with
the config's block sizes and return `(jitted fn, abstract args)`. Nothing here knows tilefit's
internals. Try: `tilefit estimate examples/kernels/pallas_shipped.py:flash --target v5e,v6e
--config block_q=512 --config block_k_major=512 --config block_k=256`.

Params (problem shapes) default to sizes a serving or training step uses; tests pass smaller ones.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tilefit.estimate.pallas import PallasKernel

Built = tuple[Callable[..., Any], Sequence[Any]]


def build_flash(
    config: Mapping[str, int], *, batch: int = 2, heads: int = 8, seq: int = 4096, d: int = 128,
    dtype: str = "bfloat16",
) -> Built:
    """jax.experimental.pallas.ops.tpu.flash_attention (forward)."""
    import jax
    from jax.experimental.pallas.ops.tpu import flash_attention as fa

    bs = fa.BlockSizes(block_q=config["block_q"], block_k_major=config["block_k_major"],
                       block_k=config["block_k"], block_b=config.get("block_b", 1))
    fn = jax.jit(lambda q, k, v: fa.flash_attention(q, k, v, block_sizes=bs, sm_scale=d ** -0.5))
    shape = (batch, heads, seq, d)
    return fn, tuple(jax.ShapeDtypeStruct(shape, dtype) for _ in range(3))


def build_splash(
    config: Mapping[str, int], *, heads: int = 8, seq: int = 4096, d: int = 128, dtype: str = "bfloat16",
) -> Built:
    """jax.experimental.pallas.ops.tpu.splash_attention, causal multi-head forward."""
    import jax
    from jax.experimental.pallas.ops.tpu.splash_attention import splash_attention_kernel as sk
    from jax.experimental.pallas.ops.tpu.splash_attention import splash_attention_mask as sm

    mask = sm.MultiHeadMask([sm.CausalMask((seq, seq)) for _ in range(heads)])
    bs = sk.BlockSizes(block_q=config["block_q"], block_kv=config["block_kv"],
                       block_kv_compute=config["block_kv_compute"])
    kernel = sk.make_splash_mha(mask, block_sizes=bs, head_shards=1, q_seq_shards=1)
    fn = jax.jit(lambda q, k, v: kernel(q, k, v))
    shape = (heads, seq, d)
    return fn, tuple(jax.ShapeDtypeStruct(shape, dtype) for _ in range(3))


def build_gmm(
    config: Mapping[str, int], *, m: int = 8192, k: int = 4096, n: int = 4096, groups: int = 8,
    dtype: str = "bfloat16",
) -> Built:
    """jax.experimental.pallas.ops.tpu.megablox gmm (grouped matmul; its grid has a traced dim)."""
    import jax
    import jax.numpy as jnp

    # `megablox.gmm` the attribute is the function; the module is reached by its full name
    g = importlib.import_module("jax.experimental.pallas.ops.tpu.megablox.gmm")
    tiling = (config["tm"], config["tk"], config["tn"])
    fn = jax.jit(lambda lhs, rhs, gs: g.gmm(lhs, rhs, gs, preferred_element_type=jnp.bfloat16, tiling=tiling))
    S = jax.ShapeDtypeStruct
    return fn, (S((m, k), dtype), S((groups, k, n), dtype), S((groups,), jnp.int32))


def build_paged(
    config: Mapping[str, int], *, batch: int = 8, q_heads: int = 32, kv_heads: int = 8, d: int = 128,
    pages_per_seq: int = 256, dtype: str = "bfloat16",
) -> Built:
    """jax.experimental.pallas.ops.tpu.paged_attention (decode; squeezed blocks, scalar prefetch)."""
    import jax
    import jax.numpy as jnp
    from jax.experimental.pallas.ops.tpu.paged_attention import paged_attention

    page, per_block = config["page_size"], config["pages_per_compute_block"]
    total = batch * pages_per_seq
    fn = jax.jit(lambda q, kp, vp, lens, idx: paged_attention(
        q, kp, vp, lens, idx, pages_per_compute_block=per_block))
    S = jax.ShapeDtypeStruct
    return fn, (S((batch, q_heads, d), dtype), S((kv_heads, total, page, d), dtype),
                S((kv_heads, total, page, d), dtype), S((batch,), jnp.int32),
                S((batch, pages_per_seq), jnp.int32))


def build_tokamax_ragged_dot(
    config: Mapping[str, int], *, m: int = 8192, k: int = 4096, n: int = 4096, groups: int = 8,
    dtype: str = "bfloat16",
) -> Built:
    """tokamax's Mosaic TPU ragged dot (in-body emit_pipeline; asks for the TPU kind while tracing)."""
    import jax
    import jax.numpy as jnp
    from tokamax._src.ops.ragged_dot import pallas_mosaic_tpu_kernel as tk

    tiling = (config["tm"], config["tk"], config["tn"])
    buffers = config.get("input_buffer_count", 2)
    fn = jax.jit(lambda lhs, rhs, gs: tk.gmm(
        lhs, rhs, gs, precision=jax.lax.Precision.DEFAULT, out_dtype=jnp.bfloat16, tiling=tiling,
        input_buffer_count=buffers))
    S = jax.ShapeDtypeStruct
    return fn, (S((m, k), dtype), S((groups, k, n), dtype), S((groups,), jnp.int32))


def _space(*values: int) -> list[int]:
    return list(values)


flash = PallasKernel(build_flash, name="jax_flash_attention", space={
    "block_q": _space(256, 512, 1024, 2048), "block_k_major": _space(512, 1024, 2048),
    "block_k": _space(256, 512, 1024)})
splash = PallasKernel(build_splash, name="jax_splash_attention", space={
    "block_q": _space(256, 512, 1024, 2048), "block_kv": _space(512, 1024, 2048),
    "block_kv_compute": _space(256, 512, 1024)})
gmm = PallasKernel(build_gmm, name="jax_megablox_gmm", space={
    "tm": _space(256, 512, 1024), "tk": _space(512, 1024, 2048), "tn": _space(512, 1024, 2048)})
paged = PallasKernel(build_paged, name="jax_paged_attention", space={
    "page_size": _space(16, 64, 128), "pages_per_compute_block": _space(8, 32, 128)})
tokamax_ragged_dot = PallasKernel(build_tokamax_ragged_dot, name="tokamax_ragged_dot", space={
    "tm": _space(256, 512, 1024), "tk": _space(512, 1024, 2048), "tn": _space(512, 1024, 2048)})


def build_ragged_paged(
    config: Mapping[str, int], *, tokens: int = 1024, q_heads: int = 32, kv_heads: int = 8, d: int = 128,
    page_size: int = 16, seqs: int = 16, pages_per_seq: int = 128, dtype: str = "bfloat16",
) -> Built:
    """jax.experimental.pallas.ops.tpu.ragged_paged_attention (vLLM's TPU kernel: manual DMA of KV pages
    into VMEM scratch, inputs in memory_space=ANY, scalar prefetch); not used to fit tilefit's model."""
    import jax
    import jax.numpy as jnp
    from jax.experimental.pallas.ops.tpu.ragged_paged_attention import kernel as rpa

    pages, queries = config["kv_pages_per_block"], config["queries_per_block"]
    fn = jax.jit(lambda q, kv, lens, idx, cu, n: rpa.ragged_paged_attention(
        q, kv, lens, idx, cu, n, sm_scale=d ** -0.5, num_kv_pages_per_block=pages,
        num_queries_per_block=queries))
    S = jax.ShapeDtypeStruct
    return fn, (S((tokens, q_heads, d), dtype), S((seqs * pages_per_seq, page_size, 2 * kv_heads, d), dtype),
                S((seqs,), jnp.int32), S((seqs, pages_per_seq), jnp.int32), S((seqs + 1,), jnp.int32),
                S((1,), jnp.int32))


ragged_paged = PallasKernel(build_ragged_paged, name="jax_ragged_paged_attention", space={
    "kv_pages_per_block": _space(8, 16, 32, 64), "queries_per_block": _space(16, 32, 64, 128)})

"""Pallas TPU kernels of vLLM's TPU backend (PyPI `tpu-inference` 0.32.0), loaded from its wheel, as tilefit kernels.

Nothing of tpu-inference is installed or copied: the wheel is fetched with `pip download --no-deps` into
`.cache/wheels/` (or `TILEFIT_TPU_INFERENCE` names a folder that holds its unpacked `tpu_inference/`), and
the kernel modules are imported from it. The package's own `__init__` starts vLLM (and its `utils` needs
torch and torchax), so the loader registers `tpu_inference` as a bare package and gives
`tpu_inference.logger` a stand-in (the kernels only call `init_logger(...).warning_once`): the glue a user
without vLLM writes. Try:

    tilefit estimate examples/kernels/pallas_tpu_inference.py:quantized_matmul --target v5e,v6e \\
        --config batch_block=512 --config out_block=1024 --config in_block=2048
"""

from __future__ import annotations

import importlib
import logging
import os
import subprocess
import sys
import types
import zipfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tilefit.estimate.pallas import PallasKernel

Built = tuple[Callable[..., Any], Sequence[Any]]
VERSION = "0.32.0"
_CACHE = Path(__file__).resolve().parents[2] / ".cache" / "wheels"


def _root() -> Path:
    """A folder with tpu-inference's unpacked `tpu_inference/` (downloading the wheel the first time)."""
    given = os.environ.get("TILEFIT_TPU_INFERENCE")
    if given:
        return Path(given)
    root = _CACHE / f"tpu_inference-{VERSION}"
    if not (root / "tpu_inference").is_dir():
        wheel = _CACHE / f"tpu_inference-{VERSION}-py3-none-any.whl"
        if not wheel.exists():
            _CACHE.mkdir(parents=True, exist_ok=True)
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(_CACHE),
                            f"tpu-inference=={VERSION}"], check=True)
        with zipfile.ZipFile(wheel) as zf:
            zf.extractall(root)
    return root


class _Logger(logging.LoggerAdapter):  # type: ignore[type-arg]
    def warning_once(self, msg: str, *args: Any) -> None:
        self.warning(msg, *args)


def _module(name: str) -> Any:
    """Import `tpu_inference.<name>` from the wheel without running the package's vLLM start-up."""
    if "tpu_inference" not in sys.modules:
        pkg = types.ModuleType("tpu_inference")
        pkg.__path__ = [str(_root() / "tpu_inference")]
        sys.modules["tpu_inference"] = pkg
        log = types.ModuleType("tpu_inference.logger")
        log.init_logger = lambda n: _Logger(logging.getLogger(n), {})  # type: ignore[attr-defined]
        sys.modules["tpu_inference.logger"] = log
    return importlib.import_module(f"tpu_inference.{name}")


def build_quantized_matmul(
    config: Mapping[str, int], *, batch: int = 2048, n_in: int = 4096, n_out: int = 8192,
    quantize_x: bool = True,
) -> Built:
    """w8a8 (or w8a16) matmul: bf16 x [batch, n_in] against int8 w [n_out, n_in] with per-channel scales;
    the kernel passes its own vmem_limit_bytes (its estimate of its blocks, doubled for spills)."""
    import jax
    import jax.numpy as jnp

    qm = _module("kernels.quantized_matmul.kernel")
    tb = _module("kernels.quantized_matmul.tuned_block_sizes")
    tuned = tb.TunedValue(config["batch_block"], config["out_block"], config["in_block"])
    x_q = jnp.int8 if quantize_x else None
    fn = jax.jit(lambda x, w, s: qm.quantized_matmul_kernel(x, w, s, x_q_dtype=x_q, tuned_value=tuned))
    S = jax.ShapeDtypeStruct
    return fn, (S((batch, n_in), jnp.bfloat16), S((n_out, n_in), jnp.int8), S((n_out,), jnp.float32))


def build_gmm(
    config: Mapping[str, int], *, m: int = 8192, k: int = 4096, n: int = 4096, groups: int = 8,
    quantized: bool = True,
) -> Built:
    """tpu-inference's megablox gmm (MoE experts): bf16 lhs against int8 rhs with per-block scales."""
    import jax
    import jax.numpy as jnp

    g = _module("kernels.megablox.gmm")
    tiling = (config["tm"], config["tk"], config["tn"])
    S = jax.ShapeDtypeStruct
    if not quantized:
        fn = jax.jit(lambda lhs, rhs, gs: g.gmm(lhs, rhs, gs, preferred_element_type=jnp.bfloat16, tiling=tiling))
        return fn, (S((m, k), jnp.bfloat16), S((groups, k, n), jnp.bfloat16), S((groups,), jnp.int32))
    fn = jax.jit(lambda lhs, rhs, gs, sc: g.gmm(lhs, rhs, gs, preferred_element_type=jnp.bfloat16,
                                                rhs_scale=sc, tiling=tiling))
    return fn, (S((m, k), jnp.bfloat16), S((groups, k, n), jnp.int8), S((groups,), jnp.int32),
                S((groups, 1, 1, n), jnp.float32))


def build_ragged_paged_v3(
    config: Mapping[str, int], *, tokens: int = 1024, q_heads: int = 32, kv_heads: int = 8, d: int = 128,
    page_size: int = 16, seqs: int = 16, pages_per_seq: int = 128,
) -> Built:
    """tpu-inference's ragged paged attention v3 (mixed prefill/decode; KV pages and q/o blocks moved by
    its own DMAs into VMEM scratch; scalar prefetch; two outputs: attention and the updated KV cache).
    `bq`, `bkv` (tokens), `bq_c`, `bkv_c` are the block sizes of all three cases (decode, prefill, mixed)."""
    import jax
    import jax.numpy as jnp

    rpa = _module("kernels.ragged_paged_attention.v3.kernel")
    sizes = (config["bq"], config["bkv"], config["bq_c"], config["bkv_c"])
    limit = config.get("vmem_limit_mib", 0) * (1 << 20) or None  # default: all of VMEM (get_tpu_info)
    kv_shape = rpa.get_kv_cache_shape(seqs * pages_per_seq, page_size, kv_heads, d, jnp.bfloat16)
    fn = jax.jit(lambda q, k, v, cache, lens, idx, cu, dist: rpa.ragged_paged_attention(
        q, k, v, cache, lens, idx, cu, dist, sm_scale=d ** -0.5, d_block_sizes=sizes, p_block_sizes=sizes,
        m_block_sizes=sizes, vmem_limit_bytes=limit))
    S = jax.ShapeDtypeStruct
    return fn, (S((tokens, q_heads, d), jnp.bfloat16), S((tokens, kv_heads, d), jnp.bfloat16),
                S((tokens, kv_heads, d), jnp.bfloat16), S(kv_shape, jnp.bfloat16), S((seqs,), jnp.int32),
                S((seqs * pages_per_seq,), jnp.int32), S((seqs + 1,), jnp.int32), S((3,), jnp.int32))


quantized_matmul = PallasKernel(build_quantized_matmul, name="tpu_inference_quantized_matmul", space={
    "batch_block": [256, 512, 1024, 2048], "out_block": [512, 1024, 2048, 4096],
    "in_block": [512, 1024, 2048, 4096]})
gmm = PallasKernel(build_gmm, name="tpu_inference_gmm", space={
    "tm": [256, 512, 1024], "tk": [512, 1024, 2048], "tn": [512, 1024, 2048]})
ragged_paged_v3 = PallasKernel(build_ragged_paged_v3, name="tpu_inference_ragged_paged_attention_v3", space={
    "bq": [16, 32, 64], "bkv": [128, 256, 512], "bq_c": [16, 32, 64], "bkv_c": [128, 256, 512]})

"""How SGLang launches its fused-MoE Triton kernel for one config-table entry, mirrored without a GPU.

Read from SGLang 0.5.23 (`srt/layers/moe/moe_runner/triton_utils/fused_moe.py`, `fused_moe_triton_config.py`
and `kernels/ops/moe/fused_moe_triton_kernels.py: invoke_fused_moe_kernel`):

- a table named `E,N,...` serves w1 of shape (E, 2N, hidden) and w2 of shape (E, hidden, N). The entry
  closest to the token count M configures the gate/up GEMM (`up`: B = w1, K = hidden, top_k = topk) and,
  unless a `_down` table lies beside it, also the down GEMM (`down`: B = w2, K = N, top_k = 1, routed
  weights multiplied). A `_down` table configures only the down GEMM; its `USE_TMA: true` entries load A
  and B through tensor descriptors where Triton supports them (SGLang's `_moe_support_tma`), A then holds
  `M*topk + min(M*topk, E+1) * (BLOCK_SIZE_M - 1)` rows (expert-sorted, padded) and the up GEMM writes
  its output in that order (`c_sorted`). `USE_TMA: true` in an up table loads only B of the up GEMM
  through a descriptor (`b_use_tma`); the down GEMM that reuses such an entry has it popped (no TMA).
- every kernel argument is what `invoke_fused_moe_kernel` passes: strides of contiguous tensors,
  `EM` = the padded length of sorted_token_ids (moe_align_block_size), `even_Ks` = K % BLOCK_SIZE_K == 0,
  `swap_ab` for fp8 on sm_90 when BLOCK_SIZE_M < 64 <= BLOCK_SIZE_N (`should_enable_swap_ab`), and on
  compute capability 9 and newer programmatic dependent launch (`USE_GDC`, `launch_pdl`,
  `GDC_EARLY` = rows of A <= 512; `is_arch_support_pdl`).
- int4_w4a16 tables run `fused_moe_kernel_gptq_awq` (group size 128 assumed: the file name does not say).

The hidden size and top-k are not in a table's name; `hidden` (default 4096) and `topk` (default 8) stand
for them. They enter only through the JIT's divisibility specialisation and `even_Ks` of the up GEMM.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Literal

from tilefit.check.tables import Table, TableName
from tilefit.errors import InputError
from tilefit.estimate.triton_args import Arg
from tilefit.targets import Target

LaunchKind = Literal["up", "down"]
KERNEL = "fused_moe_kernel"
KERNEL_INT4 = "fused_moe_kernel_gptq_awq"
SOURCE = "sglang/kernels/ops/moe/fused_moe_triton_kernels.py"
# Launch options of a table entry; the rest are the kernel's block sizes.
NVIDIA_OPTIONS = ("num_warps", "num_stages", "num_ctas")
AMD_OPTIONS = ("num_warps", "num_stages", "waves_per_eu", "matrix_instr_nonkdim", "kpack")
BLOCKS = ("BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "GROUP_SIZE_M")
INT4_GROUP = 128


@dataclasses.dataclass(frozen=True)
class Desc:
    """A stand-in tensor descriptor (triton.tools.tensor_descriptor.TensorDescriptor) of a contiguous tensor."""

    dtype: str
    shape: tuple[int, ...]
    block: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class TlType:
    """A triton.language dtype passed as a constexpr (compute_type), by name."""

    name: str


ArgValue = Arg | Desc | TlType | int | bool | None


@dataclasses.dataclass(frozen=True)
class Recorded:
    """A specialisation as a trace recorded it (tilefit/trace.py), in its JSON-safe form."""

    signature: tuple[tuple[str, str], ...]
    constexprs: tuple[tuple[tuple[int, ...], Any], ...]  # encoded values (trace.encode_value)
    attrs: tuple[tuple[tuple[int, ...], tuple[tuple[str, Any], ...]], ...]


@dataclasses.dataclass(frozen=True)
class Launch:
    """One kernel launch: the kernel's name, every argument, the launch options; all picklable.

    A launch replayed from a trace carries its recorded specialisation instead of arguments.
    """

    kernel: str
    args: Mapping[str, ArgValue]
    options: Mapping[str, Any]
    notes: tuple[str, ...] = ()
    recorded: Recorded | None = None


@dataclasses.dataclass(frozen=True)
class Problem:
    """The sizes a table's name leaves open."""

    hidden: int = 4096
    topk: int = 8


def kinds(table: Table | TableName) -> tuple[LaunchKind, ...]:
    """The GEMMs an entry of this table configures (a Table knows whether a `_down` sibling takes the down GEMM)."""
    name = table if isinstance(table, TableName) else table.name
    if name.down:
        return ("down",)
    return ("up",) if isinstance(table, Table) and table.down_entries else ("up", "down")


def launch(table: Table, m: int, kind: LaunchKind, target: Target, problem: Problem | None = None,
           config: Mapping[str, Any] | None = None) -> Launch:
    """The launch SGLang makes for entry `m` of `table` (or `config` in its place) on `target`."""
    problem = problem or Problem()
    cfg = dict(config if config is not None else table.entries[m])
    name = table.name
    if name.dtype == "float32":
        raise InputError(f"{table.path.name}: float32 tables are not mirrored (SGLang runs them through fp16/bf16)")
    amd = target.vendor == "amd"
    # SGLang pops USE_TMA from every config; a down GEMM run with an up table's entry has none.
    tma = bool(cfg.pop("USE_TMA", False)) and _has_tma(target) and (name.down or kind == "up")
    opts = {k: cfg[k] for k in (AMD_OPTIONS if amd else NVIDIA_OPTIONS) if k in cfg}
    dropped = sorted(set(cfg) - set(opts) - set(BLOCKS))
    notes = [f"{', '.join(dropped)} ignored on {target.name}"] if dropped else []
    blocks = {k: int(cfg[k]) for k in BLOCKS}
    shapes = _shapes(name, kind, m, problem, blocks, sorted_a=tma and name.down)
    if name.dtype == "int4_w4a16":
        even = shapes["K"] % blocks["BLOCK_SIZE_K"] == 0
        int4 = {**_int4_args(shapes), **blocks, "even_Ks": even, "MUL_ROUTED_WEIGHT": kind == "down",
                "top_k": shapes["top_k"]}
        return Launch(KERNEL_INT4, int4, opts, tuple(notes))
    args = _main_args(name, shapes, blocks, target, a_tma=tma and name.down, b_tma=tma)
    c_sorted = kind == "up" and _down_uses_tma(table, m, target)
    if tma:
        notes.append("A and B through TMA descriptors (USE_TMA)" if name.down
                     else "B through a TMA descriptor (USE_TMA)")
    if c_sorted:
        notes.append("output in expert-sorted order (the _down table's entry uses TMA)")
    extra: dict[str, int | bool] = {}
    if _capability(target) >= 90:
        args.update(USE_GDC=True, GDC_EARLY=shapes["rows_a"] <= 512)
        extra["launch_pdl"] = True
    args.update(blocks, MUL_ROUTED_WEIGHT=kind == "down", top_k=shapes["top_k"],
                even_Ks=shapes["K"] % blocks["BLOCK_SIZE_K"] == 0, c_sorted=c_sorted,
                FUSE_ADD_TO_OUTPUT=False, MASK_OUTPUT=False, FUSE_SUM_ALL_REDUCE=False,
                ROUTER_TOPK=problem.topk if kind == "down" else 1)
    return Launch(KERNEL, args, {**opts, **extra}, tuple(notes))


def _capability(target: Target) -> int:
    if target.triton is None or target.triton.backend != "cuda":
        return 0
    return int(target.triton.arch)


def _down_uses_tma(table: Table, m: int, target: Target) -> bool:
    down = table.down_entry(m) if not table.name.down else None
    return bool(down and down.get("USE_TMA")) and _has_tma(target)


def _has_tma(target: Target) -> bool:
    # Triton lowers tensor descriptors natively from sm_90; below that make_ttir rewrites them to pointers,
    # and SGLang only enables TMA where triton.tools.tensor_descriptor imports (every supported Triton).
    return target.triton is not None


def _shapes(name: TableName, kind: LaunchKind, m: int, problem: Problem, blocks: Mapping[str, int],
            sorted_a: bool = False) -> dict[str, int]:
    """Matrix sizes of one GEMM: A is (rows_a, K), B is (E, N, K), C is (rows_c, N).

    `sorted_a`: the down GEMM reads A through TMA in expert-sorted, block-padded order, so A has the padded
    row count of `_fused_moe_kernel_sequence` (`total_tokens`); it decides GDC_EARLY (rows of A <= 512).
    """
    m = max(m, 1)
    up = kind == "up"
    numel = m * problem.topk
    bm = blocks["BLOCK_SIZE_M"]
    padded = numel * bm if numel < name.experts + 1 else numel + (name.experts + 1) * (bm - 1)
    rows_a = m if up else numel + (min(numel, name.experts + 1) * (bm - 1) if sorted_a else 0)
    return {
        "N": 2 * name.n if up else problem.hidden, "K": problem.hidden if up else name.n,
        "rows_a": rows_a, "EM": (padded + 3) // 4 * 4, "valid": numel,
        "top_k": problem.topk if up else 1, "E": name.experts,
    }


def _main_args(name: TableName, s: Mapping[str, int], blocks: Mapping[str, int], target: Target, *,
               a_tma: bool, b_tma: bool) -> dict[str, ArgValue]:
    dt = name.dtype
    fp8 = "fp8e4b8" if target.name == "gfx942" else "fp8e4nv"  # MI300 runs float8_e4m3fnuz
    a_t, b_t = {"fp8_w8a8": (fp8, fp8), "int8_w8a8": ("i8", "i8"), "int8_w8a16": ("bf16", "i8")}.get(
        dt or "", ("bf16", "bf16"))
    n, k, e = s["N"], s["K"], s["E"]
    group_n, group_k = name.block_shape or (0, 0)
    per_channel = name.per_channel_quant or (dt == "int8_w8a8" and name.block_shape is None)
    scale_a, scale_b = _scale_strides(dt, name.block_shape, per_channel, n, k, e)
    fp8_swap = dt == "fp8_w8a8" and _capability(target) == 90
    return {
        "a_ptr": _ptr(a_t), "a_desc": Desc(a_t, (s["rows_a"], k), (blocks["BLOCK_SIZE_M"], blocks["BLOCK_SIZE_K"]))
        if a_tma else None,
        "b_ptr": _ptr(b_t), "b_desc": Desc(b_t, (e, n, k), (1, blocks["BLOCK_SIZE_N"], blocks["BLOCK_SIZE_K"]))
        if b_tma else None,
        "bias_ptr": None, "c_ptr": _ptr("bf16"),
        "a_scale_ptr": _ptr("fp32") if dt in ("fp8_w8a8", "int8_w8a8") else None,
        "b_scale_ptr": _ptr("fp32") if dt else None,
        "topk_weights_ptr": _ptr("fp32"), "sorted_token_ids_ptr": _ptr("i32"), "expert_ids_ptr": _ptr("i32"),
        "num_tokens_post_padded_ptr": _ptr("i32"), "add_mask_ptr": None,
        "N": n, "K": k, "EM": s["EM"], "num_valid_tokens": s["valid"],
        "stride_am": k, "stride_ak": 1, "stride_be": n * k, "stride_bk": 1, "stride_bn": k,
        "stride_bias_e": 0, "stride_bias_n": 0, "stride_cm": n, "stride_cn": 1,
        "stride_asm": scale_a[0], "stride_ask": scale_a[1],
        "stride_bse": scale_b[0], "stride_bsk": scale_b[1], "stride_bsn": scale_b[2],
        "group_n": group_n, "group_k": group_k, "compute_type": TlType("bfloat16"),
        "use_fp8_w8a8": dt == "fp8_w8a8", "use_int8_w8a8": dt == "int8_w8a8", "use_int8_w8a16": dt == "int8_w8a16",
        "per_channel_quant": per_channel,
        "swap_ab": fp8_swap and blocks["BLOCK_SIZE_M"] < 64 <= blocks["BLOCK_SIZE_N"],
    }


def _scale_strides(dt: str | None, block: tuple[int, int] | None, per_channel: bool, n: int, k: int,
                   e: int) -> tuple[tuple[int, int], tuple[int, int, int]]:
    """(stride_asm, stride_ask), (stride_bse, stride_bsk, stride_bsn) as invoke_fused_moe_kernel computes them."""
    if dt in ("fp8_w8a8", "int8_w8a8"):
        if block is not None:  # A_scale (M, K/bk); B_scale (E, N/bn, K/bk)
            kb, nb = -(-k // block[1]), -(-n // block[0])
            return (kb, 1), (nb * kb, 1, kb)
        if per_channel:  # A_scale (M, 1); B_scale (E, N, 1)
            return (1, 1), (n, 1, 1)
        return (0, 0), (0, 0, 0)  # tensor-wise: A_scale (1,), B_scale (E,)
    if dt == "int8_w8a16":  # B_scale (E, N)
        return (0, 0), (n, 0, 1)
    return (0, 0), (0, 0, 0)


def _int4_args(s: Mapping[str, int]) -> dict[str, ArgValue]:
    """fused_moe_kernel_gptq_awq's arguments: B packs two int4 values a byte, scales per group of K."""
    n, k = s["N"], s["K"]
    groups = -(-k // INT4_GROUP)
    return {
        "a_ptr": _ptr("bf16"), "b_ptr": _ptr("u8"), "c_ptr": _ptr("bf16"), "b_scale_ptr": _ptr("bf16"),
        "b_zp_ptr": None, "topk_weights_ptr": _ptr("fp32"), "sorted_token_ids_ptr": _ptr("i32"),
        "expert_ids_ptr": _ptr("i32"), "num_tokens_post_padded_ptr": _ptr("i32"),
        "N": n, "K": k, "EM": s["EM"], "num_valid_tokens": s["valid"],
        "stride_am": k, "stride_ak": 1, "stride_be": n * k // 2, "stride_bk": 1, "stride_bn": k // 2,
        "stride_cm": n, "stride_cn": 1, "stride_bse": n * groups, "stride_bsk": 1, "stride_bsn": groups,
        "stride_bze": 0, "stride_bzk": 0, "stride_bzn": 0, "group_size": INT4_GROUP,
        "compute_type": TlType("bfloat16"), "has_zp": False, "use_int4_w4a16": True, "use_int8_w8a16": False,
    }


def _ptr(dtype: str) -> Arg:
    return Arg(dtype, pointer=True, divisible_by_16=True)


def kernel_name(name: TableName) -> str:
    """The kernel a table's entries configure."""
    return KERNEL_INT4 if name.dtype == "int4_w4a16" else KERNEL

"""Turn a knowledge-base fix into advice for the config and numbers a log shows.

Numbers here are labelled estimates: they assume buffers scale with the knob (stages, block sizes).
Exact bytes come from `tilefit estimate`, which asks the compiler.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from tilefit.units import format_short
from tilefit.vmem import VmemLimitAdvice, flag_for, vmem_limit_for

if TYPE_CHECKING:
    from tilefit.kb.model import Fix
    from tilefit.targets import Target


@dataclasses.dataclass(frozen=True)
class Facts:
    """What a log told us about one error."""

    resource: str
    required: int | None
    limit: int | None
    config: Mapping[str, int | str]
    device_classes: Sequence[Target]
    # Every TPU generation known, for VMEM advice when the log's limit names none.
    tpus: Sequence[Target] = ()


@dataclasses.dataclass(frozen=True)
class Advice:
    """A fix, with a sentence specific to this log where the numbers allow one."""

    fix: Fix
    specific: str | None = None
    specific_zh: str | None = None


def advise(fixes: Sequence[Fix], facts: Facts) -> tuple[Advice, ...]:
    """One Advice per fix, in the knowledge base's order (measured rates first when present)."""
    ordered = sorted(fixes, key=lambda f: -(f.measured.rate if f.measured else -1.0))
    out = []
    for fix in ordered:
        rule = _RULES.get(fix.knob)
        text = rule(facts) if rule else None
        out.append(Advice(fix, *(text or (None, None))))
    return tuple(out)


def _over(facts: Facts) -> float | None:
    # (a negative requirement is a compiler's overflowed count: nothing to scale)
    if facts.required is None or facts.required < 0 or not facts.limit:
        return None
    return facts.required / facts.limit


def _num_stages(facts: Facts) -> tuple[str, str] | None:
    stages = facts.config.get("num_stages")
    ratio = _over(facts)
    if not isinstance(stages, int) or ratio is None or facts.required is None or facts.limit is None:
        return None
    if stages <= 1:
        return (
            "num_stages is already 1: lowering it cannot help here; shrink the blocks instead.",
            "num_stages 已经是 1，继续降低无效；请改为缩小块尺寸。",
        )
    # The most stages whose scaled need fits, in closed form: a printed num_stages can be any size.
    s = stages - 1 if facts.required <= 0 else min(stages - 1, facts.limit * stages // facts.required)
    if s >= 1:
        est = facts.required * s / stages
        return (
                f"num_stages {stages} -> {s}: about {format_short(est)} (estimate, buffers scale with "
                f"stages) against the {format_short(facts.limit)} limit.",
                f"num_stages {stages} -> {s}：约 {format_short(est)}（估算，缓冲区随 stage 数线性变化），"
                f"上限 {format_short(facts.limit)}。",
            )
    est = facts.required / stages
    return (
        f"num_stages alone is not enough: even num_stages=1 needs about {format_short(est)} (estimate) > "
        f"{format_short(facts.limit)}; also shrink the blocks.",
        f"仅降低 num_stages 不够：即使 num_stages=1 也约需 {format_short(est)}（估算）> "
        f"{format_short(facts.limit)}；还需缩小块尺寸。",
    )


def _halvings(facts: Facts) -> int | None:
    ratio = _over(facts)
    if ratio is None or ratio <= 1.0:
        return None  # nothing to cut: the log's own numbers fit (or it printed 0)
    return max(1, math.ceil(math.log2(ratio)))


def _block(facts: Facts) -> tuple[str, str] | None:
    halvings = _halvings(facts)
    blocks = {k: v for k, v in facts.config.items() if "BLOCK" in k.upper() or "RDIM" in k.upper()}
    numeric = {k: v for k, v in blocks.items() if isinstance(v, int) and v > 1}
    if halvings is None:
        return None
    if numeric:
        key = max(numeric, key=lambda k: numeric[k])
        new = max(1, numeric[key] >> halvings)
        return (
            f"{key} {numeric[key]} -> {new} cuts the tiles that use it by {1 << halvings}x "
            f"(needed: {_over(facts):.2f}x; estimate).",
            f"{key} {numeric[key]} -> {new}，使用它的分块缩小 {1 << halvings} 倍（需要 {_over(facts):.2f} 倍；估算）。",
        )
    rdims = [k for k in blocks if "RDIM" in k.upper()]
    names = [k for k in blocks if k not in rdims]
    if not blocks:
        return (
            f"The tiles must shrink {_over(facts):.2f}x: halve the largest block {halvings} time(s) (estimate).",
            f"分块需缩小 {_over(facts):.2f} 倍：将最大的块尺寸减半 {halvings} 次（估算）。",
        )
    en = f"Needs a {_over(facts):.2f}x cut: lower {', '.join(names) or 'the block sizes'} ({halvings} halving(s))."
    zh = f"需缩小 {_over(facts):.2f} 倍：降低 {', '.join(names) or '块尺寸'}（减半 {halvings} 次）。"
    if rdims:
        en += (
            f" {', '.join(rdims)} hold a whole reduction dimension: no config shrinks them; if they dominate, "
            "loop over that dimension in tiles instead."
        )
        zh += f" {', '.join(rdims)} 对应整个归约维度，任何配置都无法缩小；若它们占主导，请改为分块循环遍历该维度。"
    return en, zh


def _threads(facts: Facts) -> tuple[str, str] | None:
    if facts.required is None or facts.limit is None:
        return None
    warp = 32
    if facts.device_classes and facts.device_classes[0].triton:
        warp = facts.device_classes[0].triton.warp_size
    max_warps = facts.limit // warp
    # a block, workgroup, threadgroup or cube: the same count in every API; Triton's knob is its warps
    return (
        f"{facts.required} threads requested, {facts.limit} allowed: launch at most {facts.limit} threads per "
        f"block ({max_warps} warps of {warp}; in Triton, num_warps summed over all partitions).",
        f"请求 {facts.required} 个线程，允许 {facts.limit} 个：每个 block 最多启动 {facts.limit} 个线程"
        f"（{max_warps} 个 warp，每个 {warp} 线程；Triton 中为所有分区的 num_warps 之和）。",
    )


def _vmem_advice(facts: Facts) -> tuple[VmemLimitAdvice, str] | None:
    """vmem_limit_for over the TPU generations the log's limit reveals (all known ones when unknown)."""
    if facts.required is None:
        return None
    tpus = [t for t in facts.device_classes if t.kind == "tpu"] or [t for t in facts.tpus if t.kind == "tpu"]
    if not tpus:
        return None
    return vmem_limit_for(facts.required, tpus), ", ".join(t.name for t in tpus)


def _vmem_limit(facts: Facts) -> tuple[str, str] | None:
    found = _vmem_advice(facts)
    if found is None or facts.required is None:
        return None
    advice, names = found
    if advice.vmem_limit_bytes is None:
        return (
            f"Needs {format_short(facts.required)}, more than the physical VMEM of {names}: "
            "no vmem_limit_bytes helps; shrink the blocks.",
            f"需要 {format_short(facts.required)}，超过 {names} 的物理 VMEM：调高 vmem_limit_bytes 无效，必须缩小块。",
        )
    lim = advice.vmem_limit_bytes
    short = f" ({', '.join(advice.too_small)} cannot: too little physical VMEM)" if advice.too_small else ""
    return (
        f"pltpu.CompilerParams(vmem_limit_bytes={lim}): {format_short(lim)}, the "
        f"{format_short(facts.required)} needed plus headroom, within physical VMEM on {names}{short}.",
        f"pltpu.CompilerParams(vmem_limit_bytes={lim})：{format_short(lim)}，即所需 "
        f"{format_short(facts.required)} 加余量，在 {names} 的物理 VMEM 之内{short}。",
    )


def _vmem_flag(facts: Facts) -> tuple[str, str] | None:
    found = _vmem_advice(facts)
    if found is None or found[0].vmem_limit_bytes is None:
        return _vmem_limit(facts)
    flag = flag_for(found[0].vmem_limit_bytes)
    return (
        f"{flag} (set before JAX initialises libtpu; it applies to every kernel).",
        f"{flag}（须在 JAX 初始化 libtpu 之前设置；对所有内核生效）。",
    )


_RULES = {
    "num_stages": _num_stages,
    "block": _block,
    "block_k": _block,
    "threads": _threads,
    "num_warps": _threads,
    "vmem_limit_bytes": _vmem_limit,
    "vmem_limit_flag": _vmem_flag,
}

"""The analytic model of a Pallas call's scoped VMEM on a TPU generation, and the limit arithmetic.

Arithmetic only over a traced `CallLayout` (pallas_layout.py) and the target's data (tpu.yaml): no jax.
"""

from __future__ import annotations

from tilefit.estimate.pallas_layout import TILE_BYTES, Buffer, CallLayout
from tilefit.targets import Target
from tilefit.vmem import HEADROOM, MIB, headroom_limit  # the one headroom rule (explain uses it too)

__all__ = ["HEADROOM", "MIB", "advice_limit", "headroom_limit", "in_place_inputs", "internal_allowance",
           "prefetched_inputs", "roomy_limit", "scoped_need", "smallest_limit"]


def internal_allowance(target: Target, call: CallLayout) -> int:
    """Mosaic's internal scratch (spilled vector registers) for a call: measured shares of its big values.

    `mosaic_internal_reduced_pct` of the largest value a reduction reads, each further unrolled copy of it
    at `mosaic_unrolled_copy_pct`; in a kernel without such a value, `mosaic_internal_value_pct` of its
    largest value. tpu.yaml holds the shares, fitted to libtpu compiles (BENCHMARKS.md). The unrolled
    share is 75 (60 on v6e): libtpu's VMEM report gives 1.4 to 2.0 score copies' worth of spills for two
    unrolled iterations (flash attention 1024/1024/512 and 2048/2048/1024 on v5e) and 3.7 for four
    (splash attention 2048/2048/512 on v5e; 2.9 on v6e). A value of at most
    `mosaic_register_resident_kib` stays in vector registers and counts nothing: flash attention's
    (128,128) and (64,256) f32 scores and a 128^3 matmul's dot result (64 KiB, 16 vregs) cost 0 bytes
    on v5e, v5p, v6e and tpu7x; on v4 the (128,128) scores cost
    about 80 KiB (no entry there).

    tpu7x also keeps, per extra unrolled copy, `mosaic_unrolled_cast_pct` of the narrowed (bf16) copy of
    the scores that flash attention feeds its second matmul: its report spills 4263936 B for two
    (1024,512) f32 score copies (2.03 copies' worth; v6e 1.22, v5e 1.39) where splash attention, which
    casts v up instead of p down, spills 1.37 copies' worth of its (1024,1024) scores on every generation.
    """
    resident = (target.limit("mosaic_register_resident_kib") or 0) * 1024
    if call.reduced_value > resident:
        copy_pct = target.limit("mosaic_unrolled_copy_pct")
        copies = 100 + (call.reduced_copies - 1) * (100 if copy_pct is None else copy_pct)
        raw = (target.limit("mosaic_internal_reduced_pct") or 0) * call.reduced_value * copies // 10000
        cast_pct = target.limit("mosaic_unrolled_cast_pct")
        if cast_pct and call.reduced_copies > 1:
            raw += call.narrowed_value * (call.reduced_copies - 1) * cast_pct // 100
    elif call.reduced_value == 0 and call.largest_value > resident:
        raw = (target.limit("mosaic_internal_value_pct") or 0) * call.largest_value // 100
    else:
        raw = 0
    return -(-raw // TILE_BYTES) * TILE_BYTES


def _prefetch_pool(target: Target, call: CallLayout) -> tuple[list[Buffer], int | None]:
    """The inputs XLA may place whole in VMEM before the kernel, and the VMEM it keeps free (KiB).

    tpu7x prefetches program arguments and computed operands alike (`xla_operand_prefetch_reserve_kib`);
    v5e and v6e place only operands the program computes (`xla_produced_operand_reserve_kib`: splash
    attention's int32 q_sequence iota is written to VMEM, so its (block_q, 128) blocks cost nothing at
    the 16/32 MiB defaults, while a compile at the 128 MiB physical limit leaves no room and allocates
    them); v5p and v4 place none.
    """
    inputs = [b for b in call.buffers if b.kind == "input" and b.array_shape]
    reserve = target.limit("xla_operand_prefetch_reserve_kib")
    if reserve is not None:
        return inputs, reserve
    reserve = target.limit("xla_produced_operand_reserve_kib")
    return ([b for b in inputs if b.produced], reserve) if reserve is not None else ([], None)


def prefetched_inputs(target: Target, call: CallLayout, limit: int) -> tuple[Buffer, ...]:
    """The inputs whose whole array XLA copies into VMEM before the kernel, compiled at scoped `limit`.

    On tpu7x (libtpu 0.0.42.1) XLA's memory-space assignment prefetches kernel operands into the VMEM the
    scoped limit leaves (a copy-start to memory space S(1) in the compiled HLO), smallest array first
    (equal sizes in operand order), while they fit in physical VMEM - limit -
    `xla_operand_prefetch_reserve_kib` (10 MiB, measured to the 4 KiB: one 16 MiB f32 input is prefetched
    at a 38 MiB limit and not at 38 MiB + 4 KiB; a 50 MiB one at a 4 MiB limit, 51 MiB not; of 8, 16 and
    32 MiB inputs at a 10 MiB limit the 8 and 16 MiB ones). v5e and v6e place only operands the program
    computes (`_prefetch_pool`).
    """
    inputs, reserve_kib = _prefetch_pool(target, call)
    physical = target.limit("vmem_physical") or 0
    if reserve_kib is None or not physical:
        return ()
    budget = physical - limit - reserve_kib * 1024
    chosen: list[Buffer] = []
    used = 0
    for buf in sorted(inputs, key=lambda b: b.array_bytes):
        if used + buf.array_bytes > budget:
            break
        used += buf.array_bytes
        chosen.append(buf)
    return tuple(chosen)


def in_place_inputs(target: Target, call: CallLayout, limit: int) -> tuple[Buffer, ...]:
    """Prefetched inputs whose blocks the kernel reads in place: they take no pipeline buffers.

    Measured on tpu7x: flash attention's q, k and v (None, block, 128) blocks over (heads, seq, 128) cost
    nothing once prefetched (128x128 blocks: 256 KiB = output buffers + scratch; pl.Buffered(1) on q, k or
    v changes nothing, on the output it saves one buffer); a strided block of a prefetched array still
    takes its buffers (`contiguous_block` in pallas_layout.py).
    """
    return tuple(b for b in prefetched_inputs(target, call, limit) if b.contiguous)


def roomy_limit(target: Target, call: CallLayout, limit: int) -> int:
    """The highest scoped limit at which XLA still places in VMEM the inputs read in place at `limit`.

    Exact mode's compile for a kernel that fails at the limit in force goes there (physical VMEM when
    no input is placed): a higher limit would leave XLA no room and need the inputs' pipeline buffers.
    """
    physical = target.limit("vmem_physical") or 0
    placed = in_place_inputs(target, call, limit)
    _, reserve_kib = _prefetch_pool(target, call)
    if not placed or reserve_kib is None:
        return physical
    room = physical - reserve_kib * 1024 - sum(b.array_bytes for b in prefetched_inputs(target, call, limit))
    return max(room // TILE_BYTES * TILE_BYTES, limit)


def scoped_need(target: Target, call: CallLayout, limit: int) -> int:
    """Scoped VMEM the call needs when compiled with scoped limit `limit`."""
    skip = in_place_inputs(target, call, limit)
    return sum(b.bytes for b in call.buffers if b not in skip) + internal_allowance(target, call)


def smallest_limit(target: Target, call: CallLayout) -> int:
    """The smallest scoped limit L with scoped_need(L) <= L (what exact mode measures).

    A lower limit leaves XLA more VMEM to prefetch inputs into, so the need falls with the limit; the
    answer is one of the needs with the first k inputs (in prefetch order) read in place.
    """
    full = call.block_bytes + internal_allowance(target, call)
    inputs, reserve_kib = _prefetch_pool(target, call)
    if reserve_kib is None:
        return full
    order = sorted(inputs, key=lambda b: b.array_bytes)
    candidates = {full}
    saved = 0
    for buf in order:
        saved += buf.bytes if buf.contiguous else 0
        candidates.add(full - saved)
    return min(c for c in candidates if scoped_need(target, call, c) <= c)


def advice_limit(target: Target, call: CallLayout, limit: int, physical: int) -> int:
    """A vmem_limit_bytes that leaves room for the call at that limit (headroom included)."""
    while limit < physical and scoped_need(target, call, limit) > limit:
        limit = max(limit + TILE_BYTES, headroom_limit(scoped_need(target, call, limit), physical))
    return limit

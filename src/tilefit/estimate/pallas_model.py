"""The analytic model of a Pallas call's scoped VMEM on a TPU generation, and the limit arithmetic.

Arithmetic only over a traced `CallLayout` (pallas_layout.py) and the target's data (tpu.yaml): no jax.
"""

from __future__ import annotations

from tilefit.estimate.pallas_layout import TILE_BYTES, Buffer, CallLayout
from tilefit.targets import Target
from tilefit.vmem import HEADROOM, MIB, headroom_limit  # the one headroom rule (explain uses it too)

__all__ = ["HEADROOM", "MIB", "advice_limit", "headroom_limit", "in_place_inputs", "internal_allowance",
           "prefetched_inputs", "scoped_need", "smallest_limit"]


def internal_allowance(target: Target, call: CallLayout) -> int:
    """Mosaic's internal scratch for a call: measured per-generation shares of its big values.

    `mosaic_internal_reduced_pct` of the largest value a reduction reads plus `mosaic_internal_value_pct`
    of the largest other value (tpu.yaml; fitted to libtpu compiles, see BENCHMARKS.md). A value of at most
    `mosaic_register_resident_kib` stays in vector registers and counts nothing: flash attention's
    (128,128) and (64,256) f32 scores and a 128^3 matmul's dot result (64 KiB, 16 vregs) cost 0 bytes on
    v5e, v5p, v6e and tpu7x; on v4 the (128,128) scores cost about 80 KiB (no entry there).
    """
    reduced_pct = target.limit("mosaic_internal_reduced_pct") or 0
    value_pct = target.limit("mosaic_internal_value_pct") or 0
    resident = (target.limit("mosaic_register_resident_kib") or 0) * 1024
    reduced = call.reduced_value if call.reduced_value > resident else 0
    other = call.largest_value if call.reduced_value == 0 and call.largest_value > resident else 0
    raw = (reduced_pct * reduced + value_pct * other) // 100
    return -(-raw // TILE_BYTES) * TILE_BYTES


def prefetched_inputs(target: Target, call: CallLayout, limit: int) -> tuple[Buffer, ...]:
    """The inputs whose whole array XLA copies into VMEM before the kernel, compiled at scoped `limit`.

    On tpu7x (libtpu 0.0.42.1) XLA's memory-space assignment prefetches kernel operands into the VMEM the
    scoped limit leaves (a copy-start to memory space S(1) in the compiled HLO), smallest array first
    (equal sizes in operand order), while they fit in physical VMEM - limit -
    `xla_operand_prefetch_reserve_kib` (10 MiB, measured to the 4 KiB: one 16 MiB f32 input is prefetched
    at a 38 MiB limit and not at 38 MiB + 4 KiB; a 50 MiB one at a 4 MiB limit, 51 MiB not; of 8, 16 and
    32 MiB inputs at a 10 MiB limit the 8 and 16 MiB ones). v5e and v6e never prefetch (no such entry).
    """
    reserve_kib = target.limit("xla_operand_prefetch_reserve_kib")
    physical = target.limit("vmem_physical") or 0
    if reserve_kib is None or not physical:
        return ()
    budget = physical - limit - reserve_kib * 1024
    chosen: list[Buffer] = []
    used = 0
    inputs = [b for b in call.buffers if b.kind == "input" and b.array_shape]
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
    if target.limit("xla_operand_prefetch_reserve_kib") is None:
        return full
    order = sorted((b for b in call.buffers if b.kind == "input" and b.array_shape), key=lambda b: b.array_bytes)
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

"""What a `pallas_call` puts in VMEM, read from its jaxpr, and the analytic scoped-VMEM model.

Tracing needs jax but no libtpu and no compile: `jax.jit(fn).trace(*args)` exposes each pallas_call's
grid, BlockSpecs (block shape, dtype, pipeline_mode), scratch_shapes and CompilerParams.

The model, checked against libtpu 0.0.42.1 compiles (BENCHMARKS.md, "TPU / Pallas estimator"):
  scoped VMEM = sum over VMEM blocks of padded block bytes x buffer count
              + padded VMEM scratch bytes + Mosaic's internal scratch (a measured per-generation allowance)
Padding: the last dim rounds up to 128 lanes, the second-last to 8 sublanes x packing (16 rows for 16-bit
dtypes, 32 for 8-bit), the (8,128) x 32-bit tile. Buffer count: 2 (double buffering) unless
`pipeline_mode=pl.Buffered(n)` or the block's index map is constant (one); a grid of one step keeps
one buffer (libtpu measured: 8 MiB in + 8 MiB out blocks fit a 16 MiB limit with grid=(1,), need
32 MiB with grid=(2,)).

Buffers a kernel allocates in its own body (`pltpu.run_scoped`, which `pltpu.emit_pipeline` and tokamax's
kernels use for their in-body pipelines, with inputs left in HBM by `memory_space=ANY`) count too: nested
scopes add up, sibling scopes reuse the same VMEM (the larger counts). A grid dimension that is traced
(megablox gmm's number of active tiles) counts as one step: libtpu allocates as for the static dims.

An input whose whole array XLA has already copied into VMEM (tpu7x: see `prefetched_inputs` in pallas.py)
needs no pipeline buffers when its block is one contiguous run of the array (`Buffer.contiguous`): the
kernel reads the block in place. A strided block of such an array is still copied into two buffers.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from tilefit.errors import InputError

LANES = 128
SUBLANES = 8
TILE_BYTES = 4096  # one (8,128) x 32-bit tile; every VMEM allocation is a whole number of them

# Memory spaces whose bytes do not live in scoped VMEM (str() of the jaxpr ref's memory space).
_NOT_VMEM = ("smem", "semaphore", "any", "hbm", "host", "cmem")


@dataclasses.dataclass(frozen=True)
class Buffer:
    """One VMEM consumer of a pallas_call: an input/output block or a scratch buffer."""

    name: str
    shape: tuple[int, ...]
    dtype: str
    itemsize: int
    count: int
    kind: str  # "input", "output", "scratch" or "scoped" (allocated in the kernel body)
    array_shape: tuple[int, ...] = ()
    contiguous: bool = False  # the block is one contiguous run of the array's tiled layout
    block: tuple[int | None, ...] = ()  # full-rank block shape, None for a squeezed dim
    produced: bool = False  # an input computed by an XLA op in the same program (not a program argument)

    @property
    def array_bytes(self) -> int:
        """Bytes of the whole array (the operand) in the tiled layout; 0 for scratch."""
        return padded_bytes(self.array_shape, self.itemsize) if self.array_shape else 0

    @property
    def padded_bytes(self) -> int:
        """Bytes of one copy once padded to the (8 x packing, 128) tile (scratch: `scratch_tile_rows`)."""
        small = self.kind in ("scratch", "scoped")
        return padded_bytes(self.shape, self.itemsize, scratch_tile_rows if small else None)

    @property
    def bytes(self) -> int:
        """Bytes of all copies (buffer count x padded bytes)."""
        return self.count * self.padded_bytes

    def describe(self) -> str:
        """'input 0 bf16[512,512] x2 buffers = 1.00 MiB'."""
        dims = ",".join(str(d) for d in self.shape)
        return f"{self.name} {self.dtype}[{dims}] x{self.count} = {self.bytes / (1 << 20):.2f} MiB"


@dataclasses.dataclass(frozen=True)
class CallLayout:
    """The VMEM-relevant structure of one pallas_call."""

    name: str
    grid: tuple[int, ...]
    buffers: tuple[Buffer, ...]
    vmem_limit_bytes: int | None
    reduced_value: int = 0  # padded bytes of the biggest value a reduction reads in the kernel body
    largest_value: int = 0  # padded bytes of the biggest array value the kernel body computes
    reduced_copies: int = 1  # unrolled loop iterations that each keep such a value
    narrowed_value: int = 0  # padded bytes of the biggest narrowing cast in an unrolled loop (p -> bf16)
    unsure: tuple[str, ...] = ()  # what the model could not see exactly (analytic mode asks libtpu then)

    @property
    def grid_steps(self) -> int:
        return math.prod(self.grid) if self.grid else 1

    @property
    def block_bytes(self) -> int:
        """Bytes of all block buffers and scratch, without Mosaic's internal scratch."""
        return sum(b.bytes for b in self.buffers)

    def largest(self) -> Buffer | None:
        """The buffer that takes the most VMEM."""
        return max(self.buffers, key=lambda b: b.bytes, default=None)


def sublane_rows(itemsize: int) -> int:
    """Rows of one VMEM tile for a dtype: 8 for 32-bit, 16 for 16-bit, 32 for 8-bit (packing)."""
    return SUBLANES * max(1, 4 // max(1, itemsize))


def scratch_tile_rows(rows: int, itemsize: int) -> int:
    """Tile rows Mosaic gives a VMEM scratch buffer whose second-minor dim is `rows`.

    A kernel's own scratch gets the smallest power-of-two tile that holds `rows`, from the packing (1 row
    for 32-bit, 2 for 16-bit, 4 for 8-bit) up to the full 8 x packing; pipeline windows keep the full tile.
    libtpu 0.0.42.1, v5e: tpu-inference's ragged paged attention v3 with a bf16 (2, 128, 9, 2, 128) KV
    double buffer (second-minor dim 2, the KV packing) needs 2.4 MiB in all, where full (16, 128) tiles
    would take 9 MiB for that buffer alone.
    """
    packing = max(1, 4 // max(1, itemsize))
    tile = packing
    while tile < rows and tile < SUBLANES * packing:
        tile *= 2
    return tile


def padded_bytes(shape: Sequence[int], itemsize: int, tile_rows: Callable[[int, int], int] | None = None) -> int:
    """Bytes of an array in VMEM once its last two dims are padded to the tile (`tile_rows`: scratch rule)."""
    if not shape:
        return TILE_BYTES
    dims = list(shape)
    dims[-1] = _round_up(dims[-1], LANES)
    if len(dims) >= 2:
        rows = tile_rows(dims[-2], itemsize) if tile_rows is not None else sublane_rows(itemsize)
        dims[-2] = _round_up(dims[-2], rows)
    else:
        dims.insert(0, sublane_rows(itemsize))
    return _round_up(math.prod(dims) * itemsize, TILE_BYTES)


def tiling_problem(
    block: Sequence[int | None], array: Sequence[int], itemsize: int
) -> str | None:
    """Why a full-rank block shape breaks Mosaic's tiling rule, or None when it is fine.

    The last two block dims must be divisible by (8 x packing, 128) or equal the array dims. A squeezed
    dim (None: paged attention's `(None, 4, None, 128)` q block) is exempt: Mosaic indexes it away.
    """
    if len(block) != len(array) or not block:
        return None
    last = block[-1]
    if last is not None and last % LANES and last != array[-1]:
        return f"last block dim {last} is neither a multiple of {LANES} nor the array dim {array[-1]}"
    second = block[-2] if len(block) >= 2 else None
    if second is None:
        return None
    rows = sublane_rows(itemsize)
    if second % SUBLANES and second != array[-2]:
        return f"second-last block dim {second} is neither a multiple of {SUBLANES} nor {array[-2]}"
    if second % rows and second != array[-2]:
        return f"second-last block dim {second} is not a multiple of {rows} (packed {itemsize}-byte dtype)"
    return None


def contiguous_block(block: Sequence[int], array: Sequence[int], itemsize: int) -> bool:
    """Whether a block (squeezed dims as 1, same rank as the array) is one contiguous run of the array.

    In the row-major tiled layout ((8 x packing, 128) tiles over the last two dims) that holds when every
    dim after the block's first non-unit dim is whole, the lane dim is whole, and a partial second-minor
    dim is whole tile rows. libtpu measured on tpu7x (x + y, f32, both arrays in VMEM): (256,1024) of
    (4096,1024), (8,1024), (None,256,128) of (8,4096,128), (2,4096,128), (None,2,256,128) of
    (8,16,256,128) are read in place; (256,512) of (4096,1024), (2,256,128) of (8,4096,128),
    (None,4,128,128) of (8,16,256,128) and (256,128) of (4096,256) still take two buffers each.
    """
    n = len(array)
    if n == 0 or len(block) != n or block[-1] != array[-1]:
        return False
    first = next((i for i, b in enumerate(block) if b != 1), n - 1)
    if any(block[j] != array[j] for j in range(first + 1, n)):
        return False
    return n < 2 or block[-2] == array[-2] or block[-2] % sublane_rows(itemsize) == 0


def _round_up(x: int, m: int) -> int:
    return -(-x // m) * m


def trace_layouts(fn: Callable[..., Any], args: Sequence[Any]) -> list[CallLayout]:
    """Trace `fn(*args)` (no compile) and describe every pallas_call in it."""
    import jax

    closed = jax.jit(fn).trace(*args).jaxpr
    calls = list(_pallas_eqns(closed.jaxpr, set()))
    if not calls:
        raise InputError("the kernel function contains no pallas_call")
    return [_layout(eqn, i, made) for i, (eqn, made) in enumerate(calls)]


# Primitives that XLA turns into a view of their operand (a bitcast), not a new buffer.
_VIEWS = ("reshape", "squeeze", "expand_dims", "copy", "copy_p")


def _pallas_eqns(jaxpr: Any, produced: set[int]) -> Iterator[tuple[Any, tuple[bool, ...]]]:
    """Every pallas_call equation (nested jit/closed calls included) and which of its inputs are produced.

    An input is "produced" when an XLA op of the program computes it (splash attention's q_sequence is an
    iota), not when it is a program argument or a view of one. `produced` holds the ids of such variables.
    """
    def made(v: Any) -> bool:
        return type(v).__name__ != "Literal" and id(v) in produced

    for eqn in jaxpr.eqns:
        if eqn.primitive.name == "pallas_call":
            yield eqn, tuple(made(v) for v in eqn.invars)
            continue
        subs = list(_sub_jaxprs(eqn.params))
        if len(subs) == 1 and len(subs[0].invars) == len(eqn.invars):  # a call: arguments map by position
            inner = {id(w) for v, w in zip(eqn.invars, subs[0].invars, strict=True) if made(v)}
            yield from _pallas_eqns(subs[0], inner)
            args_made = [made(v) for v in eqn.invars]
            # a call's results are computed unless it only forwards an argument
            produced.update(id(out) for out in eqn.outvars if not _forwards(subs[0], out, eqn, args_made))
            continue
        for sub in subs:
            yield from _pallas_eqns(sub, set())
        if not (eqn.primitive.name in _VIEWS and eqn.invars and not made(eqn.invars[0])):
            produced.update(id(out) for out in eqn.outvars)


def _forwards(sub: Any, out: Any, eqn: Any, args_made: list[bool]) -> bool:
    """Whether a call's result `out` is one of its (not produced) arguments passed straight through."""
    i = list(eqn.outvars).index(out)
    res = sub.outvars[i] if i < len(sub.outvars) else None
    return any(res is w and not m for w, m in zip(sub.invars, args_made, strict=True))


def _sub_jaxprs(params: dict[str, Any]) -> Iterator[Any]:
    for value in params.values():
        items = value if isinstance(value, (tuple, list)) else (value,)
        for v in items:
            inner = getattr(v, "jaxpr", None)
            if inner is not None and hasattr(inner, "eqns"):
                yield inner
            elif hasattr(v, "eqns"):
                yield v


class BlockShapeError(ValueError):
    """A block or scratch shape with a dimension below 1 (a negative or zero block size in the config)."""


def _layout(eqn: Any, index: int, made: tuple[bool, ...] = ()) -> CallLayout:
    gm = eqn.params["grid_mapping"]
    # a traced grid dim does not make Mosaic double-buffer: megablox gmm with tk = k, tn = n (grid
    # (1, traced, 1)) needs 1.76 MiB on v5e for 256x512 blocks, every block once (libtpu 0.0.42.1)
    grid = tuple(int(g) if isinstance(g, int) else 1 for g in gm.grid)
    steps = math.prod(grid) if grid else 1
    n_in = gm.num_inputs
    # the call's operands: scalar-prefetch args first, then one per input block mapping
    made_in = made[gm.num_index_operands:gm.num_index_operands + n_in] if made else ()
    buffers: list[Buffer] = []
    for i, bm in enumerate(gm.block_mappings):
        kind, pos = ("input", i) if i < n_in else ("output", i - n_in)
        buf = _block_buffer(bm, f"{kind} {pos}", kind, steps, gm.grid)
        if buf is not None:
            produced = kind == "input" and i < len(made_in) and made_in[i]
            buffers.append(dataclasses.replace(buf, produced=produced) if produced else buf)
    for j, aval in enumerate(gm.scratch_avals):
        if _in_vmem(aval):
            buffers.append(_buffer(f"scratch {j}", aval.shape, aval.dtype, 1, "scratch"))
    body = eqn.params["jaxpr"]
    scoped = _scoped_buffers(body)
    buffers += scoped
    name = str(getattr(eqn.params.get("debug"), "name", "") or f"pallas_call {index}")
    limit = _vmem_limit(eqn.params.get("compiler_params"))
    unsure = []
    if scoped:
        unsure.append(f"the kernel allocates {sum(b.bytes for b in scoped)} B in its body (run_scoped / "
                      "emit_pipeline): its internal scratch is not modelled")
    values = _Values()
    values.scan(body)
    if values.dmas and not scoped:
        # JAX's ragged paged attention (vLLM's kernel) copies KV pages into VMEM scratch with its own
        # DMAs in a loop: libtpu 0.0.42.1 on v5e spills 2.5 MiB of its values (16 pages x 32 queries)
        # where the model sees 0.13 MiB, so analytic mode asks libtpu for the fit
        unsure.append(f"the kernel runs its own DMAs ({values.dmas} dma_start): the values of its copy "
                      "loop are not modelled")
    return CallLayout(name, grid, tuple(buffers), limit, values.reduced, values.largest,
                      reduced_copies=values.copies, narrowed_value=values.narrowed, unsure=tuple(unsure))


def _scoped_buffers(body: Any) -> list[Buffer]:
    """VMEM the kernel body allocates itself: nested run_scoped scopes add up, siblings take the max."""
    best: list[Buffer] = []
    for eqn in body.eqns:
        own: list[Buffer] = []
        inner: list[Buffer] = []
        if eqn.primitive.name == "run_scoped":
            sub = eqn.params["jaxpr"]
            for k, var in enumerate(sub.invars):
                aval = var.aval
                inner_aval = getattr(aval, "inner_aval", aval)
                if _in_vmem(aval) and getattr(inner_aval, "shape", None) is not None:
                    own.append(_buffer(f"body scope {k}", inner_aval.shape, inner_aval.dtype, 1, "scoped"))
        for sub in _sub_jaxprs(eqn.params):
            cand = _scoped_buffers(sub)
            if sum(b.bytes for b in cand) > sum(b.bytes for b in inner):
                inner = cand
        total = own + inner
        if sum(b.bytes for b in total) > sum(b.bytes for b in best):
            best = total
    return best


class _Values:
    """The kernel body's big values (nested branches and loops included), read for Mosaic's internal scratch.

    Values bigger than the vector register file are spilled to VMEM, which counts against the scoped
    limit (libtpu's VMEM report lists them as "SPILL"). A value that a cross-lane reduction reads is kept
    whole (flash attention's (block_q, block_kv) f32 scores: about their full size, measured); other
    values are mostly streamed (a matmul's dot result into its accumulator: a fraction, measured). An
    unrolled loop keeps more than one copy of its scores (`copies`): JAX's flash attention unrolls its
    block_k loop, and with block_q=2048, block_k_major=2048, block_k=1024 libtpu needs 23.1 MiB on v5e
    = 7 MiB of blocks + two 8 MiB score copies. `narrowed`: the biggest value cast to a narrower dtype
    inside an unrolled loop (flash attention's `p.astype(bf16)` fed to its second matmul; splash attention
    widens v instead and has none).
    """

    def __init__(self) -> None:
        self.reduced = self.largest = self.dmas = self.narrowed = 0
        self.copies = 1

    def scan(self, body: Any, copies: int = 1) -> None:
        for eqn in body.eqns:
            sizes = [_value_bytes(v) for v in eqn.outvars]
            self.largest = max([self.largest, *sizes])
            name = eqn.primitive.name
            self.dmas += name == "dma_start"
            if name == "convert_element_type" and copies > 1 and eqn.invars:
                src = getattr(eqn.invars[0], "aval", None)
                wide = _itemsize(getattr(src, "dtype", "float32")) if src is not None else 0
                if sizes and wide > _itemsize(eqn.params.get("new_dtype") or "float32"):
                    self.narrowed = max(self.narrowed, sizes[0])
            if name.startswith(_REDUCTIONS):
                biggest = max((_value_bytes(v) for v in eqn.invars), default=0)
                if biggest * copies > self.reduced * self.copies:
                    self.reduced, self.copies = biggest, copies
            inner = copies * _unrolled(eqn)
            for sub in _sub_jaxprs(eqn.params):
                self.scan(sub, inner)


def _unrolled(eqn: Any) -> int:
    """Iterations of a scan that are unrolled into one straight-line body (1 for anything else)."""
    if eqn.primitive.name != "scan":
        return 1
    length = int(eqn.params.get("length") or 1)
    unroll = eqn.params.get("unroll", 1)
    if isinstance(unroll, bool):
        return length if unroll else 1
    return max(1, min(int(unroll), length)) if isinstance(unroll, int) else 1


_REDUCTIONS = ("reduce_", "argmax", "argmin", "cum")


def _value_bytes(var: Any) -> int:
    aval = getattr(var, "aval", None)
    shape, dtype = getattr(aval, "shape", None), getattr(aval, "dtype", None)
    if shape is None or dtype is None or "Ref" in type(aval).__name__ or len(shape) < 1:
        return 0
    return padded_bytes(shape, _itemsize(dtype))


def _itemsize(dtype: Any) -> int:
    import numpy as np

    try:
        return int(np.dtype(dtype).itemsize)
    except TypeError:
        return 4


def _block_buffer(bm: Any, name: str, kind: str, steps: int, grid: Sequence[Any] = ()) -> Buffer | None:
    aval = bm.block_aval
    if not _in_vmem(aval):
        return None
    mode = bm.pipeline_mode
    count = int(mode.buffer_count) if mode is not None else (2 if steps > 1 and not _constant(bm, grid) else 1)
    if steps == 1:
        count = min(count, 1)
    buf = _buffer(name, bm.transformed_block_aval.shape, aval.dtype, count, kind)
    array = tuple(int(d) for d in bm.array_aval.shape)
    block = _full_rank_block(bm, len(array))
    ones = tuple(1 if d is None else d for d in block) if block is not None else None
    contiguous = ones is not None and contiguous_block(ones, array, buf.itemsize)
    return dataclasses.replace(buf, array_shape=array, contiguous=contiguous, block=block or ())


def _constant(bm: Any, grid: Sequence[Any] = ()) -> bool:
    """Whether a block's index map never moves the block over the grid: one buffer holds it.

    True when every index it returns is a constant or depends only on grid axes of extent 1 (not on an
    axis that steps, a traced axis or scalar-prefetch data). libtpu 0.0.42.1, v5e, grid of 8 steps over
    (512, 1024) f32 blocks: x and o moving, y (input) and s (output) at index (0, 0) need 12 MiB, not 16
    (y and s once each), whether or not the block is the whole array and even when the body never reads
    y. Splash attention's m/l/o accumulators are such outputs. tpu-inference's quantized matmul with
    grid (1, 4, 1) maps its x block to (b, i) = (0, 0) on every step: its VMEM report lists that 16 MiB
    window once (v6e, 2048/2048/4096 blocks: 61.8 MiB, not 77).
    """
    index = getattr(bm, "index_map_jaxpr", None)
    jaxpr = getattr(index, "jaxpr", None)
    outs: Sequence[Any] = getattr(jaxpr, "outvars", None) or ()
    if not outs:
        return False
    invars = list(getattr(jaxpr, "invars", ()))
    moving = {id(v) for k, v in enumerate(invars) if not (k < len(grid) and isinstance(grid[k], int) and grid[k] == 1)}
    for eqn in getattr(jaxpr, "eqns", ()):
        nested = next(_sub_jaxprs(eqn.params), None) is not None  # a call in the map: assume it moves
        if nested or any(id(v) in moving for v in eqn.invars if type(v).__name__ != "Literal"):
            moving.update(id(o) for o in eqn.outvars)
    return all(type(v).__name__ == "Literal" or id(v) not in moving for v in outs)


def _full_rank_block(bm: Any, rank: int) -> tuple[int | None, ...] | None:
    """The block shape with squeezed dims as None (None when a dim is not a plain blocked window)."""
    dims: list[int | None] = []
    for d in getattr(bm, "block_shape", ()):
        name = type(d).__name__
        if d is None or name == "Squeezed":
            dims.append(None)
        elif isinstance(d, int):
            dims.append(d)
        elif name == "Blocked":
            dims.append(int(d.block_size))
        else:  # Element / BoundedSlice windows: offsets are not block-aligned, assume a copy
            return None
    return tuple(dims) if len(dims) == rank else None


def _buffer(name: str, shape: Sequence[int], dtype: Any, count: int, kind: str) -> Buffer:
    import numpy as np

    dims = tuple(int(d) for d in shape)
    if any(d < 1 for d in dims):
        raise BlockShapeError(f"{name} has shape {list(dims)}: every dimension must be at least 1")
    dt = np.dtype(dtype)
    short = {"bfloat16": "bf16", "float32": "f32", "float16": "f16"}.get(dt.name, dt.name)
    return Buffer(name, dims, short, dt.itemsize, count, kind)


def _in_vmem(aval: Any) -> bool:
    space = str(getattr(aval, "memory_space", "default")).lower()
    return not any(s in space for s in _NOT_VMEM)


def _vmem_limit(params: Any) -> int | None:
    if params is None:
        return None
    if isinstance(params, dict):
        params = params.get("mosaic_tpu") or params.get("mosaic")
    limit = getattr(params, "vmem_limit_bytes", None)
    return int(limit) if limit is not None else None

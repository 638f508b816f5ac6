"""`analytic` mode: an instant shared-memory formula over the tl.dot tiles of a kernel, for pruning.

The model is learned once per kernel and signature from Triton's own frontend: the TTIR of a probe
config lists every tt.dot with its operand shapes and element types, whether it sits in a loop (then
its loaded operands are pipelined over num_stages buffers) and whether each operand comes from a tt.load.
Re-lowering with one constexpr doubled at a time tells which constexprs each dimension scales with.
After that, a config costs a few multiplications (70,000-106,000 configs a second measured).

Per target family (what Triton's pipeliner does with pointer loads, read off `fast` results):
  Hopper (sm_90), Blackwell datacenter (sm_100/103): num_stages x (A + B) for operands loaded in a loop.
  Ampere/Ada (sm_8x), consumer Blackwell (sm_120), AMD: (num_stages - 1) x (A + B), at least one buffer.
An operand loaded once (attention's Q) adds one buffer; one computed in registers (P) adds none; a
tt.reduce adds one 32-bit word per warp. Epilogue and layout-conversion scratch are not modelled.

Measured against `fast` (BENCHMARKS.md, pinned by tests/compile): exact on sm_90 and within 0.1% on
sm_100; below `fast` by at most 25% on sm_8x in every case measured (so pruning on "analytic > limit"
dropped no config that fits);
exact for matmul on AMD but not for attention (AMD's pipeliner buffers K/V its own way). Use `fast`
for decisions; analytic is for pruning 10^5 configs a second.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping
from typing import Any

from tilefit.errors import InputError
from tilefit.targets import Target

_DOT = re.compile(
    r"=\s*tt\.dot\s+(%[\w.#]+),\s*(%[\w.#]+).*?:\s*tensor<([\dx]+)x(\w+)>\s*\*\s*tensor<([\dx]+)x(\w+)>"
)
_DEF = re.compile(r"^\s*(%[\w.#]+)(?::\d+)?\s*=\s*([\w.]+)")
_ELEMENT_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "i32": 4, "f64": 8, "i64": 8, "i16": 2}
# Ops that pass a loaded tensor through unchanged in memory terms.
_PASS_THROUGH = ("tt.trans", "tt.reshape", "ttg.convert_layout", "tt.fp_to_fp", "arith.extf", "arith.truncf")


Kind = str  # "pipelined" (loaded in a loop), "resident" (loaded once), "register" (computed)


@dataclasses.dataclass(frozen=True)
class Operand:
    """One tl.dot operand: dims as (probe size, constexprs it scales with), element bytes, kind."""

    dims: tuple[tuple[int, tuple[str, ...]], ...]
    element_bytes: int
    kind: Kind

    def size(self, config: Mapping[str, Any], probe: Mapping[str, Any], elem: int | None = None) -> int:
        """Bytes of this tile under `config` (element bytes `elem` if given)."""
        total = self.element_bytes if elem is None else elem
        for size, names in self.dims:
            scale = math.prod(int(config[n]) / int(probe[n]) for n in names if n in config)
            total *= int(size * scale)
        return int(total)


@dataclasses.dataclass(frozen=True)
class Dot:
    """A tt.dot: its two operands and whether it runs inside a loop."""

    a: Operand
    b: Operand
    in_loop: bool


def hopper_like(target: Target) -> bool:
    """Targets whose dots read both operands from shared memory for every stage (wgmma/tcgen05: sm_90,
    sm_100, sm_103): `triton_dot_operands_every_stage` in data/targets/nvidia.yaml."""
    return bool(target.limit("triton_dot_operands_every_stage"))


def default_stages(target: Target) -> int:
    """Triton's default num_stages for the target's backend (`triton_default_num_stages`: 3 CUDA, 2 HIP)."""
    stages = target.limit("triton_default_num_stages")
    if stages is None:
        raise InputError(f"{target.name}: no triton_default_num_stages in its targets data")
    return stages


@dataclasses.dataclass(frozen=True)
class AnalyticModel:
    """Dots of a kernel with dims expressed in constexprs of the probe config."""

    dots: tuple[Dot, ...]
    probe: Mapping[str, Any]
    reduces: bool = False

    def shared_bytes(self, config: Mapping[str, Any], target: Target) -> int:
        """Predicted shared bytes of `config` on `target`."""
        stages = int(config.get("num_stages", default_stages(target)))
        hopper = hopper_like(target)
        buffers = max(1, stages if hopper else stages - 1)
        pipeline = 0
        for dot in self.dots:
            for op in (dot.a, dot.b):
                count = {"pipelined": buffers if dot.in_loop else 1, "resident": 1}.get(op.kind, 0)
                pipeline += count * op.size(config, self.probe)
        # Cross-warp reduction scratch: one 32-bit slot per warp (reused by every tt.reduce); none
        # with a single warp, which reduces with shuffles alone.
        warps = int(config.get("num_warps", 4))
        scratch = 4 * warps if self.reduces and warps > 1 else 0
        return max(pipeline, scratch)

    @classmethod
    def learn(cls, kernel: Any, args: Mapping[str, Any], probe: Mapping[str, Any]) -> AnalyticModel:
        """Lower the probe config (and one variant per integer constexpr) to TTIR and read the dots."""
        text = _ttir(kernel, args, probe)
        base = parse_dots(text)
        scaled: dict[str, list[ParsedDot]] = {}
        for name, value in probe.items():
            if isinstance(value, int) and not isinstance(value, bool) and value > 1 and name[:4] != "num_":
                try:
                    scaled[name] = parse_dots(_ttir(kernel, args, {**probe, name: value * 2}))
                except Exception:
                    continue  # e.g. a static_assert on the size: treat its dims as constant
        dots = []
        for i, dot in enumerate(base):
            ops = []
            for j, (shape, ebytes, kind) in enumerate(dot.operands):
                dims = []
                for k, size in enumerate(shape):
                    names = tuple(n for n, var in scaled.items()
                                  if len(var) == len(base) and var[i].operands[j][0][k] == 2 * size)
                    dims.append((size, names))
                ops.append(Operand(tuple(dims), ebytes, kind))
            dots.append(Dot(ops[0], ops[1], dot.in_loop))
        return cls(tuple(dots), dict(probe), reduces="tt.reduce" in text)


def _ttir(kernel: Any, args: Mapping[str, Any], config: Mapping[str, Any]) -> str:
    from tilefit.estimate import triton_compile as tc
    from tilefit.estimate.triton_args import Arg

    target = tc.gpu_target("cuda", 90, 32)
    stand_ins = {k: v.stand_in() if isinstance(v, Arg) else v for k, v in args.items()}
    sp = tc.specialise(kernel, target, stand_ins, config)
    with tc.captured_stderr():
        module, _, _ = tc.lower(kernel, target, sp, last="ttir")
    return str(module)


@dataclasses.dataclass(frozen=True)
class ParsedDot:
    """A tt.dot read from TTIR text: (shape, element bytes, kind) per operand."""

    in_loop: bool
    operands: tuple[tuple[tuple[int, ...], int, Kind], ...]


def parse_dots(ttir: str) -> list[ParsedDot]:
    """Every tt.dot of a TTIR module, with where its operands come from."""
    defs: dict[str, tuple[str, str, bool]] = {}
    depth: list[bool] = []
    out = []
    for line in ttir.splitlines():
        m = _DEF.match(line)
        if m:
            defs[m.group(1)] = (m.group(2), line, any(depth))
        d = _DOT.search(line)
        if d:
            ops = []
            for name, dims, elem in ((d.group(1), d.group(3), d.group(4)), (d.group(2), d.group(5), d.group(6))):
                ops.append((tuple(int(x) for x in dims.split("x")), _bytes(elem), _kind(name, defs)))
            out.append(ParsedDot(any(depth), (ops[0], ops[1])))
        stripped = line.strip()
        if stripped.startswith("}") and depth:
            depth.pop()
            if stripped.endswith("{"):
                depth.append(depth[-1] if depth else False)
        elif stripped.endswith("{") and "=" in stripped:
            depth.append("scf.for" in stripped or "scf.while" in stripped)
    return out


def _bytes(element: str) -> int:
    if element not in _ELEMENT_BYTES and not element.startswith(("f8", "i8")):
        raise InputError(f"analytic mode does not know element type {element}")
    return _ELEMENT_BYTES.get(element, 1)


def _kind(name: str, defs: Mapping[str, tuple[str, str, bool]]) -> Kind:
    for _ in range(8):
        op, line, in_loop = defs.get(name, ("", "", False))
        if op in ("tt.load", "tt.descriptor_load"):
            return "pipelined" if in_loop else "resident"
        m = re.search(rf"{re.escape(op)}\s+(%[\w.#]+)", line) if op in _PASS_THROUGH else None
        if m is None:
            return "register"
        name = m.group(1)
    return "register"

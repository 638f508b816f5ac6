"""A performance model to rank the configs that fit: tile reuse, occupancy, latency hiding, waves.

It orders configs; it does not predict seconds. Each factor is in (0, 1] except `reuse`:

- reuse: elements of output a tile produces per element it loads. For two output dims a, b (a matmul
  tile) that is a*b/(a+b); a K dim (BLOCK_K) adds k/(k+16): short K steps pay loop and MMA issue
  overhead. A one-dimensional (streaming) tile has reuse 1 and is ranked by the other factors.
- amortisation: work/(work+1024) of a program: tiny programs pay launch and index arithmetic.
- occupancy: blocks per SM from shared memory (plus the 1 KiB the driver reserves per block, read as
  shared_per_sm - shared_per_block_optin from the targets data), from registers when the compile reported
  them, and from the warp limit when the target has one.
- latency hiding: 1 - exp(-warps in flight / 16), warps in flight = active warps x pipeline stages.
- register pressure: min(1, 128 / accumulator elements per thread) for a 2-D tile (a thread has at most
  255 registers); min(1, 32 / elements per thread) for a 1-D (streaming) block, which also holds its
  inputs and temporaries in registers.
- tile utilisation: extent / (tiles x block) per dimension of `problem`; padding is wasted work.
- waves: with the SM count and the number of programs, tiles / (waves x slots); partial last waves and
  under-filled GPUs lose.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tilefit.estimate.base import Usage
from tilefit.space import block_keys
from tilefit.targets import Target

Grid = Callable[[Mapping[str, Any]], "tuple[int, ...] | int"]


@dataclasses.dataclass(frozen=True)
class DeviceModel:
    """What the model needs of a device; SM count only when known (a live GPU or the user)."""

    name: str
    shared_per_sm: int | None = None
    reserved_shared_per_block: int = 0
    registers_per_sm: int | None = None
    max_warps_per_sm: int | None = None
    sm_count: int | None = None

    @classmethod
    def from_target(cls, target: Target, sm_count: int | None = None) -> DeviceModel:
        """Limits from the targets data; the reserved per-block shared memory is SM minus block opt-in."""
        per_sm = target.limit("shared_per_sm")
        per_block = target.limit("shared_per_block_optin")
        reserved = per_sm - per_block if per_sm and per_block and per_sm > per_block else 0
        return cls(
            name=target.name,
            shared_per_sm=per_sm,
            reserved_shared_per_block=reserved,
            registers_per_sm=target.limit("registers_per_sm"),
            max_warps_per_sm=target.limit("warps_per_sm"),
            sm_count=sm_count,
        )


@dataclasses.dataclass(frozen=True)
class Score:
    """The model's score of one config (higher is faster) and the factors behind it."""

    value: float
    reuse: float
    amortisation: float
    blocks_per_sm: int
    latency_hiding: float
    register_pressure: float
    waves: float
    programs: int | None
    utilisation: float = 1.0

    def explain(self) -> str:
        """'score 41.2 = reuse 42.7 x amort 0.94 x hide 0.86 ...'."""
        progs = f", {self.programs} programs" if self.programs is not None else ""
        return (
            f"score {self.value:.3g} = reuse {self.reuse:.3g} x amortisation {self.amortisation:.2f}"
            f" x latency hiding {self.latency_hiding:.2f} ({self.blocks_per_sm} blocks/SM)"
            f" x register pressure {self.register_pressure:.2f} x waves {self.waves:.2f}{progs}"
            + (f" x tile utilisation {self.utilisation:.2f}" if self.utilisation < 1.0 else "")
        )


def _split_dims(config: Mapping[str, Any], reduction: Sequence[str] = ()) -> tuple[list[int], list[int]]:
    """(output dims, reduction dims) among the tile sizes; a key ending in K (or named) is a reduction dim."""
    out: list[int] = []
    red: list[int] = []
    for key in block_keys(config):
        upper = key.upper().rstrip("_0123456789") or key.upper()
        (red if upper.endswith("K") or key in reduction else out).append(int(config[key]))
    return out, red


def reuse(config: Mapping[str, Any], reduction: Sequence[str] = ()) -> float:
    """Output elements per loaded element: a*b/(a+b) for the two largest output dims, x k/(k+16)."""
    out, red = _split_dims(config, reduction)
    out.sort(reverse=True)
    base = out[0] * out[1] / (out[0] + out[1]) if len(out) >= 2 else 1.0
    k = math.prod(red) if red else 0
    return base * (k / (k + 16) if k else 1.0)


def work(config: Mapping[str, Any]) -> int:
    """Elements one program produces per step: the product of its tile sizes."""
    return math.prod(int(config[k]) for k in block_keys(config)) if block_keys(config) else 1


def blocks_per_sm(config: Mapping[str, Any], usage: Usage | None, device: DeviceModel) -> int:
    """Resident blocks per SM, bounded by shared memory, registers and warps (at least 1)."""
    warps = int(config.get("num_warps", 4))
    bounds: list[int] = [32]
    shared = usage.bytes if usage and usage.bytes is not None else None
    if device.shared_per_sm and shared is not None:
        bounds.append(device.shared_per_sm // max(shared + device.reserved_shared_per_block, 1))
    regs = usage.registers if usage else None
    if device.registers_per_sm and regs:
        bounds.append(device.registers_per_sm // max(regs * 32 * warps, 1))
    if device.max_warps_per_sm:
        bounds.append(device.max_warps_per_sm // max(warps, 1))
    return max(1, min(bounds))


def programs(config: Mapping[str, Any], grid: Grid | None, problem: Mapping[str, int] | None) -> int | None:
    """Programs launched: from a grid callable, or ceil(extent/block) over the problem's block keys."""
    if grid is not None:
        g = grid(config)
        return int(math.prod(g)) if isinstance(g, tuple) else int(g)
    if problem:
        return math.prod(-(-int(ext) // int(config[key])) for key, ext in problem.items() if key in config)
    return None


def utilisation(config: Mapping[str, Any], problem: Mapping[str, int] | None) -> float:
    """Useful fraction of the tiles: extent / (ceil(extent / block) x block) over the problem's dims."""
    util = 1.0
    for key, ext in (problem or {}).items():
        if key in config and int(config[key]) > 0:
            block = int(config[key])
            util *= int(ext) / (-(-int(ext) // block) * block)
    return util


def wave_efficiency(n_programs: int | None, slots: int | None) -> float:
    """tiles / (waves x slots): 1.0 for full waves, less for a partial last wave or an idle GPU."""
    if not n_programs or not slots:
        return 1.0
    waves = -(-n_programs // slots)
    return n_programs / (waves * slots)


def score(
    config: Mapping[str, Any],
    usage: Usage | None,
    device: DeviceModel,
    *,
    grid: Grid | None = None,
    problem: Mapping[str, int] | None = None,
    reduction: Sequence[str] = (),
    held: int = 1,
) -> Score:
    """Score one config that fits (higher is better).

    `reduction`: block keys that tile an inner loop, not the output (Helion's K-like dims); `held`:
    elements each tile row keeps live beyond its tile sizes (a full-width dim Helion holds whole).
    """
    warps = int(config.get("num_warps", 4))
    stages = int(config.get("num_stages", 1) or 1)
    r = reuse(config, reduction)
    w = work(config)
    amort = w / (w + 1024)
    bps = blocks_per_sm(config, usage, device)
    hide = 1.0 - math.exp(-(bps * warps * max(stages, 1)) / 16.0)
    out, _ = _split_dims(config, reduction)
    if len(out) >= 2 or held > 1:
        pressure = min(1.0, 128.0 / max(math.prod(out) * held / (32 * warps), 1.0))
    else:
        pressure = min(1.0, 32.0 / max(w / (32 * warps), 1.0))
    spills = usage.spills if usage and usage.spills else 0
    pressure /= 1.0 + spills / 16.0
    n_prog = programs(config, grid, problem)
    slots = device.sm_count * bps if device.sm_count else None
    waves = wave_efficiency(n_prog, slots)
    util = utilisation(config, problem)
    value = r * amort * hide * pressure * waves * util
    return Score(value, r, amort, bps, hide, pressure, waves, n_prog, util)


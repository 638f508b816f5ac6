"""`tilefit check TABLE|DIR`: every entry of fused-MoE config tables sized for every target, with the fix.

The kernel comes from SGLang's source file (check/source.py loads it without importing SGLang): from
`--kernel-source`, else from the installed `sglang` package's file (found without importing it), else
from a wheel's folder given in TILEFIT_SGLANG_ROOT.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tilefit.check import moe
from tilefit.check.moe import LaunchKind, Problem
from tilefit.check.size import Job, size_jobs, spec_key
from tilefit.check.source import LoadedSource, load_source
from tilefit.check.tables import Table, entry_line
from tilefit.errors import InputError
from tilefit.estimate.base import Usage
from tilefit.fit.perf import DeviceModel, score
from tilefit.settings import Settings
from tilefit.targets import Target, get_target

_MIN_BLOCK = 16


@dataclasses.dataclass(frozen=True)
class Fix:
    """The config that replaces one that does not fit, and what it needs."""

    config: Mapping[str, Any]
    bytes: int
    change: str  # "num_stages 4 -> 2, BLOCK_SIZE_K 128 -> 64"


@dataclasses.dataclass(frozen=True)
class Row:
    """One table entry (batch size m), one GEMM of it, on one target."""

    table: Table
    m: int
    kind: LaunchKind
    target: str
    usage: Usage
    kernel: str
    fix: Fix | None = None

    @property
    def status(self) -> str:
        return "fits" if self.usage.fits else "error" if self.usage.fits is None else "does not fit"

    def to_result(self) -> dict[str, Any]:
        """The JSON result (data/check-report.schema.json)."""
        u, t = self.usage, self.table
        return {
            "source": t.label, "path": str(t.path), "line": entry_line(str(t.path), self.m),
            "device_name": t.name.device_name, "tuned_with": t.tuned_with, "m": self.m, "launch": self.kind,
            "kernel": self.kernel, "target": self.target, "status": self.status, "config": dict(t.entries[self.m]),
            "bytes": u.bytes, "limit": u.limit,
            "over": [{"resource": o.resource, "required": o.required, "limit": o.limit} for o in u.over],
            "error": u.error, "compiler": u.compiler,
            "fix": None if self.fix is None else {"config": dict(self.fix.config), "bytes": self.fix.bytes,
                                                  "change": self.fix.change},
        }


def find_kernel_source(explicit: str | None, settings: Settings | None = None) -> Path:
    """SGLang's fused-MoE kernel file: the flag, Settings.sglang_root (TILEFIT_SGLANG_ROOT) or the installed
    package (not imported)."""
    if explicit:
        return Path(explicit)
    root = (settings or Settings.from_env()).sglang_root
    if root:
        return Path(root) / moe.SOURCE
    try:
        spec = importlib.util.find_spec("sglang")
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations))).parent / moe.SOURCE
    raise InputError("no fused-MoE kernel source: pass --kernel-source path/to/fused_moe_triton_kernels.py, "
                     "install sglang (it is not imported), or set TILEFIT_SGLANG_ROOT to an unpacked wheel")


def load_kernels(path: Path, settings: Settings) -> dict[str, LoadedSource]:
    """Both kernels the tables configure, loaded from source."""
    return {name: load_source(path, name, settings.cache_dir / "check")
            for name in (moe.KERNEL, moe.KERNEL_INT4)}


def check_tables(
    tables: Sequence[Table], targets: Sequence[Target], kernels: Mapping[str, LoadedSource], *,
    problem: Problem | None = None, fix: bool = True, settings: Settings | None = None,
    workers: int | None = None, progress: Callable[[int], None] | None = None,
    shard: tuple[int, int] = (1, 1), executor: str = "local",
) -> list[Row]:
    """Size every entry of every table for every target; find a fix for each that does not fit."""
    settings = settings or Settings.from_env()
    problem = problem or Problem()
    plan, jobs = plan_jobs(tables, targets, kernels, problem)
    mine = in_shard(plan, jobs, shard)
    plan, jobs = [p for p, y in zip(plan, mine, strict=True) if y], [j for j, y in zip(jobs, mine, strict=True) if y]
    usages = size_jobs(jobs, settings, workers=workers, progress=progress, executor=executor)
    rows = [Row(t, m, kind, tgt.name, u, j.kernel) for (t, m, kind, tgt), u, j in zip(plan, usages, jobs, strict=True)]
    if fix:
        rows = find_fixes(rows, kernels, problem, settings, workers, executor=executor)
    return rows


def plan_jobs(tables: Sequence[Table], targets: Sequence[Target], kernels: Mapping[str, LoadedSource],
              problem: Problem) -> tuple[list[tuple[Table, int, LaunchKind, Target]], list[Job]]:
    """Every (table, entry, GEMM, target) of a check, and the compile job that sizes it."""
    plan = [(t, m, kind, tgt) for t in tables for m in t.entries for kind in moe.kinds(t) for tgt in targets]
    return plan, [_job(kernels, moe.launch(t, m, kind, tgt, problem), tgt) for t, m, kind, tgt in plan]


def in_shard(plan: Sequence[tuple[Table, int, LaunchKind, Target]], jobs: Sequence[Job],
             shard: tuple[int, int]) -> list[bool]:
    """Which rows of `plan` belong to shard I of N: by the kernel specialisation of the row's entry and GEMM
    (on the first target), so that all targets of an entry and every entry of any table that specialises
    the same way fall in one shard and are compiled once (an entry-by-entry split compiled the shared
    specialisations, and each same-bytes group, in every shard)."""
    index, count = shard
    if count == 1:
        return [True] * len(plan)
    first: dict[tuple[int, int, str], int] = {}
    for (table, m, kind, _), job in zip(plan, jobs, strict=True):
        if (id(table), m, kind) not in first:
            key = repr((job.kernel, spec_key(job))).encode()
            first[(id(table), m, kind)] = int(hashlib.sha256(key).hexdigest()[:8], 16) % count
    return [first[(id(t), m, kind)] == index - 1 for t, m, kind, _ in plan]


def _job(kernels: Mapping[str, LoadedSource], launch: moe.Launch, target: Target) -> Job:
    return Job(str(kernels[launch.kernel].module_path), launch.kernel, launch, target.name)


def candidates(config: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Configs near `config` that need less shared memory: fewer stages, smaller BLOCK_SIZE_K / _N.

    BLOCK_SIZE_M stays: SGLang aligns tokens to it once for both GEMMs (moe_align_block_size), so a
    down-projection config must keep the up-projection's BLOCK_SIZE_M.
    """
    stages = int(config.get("num_stages", 3))
    out = []
    for s in range(stages, 0, -1):
        for bk in _halvings(int(config["BLOCK_SIZE_K"])):
            for bn in _halvings(int(config["BLOCK_SIZE_N"])):
                cand = {**config, "num_stages": s, "BLOCK_SIZE_K": bk, "BLOCK_SIZE_N": bn}
                if cand != dict(config):
                    out.append(cand)
    return out


def _halvings(value: int) -> list[int]:
    out = [value]
    while out[-1] // 2 >= _MIN_BLOCK and len(out) < 4:
        out.append(out[-1] // 2)
    return out


def _perf(config: Mapping[str, Any], usage: Usage | None, target: Target, problem: Problem) -> float:
    """fit's performance model on the GEMM tile (GROUP_SIZE_M is an ordering, not a tile)."""
    tile = {k: config[k] for k in ("BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K") if k in config}
    tile.update({k: config[k] for k in ("num_warps", "num_stages") if k in config})
    return score(tile, usage, DeviceModel.from_target(target), problem={"BLOCK_SIZE_K": problem.hidden}).value


def find_fixes(rows: list[Row], kernels: Mapping[str, LoadedSource], problem: Problem, settings: Settings,
               workers: int | None, batch: int = 6, executor: str = "local") -> list[Row]:
    """For each row that does not fit: the best-scoring candidate that fits every GEMM of its table.

    Candidates are sized best-first by the model's score in batches; the first batch with a fitting one
    decides (the exact bytes then re-rank it).
    """
    out = list(rows)
    pending = {i: _ranked(r, problem) for i, r in enumerate(rows) if r.usage.fits is False}
    while pending:
        todo: list[tuple[int, dict[str, Any], list[Job]]] = []
        for i, cands in pending.items():
            r = rows[i]
            tgt = get_target(r.target)
            for cfg in cands[:batch]:
                todo.append((i, cfg, [_job(kernels, moe.launch(r.table, r.m, k, tgt, problem, cfg), tgt)
                                      for k in moe.kinds(r.table)]))
            pending[i] = cands[batch:]
        usages = iter(size_jobs([j for _, _, js in todo for j in js], settings, workers=workers, executor=executor))
        best: dict[int, tuple[float, Fix]] = {}
        for i, cfg, js in todo:
            us = [next(usages) for _ in js]
            if all(u.fits for u in us):
                need = max(int(u.bytes or 0) for u in us)
                value = _perf(cfg, us[0], get_target(rows[i].target), problem)
                if i not in best or value > best[i][0]:
                    best[i] = (value, Fix(cfg, need, describe_change(rows[i].table.entries[rows[i].m], cfg)))
        for i, (_, fx) in best.items():
            out[i] = dataclasses.replace(rows[i], fix=fx)
        pending = {i: c for i, c in pending.items() if i not in best and c}
    return out


def _ranked(row: Row, problem: Problem) -> list[dict[str, Any]]:
    tgt = get_target(row.target)
    base = {k: v for k, v in row.table.entries[row.m].items()}
    return sorted(candidates(base), key=lambda c: -_perf(c, None, tgt, problem))


def describe_change(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """'num_stages 4 -> 2, BLOCK_SIZE_K 128 -> 64'."""
    keys = [k for k in after if before.get(k) != after[k]]
    return ", ".join(f"{k} {before.get(k, '-')} -> {after[k]}" for k in keys) or "unchanged"

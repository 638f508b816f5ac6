"""`tilefit kb measure`: how often each recommended fix turns a failing config into a fitting one.

This harness sits above estimate and fit (it runs both); the knowledge base (kb/) only stores its records.

A plan (benchmarks/kb_measure.yaml) names real kernels, their config spaces and the targets. Every
config is estimated exactly (Triton's allocation pass; libtpu compiles for TPUs); the ones over the
limit form the failing population. Each fix of the knowledge base becomes a concrete rule (num_stages
-> 1, halve the largest block, raise vmem_limit_bytes, ...), applied to every failing config and
estimated again. A fix's rate is fixed / failing; a rule that does not apply to a config (num_stages is
already 1, the block is already at its floor) counts as not fixing it. The speed a fix costs is the
fixed config's performance-model score over the best fitting config's score of the same kernel and target
(predicted, not timed). Estimates are cached on disk, so an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import dataclasses
import datetime
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tilefit.errors import InputError
from tilefit.estimate.base import Usage
from tilefit.progress import progress_bar
from tilefit.settings import Settings
from tilefit.yamlio import load_yaml

Config = dict[str, Any]
Apply = Callable[[Config, "Usage"], "Config | None"]
_MIN_BLOCK = 16


@dataclasses.dataclass(frozen=True)
class Rule:
    """A fix of the knowledge base made concrete: the knob it turns and how. A plan refers to it by `id`."""

    id: str
    name: str
    knob: str
    apply: Apply


def _num_stages_to_1(c: Config, _u: Usage) -> Config | None:
    return {**c, "num_stages": 1} if int(c.get("num_stages", 1)) > 1 else None


def _block_keys(c: Config, fixed: Sequence[str]) -> list[str]:
    return [k for k, v in c.items() if "BLOCK" in k.upper() and k not in fixed and isinstance(v, int)]


def _halve(key: str) -> Callable[[Config, Sequence[str]], Config | None]:
    def apply(c: Config, fixed: Sequence[str]) -> Config | None:
        if key in fixed or int(c.get(key, 0)) // 2 < _MIN_BLOCK:
            return None
        return {**c, key: int(c[key]) // 2}

    return apply


def _halve_largest(c: Config, fixed: Sequence[str]) -> Config | None:
    keys = [k for k in _block_keys(c, fixed) if int(c[k]) // 2 >= _MIN_BLOCK]
    if not keys:
        return None
    key = max(keys, key=lambda k: int(c[k]))
    return {**c, key: int(c[key]) // 2}


def gpu_rules(pop: Population) -> list[Rule]:
    """The GPU shared-memory fixes as rules; the population's fixed keys are sizes no fix may change."""
    fixed, k_key = pop.fixed_keys, pop.k_key
    return [
        Rule("num-stages-to-1", "num_stages -> 1", "num_stages", _num_stages_to_1),
        Rule("halve-k-block", "halve the K-loop block (BLOCK_K)", "block_k",
             lambda c, _u: _halve(k_key)(c, fixed) if k_key else None),
        Rule("halve-largest-block", "halve the largest block", "block", lambda c, _u: _halve_largest(c, fixed)),
        Rule("floor-blocks-and-stages", "every block to its floor (16) and num_stages -> 1", "block",
             lambda c, _u: _floor_all(c, fixed)),
    ]


def _floor_all(c: Config, fixed: Sequence[str]) -> Config | None:
    keys = [k for k in _block_keys(c, fixed) if int(c[k]) > _MIN_BLOCK]
    if not keys and int(c.get("num_stages", 1)) <= 1:
        return None
    return {**c, **{k: _MIN_BLOCK for k in keys}, "num_stages": 1}


def _raise_vmem_limit(c: Config, u: Usage) -> Config | None:
    physical = int((u.vmem.physical if u.vmem else None) or u.extra.get("physical", 0) or 0)
    if u.bytes is None or not physical:
        return None
    mib = 1 << 20
    want = min(physical, -(-int(u.bytes * 1.25) // mib) * mib)
    return {**c, "vmem_limit_bytes": want}


def tpu_rules(pop: Population) -> list[Rule]:
    """The TPU scoped-VMEM fixes as rules."""
    fixed = pop.fixed_keys

    def halve_largest(c: Config, _u: Usage) -> Config | None:
        keys = [k for k, v in c.items() if k not in fixed and k != "vmem_limit_bytes" and isinstance(v, int)]
        keys = [k for k in keys if int(c[k]) // 2 >= 128]
        if not keys:
            return None
        key = max(keys, key=lambda k: int(c[k]))
        return {**c, key: int(c[key]) // 2}

    return [
        Rule("raise-vmem-limit", "raise vmem_limit_bytes to 1.25x the need (capped at physical VMEM)",
             "vmem_limit_bytes", _raise_vmem_limit),
        Rule("halve-largest-block", "halve the largest block", "block", halve_largest),
    ]


@dataclasses.dataclass
class RuleResult:
    """One rule over one population."""

    entries: Mapping[str, Mapping[str, str]]  # entry id -> {fix knob: rule id} (from the plan)
    rule: Rule
    n: int = 0
    fixed: int = 0
    speeds: list[float] = dataclasses.field(default_factory=list)
    targets: set[str] = dataclasses.field(default_factory=set)
    kernels: set[str] = dataclasses.field(default_factory=set)
    method: str = ""

    @property
    def rate(self) -> float:
        return self.fixed / self.n if self.n else 0.0

    def record(self, tools: Mapping[str, str]) -> dict[str, Any]:
        """The measurement record stored in the entry (see kb/model.py Measurement)."""
        return {
            "rate": round(self.rate, 3), "n": self.n, "fixed": self.fixed,
            "targets": sorted(self.targets), "kernels": sorted(self.kernels),
            "rule": self.rule.name, "method": self.method,
            "date": datetime.date.today().isoformat(), "tools": dict(tools),
            "median_speed": round(statistics.median(self.speeds), 3) if self.speeds else None,
        }


@dataclasses.dataclass(frozen=True)
class Population:
    """Every config of one kernel on one target, estimated, with a scorer for the ones that fit."""

    kernel: str
    target: str
    usages: list[Usage]
    fixed_keys: tuple[str, ...]
    estimate: Callable[[list[Config]], list[Usage]]
    score: Callable[[Usage], float]
    k_key: str | None = "BLOCK_K"  # the block of the K (reduction) loop, if the kernel has one

    def failing(self) -> list[Usage]:
        """Configs over the memory limit (not those failing on threads or for other reasons)."""
        return [u for u in self.usages if u.fits is False and u.bytes is not None and u.limit and u.bytes > u.limit]

    def best_score(self) -> float:
        return max((self.score(u) for u in self.usages if u.fits), default=0.0)


def measure(populations: Sequence[Population], rules_for: Callable[[Population], list[Rule]],
            entries: Mapping[str, Mapping[str, str]], method: str, sample: int | None,
            seed: int) -> list[RuleResult]:
    """Apply every rule to every failing config of every population."""
    results: dict[str, RuleResult] = {}
    step = progress_bar(len(populations), Settings.from_env().progress, unit="population", desc="kb measure")
    for pop in populations:
        step()
        failing = pop.failing()
        if sample is not None and len(failing) > sample:
            failing = random.Random(f"{seed}:{pop.kernel}:{pop.target}").sample(failing, sample)
        best = pop.best_score()
        for rule in rules_for(pop):
            res = results.setdefault(rule.id, RuleResult(entries, rule, method=method))
            fixed_cfgs = [rule.apply(dict(u.config), u) for u in failing]
            todo = [c for c in fixed_cfgs if c is not None]
            after = iter(pop.estimate(todo)) if todo else iter(())
            for cfg in fixed_cfgs:
                res.n += 1
                res.targets.add(pop.target)
                res.kernels.add(pop.kernel)
                if cfg is None:
                    continue
                u = next(after)
                if u.fits:
                    res.fixed += 1
                    if best > 0:
                        # > 1: the fixed config beats every config that fit without the fix
                        res.speeds.append(pop.score(u) / best)
    step(close=True)
    return list(results.values())


def load_plan(path: Path) -> dict[str, Any]:
    """Read a measurement plan; paths in it are relative to the plan's folder."""
    if not path.is_file():
        raise InputError(f"{path}: no such plan file (see benchmarks/kb_measure.yaml)")
    plan = load_yaml(path)
    if not isinstance(plan, Mapping) or not ({"gpu", "tpu"} & set(plan)):
        raise InputError(f"{path}: a plan needs a 'gpu' or 'tpu' section")
    return dict(plan)


def render_table(results: Sequence[RuleResult]) -> str:
    """A plain table of the rules' results."""
    rows = [f"{'entries':44} {'rule':62} {'n':>5} {'fixed':>6} {'rate':>6} {'speed':>6}  kernels / targets"]
    for r in results:
        speed = f"{statistics.median(r.speeds):.2f}" if r.speeds else "-"
        where = f"{'+'.join(sorted(r.kernels))} / {','.join(sorted(r.targets))}"
        rows.append(f"{','.join(r.entries)[:44]:44} {r.rule.name[:62]:62} {r.n:>5} {r.fixed:>6} "
                    f"{100 * r.rate:>5.0f}% {speed:>6}  {where}")
    return "\n".join(rows)


# ---------------------------------------------------------------------------- storing results


def write_record(path: Path, knob: str, record: Mapping[str, Any]) -> bool:
    """Put `record` as the `measured:` block of the fix with `knob` in one entry file; False if none.

    The file is edited as text (its comments and folded strings stay as written): the fix is the n-th
    item of the top-level `fixes:` list, found through the parsed file.
    """
    import yaml

    text = path.read_text(encoding="utf-8")
    fixes = (load_yaml(path) or {}).get("fixes") or []
    index = next((i for i, f in enumerate(fixes) if isinstance(f, Mapping) and f.get("knob") == knob), None)
    lines = text.splitlines()
    if index is None or "fixes:" not in lines:
        return False
    start = lines.index("fixes:") + 1
    end = next((i for i in range(start, len(lines)) if lines[i] and not lines[i].startswith(" ")), len(lines))
    items = [i for i in range(start, end) if lines[i].startswith("  - ")] + [end]
    if index + 1 >= len(items):
        return False
    a, b = items[index], items[index + 1]
    body = _without_block(lines[a:b], "    measured:")
    while body and not body[-1].strip():
        body.pop()
    # Populations from real libraries (the fold of benchmarks/kb_populations_*.yaml) outlive a re-measure.
    kept = (fixes[index].get("measured") or {}).get("populations")
    record = {**record, "populations": kept} if kept and "populations" not in record else record
    dumped = yaml.safe_dump({"measured": dict(record)}, sort_keys=False, allow_unicode=True, width=100)
    lines[a:b] = body + ["    " + x for x in dumped.rstrip().splitlines()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return True


def _without_block(chunk: list[str], head: str) -> list[str]:
    out, skipping = [], False
    for line in chunk:
        if line.startswith(head):
            skipping = True
            continue
        if skipping and (line.startswith("      ") or not line.strip()):
            continue
        skipping = False
        out.append(line)
    return out


# ---------------------------------------------------------------------------- the command


def store(results: Sequence[tuple[RuleResult, dict[str, str]]], kb_dir: Path) -> list[str]:
    """Write each result into the fixes the plan maps its rule id to, under `kb_dir` (the caller's folder of
    entry files); returns 'entry: knob <- rule id' lines. A plan naming an unknown rule id is an InputError."""
    known = {res.rule.id for res, _ in results}
    unknown = sorted({f"{entry}: {knob}: {rule_id!r}" for res, _ in results for entry, knobs in res.entries.items()
                      for knob, rule_id in knobs.items() if rule_id not in known})
    if unknown:
        raise InputError(f"the plan names unknown rule ids ({'; '.join(unknown)}); known: {', '.join(sorted(known))}")
    written = []
    for res, tools in results:
        if res.n == 0:
            continue
        for entry_id, knobs in res.entries.items():
            for knob, rule_id in knobs.items():
                if rule_id == res.rule.id and write_record(kb_dir / f"{entry_id}.yaml", knob, res.record(tools)):
                    written.append(f"{entry_id}: {knob} <- {rule_id}")
    return written

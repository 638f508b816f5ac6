"""The scale goals of issue 13 with margins for a shared CI box (benchmarks/explain_scale.py has the numbers)."""

from __future__ import annotations

import gc
import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tilefit.report import explain

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("explain_scale", ROOT / "benchmarks" / "explain_scale.py")
assert _spec and _spec.loader
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)
# Families of benchmarks/explain_scale.py that are on-chip errors, by the entry that must claim them.
ON_CHIP = {"triton/shared-memory", "ptxas/too-much-shared-data", "cuda/too-many-resources-for-launch",
           "hip/lds-exceeds-limit", "tpu/scoped-vmem-e1001"}


_CHILD = (
    "import contextlib, io, resource, sys\n"
    "from tilefit.cli import main\n"
    "with contextlib.redirect_stdout(io.StringIO()):\n"
    "    main(['explain', sys.argv[1], '-f', 'json'])\n"
    "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
)


def _peak_rss_mb(path: Path) -> float:
    """Peak RSS of a fresh process that explains `path` (it reports its own peak)."""
    out = subprocess.run([sys.executable, "-c", _CHILD, str(path)], capture_output=True, check=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    return int(out.stderr.decode().split()[-1]) / 1024


@pytest.mark.slow
def test_ten_megabytes_of_mixed_errors(tmp_path: Path) -> None:
    log = tmp_path / "mixed.log"
    lines = bench.make_log(log, 10)
    explain(b"OutOfResources: out of resource: shared memory, Required: 1, Hardware limit: 2")
    t0 = time.process_time()
    with log.open("rb") as fh:
        result = explain(fh)
    cpu = time.process_time() - t0
    counts: dict[str, int] = {}
    for d in result.diagnoses:
        counts[d.entry.id] = counts.get(d.entry.id, 0) + d.match.count
    assert set(counts) >= ON_CHIP and not any(d.entry.on_chip for d in result.diagnoses if "hbm" in d.entry.id)
    per_family = lines // len(bench.FAMILIES)
    assert all(counts[e] >= per_family for e in ON_CHIP), counts
    assert cpu < 6.0, cpu  # goal: under 2 s; measured about 1 s CPU on the 2-core box


@pytest.mark.slow
def test_memory_stays_bounded_by_streaming(tmp_path: Path) -> None:
    small, big = tmp_path / "small.log", tmp_path / "big.log"
    bench.make_log(small, 1)
    bench.make_log(big, 20)
    base = _peak_rss_mb(small)
    grown = _peak_rss_mb(big) - base
    assert grown < 1.5 * 20, (base, grown)  # goal: at most 1.5x the input; streamed, it stays a few MB


# CPU seconds of explain() on 1.2 MB of each adversarial input: about 3x what this branch measured on the shared
# 2-core box (0.37, 0.76, 0.75, 1.37, 0.71, 0.21, 0.45 s for 1.5 MB; before it: 2.94, 1.63, 2.22, 4.30, 2.01,
# 1.13, 1.09 s), so a loaded CI box passes and a return of the 24 s case (distinct-unmatched) does not.
# distinct-partial: 15.4 s for 1 MB before each log had a budget of prose readings, 0.7 s after (the CLI, explain14).
# long-numbers: 0.64-0.89 s for 1.2 MB on the same box in explain20 and 0.63-0.92 s at ccc10f2, measured in turns
# (the general layer's vocabulary over the read head and tail of digits): 0.8 failed on noise alone.
# distinct-launches: 0.62 s for 1.2 MB in explain21 (0.32 s at 91aa8b8, which read the grid in every one of them).
# explain23: the same box ran 4-5x slower this session, for the same code: 06badc7 took 1.54-2.07 s for
# distinct-unmatched and 2.01-2.27 s for distinct-fallback (0.37 and 0.76 s when these bounds were set), and the
# final tree the same within noise, so each bound is 2.5x what it was. The quadratic cases stay far above them (24 s,
# 15.4 s), and the ratio of the big input to the small one above checks the growth whatever the box's speed.
_SLOW_BOX = 2.5
CPU_BOUND = {kind: bound * _SLOW_BOX for kind, bound in {
    "distinct-unmatched": 1.0, "distinct-fallback": 2.0, "distinct-families": 2.0, "one-line": 3.5, "ansi-cr": 2.0,
    "long-numbers": 1.5, "utf-16": 1.2, "distinct-partial": 2.0, "distinct-launches": 2.0}.items()}


def _cpu_explain(path: Path) -> tuple[float, object]:
    """The lesser CPU time of two runs, the garbage collector held off: a full collection of a long test
    session's heap inside one run cost 0.9 s on the CI box (utf-16: 0.13 s for 0.4 MB, 1.07 s for 1.2 MB)."""
    best, result = float("inf"), None
    for _ in range(2):
        gc.collect()
        gc.disable()
        try:
            t0 = time.process_time()
            with path.open("rb") as fh:
                result = explain(fh)
            best = min(best, time.process_time() - t0)
        finally:
            gc.enable()
    return best, result


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(bench.ADVERSARIAL))
def test_adversarial_input_is_linear(tmp_path: Path, kind: str) -> None:
    """Inputs that defeat the shortcuts (no repeated line, a keyword on every line, no newline, long numbers)."""
    assert set(CPU_BOUND) == set(bench.ADVERSARIAL)
    small, big = tmp_path / "small.log", tmp_path / "big.log"
    bench.make_adversarial(small, kind, 0.4)
    bench.make_adversarial(big, kind, 1.2)
    explain(b"OutOfResources: out of resource: shared memory, Required: 1, Hardware limit: 2")
    cpu_small, _ = _cpu_explain(small)
    cpu_big, result = _cpu_explain(big)
    # three times the input: about three times the CPU (a quadratic cost would be nine times)
    assert cpu_big < 6 * cpu_small + 0.1, (cpu_small, cpu_big)
    assert cpu_big < CPU_BOUND[kind], cpu_big
    ids = {d.entry.id for d in result.diagnoses}  # type: ignore[attr-defined]
    if kind.startswith("distinct-unmatched") or kind == "long-numbers":
        assert not any(d.entry.on_chip for d in result.diagnoses)  # type: ignore[attr-defined]
    elif kind == "distinct-fallback":
        assert ids == {"generic/on-chip-mention"}
    elif kind == "distinct-partial":
        assert ids == {"generic/threads-per-block"}
    elif kind == "distinct-launches":
        assert ids == {"cuda/driver-launch-invalid-value", "cuda/invalid-configuration"}
    else:
        assert ids >= ON_CHIP - {"triton/shared-memory"} and "triton/shared-memory" in ids, ids

"""Scale benchmark of `tilefit explain`: wall time, peak memory and start-up on large mixed logs.

usage: python benchmarks/explain_scale.py [--sizes 10,100 | --lines 100000] [--stamped] [--out results.json]
       python benchmarks/explain_scale.py --adversarial all --sizes 10   # the inputs of ADVERSARIAL

Each log is error lines of mixed families (Triton shared memory with a handful of distinct numbers,
ptxas, CUDA launch, HIP LDS, TPU scoped VMEM, look-alikes: TPU HBM OOM, /dev/shm, CUDA OOM), as 8 ranks
or an autotuner print them, with a distinct noise line after every 8th, written to a temporary file;
`tilefit explain FILE -f json` runs in a child
process whose wall time and peak RSS (ru_maxrss) are reported next to the input size.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FAMILIES = (
    "[rank{r}] triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: {req}, "
    "Hardware limit: 232448. Reducing block sizes or `num_stages` may help.",
    "ptxas error   : Entry function 'kernel_{r}' uses too much shared data (0x10000 bytes, 0xc000 max)",
    "RuntimeError: CUDA error: too many resources requested for launch",
    "error: local memory (65600) exceeds limit (65536) in function 'attn_fwd_{r}'",
    "E1001: CompileTimeScopedVmemOom: Ran out of memory in memory space vmem while allocating on stack for "
    "%fusion.{r}. Scoped allocation with size 18.36M and limit 16.00M exceeded scoped vmem limit by 2.36M",
    "RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to allocate 2.00G. That was not possible. "
    "There are 1.50G free.; (0x0x0_HBM0)",
    "RuntimeError: DataLoader worker (pid 1234) is killed by signal: Bus error. It is possible that dataloader's "
    "workers are out of shared memory. Please try to raise your shared memory limit.",
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of "
    "79.10 GiB of which 1.00 MiB is free.",
)
NOISE = "2025-01-01 12:00:{s:02d} INFO step={i} loss=0.{i:04d} lr=1e-4 tokens/s=12345 shared pool ok"


def make_log(path: Path, megabytes: float, *, stamped: bool = False, lines: int | None = None) -> int:
    """Write about `megabytes` MB of error lines (one noise line per 8); returns the error-line count.

    `stamped` prefixes every line with a distinct timestamp, so that no two lines are equal (the worst
    case for the matcher, which otherwise reads each repeated line once).
    """
    target, written, errors, i = megabytes * 1_000_000, 0, 0, 0
    with path.open("w", encoding="utf-8") as fh:
        while (errors < lines) if lines is not None else (written < target):
            line = FAMILIES[i % len(FAMILIES)].format(r=i % 8, req=262144 + 1024 * (i % 5)) + "\n"
            if i % 8 == 7:
                line += NOISE.format(s=i % 60, i=i) + "\n"
            if stamped:
                line = f"2025-01-01T12:{i // 60 % 60:02d}:{i % 60:02d}.{i:07d} " + line
            fh.write(line)
            written += len(line)
            errors += 1
            i += 1
    return errors


# Inputs built to defeat the matcher's shortcuts (repeated lines read once, patterns run only near keywords):
# every line distinct in content, not only in a prefix. Each is (encoding, line maker or None for one line).
ADVERSARIAL = {
    # 13.6 MB of these took ~24 s: every line names shared memory with a failure word, no GPU word anywhere
    "distinct-unmatched": "step {i}: shared memory usage {n} bytes exceeded for block_{i}",
    # the same with GPU words: the broad fallback entry matches every line (one diagnosis, a count per line)
    "distinct-fallback": "step {i}: GPU kernel shared memory usage {n} bytes exceeded for block_{i}",
    # every family of FAMILIES with a distinct kernel name and size on every line
    "distinct-families": None,
    # a wording that states the request only, so the limit is looked for in the prose around each distinct line: 2 MB
    # of these took 54 s before each log had a budget of prose readings (match.matcher.ProseBudget)
    "distinct-partial": "RuntimeError: Block Dimensions ({n},1,1) include one or more values that exceed the device "
                        "limit",
    # the same errors as one line without a newline
    "one-line": None,
    # colour codes and carriage-return progress bars around every error
    "ansi-cr": None,
    # long numbers (30 and 40 digits) next to the words of a size
    "long-numbers": "{a} {b} shared memory Required: {c} Hardware limit: {d} kernel_{i}",
    # distinct families, written as UTF-16
    "utf-16": None,
    # refused launches whose block is only in code (Numba's, cuda.core's and <<<>>> forms), a distinct one on every
    # line: 10 MB took 16 s while the code above each hit was read once per hit
    "distinct-launches": "  File \"run{i}.py\", line 9, in <module>\n    k{i}[1, {n}](x)\n"
                         "  File \"cuda/core/_launcher.pyx\", line 70, in cuda.core._launcher.launch\n"
                         "cuda.core._utils.cuda_utils.CUDAError: "
                         "CUDA_ERROR_INVALID_VALUE: parameters out of range ({i})\nkernel_{i}<<<{i}, {n}>>>(x); "
                         "CUDA error: invalid configuration argument",
}


def make_adversarial(path: Path, kind: str, megabytes: float) -> int:
    """Write about `megabytes` MB of the adversarial input `kind` (a key of ADVERSARIAL); returns its line count."""
    target, written, i = megabytes * 1_000_000, 0, 0
    encoding = "utf-16" if kind == "utf-16" else "utf-8"
    width = 2 if kind == "utf-16" else 1
    with path.open("w", encoding=encoding, newline="") as fh:
        while written < target:
            line = _adversarial_line(kind, i)
            fh.write(line)
            written += width * len(line)
            i += 1
    return i


def _adversarial_line(kind: str, i: int) -> str:
    family = FAMILIES[i % len(FAMILIES)].format(r=i, req=262144 + i)
    template = ADVERSARIAL[kind]
    if template is not None:
        big = 7 ** 35 + i * 1_000_003  # 30-digit numbers, distinct per line
        return template.format(i=i, n=1000 + i, a=big, b=big * 3, c=big * 10**10, d=big * 10**9 + 7) + "\n"
    if kind == "one-line":
        return family + " "
    if kind == "ansi-cr":
        bar = "\r".join(f"{k * 25}%|{'#' * (k * 10)}" for k in range(i % 4))
        return f"\x1b[31m\x1b[1m{family}\x1b[0m\r{bar}\n"
    return family + "\n"


def run(path: Path) -> dict[str, object]:
    """Explain `path` in a child process; wall seconds and the child's peak RSS."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "tilefit", "explain", str(path), "-f", "json"],
                         capture_output=True, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    view = json.loads(out.stdout)
    return {
        # CPU seconds are what the child itself used: on a loaded shared machine wall time waits for a core.
        "rc": out.returncode, "wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
        "peak_rss_mb": round(after.ru_maxrss / 1024, 1), "rss_is_this_child": after.ru_maxrss > before.ru_maxrss,
        "matches": [(m["entry"], m["count"]) for m in view["matches"]],
    }


def startup() -> float:
    """Best of 5: `python -c 'import tilefit, tilefit.cli'` minus bare `python -c pass`."""
    def best(code: str) -> float:
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True)
            times.append(time.perf_counter() - t0)
        return min(times)
    return round(best("import tilefit, tilefit.cli") - best("pass"), 3)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10,100", help="log sizes in MB, comma-separated")
    ap.add_argument("--out", help="write the results as JSON here")
    ap.add_argument("--stamped", action="store_true", help="every line distinct (a timestamp on each)")
    ap.add_argument("--lines", type=int, help="write this many error lines instead of --sizes megabytes")
    ap.add_argument("--adversarial", help="'all' or comma-separated keys of ADVERSARIAL, each --sizes MB")
    args = ap.parse_args()
    if args.adversarial:
        kinds = list(ADVERSARIAL) if args.adversarial == "all" else args.adversarial.split(",")
        with tempfile.TemporaryDirectory() as tmp:
            for kind in kinds:
                for size in args.sizes.split(","):
                    path = Path(tmp) / f"{kind}.log"
                    count = make_adversarial(path, kind, float(size))
                    row = {"input_mb": round(path.stat().st_size / 1e6, 1), "lines": count, **run(path)}
                    row["matches"] = len(row["matches"])  # type: ignore[arg-type]
                    print(json.dumps({f"{kind}-{size}MB": row}), flush=True)
                    path.unlink()
        return
    results: dict[str, object] = {"startup_s": startup(), "python": sys.version.split()[0], "cpus": os.cpu_count()}
    runs = [(f"{args.lines}lines", 0.0, args.lines)] if args.lines else [
        (f"{s}MB", float(s), None) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        for label, mb, lines in runs:
            path = Path(tmp) / "mixed.log"
            count = make_log(path, mb, stamped=args.stamped, lines=lines)
            row = {"input_mb": round(path.stat().st_size / 1e6, 1), "error_lines": count, **run(path)}
            name = label + ("-stamped" if args.stamped else "")
            results[name] = row
            print(json.dumps({name: row}), flush=True)
            path.unlink()
    print(json.dumps({"startup_s": results["startup_s"]}))
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

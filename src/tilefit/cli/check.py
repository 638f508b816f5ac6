"""`tilefit check TABLE|DIR --target ...` and `tilefit refit TABLE --target T --device-name NAME`.

Exit codes: 0 every result fits, 1 something does not fit (or does not compile for a target, or a refit
found no fitting config), 2 usage or input error (nothing is written then).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tilefit.errors import InputError, TilefitError

EXIT_OK, EXIT_DOES_NOT_FIT, EXIT_USAGE = 0, 1, 2
DEFAULT_TARGETS = "sm_80,sm_86,sm_89,sm_90,sm_100,sm_120,gfx942,gfx950"


def add_parser(subparsers: Any) -> None:
    """Add `check` and `refit` to an argparse subparsers object."""
    p = subparsers.add_parser(
        "check", help="size fused-MoE config tables (files or folders) for every target; say what does not fit",
        description="Size every entry of vLLM/SGLang fused-MoE config tables for every target with Triton's "
        "own compiler (no GPU), report what does not fit and the nearest config that does.")
    p.add_argument("tables", nargs="*", metavar="TABLE|DIR|TRACE",
                   help="table files or folders of them (E=..,N=..,device_name=...json), or a trace of "
                   "`tilefit record` (JSONL)")
    p.add_argument("--target", "-t", default=DEFAULT_TARGETS, help=f"comma-separated targets ({DEFAULT_TARGETS})")
    _common(p)
    p.add_argument("--format", "-f", choices=("text", "json", "sarif", "junit"), default="text")
    p.add_argument("--output", "-o", help="write the report here (atomically) instead of stdout")
    p.add_argument("--verbose", "-v", action="store_true", help="text: list the entries that fit too")
    p.add_argument("--no-fix", action="store_true", help="do not search for a fitting config")
    p.add_argument("--shard", default="1/1", metavar="I/N", help="check the I-th of N slices (merge with --merge)")
    p.add_argument("--executor", choices=("local", "ray"), default="local",
                   help="where compiles run: local worker processes, or a Ray cluster (tilefit[ray]; RAY_ADDRESS)")
    p.add_argument("--merge", nargs="+", metavar="REPORT.json", help="join JSON reports of shards and render them")
    p.add_argument("--triton", default="recorded", metavar="VERSION",
                   help="Triton version to size with: a version (provisioned in a cached environment when it is "
                   "not installed), 'installed', or 'recorded' (default: a trace's recording version, else installed)")
    p.set_defaults(func=run_check)
    r = subparsers.add_parser(
        "refit", help="write a same-format config table where every entry fits a target",
        description="Every entry that fits the target is kept; every other is replaced by the best-scoring "
        "nearby config that fits (fewer stages, smaller BLOCK_SIZE_K/N); each change is printed with how much "
        "the entry was over and what the new config needs. Written atomically; nothing is written when some "
        "entry has no fitting config or the target cannot run the table at all (fp8 e4m3 below sm_89).")
    r.add_argument("table", help="a table file E=..,N=..,device_name=...json")
    r.add_argument("--target", "-t", help="the target to fit (default: the target of --device-name)")
    r.add_argument("--device-name", required=True,
                   help="your GPU's name as torch.cuda.get_device_name() prints it; names the output file")
    r.add_argument("--out", default=".", help="folder to write into (VLLM_TUNED_CONFIG_FOLDER); default .")
    _common(r)
    r.set_defaults(func=run_refit)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kernel-source", help="SGLang's fused_moe_triton_kernels.py (default: the installed "
                   "sglang's, found without importing it, or TILEFIT_SGLANG_ROOT)")
    p.add_argument("--hidden", type=int, default=4096, help="hidden size (not in a table's name; default 4096)")
    p.add_argument("--topk", type=int, default=8, help="experts per token (default 8)")
    p.add_argument("--workers", type=int, help="compiler processes (default TILEFIT_WORKERS or one per core)")


def _shard(text: str) -> tuple[int, int]:
    i, sep, n = text.partition("/")
    if not sep or not i.isdigit() or not n.isdigit() or not 1 <= int(i) <= int(n):
        raise InputError(f"--shard {text!r}: expected I/N with 1 <= I <= N, e.g. 2/4")
    return int(i), int(n)


def _problem(args: argparse.Namespace) -> Any:
    from tilefit.check.moe import Problem

    if args.hidden < 16 or args.topk < 1:
        raise InputError(f"--hidden {args.hidden} / --topk {args.topk}: expected hidden >= 16 and topk >= 1")
    return Problem(hidden=args.hidden, topk=args.topk)


def _targets(text: str) -> list[Any]:
    from tilefit.targets import get_target

    out = []
    for name in [t.strip() for t in text.split(",") if t.strip()]:
        t = get_target(name)
        if t.triton is None:
            raise InputError(f"{t.name} is not a Triton target (config tables are for GPUs)")
        out.append(t)
    if not out:
        raise InputError("--target: name at least one target, e.g. sm_86,gfx942")
    return out


def _is_trace(path: str) -> bool:
    """A JSONL file whose first line is a JSON object with a "kind" (a tilefit trace)."""
    import json

    p = Path(path)
    if not p.is_file() or p.name.startswith("E="):
        return False
    try:
        with p.open(encoding="utf-8") as f:
            first = f.readline(1 << 20)
        return isinstance(obj := json.loads(first), dict) and "kind" in obj
    except (OSError, UnicodeDecodeError, ValueError):
        return False


def run_check(args: argparse.Namespace) -> int:
    """Run `tilefit check`; returns the exit code."""
    from tilefit.check import report

    try:
        if args.output:  # before the compiles: a bad --output costs nothing
            from tilefit.check.tables import writable_folder

            if Path(args.output).is_dir():
                raise InputError(f"--output {args.output} is a folder; name the report file")
            writable_folder(Path(args.output).parent)
        if not args.merge:
            code = _provisioned(args)
            if code is not None:
                return code
        doc = report.merge([report.load_report(p) for p in args.merge]) if args.merge else _check(args)
        text = report.render(doc, args.format, args.verbose)
        _emit(text, args.output)
    except TilefitError as exc:
        print(f"tilefit: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return report.exit_code(doc)


def _provisioned(args: argparse.Namespace) -> int | None:
    """Re-run in a cached environment when the wanted Triton is not the installed one; None to go on here."""
    from tilefit.check import provision
    from tilefit.settings import Settings

    if Settings.from_env().provisioned_triton:
        return None
    wanted = args.triton
    if wanted == "recorded":
        traces = [p for p in args.tables if _is_trace(p)]
        wanted = _recorded_version(traces[0]) if traces else "installed"
    if wanted in ("installed", provision.installed_triton()):
        return None
    python = provision.ensure(wanted, Settings.from_env().cache_dir)
    print(f"tilefit: sizing with triton {wanted} ({python})", file=sys.stderr)
    return provision.run_in(python, _argv(args), wanted)


def _recorded_version(path: str) -> str:
    from tilefit.check.replay import read

    headers = read(path).headers
    versions = sorted({h.triton for h in headers})
    if len(versions) > 1:
        raise InputError(f"{path} was recorded with several Triton versions ({', '.join(versions)}); "
                         "pick one with --triton")
    return versions[0] if versions else "installed"


def _argv(args: argparse.Namespace) -> list[str]:
    """The same check, for a re-run (the output goes to the same place)."""
    out = ["check", *args.tables, "--target", args.target, "--format", args.format, "--shard", args.shard,
           "--hidden", str(args.hidden), "--topk", str(args.topk)]
    for flag, value in (("--output", args.output), ("--kernel-source", args.kernel_source),
                        ("--workers", args.workers), ("--executor", args.executor)):
        if value is not None:
            out += [flag, str(value)]
    return out + (["--verbose"] if args.verbose else []) + (["--no-fix"] if args.no_fix else [])


def _check(args: argparse.Namespace) -> dict[str, Any]:
    from tilefit.check import report, run
    from tilefit.check.size import triton_version
    from tilefit.check.tables import find_tables, read_table
    from tilefit.progress import progress_bar
    from tilefit.settings import Settings

    if not args.tables:
        raise InputError("no tables: give table files or folders (or --merge REPORT.json ...)")
    shard, problem, targets = _shard(args.shard), _problem(args), _targets(args.target)
    settings = Settings.from_env()
    traces = [p for p in args.tables if _is_trace(p)]
    if traces:
        if len(traces) != len(args.tables):
            raise InputError("give either traces or config tables, not both")
        return _check_traces(traces, targets, shard, args, settings)
    tables = [read_table(p) for p in find_tables(args.tables)]
    source = run.find_kernel_source(args.kernel_source, settings)
    kernels = run.load_kernels(source, settings)
    total = sum(len(t.entries) * (1 if t.name.down else 2) for t in tables) * len(targets)
    step = progress_bar(total // shard[1], settings.progress and sys.stderr.isatty(), unit="launch", desc="check")
    def advance(n: int) -> None:
        for _ in range(n):
            step()

    rows = run.check_tables(tables, targets, kernels, problem=problem, fix=not args.no_fix, settings=settings,
                            workers=args.workers, progress=advance, shard=shard, executor=args.executor)
    step(close=True)
    return report.to_json(rows, compiler=f"triton {triton_version()}", targets=[t.name for t in targets],
                          problem={"hidden": problem.hidden, "topk": problem.topk}, shard=shard,
                          kernel_source=str(source))


def _check_traces(paths: list[str], targets: list[Any], shard: tuple[int, int], args: argparse.Namespace,
                  settings: Any) -> dict[str, Any]:
    from tilefit.check import replay, report
    from tilefit.check.size import triton_version
    from tilefit.progress import progress_bar

    rows: list[Any] = []
    for path in paths:
        trace = replay.read(path)
        if not trace.records:
            why = f" ({trace.problems[0]})" if trace.problems else ""
            raise InputError(f"{path}: no kernel records to check{why}")
        step = progress_bar(len(trace.records) * len(targets), settings.progress and sys.stderr.isatty(),
                            unit="launch", desc="check")

        def advance(n: int, step: Any = step) -> None:
            for _ in range(n):
                step()

        rows += replay.check_trace(trace, targets, fix=not args.no_fix, settings=settings, workers=args.workers,
                                   progress=advance, shard=shard)
        step(close=True)
    return report.to_json(rows, compiler=f"triton {triton_version()}", targets=[t.name for t in targets],
                          problem={"hidden": args.hidden, "topk": args.topk}, shard=shard,
                          kernel_source=", ".join(paths))


def _emit(text: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(text)
        return
    from tilefit.check.tables import write_atomically

    write_atomically(Path(output), text)


def run_refit(args: argparse.Namespace) -> int:
    """Run `tilefit refit`; returns the exit code."""
    try:
        return _refit(args)
    except TilefitError as exc:
        print(f"tilefit: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


def _refit(args: argparse.Namespace) -> int:
    from tilefit.check import run
    from tilefit.check.devices import device_target, require_device_target
    from tilefit.check.tables import read_table, writable_folder, write_table
    from tilefit.settings import Settings

    named = device_target(args.device_name)
    target_name = args.target or require_device_target(args.device_name)
    (target,) = _targets(target_name)
    if named is not None and named != target.name:
        raise InputError(f"--device-name {args.device_name!r} is a {named} device, not {target.name}")
    table = read_table(args.table)
    writable_folder(Path(args.out))  # before the compiles: a bad --out costs nothing
    settings = Settings.from_env()
    kernels = run.load_kernels(run.find_kernel_source(args.kernel_source, settings), settings)
    rows = run.check_tables([table], [target], kernels, problem=_problem(args), settings=settings,
                            workers=args.workers)
    compiler = next((r.usage.compiler for r in rows if r.usage.compiler), "") or "triton"
    cannot = _cannot_run(rows, target.name)
    if cannot:
        print(f"tilefit: {table.path.name}: {cannot}; nothing written", file=sys.stderr)
        return EXIT_DOES_NOT_FIT
    entries, changed, broken = _refitted(table, rows)
    out = Path(args.out) / table.name.file_name(args.device_name)
    if broken:
        for m, why in broken:
            print(f"M={m}: {why}", file=sys.stderr)
        print(f"tilefit: {len(broken)} of {len(table.entries)} entries have no config that fits {target.name} "
              f"(sized with {compiler}); nothing written", file=sys.stderr)
        return EXIT_DOES_NOT_FIT
    write_table(out, entries)
    for m, change in changed:
        print(f"M={m}: {change}")
    print(f"wrote {out}: {len(changed)} of {len(entries)} entries changed to fit {target.name}, "
          f"{len(entries) - len(changed)} kept as they fit (sized with {compiler})")
    return EXIT_OK


def _cannot_run(rows: list[Any], target: str) -> str | None:
    """The message when the table cannot run on the target with any config (a `target` cause), else None."""
    from tilefit.check.causes import cause_of

    for r in rows:
        cause = cause_of(r.usage.error, target, r.usage.compiler) if r.usage.fits is None else None
        if cause and cause["kind"] == "target":
            message = cause["message"].replace("this cannot", "this table cannot")
            return f"{message} ({r.usage.compiler}); {cause['fix']}"
    return None


def _refitted(table: Any, rows: list[Any]) -> tuple[dict[int, dict[str, Any]], list[tuple[int, str]],
                                                    list[tuple[int, str]]]:
    """The new entries; (m, change) of each replaced one; (m, reason) of each with no fitting config."""
    entries = {m: dict(c) for m, c in table.entries.items()}
    changed: list[tuple[int, str]] = []
    broken: list[tuple[int, str]] = []
    for m in table.entries:
        mine = [r for r in rows if r.m == m]
        if all(r.usage.fits for r in mine):
            continue
        fix = next((r.fix for r in mine if r.fix is not None), None)
        bad = max((r for r in mine if not r.usage.fits), key=lambda r: r.usage.bytes or 0)
        if fix is None:
            broken.append((m, _broken_text(bad)))
            continue
        entries[m] = dict(fix.config)
        changed.append((m, f"{_over_text(bad)} -> {fix.change} ({fix.bytes} B)"))
    return entries, changed, broken


def _over_text(row: Any) -> str:
    """'up GEMM needs 122880 B > 101376 B (+21504 B, 1.21x)'."""
    u = row.usage
    if not u.bytes or not u.limit:
        return f"{row.kind} GEMM does not fit"
    return f"{row.kind} GEMM needs {u.bytes} B > {u.limit} B (+{u.bytes - u.limit} B, {u.bytes / u.limit:.2f}x)"


def _broken_text(row: Any) -> str:
    from tilefit.check.causes import cause_of

    u = row.usage
    if u.fits is None:
        cause = cause_of(u.error, row.target, u.compiler)
        return f"does not compile: {cause['message']}" if cause else f"does not compile: {u.error}"
    return f"{_over_text(row)}; no nearby config fits (fewer stages, halved BLOCK_SIZE_K/N were tried)"

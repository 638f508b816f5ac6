"""`tilefit estimate file.py:kernel --target sm_90,gfx942 --spec space.yaml`: a thin table/JSON layer.

The kernel, spec and targets go through tilefit/spec.py (spec -> backend -> kernel -> space); each target
is served by its backend (estimate/__init__.py: Triton for GPUs, Pallas for TPUs). The kernel file is
imported, so its module-level code runs. Exit codes: 0 every config fits every target, 1 something does
not fit or failed to compile, 2 usage or input error.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from tilefit.errors import TilefitError
from tilefit.estimate.base import Usage

EXIT_OK, EXIT_DOES_NOT_FIT, EXIT_USAGE = 0, 1, 2


def add_parser(subparsers: Any) -> None:
    """Add the `estimate` subcommand to an argparse subparsers object."""
    p = subparsers.add_parser(
        "estimate", help="on-chip memory of kernel configs for GPU/TPU targets, without the device",
        description="Ask the real compiler (Triton for GPUs, libtpu for TPUs) how much on-chip memory "
        "each config of a kernel needs on each target, and whether it fits. The kernel file is imported "
        "(its module-level code runs).",
    )
    add_kernel_arguments(p, target_help="comma-separated targets, e.g. sm_90,sm_86,gfx942,v5e "
                         "(default: the spec's targets, else the current GPU)")
    p.add_argument("--mode", choices=("fast", "full", "analytic"), default="fast",
                   help="fast: exact shared memory (default); full: also registers/spills; analytic: instant")
    p.add_argument("--format", "-f", choices=("table", "json", "html"), default="table")
    p.add_argument("--workers", type=positive_int,
                   help="compiler processes (default TILEFIT_WORKERS or one per core)")
    p.set_defaults(func=run)


def add_kernel_arguments(p: Any, target_help: str) -> None:
    """The arguments `estimate` and `fit` share: kernel, target, spec, argument types, config space."""
    from tilefit.space import MAX_CONFIGS

    p.add_argument("kernel", nargs="?", help="path/to/file.py:kernel_name (or `kernel:` in --spec); the file "
                   "is imported, so its module-level code runs")
    p.add_argument("--target", "-t", help=target_help)
    p.add_argument("--spec", help="YAML with kernel, args (name: type), space (key: [values]), targets")
    p.add_argument("--arg", action="append", default=[], metavar="NAME=TYPE",
                   help="argument type, e.g. a_ptr='*fp16:16' or M=i32:16 (repeatable)")
    p.add_argument("--config", action="append", default=[], metavar="KEY=V1,V2",
                   help="values of a constexpr or launch option; the product is the space (repeatable)")
    p.add_argument("--backend", help="the backend to use (triton, pallas, helion); default: by target")
    p.add_argument("--max-configs", type=positive_int, default=MAX_CONFIGS,
                   help=f"refuse spaces larger than this (default {MAX_CONFIGS})")


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


def fraction(text: str) -> float:
    """argparse type: a finite number >= 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text} must be a finite number >= 0")
    return value


def load_spec(args: argparse.Namespace) -> Any:
    """The command line's kernel, --spec, --arg, --config, --target and --backend as one tilefit.spec.Spec."""
    from tilefit import spec as sp

    base = sp.read_spec(args.spec)
    spec = base.merged(
        kernel=args.kernel, args=sp.parse_pairs(args.arg, "--arg"), space=sp.config_pairs(args.config),
        targets=sp.split(args.target) if args.target else (), backend=args.backend,
    )
    if not spec.targets:  # neither --target nor the spec: [tool.tilefit] targets / TILEFIT_TARGETS
        from tilefit.settings import Settings

        spec = spec.merged(targets=Settings.from_env().targets)
    return spec


def run(args: argparse.Namespace) -> int:
    """Run `tilefit estimate`; prints results, returns the exit code."""
    try:
        usages = _estimate(args)
    except TilefitError as exc:  # MissingExtraError included: it names the extra to install
        print(f"tilefit: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.format == "html":
        from tilefit.htmlreport import render_estimate_html

        print(render_estimate_html([u.to_dict() for u in usages], f"tilefit estimate {args.kernel or args.spec}"))
    else:
        print(render_json(usages) if args.format == "json" else render_table(usages))
    return EXIT_OK if usages and all(u.fits for u in usages) else EXIT_DOES_NOT_FIT


def _estimate(args: argparse.Namespace) -> list[Usage]:
    from tilefit import spec as sp

    spec = load_spec(args)
    jobs = sp.plan(spec, sp.resolve_targets(spec.targets), max_configs=args.max_configs)
    return [u for job in jobs for u in job.estimate(args.mode, workers=args.workers)]


def render_json(usages: Sequence[Usage]) -> str:
    """The documented JSON output: a list of Usage.to_dict()."""
    return json.dumps([u.to_dict() for u in usages], indent=2, default=str)


def render_table(usages: Sequence[Usage]) -> str:
    """One row per config and target: fits, bytes, percent of the limit, registers (full mode)."""
    full = any(u.registers is not None for u in usages)
    head = ["config", "target", "fits", "bytes", "limit", "%"] + (["regs", "spills"] if full else []) + ["note"]
    rows = [head]
    for u in usages:
        fits = "error" if u.fits is None else "fits" if u.fits else "does not fit"
        pct = f"{u.percent:.0f}%" if u.percent is not None else "-"
        row = [_config(u.config), u.target, fits, _num(u.bytes), _num(u.limit), pct]
        if full:
            row += [_num(u.registers), _num(u.spills)]
        rows.append([*row, _note(u)])
    widths = [max(len(r[i]) for r in rows) for i in range(len(head) - 1)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=False)) + "  " + r[-1] for r in rows]
    n_fit = sum(bool(u.fits) for u in usages)
    lines.append(f"{n_fit} of {len(usages)} fit")
    return "\n".join(line.rstrip() for line in lines)


def _config(config: Mapping[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in config.items()) or "(defaults)"


def _num(value: int | None) -> str:
    return "-" if value is None else str(value)


def _note(u: Usage) -> str:
    if u.error:
        # Triton's CompilationError puts the location first and the cause (e.g. a NameError) last.
        lines = [ln.strip() for ln in u.error.strip().splitlines() if ln.strip()]
        if not lines:
            return u.error
        text = lines[0] if len(lines) == 1 else f"{lines[0]} ... {lines[-1]}"
        return text[:200]
    if u.vmem is not None and u.vmem.vmem_limit_bytes is not None and not u.fits:
        return f"fits with pltpu.CompilerParams(vmem_limit_bytes={u.vmem.vmem_limit_bytes})"
    if u.vmem is not None and u.mode == "analytic" and u.vmem.compiles:
        why = "model unsure" if u.vmem.unsure else "near the limit"
        return f"{why}: fit checked by one libtpu compile"
    return u.reason

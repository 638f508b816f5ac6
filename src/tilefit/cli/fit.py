"""`tilefit fit file.py:kernel --target sm_90 --spec space.yaml`: the fastest config that fits, and why.

Same kernel/spec/--arg/--config inputs as `tilefit estimate` (cli/estimate.py). Exit codes: 0 a config
fits (printed with the ranking and every dropped config), 1 no config fits (the NoConfigFits message),
2 usage or input error.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tilefit.errors import InputError, NoConfigFits, TilefitError

EXIT_OK, EXIT_NO_FIT, EXIT_USAGE = 0, 1, 2


def add_parser(subparsers: Any) -> None:
    """Add the `fit` subcommand to an argparse subparsers object."""
    p = subparsers.add_parser(
        "fit", help="choose the fastest config of a space that fits a GPU's shared memory",
        description="Prune a config space analytically, size the rest exactly with the real compiler, "
        "rank what fits by a performance model, and say what never fits when nothing does.",
    )
    from tilefit.cli.estimate import add_kernel_arguments

    add_kernel_arguments(p, target_help="one target, e.g. sm_90 (default: the spec's first, else the GPU)")
    p.add_argument("--problem", action="append", default=[], metavar="BLOCK_KEY=EXTENT",
                   help="problem extent tiled by a block key, e.g. BLOCK_M=4096 (waves, padding)")
    p.add_argument("--sm-count", type=int, help="SMs of the device, for wave quantisation")
    p.add_argument("--margin", type=float, default=0.10, help="analytic pruning margin (default 0.10)")
    p.add_argument("--top", type=int, default=10, help="ranked configs to print (default 10)")
    p.add_argument("--format", "-f", choices=("text", "json"), default="text")
    p.add_argument("--workers", type=int, help="compiler processes (default TILEFIT_WORKERS or one per core)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run `tilefit fit`; prints the result, returns the exit code."""
    try:
        result = _fit(args)
    except NoConfigFits as exc:
        if args.format == "json":
            print(json.dumps({"fits": False, "error": str(exc), "target": exc.target, "limit": exc.limit,
                              "smallest": exc.smallest, "consumer": exc.consumer, "fix": exc.fix}, indent=1))
        else:
            print(f"tilefit: {exc}", file=sys.stderr)
        return EXIT_NO_FIT
    except TilefitError as exc:
        print(f"tilefit: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.format == "json":
        print(json.dumps(result.to_dict(), indent=1, default=str))
    else:
        print(result.report(top=args.top, per_reason=args.top))
    return EXIT_OK


def _fit(args: argparse.Namespace) -> Any:
    from tilefit.cli.estimate import _as_space, _load_spec, _load_triton_kernel, _parse_pairs, _values

    spec, base = _load_spec(args.spec)
    ref = args.kernel or spec.get("kernel")
    if not ref:
        raise InputError("no kernel: give path/to/file.py:kernel_name or `kernel:` in --spec")
    if not args.kernel and base is not None and not Path(str(ref).rpartition(":")[0]).is_absolute():
        ref = str(base / str(ref))
    space = {**_as_space(spec.get("space") or {}), **_parse_pairs(args.config, "--config", _values)}
    if not space:
        raise InputError("no space: give --config KEY=V1,V2 or `space:` in --spec")
    arg_types = {**{str(k): str(v) for k, v in (spec.get("args") or {}).items()},
                 **_parse_pairs(args.arg, "--arg", str)}
    targets = spec.get("targets") or []
    target = args.target or (str(targets[0]) if targets else "auto")
    tpus = _tpu_targets(args.target or ",".join(str(t) for t in targets))
    if tpus:  # a Pallas kernel: one choice per TPU target, sized by libtpu
        from tilefit.fit.pallas import cli_fit

        return cli_fit(str(ref), {**spec, "space": space}, tpus)
    problem = {k: int(v) for k, v in _parse_pairs(args.problem, "--problem", str).items()}
    try:
        from tilefit.estimate import triton as tt
    except ImportError as exc:
        from tilefit.errors import MissingExtraError

        raise MissingExtraError("triton", "triton") from exc
    from tilefit.fit import fit

    kernel = _load_triton_kernel(str(ref), tt)
    return fit(kernel, space, target, signature=arg_types, problem=problem or None, sm_count=args.sm_count,
               margin=args.margin, workers=args.workers)


def _tpu_targets(names: str) -> list[str]:
    """The names when every one is a TPU target (`--target v5e,v6e`), else empty (a GPU fit)."""
    from tilefit.targets import load_targets

    split = [n.strip() for n in names.split(",") if n.strip()]
    known = {t.name for t in load_targets().targets if t.kind == "tpu"}
    resolved = [load_targets().get(n).name for n in split] if split else []
    return resolved if resolved and all(n in known for n in resolved) else []

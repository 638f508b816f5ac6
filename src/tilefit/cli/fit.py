"""`tilefit fit file.py:kernel --target sm_90 --spec space.yaml`: the fastest config that fits, and why.

Same kernel/spec/--arg/--config inputs as `tilefit estimate`, through the same loader (tilefit/spec.py);
the target's backend (estimate/__init__.py) sizes the configs. Exit codes: 0 a config fits (printed with
the ranking and every dropped config), 1 no config fits (the NoConfigFits message), 2 usage or input error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from tilefit.cli.estimate import add_kernel_arguments, fraction, load_spec, positive_int
from tilefit.errors import InputError, NoConfigFits, TilefitError

EXIT_OK, EXIT_NO_FIT, EXIT_USAGE = 0, 1, 2


def add_parser(subparsers: Any) -> None:
    """Add the `fit` subcommand to an argparse subparsers object."""
    p = subparsers.add_parser(
        "fit", help="choose the fastest config of a space that fits a GPU's shared memory",
        description="Prune a config space analytically, size the rest exactly with the real compiler, "
        "rank what fits by a performance model, and say what never fits when nothing does. The kernel "
        "file is imported (its module-level code runs).",
    )
    add_kernel_arguments(p, target_help="one target, e.g. sm_90 (default: the spec's first, else the GPU)")
    p.add_argument("--problem", action="append", default=[], metavar="BLOCK_KEY=EXTENT",
                   help="problem extent tiled by a block key, e.g. BLOCK_M=4096 (waves, padding)")
    p.add_argument("--sm-count", type=positive_int, help="SMs of the device, for wave quantisation")
    p.add_argument("--margin", type=fraction, default=0.10, help="analytic pruning margin (default 0.10)")
    p.add_argument("--top", type=positive_int, default=10, help="ranked configs to print (default 10)")
    p.add_argument("--format", "-f", choices=("text", "json", "html"), default="text")
    p.add_argument("--workers", type=positive_int,
                   help="compiler processes (default TILEFIT_WORKERS or one per core)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run `tilefit fit`; prints the result, returns the exit code."""
    try:
        result = _fit(args)
    except NoConfigFits as exc:
        if args.format in ("json", "html"):
            doc = {"fits": False, "error": str(exc), "target": exc.target, "limit": exc.limit,
                   "smallest": exc.smallest, "consumer": exc.consumer, "fix": exc.fix}
            print(json.dumps(doc, indent=1) if args.format == "json" else _html(doc, args))
        else:
            print(f"tilefit: {exc}", file=sys.stderr)
        return EXIT_NO_FIT
    except TilefitError as exc:
        print(f"tilefit: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.format == "json":
        print(json.dumps(result.to_dict(), indent=1, default=str))
    elif args.format == "html":
        print(_html(json.loads(json.dumps(result.to_dict(), default=str)), args))
    else:
        print(result.report(top=args.top, per_reason=args.top))
    return EXIT_OK


def _html(doc: dict[str, Any], args: argparse.Namespace) -> str:
    from tilefit.htmlreport import render_fit_html

    return render_fit_html(doc, f"tilefit fit {args.kernel or args.spec}")


def _fit(args: argparse.Namespace) -> Any:
    from tilefit import spec as sp
    from tilefit.fit.core import RankInputs, SearchPolicy, fit

    spec = load_spec(args)
    tpus = _tpu_targets(spec.targets)
    if tpus and spec.kernel:  # a Pallas kernel: one choice per TPU target, sized by libtpu
        from tilefit.fit.pallas import cli_fit

        return cli_fit(spec.kernel, spec.as_mapping(), tpus)
    problem = sp.problem_pairs(args.problem)
    policy = SearchPolicy(margin=args.margin, workers=args.workers, max_configs=args.max_configs)
    target = sp.resolve_targets(spec.targets[:1])[0]
    job = sp.plan(spec, [target], max_configs=args.max_configs)[0]
    if job.configs == [{}]:
        raise InputError("no space: give --config KEY=V1,V2 or `space:` in --spec")
    return fit(job.kernel, job.configs, target, estimator=job.estimator(), policy=policy,
               rank=RankInputs(problem=problem or None, sm_count=args.sm_count))


def _tpu_targets(names: Sequence[str]) -> list[str]:
    """The names when every one is a TPU target (`--target v5e,v6e`), else empty (a GPU fit)."""
    from tilefit.targets import load_targets

    found = [load_targets().get(str(n)) for n in names]
    return [t.name for t in found] if found and all(t.kind == "tpu" for t in found) else []

"""`tilefit estimate file.py:kernel --target sm_90,gfx942 --spec space.yaml`: a thin table/JSON layer.

GPU targets go to estimate/triton.py, TPU targets to estimate/pallas.py's `cli_estimate`. Exit codes:
0 every config fits every target, 1 something does not fit or failed to compile, 2 usage or input error.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tilefit.errors import InputError, MissingExtraError, TilefitError
from tilefit.estimate.base import Usage

EXIT_OK, EXIT_DOES_NOT_FIT, EXIT_USAGE = 0, 1, 2


def add_parser(subparsers: Any) -> None:
    """Add the `estimate` subcommand to an argparse subparsers object."""
    p = subparsers.add_parser(
        "estimate", help="on-chip memory of kernel configs for GPU/TPU targets, without the device",
        description="Ask the real compiler (Triton for GPUs, libtpu for TPUs) how much on-chip memory "
        "each config of a kernel needs on each target, and whether it fits.",
    )
    add_kernel_arguments(p, target_help="comma-separated targets, e.g. sm_90,sm_86,gfx942,v5e "
                         "(default: the spec's targets, else the current GPU)")
    p.add_argument("--mode", choices=("fast", "full", "analytic"), default="fast",
                   help="fast: exact shared memory (default); full: also registers/spills; analytic: instant")
    p.add_argument("--format", "-f", choices=("table", "json"), default="table")
    p.add_argument("--workers", type=int, help="compiler processes (default TILEFIT_WORKERS or one per core)")
    p.set_defaults(func=run)


def add_kernel_arguments(p: Any, target_help: str) -> None:
    """The arguments `estimate` and `fit` share: kernel, target, spec, argument types, config space."""
    p.add_argument("kernel", nargs="?", help="path/to/file.py:kernel_name (or `kernel:` in --spec)")
    p.add_argument("--target", "-t", help=target_help)
    p.add_argument("--spec", help="YAML with kernel, args (name: type), space (key: [values]), targets")
    p.add_argument("--arg", action="append", default=[], metavar="NAME=TYPE",
                   help="argument type, e.g. a_ptr='*fp16:16' or M=i32:16 (repeatable)")
    p.add_argument("--config", action="append", default=[], metavar="KEY=V1,V2",
                   help="values of a constexpr or launch option; the product is the space (repeatable)")


def run(args: argparse.Namespace) -> int:
    """Run `tilefit estimate`; prints results, returns the exit code."""
    try:
        usages = _estimate(args)
    except TilefitError as exc:  # MissingExtraError included: it names the extra to install
        print(f"tilefit: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(render_json(usages) if args.format == "json" else render_table(usages))
    return EXIT_OK if usages and all(u.fits for u in usages) else EXIT_DOES_NOT_FIT


def _estimate(args: argparse.Namespace) -> list[Usage]:
    from tilefit.targets import load_targets

    spec, base = _load_spec(args.spec)
    ref = args.kernel or spec.get("kernel")
    if not ref:
        raise InputError("no kernel: give path/to/file.py:kernel_name or `kernel:` in --spec")
    if not args.kernel and base is not None and not Path(str(ref).rpartition(":")[0]).is_absolute():
        ref = str(base / str(ref))
    space = {**_as_space(spec.get("space") or {}), **_parse_pairs(args.config, "--config", _values)}
    arg_types = {**{str(k): str(v) for k, v in (spec.get("args") or {}).items()},
                 **_parse_pairs(args.arg, "--arg", str)}
    names = _split(args.target) if args.target else [str(t) for t in _as_list(spec.get("targets") or [])]
    targets = [load_targets().get(n) for n in names] if names else []
    tpus = [t for t in targets if t.kind == "tpu"]
    gpus = [t for t in targets if t.kind != "tpu"]
    out: list[Usage] = []
    if gpus or not targets:
        out += _gpu(str(ref), arg_types, space, gpus or ["auto"], args)
    if tpus:
        out += _tpu(str(ref), {**spec, "space": space}, tpus, args.mode)
    return out


def _gpu(ref: str, arg_types: Mapping[str, str], space: Mapping[str, list[Any]], targets: Sequence[Any],
         args: argparse.Namespace) -> list[Usage]:
    try:
        from tilefit.estimate import triton as tt
    except ImportError as exc:
        raise MissingExtraError("triton", "triton") from exc
    kernel = _load_triton_kernel(ref, tt)
    keys = list(space)
    configs = [dict(zip(keys, vals, strict=True)) for vals in itertools.product(*(space[k] for k in keys))]
    est = tt.TritonEstimator(kernel, signature=arg_types)
    return est.estimate_many(configs or [{}], list(targets), mode=args.mode, workers=args.workers)


def _load_triton_kernel(ref: str, tt: Any) -> Any:
    path, sep, name = ref.rpartition(":")
    if not sep or not path or not name:
        raise InputError(f"kernel reference {ref!r} must look like path/to/file.py:kernel_name")
    if not Path(path).is_file():
        raise InputError(f"kernel file {path} does not exist")
    try:
        module = tt.load_module_file(path)
    except ModuleNotFoundError as exc:
        if exc.name == "triton":
            raise MissingExtraError("triton", "triton") from exc
        raise InputError(f"{path}: cannot import {exc.name}") from exc
    except SyntaxError as exc:
        raise InputError(f"{path}:{exc.lineno}: {exc.msg}") from exc
    if not hasattr(module, name):
        raise InputError(f"{path} defines no {name!r}")
    return tt.unwrap_kernel(getattr(module, name))


def _tpu(ref: str, spec: Mapping[str, Any], targets: list[Any], mode: str) -> list[Usage]:
    try:
        from tilefit.estimate.pallas import cli_estimate
    except ImportError as exc:
        raise InputError(f"TPU targets need tilefit.estimate.pallas.cli_estimate, which is unavailable "
                         f"({exc}); install tilefit[tpu] or use GPU targets") from exc
    usages: list[Usage] = cli_estimate(ref, spec, targets, mode)
    return usages


def _load_spec(path: str | None) -> tuple[dict[str, Any], Path | None]:
    if path is None:
        return {}, None
    import yaml

    p = Path(path)
    try:
        doc = yaml.safe_load(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"--spec {path}: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise InputError(f"--spec {path}: not valid YAML ({exc})") from exc
    if not isinstance(doc, dict):
        raise InputError(f"--spec {path}: expected a mapping with kernel, args, space, targets")
    unknown = set(doc) - {"kernel", "args", "space", "targets", "params"}
    if unknown:
        raise InputError(f"--spec {path}: unknown keys {sorted(unknown)}; use kernel, args, space, targets")
    return doc, p.parent


def _as_space(raw: Any) -> dict[str, list[Any]]:
    if not isinstance(raw, Mapping):
        raise InputError("spec `space` must map each key to a list of values")
    return {str(k): _as_list(v) for k, v in raw.items()}


def _as_list(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, str):
        return _split(value)
    return [value]


def _split(text: str) -> list[str]:
    return [v.strip() for v in text.split(",") if v.strip()]


def _parse_pairs(items: Sequence[str], flag: str, convert: Any) -> dict[str, Any]:
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise InputError(f"{flag} {item!r}: expected NAME=VALUE")
        out[key.strip()] = convert(value.strip())
    return out


def _values(text: str) -> list[Any]:
    return [_scalar(v) for v in _split(text)]


def _scalar(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


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
    return str(u.extra.get("reason", "")) if u.extra else ""

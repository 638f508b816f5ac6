"""`tilefit run [--record TRACE] -- CMD ...` and `tilefit record [-o TRACE] -- CMD ...`.

Runs CMD with the plug-in on in every Python process it starts: TILEFIT_PLUGIN=1 and tilefit's
sitecustomize folder first on PYTHONPATH (tilefit/plugin/boot/). Exit code: CMD's own; 2 when CMD cannot
be started or the installed Triton has no hooks.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tilefit.errors import InputError

EXIT_USAGE = 2
_FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def add_parser(subparsers: Any) -> None:
    """Add `run` and `record` to an argparse subparsers object."""
    run = subparsers.add_parser(
        "run", help="run a command with the Triton plug-in in every Python process it starts",
        description="Configs that cannot fit the GPU are rejected right after TTGIR with Triton's own "
        "OutOfResources, so autotuners skip them in a fraction of a second instead of after a full compile.",
    )
    run.add_argument("--record", metavar="TRACE", help="also append every compiled specialisation to TRACE")
    run.add_argument("cmd", nargs=argparse.REMAINDER, help="-- then the command, e.g. -- python train.py")
    run.set_defaults(func=_run)
    rec = subparsers.add_parser("record", help="run a command and record every Triton compile to a trace",
                                description="Same as `tilefit run --record TRACE`; prints a summary at the end.")
    rec.add_argument("-o", "--output", default="tilefit.trace.jsonl", metavar="TRACE")
    rec.add_argument("cmd", nargs=argparse.REMAINDER)
    rec.set_defaults(func=_record)


def _command(cmd: list[str]) -> list[str]:
    if cmd and cmd[0] == "--":
        cmd = cmd[1:]
    if not cmd:
        raise InputError("no command given: tilefit run -- python train.py")
    return cmd


def child_env(env: Mapping[str, str], trace: str | None) -> dict[str, str]:
    """The environment of CMD: plug-in on, boot folder and tilefit itself first on PYTHONPATH."""
    import tilefit
    from tilefit.plugin import BOOT_DIR

    out = dict(env)
    out["TILEFIT_PLUGIN"] = "1"
    if trace:
        out["TILEFIT_TRACE"] = str(Path(trace).resolve())
    here = str(Path(tilefit.__file__).resolve().parents[1])
    rest = [p for p in out.get("PYTHONPATH", "").split(os.pathsep) if p and p not in (str(BOOT_DIR), here)]
    out["PYTHONPATH"] = os.pathsep.join([str(BOOT_DIR), here, *rest])
    return out


def _check_triton() -> None:
    from importlib import metadata

    try:
        version = metadata.version("triton")
    except metadata.PackageNotFoundError:
        return  # CMD may use another Python; its children say so themselves
    major_minor = tuple(int(x) for x in version.split(".")[:2] if x.isdigit())
    if major_minor < (3, 6):
        raise InputError(f"triton {version} has no triton.knobs.runtime.add_stages_inspection_hook; "
                         "the tilefit plug-in needs triton >= 3.6 (pip install -U triton)")


def execute(cmd: list[str], env: Mapping[str, str]) -> int:
    """Run CMD to its end, passing on SIGINT/SIGTERM/SIGHUP; its exit code (128+N for a signal)."""
    try:
        proc = subprocess.Popen(cmd, env=dict(env))
    except OSError as exc:
        raise InputError(f"cannot run {cmd[0]!r}: {exc.strerror or exc}") from exc
    previous = {s: signal.signal(s, lambda n, _f: proc.send_signal(n)) for s in _FORWARDED}
    try:
        while True:
            try:
                code = proc.wait()
                break
            except KeyboardInterrupt:  # the signal went to the child too; wait for it
                continue
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    return 128 - code if code < 0 else code


def _run(args: argparse.Namespace) -> int:
    cmd = _command(args.cmd)
    _check_triton()
    return execute(cmd, child_env(os.environ, args.record))


def _record(args: argparse.Namespace) -> int:
    cmd = _command(args.cmd)
    _check_triton()
    code = execute(cmd, child_env(os.environ, args.output))
    sys.stderr.write(summary(args.output) + "\n")
    return code


def summary(path: str) -> str:
    """One line about a trace: specialisations, rejected, kernels, processes."""
    from tilefit.trace import read_trace

    if not Path(path).is_file():
        return f"tilefit: no Triton compile was recorded ({path} not written)"
    trace = read_trace(path, strict=False)
    rejected = sum(1 for r in trace.records if not r.fits)
    kernels = len({r.name for r in trace.records})
    bad = f"; {len(trace.problems)} unreadable line(s)" if trace.problems else ""
    return (f"tilefit: {path}: {len(trace.records)} specialisation(s) of {kernels} kernel(s) from "
            f"{len(trace.headers)} process(es), {rejected} cannot fit{bad}")

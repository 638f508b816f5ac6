"""The `tilefit` command: a thin layer over the library; heavy backends are imported per subcommand."""

from __future__ import annotations

import argparse
import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from tilefit.errors import TilefitError

if TYPE_CHECKING:
    from tilefit.kb.repository import KnowledgeBase

EXIT_OK, EXIT_NOTHING, EXIT_USAGE = 0, 1, 2


def _open_source(path: str | None) -> BinaryIO:
    """The log to read: stdin, or any path that can be opened for reading (files, FIFOs, /dev/stdin, <(...))."""
    if path in (None, "-"):
        if sys.stdin is None or sys.stdin.closed:
            raise TilefitError("stdin is closed: pass a log file, or pipe a log in (tilefit explain - < log.txt)")
        if path is None and sys.stdin.isatty():
            raise TilefitError("no input: pass a log file, or pipe a log in (tilefit explain - < log.txt)")
        return sys.stdin.buffer
    p = Path(path)
    if p.is_dir():
        raise TilefitError(f"{path}: is a directory; pass a log file")
    try:
        return p.open("rb")
    except FileNotFoundError:
        raise TilefitError(f"{path}: no such file") from None
    except OSError as exc:
        raise TilefitError(f"{path}: cannot read: {exc.strerror or exc}") from None


def _check_size(fh: BinaryIO, limit: int) -> None:
    """A regular file over the limit is refused by its size, before reading a byte."""
    try:
        st = os.fstat(fh.fileno())
    except (OSError, ValueError, AttributeError):
        return
    if stat.S_ISREG(st.st_mode) and st.st_size > limit:
        raise TilefitError(f"input has {st.st_size} bytes; the limit is {limit} (TILEFIT_MAX_INPUT_BYTES)")


def _write(text: str) -> None:
    """Write the report; a closed or full stdout is an output error, not an internal one."""
    try:
        if sys.stdout is None:
            raise OSError("stdout is closed")
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except (OSError, ValueError) as exc:
        _silence_stdout()
        raise TilefitError(f"cannot write the report: {getattr(exc, 'strerror', None) or exc}") from None


def _silence_stdout() -> None:
    """Point fd 1 at /dev/null so the interpreter's exit flush does not fail a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except OSError:
        pass


def _explain(args: argparse.Namespace) -> int:
    from tilefit.report import explain
    from tilefit.settings import Settings

    settings = Settings.from_env()
    fh = _open_source(args.file)
    try:
        _check_size(fh, settings.max_input_bytes)
        result = explain(fh, settings=settings)
    finally:
        if fh is not getattr(sys.stdin, "buffer", None):
            fh.close()
    _write(result.render(args.format, args.lang))
    return EXIT_OK if result.recognised else EXIT_NOTHING


def _kb(args: argparse.Namespace) -> int:
    from tilefit.kb.repository import load_kb

    if args.kb_command == "measure":
        return _kb_measure(args)
    if args.kb_command == "lint":
        from tilefit.kb.lint import lint
        from tilefit.match.selfcheck import example_problems

        problems = lint(probe_patterns=not args.no_probe)
        problems += [] if problems else example_problems(load_kb())
        for p in problems:
            print(p)
        print(f"{len(problems)} problem(s) in the knowledge base" if problems else "knowledge base is clean")
        if not problems:
            from tilefit.kb.lint import population_lines

            lines = population_lines(load_kb())
            print(f"fix rates measured on real libraries' configs: {len(lines)}", *lines, sep="\n  ")
        return EXIT_NOTHING if problems else EXIT_OK
    kb = load_kb()
    if args.kb_command == "show":
        return _kb_show(kb, args.id, args.lang)
    for e in kb:
        flag = "on-chip " if e.on_chip else "off-chip"
        print(f"{e.id:44} {e.resource:20} {flag} {e.title_zh if args.lang == 'zh' else e.title}")
    return EXIT_OK


def _kb_measure(args: argparse.Namespace) -> int:
    from importlib import resources

    from tilefit import measure

    results = measure.run_plan(Path(args.plan), only=args.only, sample=args.sample, seed=args.seed,
                               workers=args.workers)
    print(measure.render_table([r for r, _ in results]))
    if args.write:
        kb_dir = Path(args.kb_dir) if args.kb_dir else Path(str(resources.files("tilefit") / "data" / "kb"))
        for line in measure.store(results, kb_dir):
            print(f"wrote {line}")
    return EXIT_OK


def _kb_show(kb: KnowledgeBase, entry_id: str, lang: str) -> int:
    """Show an entry the way explain would, on its first real example, then all its examples."""
    from tilefit.diagnosis import diagnose
    from tilefit.match.extract import context_rules
    from tilefit.match.matcher import match
    from tilefit.render.json_ import dumps
    from tilefit.report import Report
    from tilefit.targets import load_targets

    try:
        e = kb.get(entry_id)
    except KeyError:
        raise TilefitError(f"no entry {entry_id!r}; see `tilefit kb list`") from None
    example = e.examples[0].log
    found = [m for m in match(example, kb) if m.entry.id == e.id]
    if not found:
        raise TilefitError(f"{entry_id}: its first example does not match it; run `tilefit kb lint`")
    diagnosis = diagnose(example, found[0], load_targets(), context_rules())
    print(Report((diagnosis,)).render("text", lang), end="")
    print(dumps({"examples": [{"source": x.source, "log": x.log} for x in e.examples]}))
    return EXIT_OK


def _targets(args: argparse.Namespace) -> int:
    from tilefit.targets import load_targets
    from tilefit.units import format_short

    ts = load_targets()
    keys = ("shared_per_block_optin", "shared_per_sm", "vmem_scoped_default", "vmem_physical", "smem")
    print(f"{'target':8} {'vendor':7} {'per-block smem/LDS/SLM':>22} {'scoped VMEM':>12} {'VMEM':>10}  devices")
    for t in ts.targets:
        if args.vendor and t.vendor != args.vendor:
            continue
        v = {k: t.limit(k) for k in keys}
        smem = f"{v['shared_per_block_optin']}" if v["shared_per_block_optin"] else "-"
        scoped = format_short(v["vmem_scoped_default"]) if v["vmem_scoped_default"] else "-"
        phys = format_short(v["vmem_physical"]) if v["vmem_physical"] else "-"
        print(f"{t.name:8} {t.vendor:7} {smem:>22} {scoped:>12} {phys:>10}  {', '.join(t.devices)}")
    if args.limit is not None:
        hits = [t.name for t in ts.targets if args.limit in t.limits_values()]
        print(f"\n{args.limit} B is a limit of: {', '.join(hits) or 'no known target'}")
    return EXIT_OK


def _add_backend(sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str) -> None:
    """Subcommands whose modules may import heavy backends register themselves lazily."""
    import importlib

    try:
        module = importlib.import_module(f"tilefit.cli.{name}")
    except ImportError:
        return
    module.add_parser(sub)


# Subcommands that never need the backend subcommands' modules: `tilefit explain` starts without importing them.
_LEAN = frozenset({"explain", "kb", "targets"})


def build_parser(lean: bool = False) -> argparse.ArgumentParser:
    from tilefit import __version__

    parser = argparse.ArgumentParser(
        prog="tilefit", description="Explain, estimate and fit on-chip memory of ML kernels."
    )
    parser.add_argument("--version", action="version", version=f"tilefit {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("explain", help="diagnose an error log (file, or - for stdin)")
    ex.add_argument("file", nargs="?", help="log file; '-' or nothing reads stdin")
    ex.add_argument("--format", "-f", choices=("text", "markdown", "json", "html"), default="text")
    ex.add_argument("--lang", choices=("en", "zh"), default="en")
    ex.set_defaults(func=_explain)
    kb = sub.add_parser("kb", help="the knowledge base: list, show ID, lint")
    kb_sub = kb.add_subparsers(dest="kb_command", required=True)
    for name in ("list", "show", "lint"):
        p = kb_sub.add_parser(name)
        p.add_argument("--lang", choices=("en", "zh"), default="en")
        if name == "show":
            p.add_argument("id")
        if name == "lint":
            p.add_argument("--no-probe", action="store_true", help="skip timing patterns on adversarial input")
    ms = kb_sub.add_parser("measure", help="measure fix rates by reproduction (needs the triton / tpu extras)")
    ms.add_argument("--plan", default="benchmarks/kb_measure.yaml", help="kernels, spaces and targets to use")
    ms.add_argument("--only", choices=("gpu", "helion", "tpu"))
    ms.add_argument("--sample", type=int, help="at most this many failing configs per kernel and target")
    ms.add_argument("--seed", type=int, default=0)
    ms.add_argument("--workers", type=int)
    ms.add_argument("--write", action="store_true", help="store the rates in the knowledge-base entries")
    ms.add_argument("--kb-dir", help="folder of the entry files to write (default: tilefit's own data/kb)")
    kb.set_defaults(func=_kb)
    tg = sub.add_parser("targets", help="known targets and their on-chip limits")
    tg.add_argument("--vendor", choices=("nvidia", "amd", "intel", "google"))
    tg.add_argument("--limit", type=int, help="which targets have this limit (bytes)")
    tg.set_defaults(func=_targets)
    for name in () if lean else ("estimate", "fit", "check", "run", "schema", "mcp"):
        _add_backend(sub, name)
    return parser


def _debug() -> bool:
    from tilefit.settings import Settings

    try:
        return Settings.from_env().debug
    except TilefitError:
        return False


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (0 ok, 1 nothing found / does not fit, 2 usage or input error)."""
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(lean=bool(words) and words[0] in _LEAN)
    args = parser.parse_args(words)
    try:
        code: int = args.func(args)
        return code
    except TilefitError as exc:
        print(f"tilefit: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:  # compile processes were killed on the way out (tilefit.isolate)
        print("tilefit: interrupted", file=sys.stderr)
        return 130
    except SystemExit as exc:  # tilefit.isolate.Terminated: SIGTERM/SIGHUP while compiling
        signum = getattr(exc, "signum", None)
        if signum is None:
            raise
        print(f"tilefit: stopped by signal {signum}; its compile processes were stopped", file=sys.stderr)
        return 128 + int(signum)
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # a bug of tilefit's, or of a backend it drives: say so, briefly
        if _debug():
            raise
        print(f"tilefit: internal error: {type(exc).__name__}: {exc}\n"
              "tilefit: rerun with TILEFIT_DEBUG=1 for the traceback, and please report it", file=sys.stderr)
        return EXIT_USAGE


__all__ = ["build_parser", "main"]

"""What the MCP server's tools do, without the MCP SDK: bounded inputs in, the CLI's JSON text out.

explain, targets and the knowledge base run in this process (pure Python over bundled data). estimate, fit
and check import the user's kernel file and drive compilers, so each runs as `python -m tilefit CMD
--format json` in its own process group, killed at the time limit: a kernel that hangs, crashes or
exits at import cannot take the server down, and the JSON is the CLI's byte for byte. Every problem is a
TilefitError with a one-line message; the server turns it into an MCP tool error.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import json
import math
import os
import re
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tilefit.errors import InputError, TilefitError

# tilefit's own "tilefit: error: ..." and argparse's "tilefit fit: error: argument --margin: ..."
_ERROR_LINE = re.compile(r"^tilefit(?: [a-z]+)?: (?:error: )?(?P<msg>.+)$")
_MAX_ID = 200
_MAX_SPEC_BYTES = 1 << 20


@dataclasses.dataclass(frozen=True)
class Limits:
    """Bounds on what one tool call may ask for; `tilefit mcp` sets them from its flags."""

    root: Path = dataclasses.field(default_factory=Path.cwd)  # kernel, spec and trace paths must lie under it
    max_log_bytes: int = 4 << 20  # explain's input
    max_configs: int = 4096  # configs x targets of one estimate, configs of one fit
    timeout_s: float = 600.0  # the longest a compile tool may run
    max_output_bytes: int = 64 << 20  # the JSON a compile tool may return


class ToolFailed(TilefitError):
    """A tool could not produce its result; the message is the one line the client sees."""


# ---------------------------------------------------------------------------- in-process tools


def explain_json(log: str, lang: str, limits: Limits) -> str:
    """`tilefit explain --format json` of a log or exception text."""
    from tilefit.report import explain
    from tilefit.settings import Settings

    size = len(log.encode("utf-8", "replace"))
    if size > limits.max_log_bytes:
        raise InputError(f"log of {size} B exceeds the limit of {limits.max_log_bytes} B; "
                         "pass the part around the error")
    settings = dataclasses.replace(Settings.from_env(), max_input_bytes=limits.max_log_bytes)
    return explain(log, settings=settings).render("json", _lang(lang))


def targets_json(vendor: str | None = None) -> str:
    """Every known target with its on-chip limits (each with its source) and devices."""
    from tilefit.targets import load_targets

    rows = [dataclasses.asdict(t) for t in load_targets().targets if vendor in (None, "", t.vendor)]
    if not rows:
        raise InputError(f"no target of vendor {vendor!r}; vendors: nvidia, amd, intel, google")
    return json.dumps(rows, indent=1)


def kb_list_json(lang: str = "en") -> str:
    """The knowledge base's entries: id, resource, on chip or not, vendor, severity, title."""
    from tilefit.kb.repository import load_kb

    zh = _lang(lang) == "zh"
    rows = [{"id": e.id, "resource": e.resource, "on_chip": e.on_chip, "vendor": e.vendor, "severity": e.severity,
             "frameworks": list(e.frameworks), "title": e.title_zh if zh else e.title} for e in load_kb()]
    return json.dumps(rows, indent=1)


def kb_show_json(entry_id: str, lang: str = "en") -> str:
    """One entry in full, and explain's JSON of its first real example (what `tilefit kb show` prints)."""
    from tilefit.diagnosis import diagnose
    from tilefit.kb.repository import load_kb
    from tilefit.match.extract import context_rules
    from tilefit.match.matcher import match
    from tilefit.report import Report
    from tilefit.targets import load_targets

    if len(entry_id) > _MAX_ID:
        raise InputError(f"entry id of {len(entry_id)} characters; ids are at most {_MAX_ID}")
    kb = load_kb()
    try:
        entry = kb.get(entry_id)
    except KeyError:
        raise InputError(f"no entry {entry_id!r}; the kb_list tool lists them") from None
    example = entry.examples[0].log
    found = [m for m in match(example, kb) if m.entry.id == entry.id]
    view = (Report((diagnose(example, found[0], load_targets(), context_rules()),)).render("json", _lang(lang))
            if found else "null")
    doc = {"entry": dataclasses.asdict(entry), "explanation": json.loads(view)}
    return json.dumps(doc, indent=1, default=_plain)


def _plain(value: Any) -> Any:
    if isinstance(value, re.Pattern):
        return value.pattern
    return str(value)


def _lang(lang: str) -> str:
    if lang not in ("en", "zh"):
        raise InputError(f"unknown language {lang!r}; choose en or zh")
    return lang


# ---------------------------------------------------------------------------- compile tools: argv


def estimate_argv(limits: Limits, *, kernel: str | None, spec: str | None, targets: Sequence[str] | None,
                  args: Mapping[str, str] | None, config: Mapping[str, Sequence[Any]] | None,
                  mode: str = "fast") -> list[str]:
    """The `tilefit estimate` command line of a tool call, after checking its paths and the size of its space."""
    if mode not in ("fast", "full", "analytic"):
        raise InputError(f"unknown mode {mode!r}; choose fast, full or analytic")
    argv = ["estimate", *_kernel_args(limits, kernel, spec, args, config), "--mode", mode,
            "--max-configs", str(limits.max_configs), "--format", "json"]
    if targets:
        argv += ["--target", ",".join(_names(targets))]
    n = _space_size(limits, spec, config) * max(len(targets or _spec_targets(limits, spec)), 1)
    if n > limits.max_configs:
        raise InputError(f"{n} config x target pairs exceed the limit of {limits.max_configs}; "
                         "narrow the space or the targets (or start the server with a larger --max-configs)")
    return argv


def fit_argv(limits: Limits, *, kernel: str | None, spec: str | None, target: str | None,
             args: Mapping[str, str] | None, config: Mapping[str, Sequence[Any]] | None,
             problem: Mapping[str, int] | None = None, margin: float = 0.10) -> list[str]:
    """The `tilefit fit` command line of a tool call."""
    if not (math.isfinite(margin) and 0 <= margin < 10):
        raise InputError(f"margin {margin} must be a number from 0 to 10 (0.10 is a 10% safety margin)")
    argv = ["fit", *_kernel_args(limits, kernel, spec, args, config), "--margin", str(margin),
            "--max-configs", str(limits.max_configs), "--format", "json"]
    if target:
        argv += ["--target", _names([target])[0]]
    argv += [f"--problem={k}={int(v)}" for k, v in (problem or {}).items()]
    n = _space_size(limits, spec, config)
    if n > limits.max_configs:
        raise InputError(f"a space of {n} configs exceeds the limit of {limits.max_configs}; "
                         "narrow it (or start the server with a larger --max-configs)")
    return argv


def check_argv(limits: Limits, *, paths: Sequence[str], targets: Sequence[str]) -> list[str]:
    """The `tilefit check` command line, or ToolFailed when this tilefit has no check command."""
    if importlib.util.find_spec("tilefit.cli.check") is None:
        raise ToolFailed("check is not available in this version of tilefit (no `tilefit check` command)")
    if not paths:
        raise InputError("check needs at least one trace or config-table path")
    files = [str(_inside(limits, p, "path", folder_ok=True)) for p in paths]
    return ["check", *files, *(["--target", ",".join(_names(targets))] if targets else []), "--format", "json"]


def _kernel_args(limits: Limits, kernel: str | None, spec: str | None, args: Mapping[str, str] | None,
                 config: Mapping[str, Sequence[Any]] | None) -> list[str]:
    if not kernel and not spec:
        raise InputError("give kernel (path/to/file.py:kernel_name) or spec (a spec YAML)")
    argv: list[str] = []
    if kernel:
        path, sep, name = kernel.rpartition(":")
        if not sep or not path or not name.isidentifier():
            raise InputError(f"kernel {kernel!r} must look like path/to/file.py:kernel_name")
        argv.append(f"{_inside(limits, path, 'kernel file')}:{name}")
    if spec:
        argv += ["--spec", str(_inside(limits, spec, "spec"))]
    argv += [f"--arg={k}={v}" for k, v in (args or {}).items()]
    for key, values in (config or {}).items():
        argv.append(f"--config={key}={','.join(_value(key, v) for v in _as_list(values))}")
    return argv


def _as_list(values: Any) -> list[Any]:
    return list(values) if isinstance(values, (list, tuple)) else [values]


def _value(key: str, v: Any) -> str:
    text = str(v).lower() if isinstance(v, bool) else str(v)
    if not text or "," in text or "=" in key or not key.strip():
        raise InputError(f"config {key}={v!r}: a key needs a name and each value must be non-empty, without commas")
    return text


def _names(targets: Sequence[str]) -> list[str]:
    bad = [t for t in targets if not re.fullmatch(r"[A-Za-z0-9_.+-]{1,40}", t)]
    if bad:
        raise InputError(f"target {bad[0]!r} is not a target name (e.g. sm_90, gfx942, v5e)")
    return list(targets)


def _inside(limits: Limits, path: str, what: str, folder_ok: bool = False) -> Path:
    """An existing file (or folder) under the server's root; relative paths are taken from the root."""
    root = limits.root.resolve()
    p = (root / path).resolve()
    if not p.is_relative_to(root):
        raise InputError(f"{what} {path} is outside the server's root {root}; "
                         "pass a path under it (or start the server with --root)")
    if not (p.is_file() or (folder_ok and p.is_dir())):
        raise InputError(f"{what} {path} does not exist (looked for {p})")
    return p


def _spec_doc(limits: Limits, spec: str | None) -> Mapping[str, Any]:
    if not spec:
        return {}
    import yaml

    p = _inside(limits, spec, "spec")
    with p.open("rb") as fh:
        data = fh.read(_MAX_SPEC_BYTES + 1)
    if len(data) > _MAX_SPEC_BYTES:
        raise InputError(f"spec {spec} is larger than {_MAX_SPEC_BYTES} B")
    try:
        doc = yaml.safe_load(data)
    except yaml.YAMLError as exc:
        raise InputError(f"spec {spec}: not valid YAML ({str(exc).splitlines()[0]})") from exc
    return doc if isinstance(doc, Mapping) else {}


def _spec_targets(limits: Limits, spec: str | None) -> list[Any]:
    raw = _spec_doc(limits, spec).get("targets") or []
    return list(raw) if isinstance(raw, list) else [raw]


def _space_size(limits: Limits, spec: str | None, config: Mapping[str, Sequence[Any]] | None) -> int:
    raw = _spec_doc(limits, spec).get("space") or {}
    sizes = {str(k): len(v) if isinstance(v, list) else 1 for k, v in (raw.items() if isinstance(raw, Mapping) else [])}
    sizes.update({k: len(_as_list(v)) for k, v in (config or {}).items()})
    return math.prod(sizes.values())


# ---------------------------------------------------------------------------- compile tools: run


def run_cli(argv: Sequence[str], limits: Limits, timeout_s: float | None = None,
            live: set[int] | None = None) -> str:
    """Run `python -m tilefit ARGV` under the root, killed with its children at the time limit; its JSON text.

    The child leads its own process group (so its compiler workers die with it); its id is in `live` while
    it runs, for the server to kill what is left when it stops (kill_all).
    """
    timeout = limits.timeout_s if timeout_s is None else min(max(timeout_s, 1.0), limits.timeout_s)
    proc = subprocess.Popen([sys.executable, "-m", "tilefit", *argv], cwd=limits.root, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, env=_env())
    running = live if live is not None else set()
    running.add(proc.pid)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(proc)
        raise ToolFailed(f"tilefit {argv[0]} ran past its time limit of {timeout:.0f} s and was stopped; "
                         "narrow the space or raise timeout_s") from None
    except BaseException:
        _kill(proc)
        raise
    finally:
        _kill_group(proc.pid)  # compiler workers the command left behind
        running.discard(proc.pid)
    return _result(argv[0], proc.returncode, out, err, limits)


def kill_all(live: set[int]) -> None:
    """Kill the process groups of the compile tools still running (the server is stopping)."""
    for pgid in list(live):
        _kill_group(pgid)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("TILEFIT_DEBUG", None)  # a traceback is not a tool result
    env["TILEFIT_PROGRESS"] = "0"
    return env


def _kill(proc: subprocess.Popen[bytes]) -> None:
    _kill_group(proc.pid)
    proc.kill()
    proc.communicate()


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _result(command: str, code: int, out: bytes, err: bytes, limits: Limits) -> str:
    if len(out) > limits.max_output_bytes:
        raise ToolFailed(f"tilefit {command} returned {len(out)} B of JSON, over the limit of "
                         f"{limits.max_output_bytes} B; narrow the space")
    if code in (0, 1) and out.strip():
        text = out.decode("utf-8", "replace")
        try:
            json.loads(text)
        except ValueError:
            raise ToolFailed(f"tilefit {command} printed something other than JSON: {text[:200]!r}") from None
        return text
    raise ToolFailed(_error_line(command, code, err))


def _error_line(command: str, code: int, err: bytes) -> str:
    """The CLI's one-line `tilefit: error: ...` message, else the last line of stderr with the exit status."""
    lines = [ln.strip() for ln in err.decode("utf-8", "replace").splitlines() if ln.strip()]
    for line in reversed(lines):
        m = _ERROR_LINE.match(line)
        if m:
            return m.group("msg")
    how = f"was killed by signal {-code}" if code < 0 else f"exited with status {code}"
    return f"tilefit {command} {how}" + (f": {lines[-1][:300]}" if lines else "")

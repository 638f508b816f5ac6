"""One Settings object: defaults, then `[tool.tilefit]` of the nearest pyproject.toml, then TILEFIT_* variables.

Every setting is a field; its variable is TILEFIT_<FIELD> and its pyproject key is the field's name, so
the names cannot drift apart. Command-line flags override all three where a command has one
(`--workers`, `--target`). A bad value, from any source, is a SettingsError naming where it came from:

    TILEFIT_COMPILE_TIMEOUT_S='nan': expected a finite number of seconds
    [tool.tilefit] compile_timeout_s = "x" in /repo/pyproject.toml: expected a finite number of seconds
"""

from __future__ import annotations

import dataclasses
import math
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tilefit.errors import SettingsError

_MAX_TIMEOUT_S = 7 * 24 * 3600.0
_MAX_MEMORY_MB = 1 << 24  # 16 TiB: anything above is a typo (and overflows rlim_t on some systems)
_MAX_WORKERS = 4096
_MAX_INPUT = 1 << 40
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def _default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tilefit"


@dataclasses.dataclass(frozen=True)
class Settings:
    """Knobs of tilefit; see the module docstring for where each value comes from."""

    cache_dir: Path = dataclasses.field(default_factory=_default_cache_dir)
    use_cache: bool = True
    workers: int = 0  # 0: one per CPU core
    compile_timeout_s: float = 120.0  # > 0: a compile may hang (ptxas), so there is no "no limit"
    compile_memory_mb: int = 4096  # RLIMIT_DATA of a compile process; 0: no limit
    progress: bool = True
    max_input_bytes: int = 256 * 1024 * 1024
    debug: bool = False  # show tracebacks of internal errors
    plugin: bool = False  # install the Triton compile plug-in at `import triton` (set by `tilefit run`)
    trace: str = ""  # append every compiled specialisation to this JSONL trace (plug-in on)
    targets: tuple[str, ...] = ()  # default targets of estimate/fit when neither --target nor a spec names one
    sglang_root: str = ""  # an unpacked SGLang wheel: where `tilefit check` finds the fused-MoE kernel
    provisioned_triton: str = ""  # set by `tilefit check --triton` in its re-run under that Triton version

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            problem = _problem(field.name, value)
            if problem:
                raise SettingsError(f"{field.name}={value!r}: {problem}")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, start: Path | None = None) -> Settings:
        """Defaults < [tool.tilefit] of the nearest pyproject.toml above `start` (the cwd) < TILEFIT_* of `env`."""
        env = os.environ if env is None else env
        values = project_settings(start)
        for field in dataclasses.fields(cls):
            name = f"TILEFIT_{field.name.upper()}"
            raw = env.get(name)
            if raw is None or raw == "":
                continue
            values[field.name] = _parse(field, raw, f"{name}={raw!r}", None)
        return cls(**values)


def timeout_problem(value: Any) -> str | None:
    """Why a compile timeout is unusable, or None: the one timeout rule (settings and tilefit.isolate)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return "expected a finite number of seconds"
    if not 0 < value <= _MAX_TIMEOUT_S:
        return (f"must be more than 0 and at most {_MAX_TIMEOUT_S:g} s (there is no 'no limit': "
                "a compile can hang in ptxas)")
    return None


def memory_problem(value: Any) -> str | None:
    """Why a compile memory limit in MB is unusable, or None (0 means no limit)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return "expected a whole number of MB"
    if not 0 <= value <= _MAX_MEMORY_MB:
        return f"must be 0 (no limit) to {_MAX_MEMORY_MB} MB"
    return None


def _count_problem(value: Any, top: int, what: str) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return f"expected a whole number of {what}"
    if not 0 <= value <= top:
        return f"must be 0 to {top} {what}"
    return None


def _problem(name: str, value: Any) -> str | None:
    """Why a typed value of a field is out of range, or None."""
    checks: dict[str, Callable[[Any], str | None]] = {
        "compile_timeout_s": timeout_problem,
        "compile_memory_mb": memory_problem,
        "workers": lambda v: _count_problem(v, _MAX_WORKERS, "processes"),
        "max_input_bytes": lambda v: _count_problem(v, _MAX_INPUT, "bytes"),
        "targets": lambda v: None if isinstance(v, tuple) and all(isinstance(t, str) and t for t in v)
        else "expected target names, e.g. sm_90,v5e",
        "cache_dir": lambda v: None if isinstance(v, Path) else "expected a directory",
        "trace": lambda v: None if isinstance(v, str) else "expected a file path",
        "sglang_root": lambda v: None if isinstance(v, str) else "expected a folder path",
        "provisioned_triton": lambda v: None if isinstance(v, str) else "expected a Triton version",
    }
    check = checks.get(name)
    if check is not None:
        return check(value)
    return None if isinstance(value, bool) else "expected true or false"


def _parse(field: dataclasses.Field[Any], raw: Any, where: str, base: Path | None) -> object:
    """A typed value from an environment string or a TOML value; SettingsError naming `where` otherwise."""
    try:
        value = _convert(str(field.type), raw, base)
    except (ValueError, TypeError, RuntimeError) as exc:  # RuntimeError: Path.expanduser of '~nosuchuser'
        raise SettingsError(f"{where}: {exc}") from None
    problem = _problem(field.name, value)
    if problem:
        raise SettingsError(f"{where}: {problem}")
    return value


def _convert(kind: str, raw: Any, base: Path | None) -> object:
    text = isinstance(raw, str)
    if kind == "Path":
        if not text or not raw:
            raise ValueError("expected a directory")
        path = Path(raw).expanduser()
        return base / path if base is not None and not path.is_absolute() else path
    if kind == "bool":
        if isinstance(raw, bool):
            return raw
        if text and raw.strip().lower() in _TRUE + _FALSE:
            return raw.strip().lower() in _TRUE
        raise ValueError("expected one of 1/0, true/false, yes/no, on/off")
    if kind == "int":
        if isinstance(raw, int) and not isinstance(raw, bool):
            return raw
        if text:
            try:
                return int(raw.strip())
            except ValueError:
                raise ValueError("expected a whole number") from None
        raise ValueError("expected a whole number")
    if kind == "float":
        if isinstance(raw, (int, float)) and not isinstance(raw, bool):
            return float(raw)
        if text:
            try:
                return float(raw.strip())
            except ValueError:
                raise ValueError("expected a finite number of seconds") from None
        raise ValueError("expected a finite number of seconds")
    if kind == "tuple[str, ...]":
        items = raw.split(",") if text else raw if isinstance(raw, list) else None
        if items is None or not all(isinstance(t, str) for t in items):
            raise ValueError("expected target names, e.g. sm_90,v5e")
        return tuple(t.strip() for t in items if t.strip())
    if kind == "str":
        if not text:
            raise ValueError("expected a string")
        return raw
    raise TypeError(f"unsupported setting type {kind}")


def find_pyproject(start: Path | None = None) -> Path | None:
    """The nearest pyproject.toml in `start` (the cwd) or a directory above it."""
    try:
        here = (start or Path.cwd()).resolve()
    except OSError:  # the cwd was removed
        return None
    for folder in (here, *here.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def project_settings(start: Path | None = None) -> dict[str, Any]:
    """Typed values of `[tool.tilefit]` in the nearest pyproject.toml (empty when there is none)."""
    path = find_pyproject(start)
    if path is None:
        return {}
    table = _tool_table(path)
    fields = {f.name: f for f in dataclasses.fields(Settings)}
    values: dict[str, Any] = {}
    for key, raw in table.items():
        name = str(key).replace("-", "_")
        field = fields.get(name)
        if field is None:
            raise SettingsError(f"[tool.tilefit] has no setting {key!r} in {path}; settings: {', '.join(fields)}")
        where = f"[tool.tilefit] {key} = {_toml_repr(raw)} in {path}"
        values[name] = _parse(field, raw, where, path.parent)
    return values


def _tool_table(path: Path) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"{path}: cannot read it ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: not valid TOML ({exc})") from None
    table = doc.get("tool", {}).get("tilefit", {}) if isinstance(doc.get("tool"), dict) else {}
    if not isinstance(table, dict):
        raise SettingsError(f"{path}: [tool.tilefit] must be a table")
    return table


def _toml_repr(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)

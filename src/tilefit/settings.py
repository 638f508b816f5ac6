"""One Settings object; every TILEFIT_* environment variable is parsed here."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from pathlib import Path

from tilefit.errors import SettingsError


def _default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tilefit"


@dataclasses.dataclass(frozen=True)
class Settings:
    """Knobs of tilefit, from defaults and TILEFIT_<FIELD> variables."""

    cache_dir: Path = dataclasses.field(default_factory=_default_cache_dir)
    use_cache: bool = True
    workers: int = 0  # 0: one per CPU core
    compile_timeout_s: float = 120.0
    compile_memory_mb: int = 4096
    progress: bool = True
    max_input_bytes: int = 256 * 1024 * 1024
    debug: bool = False  # show tracebacks of internal errors
    plugin: bool = False  # install the Triton compile plug-in at `import triton` (set by `tilefit run`)
    trace: str = ""  # append every compiled specialisation to this JSONL trace (plug-in on)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read TILEFIT_* variables; a bad value raises SettingsError naming the variable."""
        env = os.environ if env is None else env
        values: dict[str, object] = {}
        for field in dataclasses.fields(cls):
            name = f"TILEFIT_{field.name.upper()}"
            raw = env.get(name)
            if raw is None or raw == "":
                continue
            values[field.name] = _parse(name, raw, field.type)
        return cls(**values)  # type: ignore[arg-type]


def _parse(name: str, raw: str, kind: object) -> object:
    kind = str(kind)
    try:
        if kind == "Path":
            return Path(raw).expanduser()
        if kind == "bool":
            low = raw.strip().lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise ValueError("expected one of 1/0, true/false, yes/no, on/off")
        value: float
        if kind == "int":
            value = int(raw)
        elif kind == "float":
            value = float(raw)
        else:
            return raw
        if value < 0:
            raise ValueError("must not be negative")
        return value
    except ValueError as exc:
        raise SettingsError(f"{name}={raw!r}: {exc}") from exc

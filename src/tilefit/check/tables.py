"""Per-device config tables of fused-MoE kernels, as vLLM and SGLang ship them.

A table is a JSON file named `E=<experts>,N=<intermediate>,device_name=<GPU>[,dtype=<quant>]
[,block_shape=[<n>, <k>]][,per_channel_quant=True][_down].json` that maps a batch size M to one config
(BLOCK_SIZE_M/N/K, GROUP_SIZE_M, num_warps, num_stages and, on AMD, waves_per_eu, matrix_instr_nonkdim,
kpack; `USE_TMA` in SGLang's down-projection tables). SGLang keeps them under
`triton_utils/configs/triton_<version>/`: the folder names the Triton version they were tuned with.

Reading is strict (a malformed or truncated file is an InputError naming the file and the entry); writing
is atomic (a temporary file renamed over the target), so a failed refit leaves nothing behind.

A table without `_down` whose `_down` sibling lies in the same folder configures only the up GEMM: SGLang
(`try_get_optimal_moe_config`) takes the down GEMM's config from the sibling, and when the sibling's entry
uses TMA the up GEMM writes its output in expert-sorted order (`c_sorted`). `Table.down_entries` holds the
sibling's entries for that.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import tempfile
from collections.abc import Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from tilefit.errors import InputError

# Keys a table entry may hold, and their types.
_INT_KEYS = ("BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "GROUP_SIZE_M", "num_warps", "num_stages",
             "num_ctas", "waves_per_eu", "matrix_instr_nonkdim", "kpack")
_REQUIRED = ("BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "GROUP_SIZE_M")
_BOOL_KEYS = ("USE_TMA",)
_NAME = re.compile(
    r"^E=(?P<E>\d+),N=(?P<N>\d+),device_name=(?P<device>[^,]*?)"
    r"(?:,dtype=(?P<dtype>[a-z0-9_]+?))?"
    r"(?:,block_shape=\[(?P<bn>\d+), ?(?P<bk>\d+)\])?"
    r"(?P<pcq>,per_channel_quant=True)?"
    r"(?P<down>_down)?\.json$"
)
DTYPES = ("fp8_w8a8", "int8_w8a8", "int8_w8a16", "int4_w4a16", "float32")
MAX_TABLE_BYTES = 16 * 1024 * 1024  # the largest bundled table is about 10 KB


@dataclasses.dataclass(frozen=True)
class TableName:
    """What a table's file name says."""

    experts: int
    n: int
    device_name: str
    dtype: str | None
    block_shape: tuple[int, int] | None
    per_channel_quant: bool
    down: bool

    def file_name(self, device_name: str | None = None) -> str:
        """The name vLLM/SGLang look this table up by, optionally for another device."""
        dev = self.device_name if device_name is None else device_name.replace(" ", "_")
        out = f"E={self.experts},N={self.n},device_name={dev}"
        out += f",dtype={self.dtype}" if self.dtype else ""
        out += f",block_shape=[{self.block_shape[0]}, {self.block_shape[1]}]" if self.block_shape else ""
        out += ",per_channel_quant=True" if self.per_channel_quant else ""
        return out + ("_down" if self.down else "") + ".json"


def parse_name(name: str) -> TableName:
    """Parse a table file name; an InputError says what a valid one looks like."""
    m = _NAME.match(name)
    if m is None:
        raise InputError(f"{name}: not a fused-MoE config table name; expected "
                         "E=<n>,N=<n>,device_name=<GPU>[,dtype=<quant>][,block_shape=[<n>, <k>]][_down].json")
    dtype = m["dtype"]
    if dtype is not None and dtype not in DTYPES:
        raise InputError(f"{name}: unknown dtype {dtype!r}; known: {', '.join(DTYPES)}")
    shape = (int(m["bn"]), int(m["bk"])) if m["bn"] else None
    return TableName(int(m["E"]), int(m["N"]), m["device"], dtype, shape, bool(m["pcq"]), bool(m["down"]))


@dataclasses.dataclass(frozen=True)
class Table:
    """One config table: its file, what its name says, the Triton version of its folder, the entries."""

    path: Path
    name: TableName
    entries: Mapping[int, Mapping[str, Any]]  # batch size M -> config, in file order
    tuned_with: str | None  # "3.1.0" from a triton_3_1_0 folder, else None
    down_entries: Mapping[int, Mapping[str, Any]] | None = None  # the `_down` sibling's entries, if any

    def down_entry(self, m: int) -> Mapping[str, Any] | None:
        """The sibling `_down` table's entry SGLang picks for batch size m (the nearest M), if there is one."""
        if not self.down_entries:
            return None
        return self.down_entries[min(self.down_entries, key=lambda k: abs(k - m))]

    @property
    def label(self) -> str:
        folder = f"triton_{self.tuned_with.replace('.', '_')}/" if self.tuned_with else ""
        return folder + self.path.name


def read_table(path: str | Path) -> Table:
    """Read and validate one table file."""
    p = Path(path)
    name = parse_name(p.name)
    down = None
    if not name.down:
        sibling = p.with_name(dataclasses.replace(name, down=True).file_name())
        down = _load(sibling) if sibling.is_file() else None
    return Table(p, name, _load(p), _tuned_with(p), down)


def _load(p: Path) -> dict[int, dict[str, Any]]:
    try:
        size = p.stat().st_size
        if size > MAX_TABLE_BYTES:
            raise InputError(f"{p}: {size} B is larger than any config table ({MAX_TABLE_BYTES} B at most)")
        raw = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"{p}: {exc.strerror or exc}") from exc
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{p}: not valid JSON ({_short(exc)}); is the file truncated?") from exc
    except RecursionError:
        raise InputError(f"{p}: not a config table (JSON nested too deeply)") from None
    return _entries(p, raw)


def _short(exc: Exception) -> str:
    return str(exc).splitlines()[0][:120]


def _entries(path: Path, raw: Any) -> dict[int, dict[str, Any]]:
    if not isinstance(raw, dict) or not raw:
        raise InputError(f"{path}: expected a non-empty JSON object mapping batch sizes to configs")
    out: dict[int, dict[str, Any]] = {}
    for key, cfg in raw.items():
        if not str(key).isdigit():
            raise InputError(f"{path}: key {key!r} is not a batch size (a non-negative integer)")
        out[int(key)] = _entry(path, key, cfg)
    return out


def _entry(path: Path, key: str, cfg: Any) -> dict[str, Any]:
    where = f"{path}: entry {key}"
    if not isinstance(cfg, dict):
        raise InputError(f"{where}: expected an object of kernel parameters, got {type(cfg).__name__}")
    missing = [k for k in _REQUIRED if k not in cfg]
    if missing:
        raise InputError(f"{where}: missing {', '.join(missing)}")
    for k, v in cfg.items():
        if k in _BOOL_KEYS:
            if not isinstance(v, bool):
                raise InputError(f"{where}: {k} must be true or false, not {v!r}")
        elif k not in _INT_KEYS:
            raise InputError(f"{where}: unknown key {k!r}; known: {', '.join(_INT_KEYS + _BOOL_KEYS)}")
        elif isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InputError(f"{where}: {k} must be a non-negative integer, not {v!r}")
    for k in ("BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K"):
        v = cfg[k]
        if v < 1 or v & (v - 1):
            raise InputError(f"{where}: {k}={v} is not a power of two (Triton's tl.arange needs one)")
    return dict(cfg)


def _tuned_with(path: Path) -> str | None:
    m = re.fullmatch(r"triton_(\d+)_(\d+)_(\d+)", path.parent.name)
    return ".".join(m.groups()) if m else None


def find_tables(paths: list[str]) -> Iterator[Path]:
    """Every table file named by `paths` (files, or folders searched recursively), sorted, de-duplicated."""
    seen: set[Path] = set()
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found = sorted(q for q in p.rglob("E=*.json") if q.is_file())
            if not found:
                raise InputError(f"{p}: no config tables (E=...,N=...,device_name=....json) in this folder")
        elif p.is_file():
            found = [p]
        else:
            raise InputError(f"{p}: no such file or folder")
        for q in found:
            r = q.resolve()
            if r not in seen:
                seen.add(r)
                yield q


def write_table(path: Path, entries: Mapping[int, Mapping[str, Any]]) -> None:
    """Write a table as vLLM/SGLang do (keys as strings, indent 4), atomically."""
    write_atomically(path, json.dumps({str(m): dict(c) for m, c in entries.items()}, indent=4) + "\n")


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to a temporary file beside `path`, then rename it over `path`: all or nothing."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tilefit-", suffix=".tmp")
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise


def writable_folder(folder: Path) -> None:
    """An InputError unless `folder` is (or can be made) a folder this process may write in; creates nothing."""
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        raise InputError(f"{folder}: {probe} is not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise InputError(f"{folder}: cannot write in {probe} (permission denied)")


@lru_cache(maxsize=512)
def _lines(path: str) -> tuple[str, ...]:
    try:
        return tuple(Path(path).read_text(encoding="utf-8").splitlines())
    except (OSError, UnicodeDecodeError):
        return ()


def entry_line(path: str, m: int) -> int:
    """The line of `"<m>": {` in a table file (1 when not found)."""
    pat = re.compile(rf'^\s*"{m}"\s*:')
    return next((i for i, ln in enumerate(_lines(path), 1) if pat.match(ln)), 1)

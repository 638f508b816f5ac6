"""The JSONL trace of compiled Triton specialisations (format version 1; docs/trace-format.md).

A trace is a file of JSON lines of three kinds, each a JSON object with a "kind":

    header   one per writing process, before its first other line: format version, tilefit and Triton
             versions, pid, device
    source   one per kernel source file per process: the file's text and sha256, so a replay works after
             a generated file (Inductor, Helion) is gone
    kernel   one per compiled specialisation: what `triton.compile` got (signature, constexprs, attrs,
             options, target) and what tilefit sized (shared, tmem, threads) against which limits

Everything a replay needs to rebuild Triton's `ASTSource(fn, signature, constexprs, attrs)` for another
target is in a kernel record plus the source it names. Several processes may append to one file: each
line is one `write(2)` on a descriptor opened with O_APPEND (atomic on local Linux filesystems).

This module imports nothing heavy; `decode_constexprs` imports triton.language only when a dtype appears.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from tilefit.errors import InputError

FORMAT_VERSION = 1
Via = Literal["compile", "cache"]
Path_ = tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class Header:
    """The first line a process writes: who wrote the records that follow with its pid."""

    version: int
    tilefit: str
    triton: str
    pid: int
    device: Mapping[str, Any] | None  # {"name", "target", "backend", "arch", "warp_size"}; None without one
    time: float
    argv: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class Source:
    """The text of one kernel source file, keyed by its sha256."""

    sha256: str
    path: str
    text: str


@dataclasses.dataclass(frozen=True)
class Sized:
    """On-chip usage of one specialisation, or the limits it was compared with (None: not applicable)."""

    shared: int
    tmem: int | None
    threads: int


@dataclasses.dataclass(frozen=True)
class KernelRecord:
    """One compiled specialisation: enough to rebuild Triton's ASTSource and compile it for another target."""

    pid: int
    name: str  # module-qualified: "pkg.mod.kernel"
    fn: str  # the JIT function's __name__
    file: str
    line: int  # first line of the `def`
    file_sha256: str  # key of the Source line holding the file's text
    src_sha256: str  # sha256 of the function's own source (Triton's JITFunction.src)
    signature: Mapping[str, str]  # parameter name -> Triton type string ("*fp32", "i32", "constexpr")
    constexprs: Mapping[Path_, Any]  # JSON-safe (see encode_value); decode with decode_constexprs
    attrs: Mapping[Path_, tuple[tuple[str, Any], ...]]  # e.g. {(0,): (("tt.divisibility", 16),)}
    options: Mapping[str, Any]  # num_warps, num_stages, num_ctas, maxnreg, ... (JSON-safe ones)
    target: Mapping[str, Any]  # {"name": "sm_90", "backend": "cuda", "arch": 90, "warp_size": 32}
    sized: Sized
    limits: Sized
    fits: bool
    over: tuple[str, ...]  # Triton's resource names that exceed: "shared memory", "tensor memory", "threads"
    via: Via  # "compile": sized by the allocation pass; "cache": read from Triton's cached metadata
    time: float


@dataclasses.dataclass(frozen=True)
class Trace:
    """A whole trace file, validated."""

    headers: tuple[Header, ...]
    sources: Mapping[str, Source]
    records: tuple[KernelRecord, ...]
    problems: tuple[str, ...] = ()  # lines skipped by a non-strict read

    def source_of(self, record: KernelRecord) -> Source | None:
        """The source file text a record names, when the trace holds it."""
        return self.sources.get(record.file_sha256)


# ---- values: constexprs and options ------------------------------------------------------------------


def encode_value(value: Any) -> Any:
    """A constexpr or option as JSON: scalars as they are, dtypes {"dtype": "fp16"}, tuples {"tuple": [...]}."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (tuple, list)):
        return {"tuple": [encode_value(v) for v in value]}
    inner = getattr(value, "value", None)  # tl.constexpr wraps its value
    if type(value).__name__ == "constexpr":
        return encode_value(inner)
    name = _dtype_name(value)
    if name is not None:
        return {"dtype": name}
    fn = getattr(value, "fn", None)
    if fn is not None and hasattr(value, "src"):  # a JITFunction passed as a constexpr
        return {"jit": f"{fn.__module__}.{fn.__qualname__}"}
    return {"repr": repr(value)}


def _dtype_name(value: Any) -> str | None:
    if type(value).__module__.startswith("triton.language") and hasattr(value, "primitive_bitwidth"):
        return str(value.name)
    return None


def decode_value(value: Any) -> Any:
    """The inverse of encode_value; dtypes become triton.language dtypes, {"repr"} raises InputError."""
    if not isinstance(value, dict):
        return value
    if "tuple" in value:
        return tuple(decode_value(v) for v in value["tuple"])
    if "dtype" in value:
        import triton.language as tl

        return tl.dtype(str(value["dtype"]))
    raise InputError(f"constexpr {value} cannot be rebuilt from a trace")


def decode_constexprs(record: KernelRecord) -> dict[Path_, Any]:
    """Constexprs as ASTSource wants them. A {"jit": name} value stays a str: resolve it from the source."""
    return {k: (v["jit"] if isinstance(v, dict) and "jit" in v else decode_value(v))
            for k, v in record.constexprs.items()}


def decode_attrs(record: KernelRecord) -> dict[Path_, list[list[Any]]]:
    """Specialisation attrs as ASTSource wants them: {(0,): [["tt.divisibility", 16]]}."""
    return {k: [list(pair) for pair in v] for k, v in record.attrs.items()}


# Options Triton derives from the compile target (parse_options): a replay for another target drops them
# so the new target's backend fills in its own (an sm_90 "arch" would otherwise stay sm_90).
TARGET_OPTIONS = frozenset({
    "arch", "ptx_version", "backend_name", "supported_fp8_dtypes", "deprecated_fp8_dot_operand_dtypes",
    "extern_libs", "allowed_dot_input_precisions", "max_num_imprecise_acc_default",
})


def replay_options(record: KernelRecord) -> dict[str, Any]:
    """A record's options without those derived from its target: what to pass when compiling for another."""
    return {k: v for k, v in record.options.items() if k not in TARGET_OPTIONS}


def json_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options of a compile that JSON keeps exactly (tuples become lists); others are left out."""
    out: dict[str, Any] = {}
    for key, value in options.items():
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            continue
        out[key] = value
    return out


# ---- encoding lines ----------------------------------------------------------------------------------


def _paths(mapping: Mapping[Path_, Any]) -> list[list[Any]]:
    return [[list(k), v] for k, v in mapping.items()]


def header_line(header: Header) -> dict[str, Any]:
    """The JSON object of a header line."""
    return {"kind": "header", "tilefit_trace": header.version, "tilefit": header.tilefit,
            "triton": header.triton, "pid": header.pid, "device": dict(header.device) if header.device else None,
            "time": header.time, "argv": list(header.argv)}


def source_line(source: Source) -> dict[str, Any]:
    """The JSON object of a source line."""
    return {"kind": "source", "sha256": source.sha256, "path": source.path, "text": source.text}


def kernel_line(rec: KernelRecord) -> dict[str, Any]:
    """The JSON object of a kernel line."""
    return {
        "kind": "kernel", "pid": rec.pid, "name": rec.name, "fn": rec.fn, "file": rec.file, "line": rec.line,
        "file_sha256": rec.file_sha256, "src_sha256": rec.src_sha256, "signature": dict(rec.signature),
        "constexprs": _paths({k: encode_value(v) for k, v in rec.constexprs.items()}),
        "attrs": _paths({k: [list(p) for p in v] for k, v in rec.attrs.items()}),
        "options": json_options(rec.options), "target": dict(rec.target),
        "sized": dataclasses.asdict(rec.sized), "limits": dataclasses.asdict(rec.limits),
        "fits": rec.fits, "over": list(rec.over), "via": rec.via, "time": rec.time,
    }


def dumps(obj: Mapping[str, Any]) -> bytes:
    """One line: compact JSON and a newline (no NaN, no newline inside)."""
    return (json.dumps(obj, separators=(",", ":"), allow_nan=False, ensure_ascii=False) + "\n").encode()


def sha256_text(text: str) -> str:
    """The sha256 of a text's UTF-8 bytes, as the trace stores it."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---- writing -----------------------------------------------------------------------------------------


class TraceWriter:
    """Appends lines to one trace file; safe for several processes writing the same file at once."""

    def __init__(self, path: str | os.PathLike[str], header: Header) -> None:
        self.path = Path(path)
        self.header = header
        self._fd: int | None = None
        self._sources: set[str] = set()

    def _open(self) -> int:
        if self._fd is None or self.header.pid != os.getpid():
            if self.header.pid != os.getpid():  # a fork: the child writes its own header
                self.header = dataclasses.replace(self.header, pid=os.getpid(), time=time.time())
                self._sources = set()
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            self._write(dumps(header_line(self.header)))
        return self._fd

    def _write(self, data: bytes) -> None:
        assert self._fd is not None
        view = memoryview(data)
        while view:  # a short write happens only past the pipe/disk limits; keep going
            view = view[os.write(self._fd, view):]

    def add_source(self, path: str, text: str) -> str:
        """Write the file's text once per process; returns its sha256."""
        digest = sha256_text(text)
        if digest not in self._sources:
            self._open()
            self._write(dumps(source_line(Source(digest, path, text))))
            self._sources.add(digest)
        return digest

    def add(self, record: KernelRecord) -> None:
        """Write one kernel line."""
        self._open()
        self._write(dumps(kernel_line(dataclasses.replace(record, pid=os.getpid()))))

    def close(self) -> None:
        """Close the descriptor (a later add opens it again)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


# ---- reading -----------------------------------------------------------------------------------------


class _Bad(ValueError):
    pass


def _need(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in obj:
        raise _Bad(f"missing field {key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind in (int, (int, float))):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise _Bad(f"field {key!r} is {type(value).__name__}, expected {names}")
    return value


def _sized(obj: Mapping[str, Any], key: str) -> Sized:
    raw = _need(obj, key, dict)
    tmem = raw.get("tmem")
    if tmem is not None and not isinstance(tmem, int):
        raise _Bad(f"field {key}.tmem is {type(tmem).__name__}, expected int or null")
    return Sized(shared=_need(raw, "shared", int), tmem=tmem, threads=_need(raw, "threads", int))


def _path_map(obj: Mapping[str, Any], key: str) -> dict[Path_, Any]:
    out: dict[Path_, Any] = {}
    for item in _need(obj, key, list):
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], list)
                and all(isinstance(i, int) for i in item[0])):
            raise _Bad(f"field {key!r} holds {item!r}, expected [[int, ...], value]")
        out[tuple(item[0])] = item[1]
    return out


def _parse_header(obj: Mapping[str, Any]) -> Header:
    version = _need(obj, "tilefit_trace", int)
    if version != FORMAT_VERSION:
        raise _Bad(f"trace format version {version}; this tilefit reads version {FORMAT_VERSION}")
    device = obj.get("device")
    if device is not None and not isinstance(device, dict):
        raise _Bad("field 'device' must be an object or null")
    return Header(version, _need(obj, "tilefit", str), _need(obj, "triton", str), _need(obj, "pid", int),
                  device, float(_need(obj, "time", (int, float))), tuple(obj.get("argv") or ()))


def _parse_source(obj: Mapping[str, Any]) -> Source:
    src = Source(_need(obj, "sha256", str), _need(obj, "path", str), _need(obj, "text", str))
    if sha256_text(src.text) != src.sha256:
        raise _Bad(f"source {src.path}: text does not match its sha256")
    return src


def _parse_kernel(obj: Mapping[str, Any]) -> KernelRecord:
    signature = _need(obj, "signature", dict)
    if not all(isinstance(v, str) for v in signature.values()):
        raise _Bad("field 'signature' must map parameter names to Triton type strings")
    via = _need(obj, "via", str)
    if via not in ("compile", "cache"):
        raise _Bad(f"field 'via' is {via!r}, expected 'compile' or 'cache'")
    attrs = {k: tuple((str(p[0]), p[1]) for p in v) for k, v in _path_map(obj, "attrs").items()}
    return KernelRecord(
        pid=_need(obj, "pid", int), name=_need(obj, "name", str), fn=_need(obj, "fn", str),
        file=_need(obj, "file", str), line=_need(obj, "line", int), file_sha256=_need(obj, "file_sha256", str),
        src_sha256=_need(obj, "src_sha256", str), signature=signature, constexprs=_path_map(obj, "constexprs"),
        attrs=attrs, options=_need(obj, "options", dict), target=_need(obj, "target", dict),
        sized=_sized(obj, "sized"), limits=_sized(obj, "limits"), fits=_need(obj, "fits", bool),
        over=tuple(_need(obj, "over", list)), via=via,
        time=float(_need(obj, "time", (int, float))),
    )


_Parser = Callable[[Mapping[str, Any]], "Header | Source | KernelRecord"]
_PARSERS: dict[str, _Parser] = {"header": _parse_header, "source": _parse_source, "kernel": _parse_kernel}


def parse_line(text: str) -> Header | Source | KernelRecord:
    """One validated line; ValueError names what is wrong."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _Bad(f"not JSON ({exc.msg} at column {exc.colno})") from exc
    if not isinstance(obj, dict):
        raise _Bad(f"a line must be a JSON object, not {type(obj).__name__}")
    kind = obj.get("kind")
    parser = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        raise _Bad(f"unknown kind {kind!r}; expected one of {', '.join(_PARSERS)}")
    return parser(obj)


def read_trace(path: str | os.PathLike[str], *, strict: bool = True) -> Trace:
    """Read and validate a trace; strict=False skips bad lines (a process killed mid-line) into `problems`."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read trace ({exc})") from exc
    return parse_trace(text.splitlines(), name=str(path), strict=strict)


def parse_trace(lines: Sequence[str], *, name: str = "<trace>", strict: bool = True) -> Trace:
    """Validate lines of a trace: a header must come before a process's records."""
    headers: list[Header] = []
    sources: dict[str, Source] = {}
    records: list[KernelRecord] = []
    problems: list[str] = []
    pids: set[int] = set()
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            item = parse_line(text)
            if isinstance(item, KernelRecord) and item.pid not in pids:
                raise _Bad(f"kernel record of pid {item.pid} before that process's header")
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            if strict:
                raise InputError(f"{name}:{number}: {exc}") from exc
            problems.append(f"{name}:{number}: {exc}")
            continue
        if isinstance(item, Header):
            headers.append(item)
            pids.add(item.pid)
        elif isinstance(item, Source):
            sources[item.sha256] = item
        else:
            records.append(item)
    if not headers and strict:
        raise InputError(f"{name}: not a tilefit trace (no header line)")
    return Trace(tuple(headers), sources, tuple(records), tuple(problems))

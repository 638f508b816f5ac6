"""One on-disk store: JSON records under a root directory, one file per key, validated on every read.

Estimates (a Usage per key, estimate/triton.py and estimate/pallas.py) and guard decisions (guard/) live
here. A file holds `{"schema", "kind", "tools", "value"}`; a read returns a value only when the file is a
regular file of at most `_MAX_BYTES`, its schema and kind are this code's, its tool versions (the Triton
that made it) equal the caller's, and the value has the shape its record kind expects (cross-field rules
included: `fits: true` with more bytes than the limit is rejected). Anything else is a miss and is
recomputed; nothing read from disk is trusted or can crash the caller. No pickle: JSON cannot run code.

Writes are atomic (a `.tmp` file in the same directory, then rename) and leave nothing behind when they
fail (a full disk included). Shard directories are opened without following symlinks, so a symlink
planted in a cache shared with others cannot redirect a write outside it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import math
import os
import re
import secrets
import stat
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar, get_args

from tilefit.resources import TABLE
from tilefit.usage import Failure, FailureKind, Mode, Overrun, Usage, VmemDetail

T = TypeVar("T")
SCHEMA = 2  # bump when a record's shape changes: older records then miss instead of being misread
_MAX_BYTES = 4 * 1024 * 1024
_KEY = re.compile(r"[0-9a-f]{16,64}")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


def key(parts: Mapping[str, Any]) -> str:
    """A stable sha256 (hex) of JSON-able parts: dict order does not matter, other values count by repr."""
    text = json.dumps({"schema": SCHEMA, **parts}, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclasses.dataclass(frozen=True)
class RecordKind(Generic[T]):
    """How one kind of value is written (encode) and read back (decode: None when the shape is wrong)."""

    name: str
    encode: Callable[[T], Any]
    decode: Callable[[Any], T | None]


class Store(Generic[T]):
    """Records of one kind under `root`, stamped with the tool versions that made them."""

    def __init__(self, root: Path, kind: RecordKind[T], tools: Mapping[str, str] | None = None) -> None:
        self.root = Path(root)
        self.kind = kind
        self.tools = dict(tools or {})

    def path(self, key: str) -> Path:
        """Where the record of `key` lives."""
        return self.root / key[:2] / f"{_checked(key)}.json"

    def get(self, key: str) -> T | None:
        """The stored value, or None when missing, unreadable, of another version or of the wrong shape."""
        raw = _read(self.root, _checked(key))
        if raw is None:
            return None
        try:
            doc = json.loads(raw)
        except ValueError:
            return None
        if not (isinstance(doc, dict) and doc.get("schema") == SCHEMA and doc.get("kind") == self.kind.name
                and doc.get("tools") == self.tools):
            return None
        try:
            return self.kind.decode(doc.get("value"))
        except (TypeError, ValueError, KeyError, AttributeError):  # a decoder is strict; this is a backstop
            return None

    def put(self, key: str, value: T) -> bool:
        """Store a value atomically; False when it could not be written (the caller goes on without it)."""
        doc = {"schema": SCHEMA, "kind": self.kind.name, "tools": self.tools, "value": self.kind.encode(value)}
        try:
            text = json.dumps(doc, sort_keys=True, default=repr, allow_nan=False)
        except ValueError:
            return False
        return _write(self.root, _checked(key), text.encode("utf-8"))


def _checked(key: str) -> str:
    if not _KEY.fullmatch(key):
        raise ValueError(f"store key {key!r} is not 16 to 64 hex digits (make keys with tilefit.store.key)")
    return key


@contextlib.contextmanager
def _shard(root: Path, key: str, create: bool) -> Iterator[int | None]:
    """A descriptor of the key's shard directory (never through a symlink), or None."""
    fd = None
    try:
        if create:
            root.mkdir(parents=True, exist_ok=True)
        root_fd = os.open(root, os.O_RDONLY | _DIRECTORY)
        try:
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(key[:2], 0o755, dir_fd=root_fd)
            fd = os.open(key[:2], os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=root_fd)
        finally:
            os.close(root_fd)
    except OSError:
        fd = None
    try:
        yield fd
    finally:
        if fd is not None:
            os.close(fd)


def _read(root: Path, key: str) -> bytes | None:
    with _shard(root, key, create=False) as shard:
        if shard is None:
            return None
        try:
            fd = os.open(f"{key}.json", os.O_RDONLY | _NOFOLLOW | os.O_NONBLOCK, dir_fd=shard)
        except OSError:
            return None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_size > _MAX_BYTES:
                return None
            with os.fdopen(os.dup(fd), "rb") as f:
                return f.read(_MAX_BYTES + 1)
        except OSError:
            return None
        finally:
            os.close(fd)


def _write(root: Path, key: str, data: bytes) -> bool:
    with _shard(root, key, create=True) as shard:
        if shard is None:
            return False
        tmp = f".{key}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644, dir_fd=shard)
        except OSError:
            return False
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, f"{key}.json", src_dir_fd=shard, dst_dir_fd=shard)
            return True
        except OSError:
            return False
        finally:  # after a successful replace the name is gone and this does nothing
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=shard)


# ------------------------------------------------------------------------------------------ record kinds


def _nat(value: Any, none: bool = True) -> bool:
    """A non-negative int (not a bool), or None where allowed."""
    return (none and value is None) or (type(value) is int and value >= 0)


def _text(value: Any, none: bool = True) -> bool:
    return (none and value is None) or isinstance(value, str)


def _scalar(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    return value is None or isinstance(value, (str, int, bool))


def _value(value: Any, depth: int = 0) -> bool:
    """A config value: a JSON scalar or a (nested) list of them; never a mapping."""
    if isinstance(value, list):
        return depth < 4 and all(_value(v, depth + 1) for v in value)
    return _scalar(value)


def _config(value: Any) -> dict[str, Any] | None:
    """A config: a mapping of names to config values."""
    if not isinstance(value, dict) or not all(isinstance(k, str) and _value(v) for k, v in value.items()):
        return None
    return dict(value)


def _overrun(raw: Any) -> Overrun | None:
    if not (isinstance(raw, dict) and raw.get("resource") in TABLE and _nat(raw.get("required"), False)
            and _nat(raw.get("limit"), False) and _text(raw.get("target"), False)):
        return None
    return Overrun(raw["resource"], raw["required"], raw["limit"], raw["target"])


def _failure(raw: Any) -> Failure | None:
    if not (isinstance(raw, dict) and raw.get("kind") in get_args(FailureKind) and _text(raw.get("message"), False)
            and _text(raw.get("stage", ""), False) and _text(raw.get("stderr", ""), False)
            and (raw.get("returncode") is None or type(raw.get("returncode")) is int)):
        return None
    return Failure(raw["kind"], raw["message"], raw.get("stage", ""), raw.get("returncode"), raw.get("stderr", ""))


def _vmem(raw: Any) -> VmemDetail | None:
    if not isinstance(raw, dict):
        return None
    out: dict[str, Any] = {}
    for f in dataclasses.fields(VmemDetail):
        if f.name not in raw:
            continue
        v = raw[f.name]
        if (f.type == "bool" and isinstance(v, bool)) or (f.type == "int | None" and _nat(v)):
            out[f.name] = v
        elif f.type == "tuple[str, ...]" and isinstance(v, list) and all(isinstance(x, str) for x in v):
            out[f.name] = tuple(v)
        elif f.type == "tuple[tuple[str, int], ...]" and isinstance(v, list) and all(
                isinstance(x, list) and len(x) == 2 and isinstance(x[0], str) and _nat(x[1], False) for x in v):
            out[f.name] = tuple((str(a), int(b)) for a, b in v)
        else:
            return None
    return VmemDetail(**out)


def _seconds(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value) and value >= 0


def decode_usage(raw: Any) -> Usage | None:
    """A Usage from its JSON form, or None when any field has the wrong type or the fields disagree."""
    if not isinstance(raw, dict):
        return None
    config = _config(raw.get("config"))
    raw_over = raw.get("over") or []
    over = [_overrun(o) for o in raw_over] if isinstance(raw_over, list) else [None]
    failure = _failure(raw["failure"]) if raw.get("failure") is not None else None
    vmem = _vmem(raw["vmem"]) if raw.get("vmem") is not None else None
    fits, size, limit, error = raw.get("fits"), raw.get("bytes"), raw.get("limit"), raw.get("error")
    shaped = (
        _text(raw.get("target"), False) and _text(raw.get("resource"), False) and raw.get("mode") in get_args(Mode)
        and config is not None and fits in (True, False, None) and _nat(size) and _nat(limit) and _text(error)
        and _seconds(raw.get("seconds", 0.0)) and all(_nat(raw.get(k)) for k in _COUNTS)
        and _text(raw.get("compiler")) and isinstance(raw.get("extra", {}), dict) and None not in over
        and (raw.get("failure") is None or failure is not None) and (raw.get("vmem") is None or vmem is not None)
    )
    if not shaped or not _consistent(fits, size, limit, error, over):
        return None
    return Usage(
        target=raw["target"], resource=raw["resource"], bytes=size, limit=limit, mode=raw["mode"],
        config=config or {}, fits=fits, error=error, seconds=float(raw.get("seconds", 0.0)),
        **{k: raw.get(k) for k in _COUNTS}, over=tuple(o for o in over if o is not None), failure=failure,
        vmem=vmem, compiler=raw.get("compiler"), extra=dict(raw.get("extra", {})),
    )


_COUNTS = ("registers", "spills", "threads", "tensor_memory")


def _consistent(fits: Any, size: Any, limit: Any, error: Any, over: Sequence[Any]) -> bool:
    """`fits` agrees with the numbers: a forged `fits: true` over the limit is not a result."""
    if fits is None:
        return error is not None
    if error is not None:
        return False
    if fits:
        return size is not None and limit is not None and size <= limit and not over
    return True


def encode_usage(usage: Usage) -> dict[str, Any]:
    """The JSON form of a Usage (Usage.to_dict)."""
    return dict(usage.to_dict())


USAGE: RecordKind[Usage] = RecordKind("usage", encode_usage, decode_usage)


def decode_decision(raw: Any) -> dict[str, Any] | None:
    """A guard decision: a mapping whose `config`/`was`/`changes` are configs, `keep` config indices."""
    if not isinstance(raw, dict):
        return None
    for name in ("config", "was", "changes"):  # configs, or the keys a fallback changed
        if name in raw and _config(raw[name]) is None:
            return None
    if not _text(raw.get("compiler")):
        return None
    if "keep" in raw and not (isinstance(raw["keep"], list) and raw["keep"] and all(_nat(i, False) for i in raw["keep"])
                              and len(set(raw["keep"])) == len(raw["keep"])):
        return None
    if "dropped" in raw and not (isinstance(raw["dropped"], list) and all(isinstance(d, str) for d in raw["dropped"])):
        return None
    return dict(raw)


DECISION: RecordKind[dict[str, Any]] = RecordKind("guard-decision", dict, decode_decision)


class DecisionStore:
    """Guard decisions of one kernel: one record per (device, key) under <cache_dir>/guard/<kernel>-<id>/."""

    def __init__(self, root: Path, kernel_id: str, kernel_name: str = "", tools: Mapping[str, str] | None = None
                 ) -> None:
        self.path = Path(root) / "guard" / f"{_safe(kernel_name)}-{_safe(kernel_id)[:16]}"
        self.kernel_name = kernel_name
        self._store = Store(self.path, DECISION, tool_versions() if tools is None else tools)

    def get(self, device: str, key: str) -> dict[str, Any] | None:
        """The stored decision (validated shape), or None."""
        return self._store.get(_decision_key(device, key))

    def put(self, device: str, key: str, decision: Mapping[str, Any]) -> bool:
        """Store a decision; False when it could not be written."""
        return self._store.put(_decision_key(device, key), dict(decision))

    def keep(self, device: str, key: str, n_configs: int) -> list[int] | None:
        """The stored indices of the configs that fit, each in range(n_configs); None when absent or stale."""
        found = self.get(device, key)
        keep = found.get("keep") if found else None
        if not keep or any(i >= n_configs for i in keep):
            return None
        return list(keep)

    def config(self, device: str, key: str, like: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
        """The stored `config`; with `like`, only when it has exactly like's keys (else stale or forged)."""
        found = self.get(device, key)
        config = found.get("config") if found else None
        if config is None or (like is not None and set(config) != set(like)):
            return None
        return dict(config)


def _decision_key(device: str, key: str) -> str:
    return hashlib.sha256(json.dumps([device, key]).encode("utf-8")).hexdigest()


def stable_key(parts: Any) -> str:
    """A short stable key (24 hex digits) of JSON-able parts, for guard decisions."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode("utf-8")).hexdigest()[:24]


def tool_versions() -> dict[str, str]:
    """The Triton version in use (already imported, else installed), so that a record made by another
    Triton is not reused silently."""
    import sys

    module = sys.modules.get("triton")
    version = getattr(module, "__version__", None)
    if version is None:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as installed

        try:
            version = installed("triton")
        except PackageNotFoundError:
            version = "-"
    return {"triton": str(version)}


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:60] or "kernel"

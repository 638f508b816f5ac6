"""One loader for `tilefit estimate` and `tilefit fit`: spec YAML / FILE.py:KERNEL -> backend -> kernel -> space.

    spec = read_spec("space.yaml")                        # a checked Spec (bounded read, shape errors named)
    jobs = plan(spec.merged(kernel="mm.py:k", ...), targets)  # one Job per backend serving the targets

A `Job` holds the backend (estimate/__init__.py's registry), the loaded kernel, its configs and its
targets; `Job.estimate(mode)` runs the backend's estimator. Every shape error of the input is one
InputError line. Loading a kernel imports its file: the file's module-level code runs (userfile.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tilefit.errors import InputError
from tilefit.estimate.base import Backend, Estimator, Usage
from tilefit.space import LAUNCH_KEYS, MAX_CONFIGS, check_size
from tilefit.targets import Target, load_targets

# A spec is a few kilobytes; anything larger (or endless, like /dev/zero) is not a spec.
MAX_SPEC_BYTES = 1 << 20
KEYS = ("kernel", "args", "space", "targets", "params", "backend")


@dataclasses.dataclass(frozen=True)
class Spec:
    """What to estimate or fit: the kernel reference, argument types, space, targets, kernel params."""

    kernel: str | None = None
    args: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    space: Mapping[str, list[Any]] = dataclasses.field(default_factory=dict)
    targets: tuple[str, ...] = ()
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    backend: str | None = None

    def as_mapping(self) -> dict[str, Any]:
        """The mapping a Backend's load/estimator/space read."""
        return {"args": dict(self.args), "space": dict(self.space), "params": dict(self.params)}

    def merged(
        self, *, kernel: str | None = None, args: Mapping[str, str] | None = None,
        space: Mapping[str, list[Any]] | None = None, targets: Sequence[str] = (), backend: str | None = None,
    ) -> Spec:
        """This spec with command-line values laid over it (the command line wins)."""
        return dataclasses.replace(
            self, kernel=kernel or self.kernel, args={**self.args, **(args or {})},
            space={**self.space, **(space or {})}, targets=tuple(targets) or self.targets,
            backend=backend or self.backend,
        )


@dataclasses.dataclass(frozen=True)
class Job:
    """One backend's share of the work: its kernel, configs and targets."""

    backend: Backend
    kernel: Any
    spec: Mapping[str, Any]
    configs: list[dict[str, Any]]
    targets: list[Target]

    def estimator(self) -> Estimator:
        return self.backend.estimator(self.kernel, self.spec)

    def estimate(self, mode: str, *, workers: int | None = None) -> list[Usage]:
        est = self.estimator()
        return est.estimate_many(self.configs, self.targets, self.backend.mode(mode), workers=workers)


def read_spec(path: str | Path | None) -> Spec:
    """Read and check a spec YAML file; InputError (one line, naming the file) for any problem."""
    if path is None:
        return Spec()
    import yaml

    where = f"--spec {path}"
    text = _read_bounded(Path(path), where)
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise InputError(f"{where}: not valid YAML ({_first_line(exc)})") from None
    if not isinstance(doc, dict):
        raise InputError(f"{where}: expected a mapping with {', '.join(KEYS[:4])}")
    unknown = sorted(str(k) for k in set(doc) - set(KEYS))
    if unknown:
        raise InputError(f"{where}: unknown keys {unknown}; use {', '.join(KEYS)}")
    spec = Spec(
        kernel=_kernel_ref(doc.get("kernel"), Path(path).parent, where),
        args=_mapping(doc.get("args"), "args", where, "name: type (e.g. a_ptr: '*fp16:16')"),
        space=as_space(doc.get("space"), where),
        targets=tuple(as_list(doc.get("targets") or [], f"{where}: targets")),
        params=_mapping(doc.get("params"), "params", where, "name: value"),
        backend=_optional_str(doc.get("backend"), "backend", where),
    )
    return spec


def _read_bounded(path: Path, where: str) -> str:
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_SPEC_BYTES + 1)
    except IsADirectoryError:
        raise InputError(f"{where}: is a directory") from None
    except OSError as exc:
        raise InputError(f"{where}: {exc.strerror or exc}") from None
    if len(data) > MAX_SPEC_BYTES:
        raise InputError(f"{where}: larger than {MAX_SPEC_BYTES} B; a spec is a small YAML file")
    if b"\0" in data:
        raise InputError(f"{where}: a binary file, not a YAML spec")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{where}: not UTF-8 text (byte {exc.start})") from None


def _first_line(exc: Exception) -> str:
    return " ".join(str(exc).split())[:200]


def _kernel_ref(raw: Any, base: Path, where: str) -> str | None:
    if raw is None:
        return None
    if not isinstance(raw, str):
        raise InputError(f"{where}: kernel must be a string path/to/file.py:name, not {type(raw).__name__}")
    path, sep, name = raw.rpartition(":")
    if sep and path and not Path(path).is_absolute():
        return f"{base / path}:{name}"
    return raw


def _mapping(raw: Any, key: str, where: str, shape: str) -> dict[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise InputError(f"{where}: {key} must be a mapping of {shape}, not a {type(raw).__name__}")
    return {str(k): v for k, v in raw.items()}


def _optional_str(raw: Any, key: str, where: str) -> str | None:
    if raw is None or isinstance(raw, str):
        return raw
    raise InputError(f"{where}: {key} must be a string, not a {type(raw).__name__}")


def as_space(raw: Any, where: str = "space") -> dict[str, list[Any]]:
    """A spec's `space` (key: [values] or key: value or key: "v1,v2") as key -> list of values."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise InputError(f"{where}: space must map each key to a list of values, not a {type(raw).__name__}")
    out = {}
    for key, value in raw.items():
        values = [_scalar(v) if isinstance(v, str) else v for v in as_list(value, f"{where}: space.{key}")]
        if not values:
            raise InputError(f"{where}: space.{key} has no values")
        out[str(key)] = values
    check_launch_options(out, where)
    return out


def check_launch_options(space: Mapping[str, Sequence[Any]], where: str) -> None:
    """num_warps, num_stages and num_ctas must be positive integers (0 or -1 is a typo, not a config)."""
    for key in LAUNCH_KEYS:
        for value in space.get(key, ()):
            if key == "maxnreg" and value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InputError(f"{where}: {key}={value!r}: a launch option must be a positive integer")


def as_list(value: Any, what: str = "value") -> list[Any]:
    """A YAML list, a comma-separated string ('sm_90,sm_86') or one scalar, as a list; a mapping is an error."""
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, str):
        return split(value)
    if isinstance(value, Mapping):
        raise InputError(f"{what}: expected a list or a comma-separated string, not a mapping")
    return [value]


def split(text: str) -> list[str]:
    return [v.strip() for v in text.split(",") if v.strip()]


def parse_pairs(items: Sequence[str], flag: str) -> dict[str, str]:
    """['K=V', ...] from repeated flags as {K: V}; InputError naming the flag for a malformed one."""
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise InputError(f"{flag} {item!r}: expected NAME=VALUE")
        out[key.strip()] = value.strip()
    return out


def config_pairs(items: Sequence[str]) -> dict[str, list[Any]]:
    """--config KEY=V1,V2 flags as a space."""
    space = {k: [_scalar(v) for v in split(v)] for k, v in parse_pairs(items, "--config").items()}
    check_launch_options(space, "--config")
    return space


def problem_pairs(items: Sequence[str]) -> dict[str, int]:
    """--problem BLOCK_KEY=EXTENT flags; the extent must be a positive integer."""
    out = {}
    for key, value in parse_pairs(items, "--problem").items():
        try:
            n = int(value)
        except ValueError:
            n = 0
        if n < 1:
            raise InputError(f"--problem {key}={value}: the extent must be a positive integer")
        out[key] = n
    return out


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


def resolve_targets(names: Sequence[str]) -> list[Target]:
    """Target objects for names; no names means the current GPU ('auto', which needs one)."""
    if not names:
        from tilefit.estimate.triton import resolve_target

        return [resolve_target("auto")]
    targets = load_targets()
    return [targets.get(str(n)) for n in names]


def plan(spec: Spec, targets: Sequence[Target], *, max_configs: int | None = MAX_CONFIGS) -> list[Job]:
    """One Job per backend that serves some of `targets`, with its kernel loaded and its space expanded."""
    from tilefit.estimate import backend, backend_for

    if not spec.kernel:
        raise InputError("no kernel: give path/to/file.py:kernel_name or `kernel:` in --spec")
    groups: dict[str, tuple[Backend, list[Target]]] = {}
    for t in targets:
        chosen = backend(spec.backend) if spec.backend else backend_for(t)
        if not chosen.accepts(t):
            raise InputError(f"the {chosen.name} backend does not compile for {t.name}")
        groups.setdefault(chosen.name, (chosen, []))[1].append(t)
    return [_job(b, ts, spec, max_configs) for b, ts in groups.values()]


def _job(backend: Backend, targets: list[Target], spec: Spec, max_configs: int | None) -> Job:
    assert spec.kernel is not None
    mapping = spec.as_mapping()
    check_size(spec.space, max_configs)  # a huge grid is refused before the kernel file is imported
    kernel = backend.load(spec.kernel, mapping)
    configs = backend.space(kernel, mapping)
    check_size(configs, max_configs)  # the kernel's own space (Pallas, Helion)
    if not configs:
        raise InputError(f"{spec.kernel}: empty config space; give --spec space.yaml or --config K=V1,V2")
    return Job(backend, kernel, mapping, configs, targets)


__all__ = [
    "MAX_SPEC_BYTES",
    "Job",
    "Spec",
    "as_list",
    "as_space",
    "config_pairs",
    "parse_pairs",
    "plan",
    "problem_pairs",
    "read_spec",
    "resolve_targets",
]

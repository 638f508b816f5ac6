"""Every exception and warning tilefit raises.

    TilefitError
    ├── InputError            bad user input: empty, binary, unreadable, malformed spec
    ├── KnowledgeBaseError    a KB entry or targets file is invalid (names the file and field)
    ├── UnknownTargetError    a target name that no data file defines (lists valid ones)
    ├── UnsupportedTarget     a known target no installed backend can compile for (e.g. Intel XPU)
    ├── MissingExtraError     an optional backend (triton, jax, helion) is not installed
    ├── SettingsError         a TILEFIT_* environment variable has a bad value
    ├── CompileError          the real compiler rejected a kernel for reasons other than size
    ├── DoesNotFit            one config needs more of a resource than the target has
    └── NoConfigFits          no config of a space fits; names the consumer that never fits
    TilefitWarning            (Warning) a fallback happened, e.g. a config was replaced

Errors carry their numbers as fields and pickle across process boundaries.
"""

from __future__ import annotations

from typing import Any


class TilefitError(Exception):
    """Base of every tilefit error."""


class InputError(TilefitError):
    """The input (log, spec, kernel path) cannot be used."""


class KnowledgeBaseError(TilefitError):
    """A knowledge-base or target data file is invalid."""


class SettingsError(TilefitError):
    """A TILEFIT_* environment variable has a value tilefit cannot use."""


class UnknownTargetError(TilefitError):
    """A target name no data file defines."""

    def __init__(self, name: str, valid: list[str]) -> None:
        self.name = name
        self.valid = list(valid)
        super().__init__(f"unknown target {name!r}; valid targets: {', '.join(self.valid)}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.name, self.valid))


class UnsupportedTarget(TilefitError):
    """A known target that no backend of tilefit compiles for (names the ones that do)."""

    def __init__(self, target: str, why: str, supported: list[str]) -> None:
        self.target = target
        self.why = why
        self.supported = list(supported)
        super().__init__(f"{target}: {why}; supported: {', '.join(self.supported)}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.target, self.why, self.supported))


class MissingExtraError(TilefitError):
    """An optional backend is not installed."""

    def __init__(self, module: str, extra: str) -> None:
        self.module = module
        self.extra = extra
        super().__init__(
            f"{module} is not installed; install it with: pip install 'tilefit[{extra}]'"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.module, self.extra))


class CompileError(TilefitError):
    """The real compiler failed for a reason other than on-chip memory."""

    def __init__(self, message: str, *, stage: str = "", log: str = "") -> None:
        self.message = message
        self.stage = stage
        self.log = log
        super().__init__(f"{stage}: {message}" if stage else message)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_compile_error, (self.message, self.stage, self.log))


def _rebuild_compile_error(message: str, stage: str, log: str) -> CompileError:
    return CompileError(message, stage=stage, log=log)


class DoesNotFit(TilefitError):
    """A config needs more of an on-chip resource than the target allows."""

    def __init__(
        self, resource: str, required: int, limit: int, target: str, hint: str = ""
    ) -> None:
        self.resource = resource
        self.required = required
        self.limit = limit
        self.target = target
        self.hint = hint
        ratio = required / limit if limit else float("inf")
        unit = _unit(resource)
        need = f"{required} B > {limit} B" if unit == " B" else f"{required} > {limit}{unit}"
        msg = f"{resource} {need} on {target} ({ratio:.2f}x)"
        super().__init__(f"{msg}; {hint}" if hint else msg)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.resource, self.required, self.limit, self.target, self.hint))


def _unit(resource: str) -> str:
    """' B' for byte-counted resources; ' threads', ' columns', ... for the others (resources.py)."""
    from tilefit.resources import TABLE

    row = TABLE.get(resource)
    return " B" if row is None or row.unit == "bytes" else f" {row.unit}"


def _resource_name(resource: str) -> str:
    """The one spelling of a resource ('shared-memory'), also from its label ('shared memory')."""
    from tilefit.resources import TABLE

    if resource in TABLE:
        return resource
    by_label = {r.label.lower(): name for name, r in TABLE.items()}
    return by_label.get(resource.lower(), {"vmem": "scoped-vmem"}.get(resource.lower(), resource))


def _label(resource: str) -> str:
    from tilefit.resources import TABLE

    row = TABLE.get(resource)
    return row.label if row else resource


class NoConfigFits(TilefitError):
    """No config of a search space fits the target; `resource` is a resources.Resource name."""

    def __init__(
        self,
        target: str,
        resource: str,
        limit: int,
        smallest: int | None,
        consumer: str = "",
        fix: str = "",
        tried: int = 0,
    ) -> None:
        self.target = target
        self.resource = _resource_name(resource)
        self.limit = limit
        self.smallest = smallest
        self.consumer = consumer
        self.fix = fix
        self.tried = tried
        parts = [f"no config of {tried} fits {_label(self.resource)} on {target} (limit {limit} B)"]
        if smallest is not None:
            parts.append(f"the smallest needs {smallest} B ({smallest / limit:.2f}x)")
        if consumer:
            parts.append(f"what never fits: {consumer}")
        if fix:
            parts.append(f"fix: {fix}")
        super().__init__("; ".join(parts))

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            type(self),
            (self.target, self.resource, self.limit, self.smallest, self.consumer, self.fix, self.tried),
        )


class TilefitWarning(UserWarning):
    """tilefit changed something on the user's behalf (e.g. replaced a config that does not fit)."""

"""Why a config did not compile for a target: the causes of data/check/causes.yaml, matched to a result.

A compile error is data in a check (the result's `error`); this names what it means for the user: a
capability the target lacks (`target`: no config helps, the table cannot run there) or a kernel source
that this Triton version refuses for the config (`kernel`).
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, Literal

CauseKind = Literal["target", "kernel"]
KINDS: tuple[CauseKind, ...] = ("target", "kernel")


@dataclasses.dataclass(frozen=True)
class Cause:
    """One known reason for a compile error, from data/check/causes.yaml."""

    id: str
    kind: CauseKind
    title: str
    pattern: str
    message: str
    fix: str
    source: str

    def describe(self, target: str, compiler: str) -> dict[str, str]:
        """The JSON `cause` of a result (data/check-report.schema.json)."""
        values = {"target": target, "compiler": compiler or "this Triton"}
        return {"id": self.id, "kind": self.kind, "title": self.title, "message": self.message.format(**values),
                "fix": self.fix.format(**values), "source": self.source}


@functools.lru_cache(maxsize=1)
def known() -> tuple[Cause, ...]:
    """Every cause, in match order."""
    from importlib import resources

    from tilefit.errors import KnowledgeBaseError
    from tilefit.yamlio import load_yaml

    doc = load_yaml(resources.files("tilefit") / "data" / "check" / "causes.yaml")
    out = []
    for i, raw in enumerate(doc["causes"]):
        try:
            f = {k: str(raw[k]).strip() for k in ("id", "kind", "title", "pattern", "message", "fix", "source")}
        except KeyError as exc:
            raise KnowledgeBaseError(f"data/check/causes.yaml: causes[{i}] lacks {exc}") from None
        kind = f["kind"]
        if kind not in KINDS:
            raise KnowledgeBaseError(f"data/check/causes.yaml: {f['id']}: kind {kind!r} not in {KINDS}")
        out.append(Cause(f["id"], kind, f["title"], f["pattern"], f["message"], f["fix"], f["source"]))
    return tuple(out)


def cause_of(error: str | None, target: str, compiler: str | None) -> dict[str, str] | None:
    """The cause of a compile error on `target`, or None when no known cause matches."""
    if not error:
        return None
    for cause in known():
        if cause.pattern in error:
            return cause.describe(target, compiler or "")
    return None


def annotate(result: dict[str, Any]) -> dict[str, Any]:
    """A JSON result with its `cause` (None unless it is an error of a known cause)."""
    cause = cause_of(result.get("error"), str(result.get("target", "")), result.get("compiler")) \
        if result.get("status") == "error" else None
    return {**result, "cause": cause}

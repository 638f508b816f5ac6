"""What fit() returns: the chosen config, the ranking, and every dropped config with its reason."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Literal

from tilefit.estimate.base import Usage
from tilefit.fit.perf import Score
from tilefit.space import format_config
from tilefit.units import format_bytes

# analytic: the model's bytes exceed the limit by more than the safety margin (no compile was run);
# over-limit: the compiler's exact bytes exceed the limit; compile-error: the compile failed (message kept);
# bounded: the model's upper bound of its score is below the chosen configs' exact scores (not compiled).
DropReason = Literal["analytic", "over-limit", "compile-error", "bounded"]


@dataclasses.dataclass(frozen=True)
class Dropped:
    """A config that fit() set aside, and why."""

    config: Mapping[str, Any]
    reason: DropReason
    bytes: int | None
    limit: int | None
    message: str = ""

    @property
    def over_by(self) -> int | None:
        """Bytes over the limit (None when unknown)."""
        if self.bytes is None or self.limit is None:
            return None
        return self.bytes - self.limit

    def describe(self) -> str:
        """One line: the config, then the reason with its numbers."""
        cfg = format_config(self.config)
        if self.reason == "compile-error":
            return f"{cfg}: failed to compile: {self.message}"
        if self.reason == "bounded":
            return f"{cfg}: not compiled: {self.message}"
        over = self.over_by
        ratio = f", {self.bytes / self.limit:.2f}x" if self.bytes and self.limit else ""
        what = "pruned analytically" if self.reason == "analytic" else "over the limit"
        extra = f" ({self.message})" if self.message else ""
        return (
            f"{cfg}: {what}: {format_bytes(self.bytes)} > {self.limit} B "
            f"(+{over} B{ratio}){extra}"
        )


@dataclasses.dataclass(frozen=True)
class Ranked:
    """A config that fits, with the model's score and, when measured, its time."""

    config: Mapping[str, Any]
    usage: Usage
    score: Score
    measured_ms: float | None = None

    def describe(self) -> str:
        ms = f", measured {self.measured_ms:.4g} ms" if self.measured_ms is not None else ""
        pct = self.usage.percent
        used = f"{format_bytes(self.usage.bytes)}" + (f" ({pct:.0f}%)" if pct is not None else "")
        return f"{format_config(self.config)}: {used}, {self.score.explain()}{ms}"


@dataclasses.dataclass(frozen=True)
class FitResult:
    """The fastest config that fits a target, and the record of how it was chosen."""

    target: str
    config: Mapping[str, Any]
    usage: Usage
    ranked: tuple[Ranked, ...]
    dropped: tuple[Dropped, ...]
    tried: int
    seconds: float
    measured: bool = False

    def dropped_by(self, reason: DropReason) -> list[Dropped]:
        """The dropped configs of one reason."""
        return [d for d in self.dropped if d.reason == reason]

    def report(self, top: int | None = None, per_reason: int | None = None) -> str:
        """A human-readable account: the choice, the ranking (`top` of it), the dropped configs by reason.

        `per_reason` lists at most that many dropped configs of each reason (to_dict() keeps them all).
        """
        lines = [
            f"fit on {self.target}: {format_config(self.config)} "
            f"({format_bytes(self.usage.bytes)} of {self.usage.limit} B); "
            f"{self.tried} configs: {len(self.ranked)} fit, {len(self.dropped) - len(self.dropped_by('bounded'))} "
            f"dropped, {len(self.dropped_by('bounded'))} not compiled (below the model's bound); "
            f"{self.seconds:.2f} s" + (" (ranked by measurement)" if self.measured else " (ranked by model)"),
            "ranking:",
        ]
        shown = self.ranked if top is None else self.ranked[:top]
        lines += [f"  {i + 1}. {r.describe()}" for i, r in enumerate(shown)]
        if len(shown) < len(self.ranked):
            lines.append(f"  ... {len(self.ranked) - len(shown)} more that fit")
        reasons: tuple[DropReason, ...] = ("analytic", "over-limit", "compile-error", "bounded")
        for reason in reasons:
            group = self.dropped_by(reason)
            if group:
                lines.append(f"dropped ({reason}, {len(group)}):")
                listed = group if per_reason is None else group[:per_reason]
                lines += [f"  - {d.describe()}" for d in listed]
                if len(listed) < len(group):
                    lines.append(f"  ... {len(group) - len(listed)} more (--format json lists them all)")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "target": self.target,
            "config": dict(self.config),
            "usage": self.usage.to_dict(),
            "tried": self.tried,
            "seconds": self.seconds,
            "measured": self.measured,
            "ranked": [
                {"config": dict(r.config), "bytes": r.usage.bytes, "score": r.score.value,
                 "measured_ms": r.measured_ms}
                for r in self.ranked
            ],
            "dropped": [
                {"config": dict(d.config), "reason": d.reason, "bytes": d.bytes, "limit": d.limit,
                 "over_by": d.over_by, "message": d.message}
                for d in self.dropped
            ],
        }

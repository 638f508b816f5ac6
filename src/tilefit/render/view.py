"""The JSON view of an explanation, typed: the contract every renderer reads (schema: data/schemas/)."""

from __future__ import annotations

from typing import TypedDict

from tilefit.match.matcher import Confidence


class PopulationView(TypedDict):
    name: str
    rule: str
    rate: float
    n: int
    fixed: int
    n_by_target: dict[str, int]
    fixed_by_target: dict[str, int]
    tools: dict[str, str]
    command: str
    source: str


class _MeasuredPopulations(TypedDict, total=False):
    populations: list[PopulationView]  # only when the fix was measured on real libraries' configs


class MeasuredView(_MeasuredPopulations):
    rate: float
    n: int
    fixed: int
    targets: list[str]
    kernels: list[str]
    rule: str
    method: str
    date: str
    tools: dict[str, str]
    median_speed: float | None


class FixView(TypedDict):
    action: str
    how: str
    when: str
    knob: str
    specific: str | None
    evidence: list[str]
    measured: MeasuredView | None


class DeadEndView(TypedDict):
    action: str
    why: str
    source: str


class MatchView(TypedDict):
    entry: str
    title: str
    resource: str
    on_chip: bool
    confidence: Confidence
    phase: str
    framework: str | None
    vendor: str | None
    severity: str
    required_bytes: int | None
    limit_bytes: int | None
    unit: str
    ratio: float | None
    device_classes: list[str]
    devices: dict[str, list[str]]
    config: dict[str, int | str]
    fixes: list[FixView]
    dead_ends: list[DeadEndView]
    sources: list[str]
    summary: str | None
    root_cause: str
    numbers_approximate: bool
    count: int
    text: str


class ExplainView(TypedDict):
    tilefit: str
    matches: list[MatchView]
    omitted: int

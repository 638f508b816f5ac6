"""Typed, frozen knowledge-base entries, built from YAML with cross-field checks."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal, get_args

from tilefit.errors import KnowledgeBaseError
from tilefit.resources import ON_CHIP, RESOURCES, Resource, Unit, info

Severity = Literal["error", "warning", "info"]
Phase = Literal["compile", "load", "launch", "autotune", "runtime", "build"]
Vendor = Literal["nvidia", "amd", "intel", "google", "huawei", "any"]
Knob = Literal[
    "num_stages", "block", "block_k", "num_warps", "threads", "vmem_limit_bytes", "vmem_limit_flag", "buffering",
    "dynamic_smem", "upgrade", "none",
]
NUMBER_GROUPS = ("required", "limit")
# "exact": the message is the error itself; "inferred": the entry reasons from indirect signs (a bare
# error with no resource, a driver error after a shared-memory call), so its answer is a likely cause.
# "partial": a framework's own rewording (the resource is certain, the numbers' meaning less so).
EntryConfidence = Literal["exact", "partial", "inferred"]


@dataclasses.dataclass(frozen=True)
class Population:
    """A fix's rate on a population from a real library (its configs that do not fit), with its source."""

    name: str  # "SGLang 0.5.23's bundled fused-MoE tables"
    rule: str
    rate: float
    n: int
    fixed: int
    n_by_target: Mapping[str, int]
    fixed_by_target: Mapping[str, int]
    kernels: tuple[str, ...]
    method: str
    date: str
    tools: Mapping[str, str]
    command: str  # what reproduces it
    source: str  # where the numbers are kept (a results file or a BENCHMARKS.md section)


@dataclasses.dataclass(frozen=True)
class Measurement:
    """How often a fix turned a failing config into a fitting one, measured by reproduction."""

    rate: float
    n: int
    fixed: int
    targets: tuple[str, ...]
    kernels: tuple[str, ...]
    method: str
    date: str
    tools: Mapping[str, str]
    median_speed: float | None = None  # predicted/measured speed of the fixed config vs. its best fit
    rule: str = ""  # the concrete rule the fix was measured as, e.g. "num_stages -> 1"
    populations: tuple[Population, ...] = ()  # the same fix measured on real libraries' configs


@dataclasses.dataclass(frozen=True)
class Fix:
    """One thing to do about an error, with the evidence that it works."""

    action: str
    how: str
    when: str
    knob: Knob
    evidence: tuple[str, ...]
    action_zh: str
    how_zh: str
    measured: Measurement | None = None
    when_zh: str = ""


@dataclasses.dataclass(frozen=True)
class DeadEnd:
    """Something users try that does not work, and the proof."""

    action: str
    why: str
    source: str
    action_zh: str
    why_zh: str


@dataclasses.dataclass(frozen=True)
class Example:
    """A real log excerpt, where it was seen, and the numbers it must yield."""

    log: str
    source: str
    expect: Mapping[str, int]


@dataclasses.dataclass(frozen=True)
class Requires:
    """Extra conditions for an entry to apply, beyond a pattern match."""

    any_of: tuple[str, ...] = ()
    limit_vendor: str | None = None
    # None of these may appear near the match (a look-alike's context: "/dev/shm", "shared GPU memory").
    none_of: tuple[str, ...] = ()

    @functools.cached_property
    def any_of_regexes(self) -> tuple[re.Pattern[str], ...]:
        return tuple(_regex(p, "requires.any_of") for p in self.any_of)

    @functools.cached_property
    def none_of_regexes(self) -> tuple[re.Pattern[str], ...]:
        return tuple(_regex(p, "requires.none_of") for p in self.none_of)


@dataclasses.dataclass(frozen=True)
class VersionNote:
    component: str
    versions: str
    note: str = ""


@dataclasses.dataclass(frozen=True)
class Entry:
    """One verified knowledge-base entry."""

    id: str
    title: str
    title_zh: str
    resource: Resource
    on_chip: bool
    severity: Severity
    vendor: Vendor
    frameworks: tuple[str, ...]
    phase: Phase
    keywords: tuple[str, ...]
    # The regex texts; compiled on first use (`regexes`): compiling every regex of the knowledge base was most
    # of `tilefit explain`'s start-up, and a log only reaches the entries whose keywords it contains.
    patterns: tuple[str, ...]
    examples: tuple[Example, ...]
    root_cause: str
    root_cause_zh: str
    fixes: tuple[Fix, ...]
    dead_ends: tuple[DeadEnd, ...]
    docs: tuple[str, ...]
    versions: tuple[VersionNote, ...] = ()
    refines: tuple[str, ...] = ()
    requires: Requires = dataclasses.field(default_factory=Requires)
    summary: str = ""
    summary_zh: str = ""
    confidence: EntryConfidence = "exact"
    # A fallback is reported only when no other entry matched the log (e.g. "mentions VMEM, no known form").
    fallback: bool = False
    # What the numbers count when it is not the resource's own unit: Intel's per-thread scratch space states the
    # bytes that register spills need, not a register count.
    unit: Unit | None = None
    # The limit the message states is a default every device of the vendor shares (CUDA's 48 KiB per block without
    # the opt-in, which PyTorch's sharedMemPerBlock reports), not the device's own maximum: it names no device.
    limit_is_default: bool = False

    @property
    def number_unit(self) -> Unit:
        """The unit of `required` and `limit` of this entry's matches."""
        return self.unit or info(self.resource).unit

    @functools.cached_property
    def regexes(self) -> tuple[re.Pattern[str], ...]:
        return tuple(_regex(spaced(p), f"kb/{self.id}.yaml") for p in self.patterns)

    @property
    def sources(self) -> tuple[str, ...]:
        """Every URL the entry cites, in order, without repeats."""
        urls = [e.source for e in self.examples]
        for f in self.fixes:
            urls += f.evidence
        urls += [d.source for d in self.dead_ends] + list(self.docs)
        return tuple(dict.fromkeys(u for u in urls if u.startswith("http")))


# ---------------------------------------------------------------------------- building


_CJK_GAP = re.compile(r"(?<=[\u3000-\u9fff\uff00-\uffef])\s+(?=[\u3000-\u9fff\uff00-\uffef])")


def _tidy_zh(text: str) -> str:
    """YAML folding puts spaces where Chinese has none; drop whitespace between CJK characters."""
    return _CJK_GAP.sub("", text)


class _Reader:
    """Reads typed fields out of a YAML mapping; errors name the file and field."""

    def __init__(self, raw: Any, where: str) -> None:
        if not isinstance(raw, Mapping):
            raise KnowledgeBaseError(f"{where}: expected a mapping, got {type(raw).__name__}")
        self.raw, self.where = raw, where

    def fail(self, key: str, msg: str) -> KnowledgeBaseError:
        return KnowledgeBaseError(f"{self.where}: field {key!r}: {msg}")

    def text(self, key: str, default: str | None = None) -> str:
        value = self.raw.get(key, default)
        if not isinstance(value, str) or (default is None and not value.strip()):
            raise self.fail(key, "expected a non-empty string")
        return _tidy_zh(value.strip()) if key.endswith("_zh") else value.strip()

    def strs(self, key: str, *, required: bool = True) -> tuple[str, ...]:
        value = self.raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise self.fail(key, "expected a list of strings")
        if required and not value:
            raise self.fail(key, "must not be empty")
        return tuple(value)

    def choice(self, key: str, allowed: Sequence[str], default: str | None = None) -> Any:
        value = self.raw.get(key, default)
        if value not in allowed:
            raise self.fail(key, f"{value!r} is not one of {', '.join(allowed)}")
        return value

    def items(self, key: str, *, required: bool = True) -> list[_Reader]:
        value = self.raw.get(key, [])
        if not isinstance(value, list) or (required and not value):
            raise self.fail(key, "expected a non-empty list")
        return [_Reader(v, f"{self.where}: {key}[{i}]") for i, v in enumerate(value)]


def _class_end(pattern: str, i: int) -> int:
    """The index just past the character class that starts at pattern[i] ("[")."""
    j = i + 1 + (pattern[i + 1:i + 2] == "^")
    j += pattern[j:j + 1] == "]"  # a "]" first in the class is a member
    while j < len(pattern) and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return j + 1


def spaced(pattern: str) -> str:
    """`pattern` with each literal space matching any whitespace: a message wrapped onto the next line still matches.

    Logs are normalised before matching (tilefit.match.normalize): words are separated by one space or one line
    break, so a space becomes `\\s` and a run of spaces `(?:\\s+)`, and a character class with a space in it
    ("[- ]") takes a line break too. Escaped spaces are left as they are. A class that stops at a line break,
    repeated a bounded number of times ("[^\\n]{0,80}"), may also cross one line break, not a blank line: a pasted
    message is often wrapped.
    """
    out: list[str] = []
    i, n, in_class = 0, len(pattern), False
    while i < n:
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if not in_class and pattern.startswith("[^", i):
            end = _class_end(pattern, i)
            body = pattern[i:end]
            # a bounded stretch of "the rest of the line" may go on after a wrap (not past a blank line); an unbounded
            # one ("[^\\n]*" up to the line's end) keeps to its line
            if "\\n" in body and pattern[end:end + 1] == "{":
                out.append(f"(?:{body}|\\n(?!\\n))")
                i = end
                continue
        if not in_class and c == "[" and not pattern.startswith("[^", i):
            end = _class_end(pattern, i)
            body = pattern[i:end]
            # a class of separators with a space ("shared[- ]memory") may be a line break too
            if " " in body:
                out.append(f"(?:{body}|\\n)")
                i = end
                continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            # a "]" right after "[" or "[^" is a literal member, not the class's end
            j = i + 1 + (pattern[i + 1:i + 2] == "^")
            if pattern[j:j + 1] == "]":
                out.append(pattern[i:j + 1])
                i = j + 1
                continue
        elif c == " ":
            j = i
            while j < n and pattern[j] == " ":
                j += 1
            out.append("\\s" if j - i == 1 else "(?:\\s+)")
            i = j
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _regex(text: str, where: str) -> re.Pattern[str]:
    try:
        return re.compile(text, re.IGNORECASE)
    except re.error as exc:
        raise KnowledgeBaseError(f"{where}: bad regex {text!r}: {exc}") from exc


def _measurement(raw: Any, where: str) -> Measurement | None:
    if raw is None:
        return None
    r = _Reader(raw, where)
    try:
        m = Measurement(
            rate=float(raw["rate"]), n=int(raw["n"]), fixed=int(raw["fixed"]),
            targets=r.strs("targets"), kernels=r.strs("kernels"), method=r.text("method"),
            date=str(raw["date"]), tools={str(k): str(v) for k, v in dict(raw["tools"]).items()},
            median_speed=None if raw.get("median_speed") is None else float(raw["median_speed"]),
            rule=str(raw.get("rule", "")),
            populations=tuple(_population(p, f"{where}: populations[{i}]")
                              for i, p in enumerate(raw.get("populations") or [])),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise KnowledgeBaseError(f"{where}: incomplete measurement record: {exc}") from exc
    _check_rate(m.rate, m.n, m.fixed, where)
    return m


def _check_rate(rate: float, n: int, fixed: int, where: str) -> None:
    if n <= 0 or not 0 <= fixed <= n or abs(fixed / n - rate) > 0.005:
        raise KnowledgeBaseError(f"{where}: rate {rate} does not equal fixed/n = {fixed}/{n}")


def _population(raw: Any, where: str) -> Population:
    r = _Reader(raw, where)
    by_n = {str(k): int(v) for k, v in dict(raw["n_by_target"]).items()}
    by_fixed = {str(k): int(v) for k, v in dict(raw["fixed_by_target"]).items()}
    p = Population(
        name=r.text("name"), rule=r.text("rule"), rate=float(raw["rate"]), n=int(raw["n"]), fixed=int(raw["fixed"]),
        n_by_target=by_n, fixed_by_target=by_fixed, kernels=r.strs("kernels"), method=r.text("method"),
        date=str(raw["date"]), tools={str(k): str(v) for k, v in dict(raw["tools"]).items()},
        command=r.text("command"), source=r.text("source"),
    )
    _check_rate(p.rate, p.n, p.fixed, where)
    if sum(by_n.values()) != p.n or sum(by_fixed.values()) != p.fixed or set(by_fixed) - set(by_n):
        raise KnowledgeBaseError(f"{where}: the per-target counts do not add up to n={p.n}, fixed={p.fixed}")
    if any(by_fixed.get(t, 0) > k for t, k in by_n.items()):
        raise KnowledgeBaseError(f"{where}: a target fixes more configs than fail on it")
    return p


def _fix(r: _Reader) -> Fix:
    knobs = get_args(Knob)
    return Fix(
        action=r.text("action"), how=r.text("how"), when=r.text("when"),
        knob=r.choice("knob", knobs, "none"), evidence=r.strs("evidence"),
        action_zh=r.text("action_zh"), how_zh=r.text("how_zh"), when_zh=r.text("when_zh", ""),
        measured=_measurement(r.raw.get("measured"), f"{r.where}: measured"),
    )


def _dead_end(r: _Reader) -> DeadEnd:
    return DeadEnd(
        action=r.text("action"), why=r.text("why"), source=r.text("source"),
        action_zh=r.text("action_zh"), why_zh=r.text("why_zh"),
    )


def _example(r: _Reader) -> Example:
    expect = r.raw.get("expect", {}) or {}
    if not isinstance(expect, Mapping) or not all(k in NUMBER_GROUPS for k in expect):
        raise r.fail("expect", f"keys must be among {NUMBER_GROUPS}")
    return Example(log=r.text("log"), source=r.text("source"), expect={k: int(v) for k, v in expect.items()})


def _requires(raw: Any, where: str) -> Requires:
    if raw is None:
        return Requires()
    r = _Reader(raw, where)
    any_of = r.strs("any_of", required=False)
    none_of = r.strs("none_of", required=False)
    vendor = raw.get("limit_vendor")
    if not any_of and not vendor and not none_of:
        raise r.fail("requires", "give any_of, none_of or limit_vendor")
    return Requires(any_of=any_of, limit_vendor=vendor, none_of=none_of)


def entry_from_dict(raw: Any, where: str, expected_id: str | None = None, *, check_patterns: bool = True) -> Entry:
    """Build an Entry from parsed YAML; raises KnowledgeBaseError naming the file and field.

    check_patterns=False leaves the regexes to be compiled on first use (the shipped knowledge base, whose
    patterns kb lint and the tests compile).
    """
    r = _Reader(raw, where)
    entry_id = r.text("id")
    if expected_id is not None and entry_id != expected_id:
        raise r.fail("id", f"{entry_id!r} must equal the file's path {expected_id!r}")
    resource = r.choice("resource", RESOURCES)
    on_chip = r.raw.get("on_chip")
    if on_chip is not (resource in ON_CHIP):
        raise r.fail("on_chip", f"must be {resource in ON_CHIP} for resource {resource!r}")
    patterns = r.strs("patterns")
    # a keyword is found in text whose whitespace reads as single spaces (a wrapped message's line break too)
    keywords = tuple(dict.fromkeys(" ".join(k.split()) for k in r.strs("keywords")))
    if any(k != k.lower() for k in keywords):
        raise r.fail("keywords", "keywords are matched on lower-cased text; write them in lower case")
    entry = Entry(
        id=entry_id, title=r.text("title"), title_zh=r.text("title_zh"), resource=resource,
        on_chip=on_chip, severity=r.choice("severity", get_args(Severity), "error"),
        vendor=r.choice("vendor", get_args(Vendor), "any"), frameworks=r.strs("frameworks"),
        phase=r.choice("phase", get_args(Phase)), keywords=keywords, patterns=patterns,
        examples=tuple(_example(x) for x in r.items("examples")),
        root_cause=r.text("root_cause"), root_cause_zh=r.text("root_cause_zh"),
        fixes=tuple(_fix(x) for x in r.items("fixes")),
        dead_ends=tuple(_dead_end(x) for x in r.items("dead_ends", required=False)),
        docs=r.strs("docs", required=False),
        versions=tuple(
            VersionNote(x.text("component"), x.text("versions"), x.text("note", ""))
            for x in r.items("versions", required=False)
        ),
        refines=r.strs("refines", required=False),
        requires=_requires(r.raw.get("requires"), f"{where}: requires"),
        summary=r.text("summary", ""), summary_zh=r.text("summary_zh", ""),
        confidence=r.choice("confidence", get_args(EntryConfidence), "exact"),
        fallback=_flag(r, "fallback"),
        limit_is_default=_flag(r, "limit_is_default"),
        unit=r.choice("unit", get_args(Unit)) if "unit" in r.raw else None,
    )
    if check_patterns:
        try:
            _ = entry.regexes, entry.requires.any_of_regexes, entry.requires.none_of_regexes
        except KnowledgeBaseError as exc:
            raise KnowledgeBaseError(f"{where}: {exc}") from exc
    return entry


def _flag(r: _Reader, key: str) -> bool:
    value = r.raw.get(key, False)
    if not isinstance(value, bool):
        raise r.fail(key, f"expected true or false, got {value!r}")
    return value

"""`tilefit kb lint`: schema, real sources, safe patterns.

The check that each example resolves to its own entry runs the matcher, so it lives in
tilefit.match.selfcheck (match -> kb, never kb -> match); `tilefit kb lint` runs both.
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing as mp
import re
import time
from importlib import resources
from typing import Any

from tilefit.errors import KnowledgeBaseError
from tilefit.kb.model import Entry, entry_from_dict
from tilefit.kb.repository import KnowledgeBase, _walk
from tilefit.yamlio import load_yaml

# A quantified group that itself contains a quantifier: the classic catastrophic-backtracking shape.
_NESTED = re.compile(r"\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)[+*{]")
# Adversarial inputs: long runs that almost match, then fail at the end.
_PROBE_SIZES = (2000, 8000)
_PROBE_BUDGET_S = 0.5
_PROBE_TIMEOUT_S = 20.0


@dataclasses.dataclass(frozen=True)
class Problem:
    """One lint finding, tied to an entry (or a file)."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


def _schema() -> dict[str, Any]:
    text = (resources.files("tilefit") / "data" / "kb-entry.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def _schema_problems(raw: Any, where: str) -> list[Problem]:
    try:
        import jsonschema
    except ImportError:
        return [Problem(where, "jsonschema is not installed: pip install jsonschema")]
    plain = json.loads(json.dumps(raw, default=str))
    validator = jsonschema.Draft202012Validator(_schema())
    return [
        Problem(where, f"schema: {'/'.join(map(str, err.path)) or '(top)'}: {err.message}")
        for err in validator.iter_errors(plain)
    ]


# A plain (unquoted, unfolded) YAML text value with " #" in it: YAML drops the rest as a comment.
_TRUNCATING_HASH = re.compile(
    r"^\s*(?:-\s+)?(?:title|summary|root_cause|action|how|when|why)(?:_zh)?:\s+[^'\"|>\s][^#]*\s#"
)


def _comment_problems(text: str, where: str) -> list[Problem]:
    return [
        Problem(where, f"line {i}: ' #' starts a YAML comment and cuts this text; quote or fold it")
        for i, line in enumerate(text.splitlines(), 1)
        if _TRUNCATING_HASH.match(line)
    ]


def _load_all() -> tuple[list[Entry], list[Problem]]:
    entries, problems = [], []
    for entry_id, path in _walk(resources.files("tilefit") / "data" / "kb"):
        where = f"kb/{entry_id}.yaml"
        try:
            raw = load_yaml(path)
        except KnowledgeBaseError as exc:
            problems.append(Problem(where, str(exc)))
            continue
        problems += _schema_problems(raw, where)
        problems += _comment_problems(path.read_text(encoding="utf-8"), where)
        try:
            entries.append(entry_from_dict(raw, where, expected_id=entry_id))
        except KnowledgeBaseError as exc:
            problems.append(Problem(where, str(exc)))
    return entries, problems


def _source_problems(entry: Entry) -> list[Problem]:
    out = []
    if not entry.sources:
        out.append(Problem(entry.id, "cites no https source"))
    for fix in entry.fixes:
        if not fix.evidence:
            out.append(Problem(entry.id, f"fix {fix.action!r} has no evidence"))
    return out


def _probe_worker(patterns: list[str], queue: Any) -> None:
    for pattern in patterns:
        compiled = re.compile(pattern, re.IGNORECASE)
        worst = 0.0
        for n in _PROBE_SIZES:
            for text in (" " * n + "!", "a" * n + "!", "0" * n + "x", "a1 " * (n // 3) + "!", "\n" * n):
                t0 = time.perf_counter()
                compiled.search(text)
                worst = max(worst, time.perf_counter() - t0)
        queue.put((pattern, worst))


def _pattern_problems(entries: list[Entry], timeout_s: float = _PROBE_TIMEOUT_S) -> list[Problem]:
    """Static check for nested quantifiers, then time every pattern on adversarial input in a child."""
    out, owner = [], {}
    for entry in entries:
        for p in entry.regexes:
            if _NESTED.search(p.pattern):
                out.append(Problem(entry.id, f"nested quantifier (backtracking risk): {p.pattern}"))
            else:
                owner[p.pattern] = entry.id
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=_probe_worker, args=(list(owner), queue), daemon=True)
    proc.start()
    pending = dict(owner)
    deadline = time.monotonic() + timeout_s + 0.1 * len(owner)
    while pending and time.monotonic() < deadline:
        try:
            pattern, worst = queue.get(timeout=max(0.1, deadline - time.monotonic()))
        except Exception:  # queue.Empty: the child is stuck on a pattern
            break
        entry_id = pending.pop(pattern)
        if worst > _PROBE_BUDGET_S:
            out.append(Problem(entry_id, f"pattern is slow on adversarial input ({worst:.2f} s): {pattern}"))
    if proc.is_alive():
        proc.kill()
    if pending:
        stuck = next(iter(pending))
        out.append(Problem(pending[stuck], f"pattern did not finish on adversarial input: {stuck}"))
    return out


def lint(*, probe_patterns: bool = True) -> list[Problem]:
    """Every problem of the shipped knowledge base's files; empty when they are clean (examples: match.selfcheck)."""
    entries, problems = _load_all()
    try:
        kb = KnowledgeBase(entries=tuple(entries))
    except KnowledgeBaseError as exc:
        return [*problems, Problem("kb", str(exc))]
    for entry in kb:
        problems += _source_problems(entry)
    if probe_patterns:
        problems += _pattern_problems(list(kb))
    return problems


def population_lines(kb: KnowledgeBase) -> list[str]:
    """One line per fix rate measured on a real library's configs: entry, fix, rule, rate, source, command."""
    out = []
    for entry in kb:
        for fix in entry.fixes:
            for p in fix.measured.populations if fix.measured else ():
                tools = ", ".join(f"{k} {v}" for k, v in p.tools.items())
                out.append(f"{entry.id}: {fix.action}: {p.rule} fixed {p.fixed}/{p.n} ({100 * p.rate:.1f}%) of "
                           f"{p.name} ({tools}); {p.source}; rerun: {p.command}")
    return out

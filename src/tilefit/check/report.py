"""The outputs of `tilefit check`: JSON (data/check-report.schema.json), text, SARIF 2.1.0 and JUnit XML.

JSON is the source of the others: shards write JSON and `tilefit check --merge A.json B.json` joins them,
then renders any format.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from tilefit.check.causes import annotate, known
from tilefit.check.replay import TraceRow
from tilefit.check.run import Row
from tilefit.errors import InputError

FORMAT = 1
FORMATS = ("text", "json", "sarif", "junit")


def to_json(rows: Sequence[Row | TraceRow], *, compiler: str, targets: Sequence[str], problem: Mapping[str, int],
            shard: tuple[int, int] = (1, 1), kernel_source: str = "") -> dict[str, Any]:
    """The JSON report (one result per table entry, GEMM and target)."""
    from tilefit import __version__

    results = [annotate(r.to_result()) for r in rows]
    return {"tilefit": __version__, "format": FORMAT, "compiler": compiler, "targets": list(targets),
            "problem": dict(problem), "shard": f"{shard[0]}/{shard[1]}", "kernel_source": kernel_source,
            "results": results, "summary": summarise(results)}


def summarise(results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Counts of a list of JSON results, overall and per target."""
    per: dict[str, dict[str, Any]] = {}
    for r in results:
        d = per.setdefault(r["target"], {"n": 0, "fits": 0, "does_not_fit": 0, "error": 0, "fixed": 0, "causes": {}})
        d["n"] += 1
        d[str(r["status"]).replace(" ", "_")] += 1
        d["fixed"] += r.get("fix") is not None
        if r.get("cause"):
            d["causes"][r["cause"]["id"]] = d["causes"].get(r["cause"]["id"], 0) + 1
    total = {k: sum(d[k] for d in per.values()) for k in ("n", "fits", "does_not_fit", "error", "fixed")}
    return {**total, "targets": per}


def merge(docs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Join shard reports; they must come from the same compiler, targets and problem."""
    if not docs:
        raise InputError("nothing to merge")
    head = docs[0]
    for d in docs[1:]:
        for key in ("compiler", "targets", "problem"):
            if d.get(key) != head.get(key):
                raise InputError(f"cannot merge reports with different {key}: {head.get(key)!r} and {d.get(key)!r}")
    results = [r if "cause" in r else annotate(r) for d in docs for r in d["results"]]
    return {**head, "shard": "merged", "results": results, "summary": summarise(results)}


def load_report(path: str) -> dict[str, Any]:
    """Read a JSON report written by `tilefit check --format json`."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"{path}: {exc.strerror}") from exc
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: not a JSON report ({str(exc).splitlines()[0]})") from exc
    if not isinstance(doc, dict) or "results" not in doc:
        raise InputError(f"{path}: not a tilefit check report (no 'results')")
    if doc.get("format", FORMAT) > FORMAT:
        raise InputError(f"{path}: report format {doc.get('format')} is newer than this tilefit reads ({FORMAT})")
    return doc


def render_text(doc: Mapping[str, Any], verbose: bool = False) -> str:
    """What does not fit (everything with --verbose), grouped by table or kernel, then the counts per target.

    Each row says by how much a config is over and the fix: the best fitting config fit found for that
    target and what it needs. A target the table cannot run on at all (a `target` cause) is one line.
    """
    out: list[str] = []
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for r in doc["results"]:
        if verbose or r["status"] != "fits":
            groups.setdefault(r["source"], []).append(r)
    compilers = {r.get("compiler") for r in doc["results"]} - {None}
    for source, rs in groups.items():
        out += _group_text(source, rs, show_compiler=len(compilers) > 1)
    s = doc["summary"]
    out.append("")
    for t, d in s["targets"].items():
        causes = ", ".join(f"{n} {_short_cause(c)}" for c, n in (d.get("causes") or {}).items())
        out.append(f"{t:8} {d['n']:6} sized  {d['fits']:6} fit  {d['does_not_fit']:6} do not fit "
                   f"({_pct(d['does_not_fit'], d['n'])})  {d['error']:5} errors  {d['fixed']:6} fixed"
                   + (f"  ({causes})" if causes else ""))
    out.append(f"sized with {doc['compiler']}; {s['n']} results, {s['does_not_fit']} do not fit, "
               f"{s['error']} errors, {s['fixed']} fixed by a nearby config")
    return "\n".join(line.rstrip() for line in out) + "\n"


def _group_text(source: str, rs: Sequence[Mapping[str, Any]], show_compiler: bool) -> list[str]:
    """One table's (or traced kernel's) rows: a header line, then a row per result."""
    head = rs[0]
    tuned = f"; tuned with triton {head['tuned_with']}" if head.get("tuned_with") else ""
    out = [f"{source}  ({head['kernel']}{tuned})"]
    cannot: dict[str, list[Mapping[str, Any]]] = {}
    rows = [["M" if head["m"] is not None else "config", "GEMM", "target", "status", "needs", "limit", "over",
             "fix: best fitting config (what it needs)" + (" / sized with" if show_compiler else "")]]
    for r in rs:
        cause = r.get("cause") or {}
        if cause.get("kind") == "target":
            cannot.setdefault(r["target"], []).append(r)
            continue
        rows.append([str(r["m"]) if r["m"] is not None else _config_text(r["config"]), r["launch"], r["target"],
                     _status(r), _bytes(r["bytes"]), _bytes(r["limit"]), _over(r),
                     _fix_text(r) + (f" / {r.get('compiler')}" if show_compiler else "")])
    if len(rows) > 1:
        widths = [max(len(x[i]) for x in rows) for i in range(len(rows[0]) - 1)]
        out += ["  " + "  ".join(c.ljust(w) for c, w in zip(x, widths, strict=False)) + "  " + x[-1] for x in rows]
    for target, bad in cannot.items():
        cause = bad[0]["cause"]
        out.append(f"  {target}: cannot run ({len(bad)} results): {cause['message']}; {cause['fix']}")
    explained = {r["cause"]["id"]: r["cause"] for r in rs if (r.get("cause") or {}).get("kind") == "kernel"}
    out += [f"  [{c['id']}] {c['message']}; {c['fix']}" for c in explained.values()]
    return out


def _status(r: Mapping[str, Any]) -> str:
    over = ", ".join(o["resource"] for o in r.get("over") or [])
    return f"{r['status']} ({over})" if over else r["status"]


def _bytes(v: Any) -> str:
    return "-" if v is None else f"{v} B"


def _over(r: Mapping[str, Any]) -> str:
    """'+21504 B (1.21x)' for a result over its limit."""
    if r["status"] != "does not fit" or not r.get("bytes") or not r.get("limit"):
        return "-"
    return f"+{r['bytes'] - r['limit']} B ({r['bytes'] / r['limit']:.2f}x)"


def _fix_text(r: Mapping[str, Any]) -> str:
    if r.get("fix"):
        return f"{r['fix']['change']} ({r['fix']['bytes']} B)"
    if r.get("cause"):
        return f"does not compile with {r.get('compiler')}: [{r['cause']['id']}] (below)"
    if r.get("error"):
        return "does not compile: " + _first(r["error"])
    if r["status"] == "fits":
        return "-"
    return "no nearby config fits (fewer stages, halved BLOCK_SIZE_K/N were tried)"


def _short_cause(cause_id: str) -> str:
    return next((c.title for c in known() if c.id == cause_id), cause_id)


def _first(text: str) -> str:
    lines = [ln.strip() for ln in str(text).splitlines() if ln.strip()]
    return (lines[-1] if lines else "")[:160]


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.0f}%" if b else "-"


def render_sarif(doc: Mapping[str, Any]) -> str:
    """SARIF 2.1.0: one result per config and target, at the entry's line of its table file."""
    from tilefit import __version__

    rules = [
        {"id": "tilefit/does-not-fit",
         "shortDescription": {"text": "Config needs more on-chip memory than the target has"}},
        {"id": "tilefit/cannot-run-on-target",
         "shortDescription": {"text": "The target lacks a capability the kernel needs (no config can run there)"}},
        {"id": "tilefit/kernel-does-not-compile",
         "shortDescription": {"text": "The kernel's source does not compile with this Triton version for the config"}},
        {"id": "tilefit/compile-error", "shortDescription": {"text": "Config does not compile for the target"}},
        {"id": "tilefit/fits", "shortDescription": {"text": "Config fits the target"}},
    ]
    results = []
    for r in doc["results"]:
        rule, level = _rule(r)
        results.append({
            "ruleId": rule, "level": level, "message": {"text": _message(r)},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(r["path"])},
                                                "region": {"startLine": int(r.get("line") or 1)}}}],
            "properties": {**{k: r[k] for k in ("target", "m", "launch", "bytes", "limit", "compiler")},
                           "cause": (r.get("cause") or {}).get("id")},
        })
    sarif = {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
             "runs": [{"tool": {"driver": {"name": "tilefit", "version": __version__,
                                           "informationUri": "https://github.com/tilefit/tilefit", "rules": rules}},
                       "results": results}]}
    return json.dumps(sarif, indent=2) + "\n"


def _rule(r: Mapping[str, Any]) -> tuple[str, str]:
    """SARIF rule id and level of a result."""
    if r["status"] == "fits":
        return "tilefit/fits", "none"
    if r["status"] == "does not fit":
        return "tilefit/does-not-fit", "error"
    kind = (r.get("cause") or {}).get("kind")
    rules = {"target": "tilefit/cannot-run-on-target", "kernel": "tilefit/kernel-does-not-compile"}
    return (rules[kind], "error") if kind in rules else ("tilefit/compile-error", "warning")


def _config_text(config: Mapping[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in config.items())


def _uri(path: str) -> str:
    p = Path(path)
    try:
        return p.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return p.as_posix()


def _message(r: Mapping[str, Any]) -> str:
    where = (f"{r['source']} M={r['m']} ({r['launch']} GEMM) on {r['target']}" if r["m"] is not None
             else f"{r['source']} {_config_text(r['config'])} on {r['target']}")
    if r["status"] == "fits":
        return f"{where}: fits ({r['bytes']} B of {r['limit']} B; {r['compiler']})"
    if r["status"] == "error":
        cause = r.get("cause")
        if cause:
            return f"{where}: {cause['message']} ({r['compiler']}); {cause['fix']}"
        return f"{where}: does not compile with {r['compiler']} ({_first(r['error'])})"
    resource = ", ".join(o["resource"] for o in r.get("over") or []) or "shared memory"
    fix = (f"; fix: {r['fix']['change']} ({r['fix']['bytes']} B, the best fitting nearby config)" if r.get("fix")
           else "; no nearby config fits")
    return f"{where}: {resource} {r['bytes']} B > {r['limit']} B, {_over(r)} (sized with {r['compiler']}){fix}"


def render_junit(doc: Mapping[str, Any]) -> str:
    """JUnit XML: a test suite per target, a test case per table entry and GEMM."""
    suites: dict[str, list[Mapping[str, Any]]] = {}
    for r in doc["results"]:
        suites.setdefault(r["target"], []).append(r)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name="tilefit check" tests="{len(doc["results"])}">']
    for target, rs in suites.items():
        fails = sum(r["status"] == "does not fit" for r in rs)
        errors = sum(r["status"] == "error" for r in rs)
        out.append(f'  <testsuite name={quoteattr(target)} tests="{len(rs)}" failures="{fails}" errors="{errors}">')
        for r in rs:
            label = f"M={r['m']} {r['launch']}" if r["m"] is not None else _config_text(r["config"])
            name = quoteattr(f"{r['source']} {label}")
            out.append(f'    <testcase classname={quoteattr("tilefit." + target)} name={name}>')
            if r["status"] == "does not fit":
                out.append(f'      <failure message={quoteattr(_message(r))}/>')
            elif r["status"] == "error":
                out.append(f'      <error message={quoteattr(_message(r))}>{escape(str(r["error"]))}</error>')
            out.append("    </testcase>")
        out.append("  </testsuite>")
    out.append("</testsuites>")
    return "\n".join(out) + "\n"


def render(doc: Mapping[str, Any], fmt: str, verbose: bool = False) -> str:
    """The report in one of FORMATS."""
    if fmt == "json":
        return json.dumps(doc, indent=1) + "\n"
    if fmt == "sarif":
        return render_sarif(doc)
    if fmt == "junit":
        return render_junit(doc)
    return render_text(doc, verbose)


def exit_code(doc: Mapping[str, Any]) -> int:
    """0 when every result fits, 1 when something does not fit or does not compile."""
    s = doc["summary"]
    return 0 if s["does_not_fit"] == 0 and s["error"] == 0 else 1

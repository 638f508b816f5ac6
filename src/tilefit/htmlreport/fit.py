"""`tilefit fit --format html`: the chosen config among every config tried, and what was dropped and why."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from tilefit.htmlreport.page import config_text, details, legend, page, table
from tilefit.htmlreport.svg import Bar, column_chart

# fit's drop reasons -> the chart's statuses; the legend says what each means.
_STATUS = {"over-limit": "over", "analytic": "analytic", "compile-error": "error", "bounded": "bounded"}
_LABELS = {
    "chosen": "chosen", "fits": "fits (ranked)", "over": "over the limit (compiler's bytes)",
    "analytic": "pruned: model's bytes over the limit + margin", "error": "failed to compile",
    "bounded": "not compiled: model bounds its speed below the chosen",
}
_RANKED_SHOWN = 20


def _bars(result: Mapping[str, Any]) -> list[Bar]:
    chosen = dict(result.get("config") or {})
    bars = [Bar(config_text(r["config"]), r.get("bytes"), "chosen" if dict(r["config"]) == chosen else "fits",
                f"score {r.get('score', 0):.4g}") for r in result.get("ranked") or []]
    if not any(b.status == "chosen" for b in bars):  # a result whose ranking omits its own choice
        bars.append(Bar(config_text(chosen), (result.get("usage") or {}).get("bytes"), "chosen"))
    bars += [Bar(config_text(d["config"]), d.get("bytes"), _STATUS[d["reason"]], str(d.get("message") or ""))
             for d in result.get("dropped") or []]
    return sorted(bars, key=lambda b: (b.value is None, b.value or 0))


def _dropped_tables(dropped: Sequence[Mapping[str, Any]]) -> list[str]:
    out = []
    for reason in _STATUS:
        group = [d for d in dropped if d.get("reason") == reason]
        if group:
            rows = [[config_text(d["config"]), d.get("bytes"), d.get("limit"), d.get("over_by"), d.get("message")]
                    for d in group]
            out.append(details(f"dropped: {reason} ({len(group)}) - {_LABELS[_STATUS[reason]]}",
                               table(["config", "bytes", "limit", "over by", "why"], rows, frozenset({1, 2, 3}))))
    return out


def _no_fit(result: Mapping[str, Any], title: str) -> str:
    rows = [[k, result.get(k)] for k in ("target", "limit", "smallest", "consumer", "fix")]
    return page(title, [f'<p class="summary bad">{escape(str(result.get("error", "no config fits")))}</p>',
                        table(["", ""], rows)])


def render_fit_html(result: Mapping[str, Any], title: str = "tilefit fit") -> str:
    """One self-contained page from `tilefit fit --format json` (FitResult.to_dict() or the no-fit object)."""
    if result.get("fits") is False:
        return _no_fit(result, title)
    usage = result.get("usage") or {}
    limit, target = usage.get("limit"), str(result.get("target"))
    bars = _bars(result)
    counts = {s: sum(b.status == s for b in bars) for s in _LABELS}
    ranked = result.get("ranked") or []
    summary = (f'<p class="summary">Chosen on <b>{escape(target)}</b>: <code class="chosen">'
               f"{escape(config_text(result.get('config')))}</code>, {usage.get('bytes')} B of {limit} B "
               f"{escape(str(usage.get('resource', '')))}; {result.get('tried')} configs tried, {len(ranked)} fit, "
               f"{len(result.get('dropped') or [])} dropped; ranked by "
               f"{'measurement' if result.get('measured') else 'model'}.</p>")
    rank_rows = [[i + 1, config_text(r["config"]), r.get("bytes"), r.get("score"), r.get("measured_ms")]
                 for i, r in enumerate(ranked[:_RANKED_SHOWN])]
    more = f" (first {_RANKED_SHOWN} of {len(ranked)})" if len(ranked) > _RANKED_SHOWN else ""
    return page(title, [
        summary, legend(counts, _LABELS),
        column_chart(bars, limit, f"bytes per config tried on {target}; the chosen one marked"),
        f"<h2>Ranking{more}</h2>",
        table(["#", "config", "bytes", "score", "measured ms"], rank_rows, frozenset({0, 2, 3, 4})),
        "<h2>Dropped, and why</h2>", *(_dropped_tables(result.get("dropped") or []) or ["<p>None.</p>"]),
    ])

"""`tilefit estimate --format html`: per target, bytes of every config against the target's limit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from tilefit.htmlreport.page import config_text, details, legend, page, table
from tilefit.htmlreport.svg import Bar, Cell, column_chart, grid

_LABELS = {"fits": "fits", "over": "does not fit", "error": "no size (compile failed)"}


def status(row: Mapping[str, Any]) -> str:
    """fits, over or error, from a row's `fits`."""
    fits = row.get("fits")
    return "error" if fits is None else "fits" if fits else "over"


def note(row: Mapping[str, Any]) -> str:
    """Why a row did not fit or failed: its overruns, else the first and last line of its error."""
    over = row.get("over") or []
    vmem = row.get("vmem") or {}
    if row.get("fits") is False and vmem.get("vmem_limit_bytes") and not vmem.get("over_physical"):
        return f"fits with vmem_limit_bytes={vmem['vmem_limit_bytes']}"  # scoped VMEM can be raised to it
    if over:
        return "; ".join(f"{o['resource']} {o['required']} > {o['limit']}" for o in over)
    lines = [ln.strip() for ln in str(row.get("error") or "").splitlines() if ln.strip()]
    return (lines[0] if len(lines) == 1 else f"{lines[0]} ... {lines[-1]}")[:300] if lines else ""


def _by_target(rows: Sequence[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        groups.setdefault(str(row.get("target")), []).append(row)
    return groups


def _ordered(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Sized rows by bytes, then the rows without a size."""
    return sorted(rows, key=lambda r: (r.get("bytes") is None, r.get("bytes") or 0))


def _section(target: str, rows: Sequence[Mapping[str, Any]]) -> str:
    ordered = _ordered(rows)
    limit = next((r["limit"] for r in rows if r.get("limit")), None)
    resource = next((str(r["resource"]) for r in rows if r.get("resource")), "on-chip memory")
    counts = {s: sum(status(r) == s for r in rows) for s in _LABELS}
    bars = [Bar(config_text(r.get("config")), r.get("bytes"), status(r), note(r)) for r in ordered]
    caption = f"{resource} per config on {target}, against its limit"
    full = any(r.get("registers") is not None for r in rows)  # full mode: registers and spills too
    head = ["config", "fits", "bytes", "limit", "%", *(["regs", "spills"] if full else []), "note"]
    body = [[config_text(r.get("config")), _LABELS[status(r)], r.get("bytes"), r.get("limit"), r.get("percent"),
             *([r.get("registers"), r.get("spills")] if full else []), note(r)] for r in ordered]
    return (f'<section class="target" data-target="{escape(target, quote=True)}"><h2>{escape(target)}</h2>'
            f'<p class="summary">{counts["fits"]} of {len(rows)} configs fit {escape(resource)} '
            f"({'limit ' + str(limit) + ' B' if limit else 'no known limit'})</p>"
            + legend(counts, _LABELS) + column_chart(bars, limit, caption)
            + details(f"all {len(rows)} configs", table(head, body, frozenset(range(2, len(head) - 1))))
            + "</section>")


def _overview(groups: Mapping[str, Sequence[Mapping[str, Any]]]) -> str:
    """One row of cells, a cell per target: how many configs fit there."""
    cells = []
    for target, rows in groups.items():
        worst = [r["bytes"] / r["limit"] for r in rows if status(r) == "over" and r.get("bytes") and r.get("limit")]
        cells.append(Cell("configs that fit", target, sum(status(r) == "fits" for r in rows), len(rows),
                          sum(status(r) == "error" for r in rows), max(worst) if worst else None))
    return grid(cells, ["configs that fit"], list(groups), "configs that fit, per target")


def render_estimate_html(rows: Sequence[Mapping[str, Any]], title: str = "tilefit estimate") -> str:
    """One self-contained page from `tilefit estimate --format json` rows (Usage.to_dict()): a chart per target."""
    groups = _by_target(rows)
    n_fit = sum(status(r) == "fits" for r in rows)
    intro = (f'<p class="summary">{n_fit} of {len(rows)} config x target pairs fit; '
             f"targets: {escape(', '.join(groups)) or 'none'}</p>")
    if not rows:
        return page(title, [intro, "<p>No configs were estimated.</p>"])
    return page(title, [intro, _overview(groups), *(_section(t, g) for t, g in groups.items())])

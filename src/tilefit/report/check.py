"""`tilefit check --format html`: a kernel x target grid of how many configs fit, then what does not and the fix.

The input is the check result as JSON-ready data, either a list of result rows or a mapping:

    {"targets": ["sm_86", "gfx942"],          # optional: the grid's column order
     "results": [                             # one row per kernel, config and target
        {"kernel": "fused_moe_kernel",        # the grid's row (a name, or path:name)
         "target": "sm_86",
         "config": {"BLOCK_SIZE_M": 64, "num_stages": 4},
         "fits": false,                       # true, false, or null when it produced no size
         "bytes": 147456, "limit": 101376,    # int or null
         "message": "...",                    # optional: why; else read from `over`/`error` as in estimate
         "fix": {"num_stages": 2, ...},       # optional: the best fitting config there (or null)
         "source": "E=8,N=7168,...json"}]}    # optional: where the config comes from

Keys other than these are ignored, so a richer check JSON can be passed as it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tilefit.errors import InputError
from tilefit.report.estimate import note
from tilefit.report.page import config_text, details, legend, page, table
from tilefit.report.svg import Cell, grid

_LABELS = {"fits": "every config fits", "mixed": "some fit", "over": "none fits", "error": "no size"}


def _rows(result: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> tuple[list[Mapping[str, Any]], list[str]]:
    if isinstance(result, Mapping):
        rows, order = result.get("results"), [str(t) for t in result.get("targets") or []]
    else:
        rows, order = result, []
    if not isinstance(rows, Sequence) or not all(isinstance(r, Mapping) and "target" in r for r in rows):
        raise InputError("check result: expected a list of rows with kernel and target, or {'results': [...]}")
    for r in rows:
        if str(r["target"]) not in order:
            order.append(str(r["target"]))
    return list(rows), order


def _kernel(row: Mapping[str, Any]) -> str:
    return str(row.get("kernel") or "(kernel)")


def _ratio(row: Mapping[str, Any]) -> float | None:
    """bytes / limit when the bytes exceed the limit (a config can fail on threads or registers instead)."""
    b, lim = row.get("bytes"), row.get("limit")
    return b / lim if isinstance(b, int) and isinstance(lim, int) and 0 < lim < b else None


def cells(rows: Sequence[Mapping[str, Any]]) -> list[Cell]:
    """One Cell per kernel and target: configs that fit, configs in all, failures, the worst overrun."""
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for r in rows:
        groups.setdefault((_kernel(r), str(r["target"])), []).append(r)
    out = []
    for (kernel, target), group in groups.items():
        worst = [x for r in group if r.get("fits") is False and (x := _ratio(r)) is not None]
        out.append(Cell(kernel, target, sum(r.get("fits") is True for r in group), len(group),
                        sum(r.get("fits") is None for r in group), max(worst) if worst else None))
    return out


def _failures(rows: Sequence[Mapping[str, Any]]) -> str:
    bad = sorted((r for r in rows if r.get("fits") is not True), key=lambda r: -(_ratio(r) or 0))
    if not bad:
        return "<p>Every config fits every target.</p>"
    body = [[_kernel(r), r["target"], config_text(r.get("config")), r.get("bytes"), r.get("limit"),
             f"{x:.2f}x" if (x := _ratio(r)) is not None else None, r.get("message") or note(r),
             config_text(r["fix"]) if r.get("fix") else None, r.get("source")] for r in bad]
    head = ["kernel", "target", "config", "bytes", "limit", "ratio", "why", "fix", "source"]
    return details(f"{len(bad)} configs that do not fit or failed", table(head, body, frozenset({3, 4, 5})), True)


def render_check_html(result: Mapping[str, Any] | Sequence[Mapping[str, Any]], title: str = "tilefit check") -> str:
    """One self-contained page from a check result (shape in the module docstring): the grid, then the failures."""
    rows, targets = _rows(result)
    grid_cells = cells(rows)
    kernels = list(dict.fromkeys(_kernel(r) for r in rows))
    counts = {s: sum(c.status == s for c in grid_cells) for s in _LABELS}
    n_fit = sum(r.get("fits") is True for r in rows)
    summary = (f'<p class="summary">{n_fit} of {len(rows)} config x target pairs fit; {len(kernels)} kernels, '
               f"{len(targets)} targets.</p>")
    if not rows:
        return page(title, [summary])
    return page(title, [summary, legend(counts, _LABELS),
                        grid(grid_cells, kernels, targets, "configs that fit, per kernel and target"),
                        "<h2>What does not fit</h2>", _failures(rows)])

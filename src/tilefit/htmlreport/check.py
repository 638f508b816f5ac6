"""`tilefit check --format html`: a kernel x target grid of how many configs fit, then what does not and the fix.

The input is the check result as JSON-ready data: `tilefit check --format json`'s report as it is, or a
bare list of its `results`. What is read of each result (other keys are ignored):

    {"targets": ["sm_86", "gfx942"],          # optional: the grid's column order
     "compiler": "triton 3.9.0",              # optional: said in the summary
     "results": [                             # one row per kernel, config and target
        {"kernel": "fused_moe_kernel",        # the grid's row (with `source`, when given)
         "target": "sm_86",                   # the grid's column
         "status": "does not fit",            # "fits", "does not fit" or "error"
                                              #   (or "fits": true / false / null)
         "config": {"BLOCK_SIZE_M": 64, "num_stages": 4},
         "bytes": 147456, "limit": 101376,    # int or null
         "over": [{"resource": "shared-memory", "required": 147456, "limit": 101376}],   # optional
         "error": null,                       # optional: why it produced no size
         "message": "...",                    # optional: why, in place of over/error
         "fix": {"config": {...}, "bytes": 65536, "change": "num_stages 4 -> 2"},      # optional, or null
                                              #   (or the fitting config itself)
         "source": "E=8,N=7168,...json", "m": 64, "launch": "up"}]}                  # optional: where from
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from tilefit.errors import InputError
from tilefit.htmlreport.estimate import note
from tilefit.htmlreport.page import config_text, details, legend, page, table
from tilefit.htmlreport.svg import Cell, grid

_LABELS = {"fits": "every config fits", "mixed": "some fit", "over": "none fits", "error": "no size"}
_STATUS = {"fits": True, "does not fit": False, "error": None}


def _rows(result: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    if isinstance(result, Mapping):
        rows, order = result.get("results"), [str(t) for t in result.get("targets") or []]
    else:
        rows, order = result, []
    if not isinstance(rows, Sequence) or not all(isinstance(r, Mapping) and "target" in r for r in rows):
        raise InputError("check result: expected a list of rows with kernel and target, or {'results': [...]}")
    out = [_normalise(r) for r in rows]
    order += [t for t in dict.fromkeys(r["target"] for r in out) if t not in order]
    return out, order


def _normalise(row: Mapping[str, Any]) -> dict[str, Any]:
    """The fields the page reads, from either spelling of a result."""
    fits = _STATUS.get(str(row["status"])) if "status" in row else row.get("fits")
    fix = row.get("fix")
    fix_text: str | None
    if isinstance(fix, Mapping) and isinstance(fix.get("config"), Mapping):
        fix_text = config_text(fix["config"]) + (f" ({fix['change']})" if fix.get("change") else "")
    else:
        fix_text = config_text(fix) if isinstance(fix, Mapping) and fix else None
    where = " ".join(str(x) for x in (row.get("source"), _m(row), row.get("launch")) if x)
    kernel = str(row.get("kernel") or "(kernel)")
    # A row of the grid per kernel, and per table or trace when the results say where they come from.
    label = f"{kernel} · {row['source']}" if row.get("source") else kernel
    return {"kernel": kernel, "row": label, "target": str(row["target"]), "fits": fits,
            "config": row.get("config"), "bytes": row.get("bytes"), "limit": row.get("limit"),
            "why": str(row.get("message") or note(row)), "fix": fix_text, "where": where or None}


def _m(row: Mapping[str, Any]) -> str | None:
    return f"M={row['m']}" if row.get("m") is not None else None


def _ratio(row: Mapping[str, Any]) -> float | None:
    """bytes / limit when the bytes exceed the limit (a config can fail on threads or registers instead)."""
    b, lim = row.get("bytes"), row.get("limit")
    return b / lim if isinstance(b, int) and isinstance(lim, int) and 0 < lim < b else None


def cells(rows: Sequence[Mapping[str, Any]]) -> list[Cell]:
    """One Cell per grid row (kernel, or kernel and source) and target: how many fit, failures, the worst overrun."""
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["row"], r["target"]), []).append(r)
    out = []
    for (kernel, target), group in groups.items():
        worst = [x for r in group if r["fits"] is False and (x := _ratio(r)) is not None]
        out.append(Cell(kernel, target, sum(r["fits"] is True for r in group), len(group),
                        sum(r["fits"] is None for r in group), max(worst) if worst else None))
    return out


def _failures(rows: Sequence[Mapping[str, Any]]) -> str:
    bad = sorted((r for r in rows if r["fits"] is not True), key=lambda r: -(_ratio(r) or 0))
    if not bad:
        return "<p>Every config fits every target.</p>"
    body = [[r["kernel"], r["target"], config_text(r["config"]), r["bytes"], r["limit"],
             f"{x:.2f}x" if (x := _ratio(r)) is not None else None, r["why"], r["fix"], r["where"]] for r in bad]
    head = ["kernel", "target", "config", "bytes", "limit", "ratio", "why", "fix", "where"]
    return details(f"{len(bad)} configs that do not fit or failed", table(head, body, frozenset({3, 4, 5})), True)


def render_check_html(result: Mapping[str, Any] | Sequence[Mapping[str, Any]], title: str = "tilefit check") -> str:
    """One self-contained page from a check result (shape in the module docstring): the grid, then the failures."""
    rows, targets = _rows(result)
    grid_cells = cells(rows)
    grid_rows = list(dict.fromkeys(r["row"] for r in rows))
    counts = {s: sum(c.status == s for c in grid_cells) for s in _LABELS}
    n_fit = sum(r["fits"] is True for r in rows)
    compiler = result.get("compiler") if isinstance(result, Mapping) else None
    n_kernels = len({r["kernel"] for r in rows})
    summary = (f'<p class="summary">{n_fit} of {len(rows)} config x target pairs fit; {n_kernels} kernels, '
               f"{len(targets)} targets" + (f"; sized with {escape(str(compiler))}" if compiler else "") + ".</p>")
    if not rows:
        return page(title, [summary])
    return page(title, [summary, legend(counts, _LABELS),
                        grid(grid_cells, grid_rows, targets, "configs that fit, per kernel (and table) and target"),
                        "<h2>What does not fit</h2>", _failures(rows)])

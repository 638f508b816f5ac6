"""Inline SVG plots drawn in Python: a column chart of bytes against a limit, and a kernel x target grid.

No scripts and no external assets: each element carries its numbers in a `<title>` (the browser's tooltip)
and in `data-*` attributes, so a reader hovers and a test reads the DOM.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from html import escape

from tilefit.units import format_short

# Status -> fill colour; the page's legend and CSS use the same names.
COLOURS = {
    "fits": "#2e7d32", "chosen": "#1565c0", "over": "#c62828", "analytic": "#ef6c00",
    "error": "#9e9e9e", "bounded": "#a5d6a7", "mixed": "#f9a825",
}
_W, _H, _LEFT, _RIGHT, _TOP, _BOTTOM = 960, 280, 78, 16, 28, 34
_MAX_STEP = 64  # a few configs get bars of at most this pitch, left-aligned
_LABEL_CHARS = 60  # longest row label of a grid shown whole
_STUB = 6  # height of the bar of a config whose bytes are unknown (not compiled, or failed)


@dataclasses.dataclass(frozen=True)
class Bar:
    """One config in a column chart: its bytes (None when unknown) and how it ended."""

    label: str
    value: int | None
    status: str  # a key of COLOURS
    note: str = ""


@dataclasses.dataclass(frozen=True)
class Cell:
    """One kernel x target cell of a grid: how many configs fit of how many, and the worst overrun."""

    row: str
    column: str
    fit: int
    total: int
    errors: int = 0
    worst: float | None = None  # largest bytes/limit of the configs that do not fit

    @property
    def status(self) -> str:
        """fits (all fit), over (none fits), mixed, or error (nothing sized)."""
        sized = self.total - self.errors
        if sized == 0:
            return "error"
        if self.fit == self.total:
            return "fits"
        return "over" if self.fit == 0 else "mixed"


def _attr(value: object) -> str:
    return escape(str(value), quote=True)


def _ticks(top: float) -> list[int]:
    """Tick values from 0 to `top` in power-of-two steps (64 KiB, 128 KiB, ...), four or five of them."""
    step = 1
    while step * 5 < top:
        step *= 2
    return [i * step for i in range(int(top // step) + 1)]


def _short(n: int) -> str:
    """Tick labels: whole KiB/MiB without decimals (64 KiB), else what units.format_short says."""
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale} {unit}"
    return format_short(n)


def column_chart(bars: Sequence[Bar], limit: int | None, caption: str) -> str:
    """Bars of bytes per config, sorted as given, against a dashed limit line; the chosen bar gets a marker."""
    known = [b.value for b in bars if b.value is not None]
    top = max([*known, limit or 0, 1]) * 1.08
    plot_w, plot_h = _W - _LEFT - _RIGHT, _H - _TOP - _BOTTOM
    step = min(plot_w / max(len(bars), 1), _MAX_STEP)
    width = max(step * 0.8, 0.6)

    def y(v: float) -> float:
        return _TOP + plot_h * (1 - v / top)

    out = [f'<svg class="chart" viewBox="0 0 {_W} {_H}" width="{_W}" height="{_H}" role="img" '
           f'aria-label="{_attr(caption)}">', f"<title>{escape(caption)}</title>"]
    for t in _ticks(top):
        out.append(f'<line class="grid" x1="{_LEFT}" x2="{_W - _RIGHT}" y1="{y(t):.1f}" y2="{y(t):.1f}"/>'
                   f'<text class="tick" x="{_LEFT - 6}" y="{y(t) + 4:.1f}" text-anchor="end">{_short(t)}</text>')
    for i, b in enumerate(bars):
        out.append(_bar(b, _LEFT + i * step + (step - width) / 2, width, y, plot_h))
    if limit:
        out.append(f'<line class="limit" x1="{_LEFT}" x2="{_W - _RIGHT}" y1="{y(limit):.1f}" y2="{y(limit):.1f}" '
                   f'data-limit="{limit}"/><text class="limit-label" x="{_LEFT + 6}" y="{y(limit) - 5:.1f}" '
                   f'text-anchor="start">limit {limit} B ({format_short(limit)})</text>')  # left: bars rise rightwards
    unknown = len(bars) - len(known)
    tail = f"; {unknown} of unknown size as stubs at the right" if unknown else ""
    out.append(f'<text class="axis" x="{_LEFT + plot_w / 2:.0f}" y="{_H - 10}" text-anchor="middle">'
               f"{len(bars)} configs sorted by bytes{tail} (hover a bar for its config)</text></svg>")
    return "".join(out)


def _bar(b: Bar, x: float, width: float, y: Callable[[float], float], plot_h: float) -> str:
    value = b.value
    top = y(value) if value is not None else _TOP + plot_h - _STUB  # unknown bytes: a short stub
    tip = f"{b.label}: {'unknown' if value is None else f'{value} B'} ({b.status})" + (f"; {b.note}" if b.note else "")
    rect = (f'<rect class="bar {b.status}" x="{x:.2f}" y="{top:.1f}" width="{width:.2f}" '
            f'height="{max(_TOP + plot_h - top, 0.5):.1f}" fill="{COLOURS[b.status]}" '
            f'data-config="{_attr(b.label)}" data-bytes="{"" if value is None else value}">'
            f"<title>{escape(tip)}</title></rect>")
    if b.status != "chosen":
        return rect
    cx = x + width / 2
    return (rect + f'<path class="marker" d="M{cx - 7:.1f} {top - 16:.1f} L{cx + 7:.1f} {top - 16:.1f} '
            f'L{cx:.1f} {top - 4:.1f} Z" fill="{COLOURS["chosen"]}"/>'
            f'<text class="marker-label" x="{cx:.1f}" y="{top - 19:.1f}" text-anchor="middle">chosen</text>')


def grid(cells: Sequence[Cell], rows: Sequence[str], columns: Sequence[str], caption: str) -> str:
    """A rows x columns grid of cells coloured by how many configs fit; each cell says `fit/total`."""
    label_w = min(max([len(r) for r in rows] + [8]) * 7 + 16, _LABEL_CHARS * 7 + 16)
    cw, ch, head = 96, 30, 36
    width, height = label_w + cw * len(columns) + 8, head + ch * len(rows) + 8
    by_key = {(c.row, c.column): c for c in cells}
    out = [f'<svg class="grid-chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
           f'role="img" aria-label="{_attr(caption)}"><title>{escape(caption)}</title>']
    for j, col in enumerate(columns):
        out.append(f'<text class="col" x="{label_w + j * cw + cw / 2:.0f}" y="{head - 12}" '
                   f'text-anchor="middle">{escape(col)}</text>')
    for i, row in enumerate(rows):
        ty = head + i * ch
        short = row if len(row) <= _LABEL_CHARS else "…" + row[-(_LABEL_CHARS - 1):]  # the end names the table
        out.append(f'<text class="row" x="{label_w - 8}" y="{ty + ch / 2 + 4:.0f}" text-anchor="end">'
                   f"<title>{escape(row)}</title>{escape(short)}</text>")
        for j, col in enumerate(columns):
            cell = by_key.get((row, col))
            if cell is not None:
                out.append(_cell(cell, label_w + j * cw, ty, cw, ch))
    return "".join([*out, "</svg>"])


def _cell(c: Cell, x: float, y: float, w: float, h: float) -> str:
    worst = f"; worst {c.worst:.2f}x the limit" if c.worst is not None else ""
    errs = f"; {c.errors} failed to compile" if c.errors else ""
    tip = f"{c.row} on {c.column}: {c.fit} of {c.total} fit{worst}{errs}"
    return (f'<g class="cell {c.status}" data-row="{_attr(c.row)}" data-column="{_attr(c.column)}" '
            f'data-fit="{c.fit}" data-total="{c.total}"><title>{escape(tip)}</title>'
            f'<rect x="{x + 2:.0f}" y="{y + 2:.0f}" width="{w - 4:.0f}" height="{h - 4:.0f}" rx="4" '
            f'fill="{COLOURS[c.status]}"/><text x="{x + w / 2:.0f}" y="{y + h / 2 + 5:.0f}" '
            f'text-anchor="middle">{c.fit}/{c.total}</text></g>')

"""The page around the plots: one self-contained HTML document, no scripts, nothing fetched from a network."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import Any

from tilefit.htmlreport.svg import COLOURS

_CSS = (
    "body{font-family:system-ui,sans-serif;max-width:64rem;margin:1.5rem auto;padding:0 1rem;line-height:1.45;"
    "color:#222}section{border:1px solid #ccc;border-radius:8px;padding:.5rem 1.2rem 1rem;margin:1rem 0}"
    "table{border-collapse:collapse;font-size:.85rem}td,th{border-bottom:1px solid #e4e4e4;padding:2px 8px;"
    "text-align:left;vertical-align:top}td.num,th{white-space:nowrap}.scroll{overflow-x:auto}td.num{text-align:right;font-family:monospace}code{background:#f4f4f4}"
    "svg{max-width:100%;height:auto;font-size:12px}svg .grid{stroke:#e6e6e6}svg .tick,svg .axis{fill:#555}"
    "svg .limit{stroke:#b71c1c;stroke-width:2;stroke-dasharray:6 4}svg .limit-label{fill:#b71c1c;font-weight:bold}"
    "svg .marker-label{fill:#1565c0;font-weight:bold}svg .cell text{fill:#fff;font-weight:bold}"
    ".legend span{display:inline-block;margin-right:1rem}.swatch{display:inline-block;width:.8em;height:.8em;"
    "margin-right:.3em;border-radius:2px;vertical-align:-.05em}.summary{font-size:1.05rem}.bad{color:#b71c1c}"
)
# The page may load nothing: no scripts, no images, fonts or styles from anywhere but itself.
_CSP = "default-src 'none'; style-src 'unsafe-inline'"


def page(title: str, body: Iterable[str]) -> str:
    """A complete HTML document with the page's CSS inline."""
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        f'<meta name="viewport" content="width=device-width,initial-scale=1"><title>{escape(title)}</title>'
        f"<style>{_CSS}</style></head>\n<body>\n<h1>{escape(title)}</h1>\n" + "\n".join(body) + "\n</body></html>\n"
    )


def legend(counts: Mapping[str, int], labels: Mapping[str, str]) -> str:
    """Coloured swatches with a label and a count, for the statuses that occur."""
    items = [f'<span class="{s}"><i class="swatch" style="background:{COLOURS[s]}"></i>{escape(labels[s])}: {n}</span>'
             for s, n in counts.items() if n]
    return f'<p class="legend">{"".join(items)}</p>'


def table(head: Sequence[str], rows: Iterable[Sequence[Any]], numeric: frozenset[int] = frozenset()) -> str:
    """An HTML table; the columns in `numeric` are right-aligned."""
    cells = ["<table><thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr></thead><tbody>"]
    for row in rows:
        cells.append("<tr>" + "".join(
            f'<td class="num">{escape(_text(v))}</td>' if i in numeric else f"<td>{escape(_text(v))}</td>"
            for i, v in enumerate(row)) + "</tr>")
    return "".join(['<div class="scroll">', *cells, "</tbody></table></div>"])  # wide tables scroll, not the page


def details(summary: str, content: str, open_: bool = False) -> str:
    """A collapsible block (no script needed)."""
    return f"<details{' open' if open_ else ''}><summary>{escape(summary)}</summary>{content}</details>"


def config_text(config: Mapping[str, Any] | None) -> str:
    """`BLOCK_M=128 num_warps=8`, or `(defaults)`."""
    return " ".join(f"{k}={v}" for k, v in (config or {}).items()) or "(defaults)"


def _text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)

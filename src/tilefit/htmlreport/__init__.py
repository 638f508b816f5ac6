"""Self-contained HTML reports with inline SVG plots for estimate, fit and check (explain's is in render/).

Each renderer takes the command's JSON-ready output (what `--format json` prints, parsed), so a report can
also be drawn later from a saved JSON file.
"""

from __future__ import annotations

from tilefit.htmlreport.check import render_check_html
from tilefit.htmlreport.estimate import render_estimate_html
from tilefit.htmlreport.fit import render_fit_html

__all__ = ["render_check_html", "render_estimate_html", "render_fit_html"]

"""HTML reports of estimate/fit/check, read back with an HTML parser: plots present, numbers in them, safe text.

The rows are built with the real Usage and FitResult types and their to_dict() (what `--format json` prints);
tests/compile/test_html_chromium.py renders real compiler output in a real browser.
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest

from tilefit.errors import InputError
from tilefit.estimate.base import Overrun, Usage
from tilefit.fit.perf import Score
from tilefit.fit.report import Dropped, FitResult, Ranked
from tilefit.htmlreport import render_check_html, render_estimate_html, render_fit_html

HOSTILE = '<script>alert(1)</script><img src=x onerror="fetch(1)">'


class _Elements(HTMLParser):
    """Every start tag with its attributes, and the page's text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def find(self, tag: str, cls: str | None = None) -> list[dict[str, str]]:
        return [a for t, a in self.tags if t == tag and (cls is None or cls in a.get("class", "").split())]


def parse(page: str) -> _Elements:
    p = _Elements()
    p.feed(page)
    return p


def usage(config: dict[str, Any], target: str, nbytes: int | None, limit: int, error: str | None = None) -> Usage:
    fits = None if nbytes is None else nbytes <= limit
    over = (Overrun("shared-memory", nbytes, limit, target),) if nbytes is not None and nbytes > limit else ()
    return Usage(target, "shared-memory", nbytes, limit, "fast", config, fits, error=error, over=over)


ROWS = [
    usage({"BLOCK_N": 128}, "sm_90", 131072, 232448),
    usage({"BLOCK_N": 256}, "sm_90", 196608, 232448),
    usage({"BLOCK_N": 128}, "sm_86", 98304, 101376),
    usage({"BLOCK_N": 256}, "sm_86", 147456, 101376),
    usage({"BLOCK_N": 512}, "sm_86", None, 101376, error="CompilationError: at 1:2\nNameError: x"),
]


def test_estimate_page_has_a_chart_per_target_with_each_config_and_the_limit() -> None:
    doc = parse(render_estimate_html([u.to_dict() for u in ROWS]))
    sections = doc.find("section", "target")
    assert [s["data-target"] for s in sections] == ["sm_90", "sm_86"]
    assert len(doc.find("svg", "chart")) == 2
    bars = doc.find("rect", "bar")
    assert len(bars) == len(ROWS)
    assert {b["data-bytes"] for b in doc.find("rect", "over")} == {"147456"}
    assert [b["data-config"] for b in doc.find("rect", "error")] == ["BLOCK_N=512"]
    assert {ln["data-limit"] for ln in doc.find("line", "limit")} == {"232448", "101376"}
    overview = {c["data-column"]: (c["data-fit"], c["data-total"], c["class"]) for c in doc.find("g", "cell")}
    assert overview == {"sm_90": ("2", "2", "cell fits"), "sm_86": ("1", "3", "cell mixed")}
    text = "".join(doc.text)
    assert "3 of 5 config x target pairs fit" in text
    assert "shared-memory 147456 > 101376" in text  # why it does not fit, from Usage.over
    assert "CompilationError: at 1:2 ... NameError: x" in text


def test_bars_are_sorted_by_bytes_and_scaled_against_the_limit() -> None:
    doc = parse(render_estimate_html([u.to_dict() for u in ROWS if u.target == "sm_86"]))
    bars = doc.find("rect", "bar")
    assert [b["data-bytes"] for b in bars] == ["98304", "147456", ""]  # unknown size last
    (limit,) = doc.find("line", "limit")
    fits, over = float(bars[0]["y"]), float(bars[1]["y"])
    assert over < float(limit["y1"]) < fits  # SVG y grows downwards: the bar over the limit rises above it


def score(value: float) -> Score:
    return Score(value, reuse=1.0, amortisation=1.0, blocks_per_sm=1, latency_hiding=1.0, register_pressure=1.0,
                 waves=1.0, programs=None)


def test_fit_page_marks_the_chosen_config_and_every_dropped_reason() -> None:
    chosen = usage({"BLOCK_N": 128, "num_stages": 2}, "sm_86", 49152, 101376)
    second = usage({"BLOCK_N": 64, "num_stages": 2}, "sm_86", 24576, 101376)
    result = FitResult(
        "sm_86", chosen.config, chosen,
        (Ranked(chosen.config, chosen, score(2.0)), Ranked(second.config, second, score(1.0))),
        (Dropped({"BLOCK_N": 256, "num_stages": 4}, "over-limit", 196608, 101376),
         Dropped({"BLOCK_N": 256, "num_stages": 5}, "analytic", 245760, 101376, "model, margin 10%"),
         Dropped({"BLOCK_N": 1024}, "compile-error", None, 101376, "out of registers"),
         Dropped({"BLOCK_N": 32}, "bounded", None, 101376, "score bound 0.5 < 1.0")),
        tried=6, seconds=0.5)
    doc = parse(render_fit_html(result.to_dict()))
    (chosen_bar,) = doc.find("rect", "chosen")
    assert chosen_bar["data-config"] == "BLOCK_N=128 num_stages=2" and chosen_bar["data-bytes"] == "49152"
    assert len(doc.find("path", "marker")) == 1
    assert len(doc.find("rect", "bar")) == 6  # every config tried is a bar
    for cls in ("fits", "over", "analytic", "error", "bounded"):
        assert len(doc.find("rect", cls)) == 1, cls
    text = "".join(doc.text)
    assert "dropped: over-limit (1)" in text and "out of registers" in text and "score bound 0.5 < 1.0" in text


def test_fit_page_without_a_fit_says_why() -> None:
    doc = {"fits": False, "error": "no config of 4 fits shared-memory on gfx942 (limit 65536 B)", "target": "gfx942",
           "limit": 65536, "smallest": 98304, "consumer": "BLOCK_K", "fix": "lower BLOCK_K"}
    page = parse(render_fit_html(doc))
    assert "no config of 4 fits" in "".join(page.text) and not page.find("svg")


CHECK = {"targets": ["sm_90", "sm_86", "gfx942"], "results": [
    {"kernel": "moe", "target": "sm_90", "config": {"M": 64}, "fits": True, "bytes": 196608, "limit": 232448},
    {"kernel": "moe", "target": "sm_86", "config": {"M": 64}, "fits": False, "bytes": 196608, "limit": 101376,
     "fix": {"M": 32}},
    {"kernel": "moe", "target": "sm_86", "config": {"M": 16}, "fits": True, "bytes": 49152, "limit": 101376},
    {"kernel": "moe", "target": "gfx942", "config": {"M": 64}, "fits": None, "bytes": None, "limit": 65536},
    {"kernel": "mm", "target": "gfx942", "config": {"M": 64}, "fits": False, "bytes": 98304, "limit": 65536},
]}


def test_check_grid_has_a_cell_per_kernel_and_target() -> None:
    doc = parse(render_check_html(CHECK))
    cells = {(c["data-row"], c["data-column"]): c for c in doc.find("g", "cell")}
    assert set(cells) == {("moe", "sm_90"), ("moe", "sm_86"), ("moe", "gfx942"), ("mm", "gfx942")}
    assert (cells["moe", "sm_86"]["data-fit"], cells["moe", "sm_86"]["data-total"]) == ("1", "2")
    assert [k for k, c in cells.items() if "mixed" in c["class"]] == [("moe", "sm_86")]
    assert "error" in cells["moe", "gfx942"]["class"] and "over" in cells["mm", "gfx942"]["class"]
    text = "".join(doc.text)
    assert "1.94x" in text and "M=32" in text  # the worst overrun first, with its fix


def test_check_reads_the_check_report_as_tilefit_check_writes_it() -> None:
    common = {"source": "triton_3_4_0/E=8,N=7168,device_name=NVIDIA_H100.json", "path": "/x.json", "line": 3,
              "launch": "up", "kernel": "fused_moe_kernel", "compiler": "triton 3.9.0", "error": None}
    report = {"tilefit": "0.1.0", "format": 1, "compiler": "triton 3.9.0", "targets": ["sm_90", "sm_86"],
              "results": [
                  {**common, "m": 64, "target": "sm_90", "status": "fits", "config": {"BLOCK_SIZE_K": 128},
                   "bytes": 196608, "limit": 232448, "over": [], "fix": None},
                  {**common, "m": 64, "target": "sm_86", "status": "does not fit", "config": {"BLOCK_SIZE_K": 128},
                   "bytes": 196608, "limit": 101376,
                   "over": [{"resource": "shared-memory", "required": 196608, "limit": 101376}],
                   "fix": {"config": {"BLOCK_SIZE_K": 64}, "bytes": 98304, "change": "BLOCK_SIZE_K 128 -> 64"}},
                  {**common, "m": 128, "target": "sm_86", "status": "error", "config": {"BLOCK_SIZE_K": 256},
                   "bytes": None, "limit": 101376, "over": [], "fix": None, "error": "LLVM ERROR: out of memory"},
              ]}
    doc = parse(render_check_html(report))
    cells = {(c["data-row"], c["data-column"]): c for c in doc.find("g", "cell")}
    row = "fused_moe_kernel · " + common["source"]  # a grid row per kernel and table
    assert set(cells) == {(row, "sm_90"), (row, "sm_86")}
    assert cells[row, "sm_90"]["class"] == "cell fits"
    sm86 = cells[row, "sm_86"]
    assert (sm86["data-fit"], sm86["data-total"], sm86["class"]) == ("0", "2", "cell over")
    text = "".join(doc.text)
    assert "BLOCK_SIZE_K=64 (BLOCK_SIZE_K 128 -> 64)" in text and "shared-memory 196608 > 101376" in text
    assert "LLVM ERROR: out of memory" in text and "M=128 up" in text and "sized with triton 3.9.0" in text


def test_check_accepts_a_bare_list_and_rejects_other_shapes() -> None:
    assert "cell" in render_check_html(CHECK["results"])  # type: ignore[arg-type]
    with pytest.raises(InputError, match="expected a list of rows"):
        render_check_html({"results": [{"kernel": "k"}]})


def test_text_from_kernels_and_configs_is_escaped_and_the_page_loads_nothing() -> None:
    rows = [usage({HOSTILE: 1}, "sm_90", 1024, 232448, error=HOSTILE).to_dict()]
    pages = [render_estimate_html(rows, title=HOSTILE),
             render_check_html([{"kernel": HOSTILE, "target": "sm_90", "fits": False, "message": HOSTILE}])]
    for page in pages:
        doc = parse(page)
        assert not doc.find("script") and not doc.find("img")
        assert "<script>" not in page and HOSTILE in "".join(doc.text)
        assert not any(k in ("src", "href") for _, attrs in doc.tags for k in attrs)
        (csp,) = [a for a in doc.find("meta") if a.get("http-equiv") == "Content-Security-Policy"]
        assert csp["content"].startswith("default-src 'none'")


def test_full_mode_adds_registers_and_tpu_rows_say_the_vmem_limit_that_fits() -> None:
    from dataclasses import replace

    from tilefit.estimate.base import VmemDetail

    full = replace(usage({"BLOCK_N": 128}, "sm_90", 131072, 232448), mode="full", registers=168, spills=0)
    text = "".join(parse(render_estimate_html([full.to_dict()])).text)
    assert "regs" in text and "168" in text
    tpu = Usage("v5e", "scoped-vmem", 50331648, 16777216, "exact", {"block_rows": 1024}, False,
                vmem=VmemDetail(physical=128 << 20, vmem_limit_bytes=55574528))
    assert "fits with vmem_limit_bytes=55574528" in "".join(parse(render_estimate_html([tpu.to_dict()])).text)


def test_an_empty_estimate_is_a_page_not_an_error() -> None:
    assert "No configs were estimated" in render_estimate_html([])

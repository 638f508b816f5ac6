"""HTML reports of real estimate/fit/check results in headless Chromium: no console errors, the plots in the
rendered DOM, and a screenshot that shows them (the plot's colours are on screen, not a blank page).

Chromium comes from Debian's package (`make setup-test` installs it when apt-get is there and we are root).
Without it the test skips, except on CI (CI=true), where a missing browser is a failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("triton", reason="the reports draw real compiler results")

from tilefit.htmlreport import render_check_html

pytestmark = pytest.mark.compile

ROOT = Path(__file__).resolve().parents[2]
SPEC = str(ROOT / "examples" / "kernels" / "matmul.yaml")
SMALL = ["--config", "BLOCK_M=64,128", "--config", "BLOCK_N=128,256", "--config", "BLOCK_K=64",
         "--config", "num_stages=3,4", "--config", "num_warps=8"]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-logging=stderr", "--v=0", "--hide-scrollbars", "--window-size=1100,1800"]
CONSOLE = re.compile(r":CONSOLE[:(]")  # how Chromium logs a page's console messages (and CSP violations)
COLOURS = {"chosen": (0x15, 0x65, 0xC0), "fits": (0x2E, 0x7D, 0x32), "over": (0xC6, 0x28, 0x28),
           "limit": (0xB7, 0x1C, 0x1C), "mixed": (0xF9, 0xA8, 0x25)}


def chromium() -> str:
    found = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
    if found:
        return found
    if os.environ.get("CI"):
        pytest.fail("chromium is not installed; `make setup-test` installs Debian's chromium package")
    pytest.skip("chromium is not installed (apt-get install chromium, or make setup-test as root)")


def browse(page: Path, tmp: Path, action: str) -> tuple[str, list[str]]:
    """Run headless Chromium on a file with one action (--dump-dom or --screenshot=...); stdout, console lines."""
    profile = tmp / f"profile-{action.strip('-').split('=')[0]}-{page.stem}"  # a new, empty profile each time
    out = subprocess.run([chromium(), *FLAGS, f"--user-data-dir={profile}", action, page.as_uri()],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout, [ln for ln in out.stderr.splitlines() if CONSOLE.search(ln)]


def colour_pixels(png: Path) -> dict[str, int]:
    """How many pixels of the screenshot have each plot colour (within a small tolerance)."""
    image = pytest.importorskip("PIL.Image", reason="reading the screenshot needs pillow").open(png).convert("RGB")
    counts = image.getcolors(maxcolors=1 << 22)
    assert counts is not None

    def near(c: tuple[int, int, int], want: tuple[int, int, int]) -> bool:
        return all(abs(a - b) <= 6 for a, b in zip(c, want, strict=True))

    return {name: sum(n for n, c in counts if near(c, want)) for name, want in COLOURS.items()}


def tilefit_html(*argv: str) -> str:
    out = subprocess.run([sys.executable, "-m", "tilefit", *argv, "--format", "html"], capture_output=True,
                         text=True, timeout=300, cwd=ROOT)
    assert out.returncode in (0, 1), out.stderr
    return out.stdout


def tilefit_json(*argv: str) -> Any:
    out = subprocess.run([sys.executable, "-m", "tilefit", *argv, "--format", "json"], capture_output=True,
                         text=True, timeout=300, cwd=ROOT)
    assert out.returncode in (0, 1), out.stderr
    return json.loads(out.stdout)


def render(tmp_path: Path, name: str, html: str) -> tuple[str, dict[str, int]]:
    page = tmp_path / f"{name}.html"
    page.write_text(html, encoding="utf-8")
    dom, console = browse(page, tmp_path, "--dump-dom")
    assert console == [], console
    shot = tmp_path / f"{name}.png"
    _, console = browse(page, tmp_path, f"--screenshot={shot}")
    assert console == [], console
    return dom, colour_pixels(shot)


def test_the_console_check_sees_errors_and_blocked_loads(tmp_path: Path) -> None:
    page = tmp_path / "bad.html"
    page.write_text('<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src \'none\'">'
                    '<img src="http://127.0.0.1:9/x.png"><p>x</p>')
    _, console = browse(page, tmp_path, "--dump-dom")
    assert any("Content Security Policy" in ln for ln in console), console


def test_estimate_report_renders_a_chart_per_target(tmp_path: Path) -> None:
    dom, share = render(tmp_path, "estimate", tilefit_html("estimate", "--spec", SPEC, *SMALL,
                                                          "--target", "sm_90,sm_86"))
    assert dom.count('class="chart"') == 2 and dom.count('class="limit"') == 2
    assert dom.count("<rect class=\"bar ") == 2 * 8
    assert 'data-bytes="147456"' in dom and re.search(r'class="bar over"[^>]*data-bytes="147456"', dom)
    assert share["fits"] > 20000 and share["over"] > 2000 and share["limit"] > 1000 and not share["chosen"], share


def test_fit_report_marks_the_chosen_config(tmp_path: Path) -> None:
    dom, share = render(tmp_path, "fit", tilefit_html("fit", "--spec", SPEC, *SMALL, "--target", "sm_86"))
    chosen = re.findall(r'class="bar chosen"[^>]*data-config="([^"]+)"', dom)
    assert len(chosen) == 1 and 'class="marker"' in dom and ">chosen</text>" in dom
    expected = tilefit_json("fit", "--spec", SPEC, *SMALL, "--target", "sm_86")["config"]
    assert chosen[0] == " ".join(f"{k}={v}" for k, v in expected.items())
    assert share["chosen"] > 1000 and share["limit"] > 500, share


def test_check_grid_renders_kernels_by_targets(tmp_path: Path) -> None:
    rows = tilefit_json("estimate", "--spec", SPEC, *SMALL, "--target", "sm_90,sm_86")
    softmax = tilefit_json("estimate", f"{ROOT / 'examples' / 'kernels' / 'softmax.py'}:softmax_kernel",
                           "--arg", "out_ptr=*fp16:16", "--arg", "in_ptr=*fp16:16", "--arg", "in_row_stride=i32:16",
                           "--arg", "out_row_stride=i32:16", "--arg", "n_cols=i32:16",
                           "--config", "BLOCK_SIZE=1024", "--config", "num_warps=4,64", "--target", "sm_90,sm_86")
    results = [{**r, "kernel": "matmul_kernel"} for r in rows] + [{**r, "kernel": "softmax_kernel"} for r in softmax]
    dom, share = render(tmp_path, "check", render_check_html({"targets": ["sm_90", "sm_86"], "results": results}))
    cells = re.findall(r'<g class="cell (\w+)" data-row="(\w+)" data-column="(\w+)" data-fit="(\d+)" '
                       r'data-total="(\d+)"', dom)
    assert sorted(cells) == [
        ("fits", "matmul_kernel", "sm_90", "8", "8"), ("mixed", "matmul_kernel", "sm_86", "6", "8"),
        ("mixed", "softmax_kernel", "sm_86", "1", "2"), ("mixed", "softmax_kernel", "sm_90", "1", "2"),
    ]
    assert share["fits"] > 1500 and share["mixed"] > 3 * 1500, share

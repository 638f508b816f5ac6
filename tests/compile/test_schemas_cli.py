"""Real `tilefit estimate/fit --format json` outputs validate against the published schemas.

Covers each part of a row the schemas describe: sizes that fit and do not, overruns (threads), a compile
failure, the analytic mode, a TPU (Pallas) row, a fit result with every drop reason it produced, and no fit.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("triton", reason="the compile tier needs triton")

from tilefit import schemas

pytestmark = pytest.mark.compile

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "examples" / "kernels"
SPEC = str(KERNELS / "matmul.yaml")
SOFTMAX_ARGS = ["--arg", "out_ptr=*fp16:16", "--arg", "in_ptr=*fp16:16", "--arg", "in_row_stride=i32:16",
                "--arg", "out_row_stride=i32:16", "--arg", "n_cols=i32:16"]
BROKEN = '''import triton
import triton.language as tl


@triton.jit
def broken(x_ptr, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), undefined_name)
'''


def run(*argv: str, code: tuple[int, ...] = (0, 1)) -> Any:
    out = subprocess.run([sys.executable, "-m", "tilefit", *argv, "--format", "json"], capture_output=True,
                         text=True, timeout=300, cwd=ROOT)
    assert out.returncode in code, out.stderr
    doc = json.loads(out.stdout)
    assert schemas.errors(argv[0], doc) == [], schemas.errors(argv[0], doc)
    return doc


def test_estimate_rows_that_fit_overrun_and_fail_to_compile(tmp_path: Path) -> None:
    rows = run("estimate", f"{KERNELS / 'softmax.py'}:softmax_kernel", *SOFTMAX_ARGS,
               "--config", "BLOCK_SIZE=1024", "--config", "num_warps=4,64", "--target", "sm_90", code=(1,))
    wide = next(r for r in rows if r["config"]["num_warps"] == 64)
    assert wide["fits"] is False and wide["threads"] == 2048 and wide["bytes"] <= wide["limit"]
    assert [(o["resource"], o["required"], o["limit"]) for o in wide["over"]] == [("threads", 2048, 1024)]
    assert wide["compiler"].startswith("triton ")
    (tmp_path / "broken.py").write_text(BROKEN)
    failed = run("estimate", f"{tmp_path / 'broken.py'}:broken", "--arg", "x_ptr=*fp32:16",
                 "--config", "BLOCK=64", "--target", "sm_90", code=(1,))
    assert failed[0]["fits"] is None and failed[0]["bytes"] is None
    assert failed[0]["failure"]["kind"] == "compile"
    assert "undefined_name" in failed[0]["error"]


def test_estimate_analytic_gpu_and_tpu_rows(tmp_path: Path) -> None:
    rows = run("estimate", "--spec", SPEC, "--mode", "analytic", "--target", "sm_90,gfx942")
    assert {r["mode"] for r in rows} == {"analytic"} and len(rows) == 2 * 144
    pytest.importorskip("jax", reason="TPU rows need jax")
    spec = tmp_path / "pallas.yaml"
    spec.write_text(f"kernel: {KERNELS / 'pallas_elementwise.py'}:kernel\n"
                    "space: {block_rows: [8, 1024], block_cols: [2048]}\nparams: {rows: 4096, cols: 4096}\n")
    tpu = run("estimate", "--spec", str(spec), "--mode", "analytic", "--target", "v5e", code=(1,))
    assert [(r["resource"], r["fits"]) for r in tpu] == [("scoped-vmem", True), ("scoped-vmem", False)]


def test_fit_result_and_no_fit() -> None:
    result = run("fit", "--spec", SPEC, "--target", "sm_86")
    assert result["usage"]["fits"] is True and result["tried"] == 144
    assert {d["reason"] for d in result["dropped"]} >= {"analytic"}
    none = run("fit", "--spec", SPEC, "--config", "BLOCK_M=256", "--config", "BLOCK_N=256", "--config",
               "num_stages=5", "--target", "gfx942", code=(1,))
    assert none["fits"] is False and none["target"] == "gfx942"

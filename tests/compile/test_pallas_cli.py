"""`tilefit estimate` and `tilefit fit` on a Pallas kernel, as a user runs them (a fresh process each)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.compile,
    pytest.mark.skipif(
        importlib.util.find_spec("jax") is None or importlib.util.find_spec("libtpu") is None,
        reason="needs jax[tpu] (jax with libtpu); install tilefit[tpu]",
    ),
]

ROOT = Path(__file__).resolve().parents[2]
KERNEL = f"{ROOT / 'examples' / 'kernels' / 'pallas_elementwise.py'}:kernel"


def _tilefit(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TILEFIT_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "tilefit", *args], capture_output=True, text=True, env=env,
                          timeout=600, check=False)


def test_estimate_table_shows_the_limit_to_pass_and_libtpu_stays_quiet(tmp_path: Path) -> None:
    # 1024 x 2048 f32 blocks: 48 MiB of buffers, over v5e's 16 MiB scoped limit, under 128 MiB physical
    r = _tilefit(tmp_path, "estimate", KERNEL, "--target", "v5e", "--mode", "full",
                 "--config", "block_rows=1024", "--config", "block_cols=2048")
    assert r.returncode == 1, r.stderr
    assert "does not fit" in r.stdout and "vmem_limit_bytes=" in r.stdout
    # libtpu's start-up lines ("Failed to find host bounds", TPU_WORKER_HOSTNAMES) are not shown
    assert r.stderr.strip() == ""


def test_fit_takes_a_pallas_kernel_and_several_targets(tmp_path: Path) -> None:
    r = _tilefit(tmp_path, "fit", KERNEL, "--target", "v5e,v6e", "--config", "block_rows=8,16",
                 "--config", "block_cols=512")
    assert r.returncode == 0, r.stderr
    assert "v5e: block_rows=16,block_cols=512" in r.stdout and "v6e: block_rows=16,block_cols=512" in r.stdout
    assert r.stderr.strip() == ""

"""check/source.py on Liger-Kernel's own files: kernels load from source without importing liger_kernel,
including helpers imported under a Triton-version switch (`rsqrt` in rms_norm.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("triton", reason="the compile tier needs triton")

from tilefit.check.source import load_source
from tilefit.estimate.triton import TritonEstimator

pytestmark = pytest.mark.compile

ROOT = Path(__file__).resolve().parents[2]
VERSION = "0.8.5"


def _liger(tmp_path: Path, member: str) -> Path:
    folder = Path(os.environ.get("TILEFIT_WHEELS", ROOT / ".cache" / "wheels"))
    found = sorted(folder.glob(f"liger_kernel-{VERSION}-*.whl"))
    if not found:
        cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", f"liger-kernel=={VERSION}",
               "-d", str(folder)]
        try:
            subprocess.run(cmd, check=True, timeout=300, capture_output=True)
        except (subprocess.SubprocessError, OSError) as exc:
            pytest.skip(f"Liger-Kernel's wheel is not in {folder} and pip could not download it ({exc})")
        found = sorted(folder.glob(f"liger_kernel-{VERSION}-*.whl"))
    with zipfile.ZipFile(found[0]) as z:
        return Path(z.extract(member, tmp_path))


def test_version_switched_import_is_provided(tmp_path: Path) -> None:
    path = _liger(tmp_path, "liger_kernel/ops/rms_norm.py")
    loaded = load_source(path, "_rms_norm_forward_kernel", tmp_path / "cache")
    assert loaded.missing == ()  # rsqrt comes from `if ...: from triton.language.extra.libdevice import rsqrt`
    kernel = loaded.load()
    assert kernel.fn.__code__.co_firstlineno == loaded.line  # line numbers of the real file
    assert "liger_kernel" not in sys.modules
    signature = {"Y_ptr": "*bf16:16", "Y_row_stride": "i32:16", "X_ptr": "*bf16:16", "X_row_stride": "i32:16",
                 "W_ptr": "*bf16:16", "W_row_stride": "i32", "RSTD_ptr": "*fp32:16", "RSTD_row_stride": "i32:1",
                 "n_cols": "i32:16", "eps": "fp32", "offset": "fp32"}
    est = TritonEstimator(kernel, signature=signature, cache=False)
    usage = est.estimate({"casting_mode": 0, "elementwise_affine": True, "BLOCK_SIZE": 4096, "num_warps": 8}, "sm_90")
    assert usage.error is None and usage.fits  # compiles: rsqrt resolved without importing liger_kernel

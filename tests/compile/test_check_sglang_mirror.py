"""The launch mirror on SGLang 0.5.23's real wheel: `_down` tables with TMA, their up siblings, and the
compile errors a check names (fp8 e4m3 below sm_89; a scalar indexed with [:, None] under Triton 3.9).

The wheel is downloaded (never installed or imported) as in test_check_sglang.py; each test compiles a
handful of launches.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("triton", reason="the compile tier needs triton")

from test_check_sglang import CONFIGS, _wheel

from tilefit.check import moe, run
from tilefit.check.size import triton_version
from tilefit.check.tables import read_table
from tilefit.cli import main
from tilefit.settings import Settings
from tilefit.targets import get_target

pytestmark = pytest.mark.compile

# Tuned on an H20 (Triton 3.5.1): every entry of the `_down` table loads A and B through TMA.
UP = f"{CONFIGS}/triton_3_5_1/E=256,N=256,device_name=NVIDIA_H20,dtype=fp8_w8a8,block_shape=[128, 128].json"
DOWN = UP.replace(".json", "_down.json")
TENSOR_FP8 = f"{CONFIGS}/triton_3_1_0/E=16,N=3200,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8.json"


@pytest.fixture(scope="module")
def sglang(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sglang")
    with zipfile.ZipFile(_wheel()) as z:
        for name in (moe.SOURCE, UP, DOWN, TENSOR_FP8):
            z.extract(name, out)
    return out


@pytest.fixture(autouse=True)
def _env(sglang: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILEFIT_SGLANG_ROOT", str(sglang))
    monkeypatch.setenv("TILEFIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TILEFIT_PROGRESS", "0")


def test_down_table_with_tma_is_launched_as_sglang_launches_it(sglang: Path) -> None:
    """The launch invoke_fused_moe_kernel makes for M=1 on an H100: descriptors, swap_ab, PDL, padded A."""
    down, up = read_table(sglang / DOWN), read_table(sglang / UP)
    assert moe.kinds(down) == ("down",) and moe.kinds(up) == ("up",)  # the sibling configures the down GEMM
    cfg = down.entries[1]
    assert cfg["USE_TMA"] is True and cfg["BLOCK_SIZE_M"] == 16 and cfg["BLOCK_SIZE_N"] == 64
    launch = moe.launch(down, 1, "down", get_target("sm_90"))
    assert isinstance(launch.args["a_desc"], moe.Desc) and isinstance(launch.args["b_desc"], moe.Desc)
    assert launch.args["a_desc"].block == (16, 128) and launch.args["b_desc"].block == (1, 64, 128)
    # A is intermediate_cache2 in expert-sorted order: 8 routed rows + min(8, E+1) * (BLOCK_SIZE_M - 1) padding
    assert launch.args["a_desc"].shape == (8 + 8 * 15, 256) and launch.args["GDC_EARLY"] is True
    assert launch.args["swap_ab"] is True and launch.args["c_sorted"] is False  # fp8 on sm_90, BM < 64 <= BN
    assert (launch.args["stride_asm"], launch.args["stride_ask"]) == (2, 1)  # A_scale (rows, 256/128)
    assert launch.args["group_n"] == 128 and launch.args["group_k"] == 128
    assert launch.options.get("launch_pdl") is True and "USE_TMA" not in launch.options
    up_launch = moe.launch(up, 1, "up", get_target("sm_90"))
    assert up_launch.args["c_sorted"] is True and up_launch.args["a_desc"] is None  # the down entry uses TMA
    assert not moe.launch(down, 1, "down", get_target("sm_100")).args["swap_ab"]  # swap_ab is sm_90 only


def test_the_tma_entry_under_triton_39_is_a_named_kernel_error(sglang: Path, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """M=1 on sm_90 takes the swap_ab path where b_scale is a scalar (BLOCK_SIZE_N 64 <= group_n 128);
    Triton 3.9 refuses `a_scale[:, None]` on it. The same launch without swap_ab (sm_100) compiles."""
    one = tmp_path / Path(DOWN).name  # the table's first entry alone: two compiles
    one.write_text(json.dumps({"1": json.loads((sglang / DOWN).read_text())["1"]}))
    code = main(["check", str(one), "--target", "sm_90,sm_100", "--no-fix", "--format", "json", "--workers", "1"])
    doc = json.loads(capsys.readouterr().out)
    by_target = {r["target"]: r for r in doc["results"] if r["m"] == 1}
    assert by_target["sm_100"]["status"] == "fits"
    h100 = by_target["sm_90"]
    if tuple(int(x) for x in triton_version().split(".")[:2]) >= (3, 9):
        assert h100["status"] == "error" and code == 1
        assert h100["cause"]["id"] == "scalar-indexed-triton39" and h100["cause"]["kind"] == "kernel"
        assert doc["summary"]["targets"]["sm_90"]["causes"] == {"scalar-indexed-triton39": 1}
    else:
        assert h100["status"] == "fits" and h100["cause"] is None


def test_fp8_below_sm89_is_a_target_it_cannot_run_on(sglang: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Every fp8 e4m3 entry fails on sm_86, also when sm_89/sm_90 share its TTIR in the same check (they
    once hid the refusal); refit says so in one line and writes nothing."""
    table = read_table(sglang / TENSOR_FP8)
    kernels = run.load_kernels(sglang / moe.SOURCE, Settings.from_env())
    few = {m: table.entries[m] for m in list(table.entries)[:2]}
    small = type(table)(table.path, table.name, few, table.tuned_with)
    rows = run.check_tables([small], [get_target(t) for t in ("sm_90", "sm_89", "sm_86")], kernels, fix=False,
                            workers=1)
    assert all(r.usage.fits is not None for r in rows if r.target != "sm_86")
    sm86 = [r for r in rows if r.target == "sm_86"]
    assert len(sm86) == 4 and all(r.usage.fits is None and "fp8e4nv" in str(r.usage.error) for r in sm86)
    out = tmp_path / "out"
    code = main(["refit", str(sglang / TENSOR_FP8), "--device-name", "NVIDIA GeForce RTX 3090", "--out", str(out),
                 "--workers", "2"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and not out.exists()
    assert len(err) == 1 and "fp8 e4m3 (fp8e4nv) needs sm_89+; this table cannot run on sm_86" in err[0]

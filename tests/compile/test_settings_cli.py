"""[tool.tilefit] in the nearest pyproject.toml reaches the CLI: flags > TILEFIT_* > pyproject > defaults."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

pytest.importorskip("triton", reason="the compile tier needs triton")

from tilefit.cli.estimate import add_parser, run

pytestmark = pytest.mark.compile

SOFTMAX = Path(__file__).resolve().parents[2] / "examples" / "kernels" / "softmax.py"
ARGS = ["--arg", "out_ptr=*fp16:16", "--arg", "in_ptr=*fp16:16", "--arg", "in_row_stride=i32:16",
        "--arg", "out_row_stride=i32:16", "--arg", "n_cols=i32:16", "--config", "BLOCK_SIZE=1024",
        "--config", "num_warps=4", "--format", "json"]


def _targets(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    parser = argparse.ArgumentParser(prog="tilefit")
    add_parser(parser.add_subparsers(dest="command"))
    code = run(parser.parse_args(["estimate", f"{SOFTMAX}:softmax_kernel", *ARGS, *argv]))
    out, err = capsys.readouterr()
    assert code == 0, err
    return [row["target"] for row in json.loads(out)]


def test_targets_come_from_flag_then_env_then_pyproject(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.tilefit]\ntargets = ["sm_86", "sm_80"]\ncache_dir = "c"\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TILEFIT_CACHE_DIR", raising=False)
    monkeypatch.delenv("TILEFIT_TARGETS", raising=False)
    assert _targets([], capsys) == ["sm_86", "sm_80"]
    assert list((tmp_path / "c" / "triton").rglob("*.json")), "cache_dir of the pyproject was not used"
    monkeypatch.setenv("TILEFIT_TARGETS", "sm_89")
    assert _targets([], capsys) == ["sm_89"]
    assert _targets(["--target", "sm_90"], capsys) == ["sm_90"]

"""`tilefit estimate` on the bundled kernels with the real compiler: table, JSON, exit codes, bad input."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("triton", reason="the compile tier needs triton")

from tilefit.cli.estimate import add_parser, run

pytestmark = pytest.mark.compile

ROOT = Path(__file__).resolve().parents[2]
SPEC = str(ROOT / "examples" / "kernels" / "matmul.yaml")
SMALL = ["--config", "BLOCK_M=128", "--config", "BLOCK_N=128,256", "--config", "BLOCK_K=64",
         "--config", "num_stages=4", "--config", "num_warps=8"]


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILEFIT_CACHE_DIR", str(tmp_path / "cache"))


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="tilefit")
    add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["estimate", *argv])
    code = run(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_table_marks_what_does_not_fit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["--spec", SPEC, *SMALL, "--target", "sm_90,sm_86"], capsys)
    assert code == 1
    lines = out.splitlines()
    assert lines[0].split()[:6] == ["config", "target", "fits", "bytes", "limit", "%"]
    row = next(ln for ln in lines if "BLOCK_N=256" in ln and "sm_86" in ln)
    assert "does not fit" in row and "147456" in row and "145%" in row
    row = next(ln for ln in lines if "BLOCK_N=128" in ln and "sm_90" in ln)
    assert " fits " in row and "131072" in row
    assert lines[-1] == "3 of 4 fit"


def test_json_rows_are_usage_dicts_and_all_fit_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["--spec", SPEC, *SMALL, "--target", "sm_90", "--format", "json"], capsys)
    rows = json.loads(out)
    assert code == 0 and len(rows) == 2
    assert {r["bytes"] for r in rows} == {131072, 196608}
    assert all(r["target"] == "sm_90" and r["fits"] is True and r["limit"] == 232448 for r in rows)
    assert set(rows[0]) >= {"config", "mode", "error", "percent", "threads", "registers"}


def test_full_mode_adds_registers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["--spec", SPEC, *SMALL[:2], "--config", "BLOCK_N=64", *SMALL[4:],
                         "--target", "gfx942", "--mode", "full"], capsys)
    assert "regs" in out.splitlines()[0]
    assert code == 1  # 4 stages of 128x64x64 do not fit 64 KiB of LDS


def test_kernel_argument_and_arg_flags_without_a_spec(capsys: pytest.CaptureFixture[str]) -> None:
    kernel = str(ROOT / "examples" / "kernels" / "softmax.py") + ":softmax_kernel"
    args = ["--arg", "out_ptr=*fp16:16", "--arg", "in_ptr=*fp16:16", "--arg", "in_row_stride=i32:16",
            "--arg", "out_row_stride=i32:16", "--arg", "n_cols=i32:16"]
    code, out, _ = _run([kernel, *args, "--config", "BLOCK_SIZE=1024", "--config", "num_warps=4,64",
                         "--target", "sm_90"], capsys)
    assert code == 1
    assert "threads 2048 > 1024" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--spec", SPEC, "--target", "sm_91"], "valid targets: "),
        (["--spec", "no/such.yaml", "--target", "sm_90"], "no/such.yaml"),
        (["no/such.py:k", "--target", "sm_90"], "does not exist"),
        (["--spec", SPEC, "--config", "BLOCK_M", "--target", "sm_90"], "expected NAME=VALUE"),
        (["--spec", SPEC, "--arg", "M=int33", "--target", "sm_90"], "unknown Triton type"),
        ([str(ROOT / "examples/kernels/matmul.py") + ":nope", "--target", "sm_90"], "defines no 'nope'"),
    ],
)
def test_usage_errors_exit_2_with_a_message(argv: list[str], message: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(argv, capsys)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_bad_spec_yaml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("kernel: [unclosed\n")
    code, _, err = _run(["--spec", str(bad)], capsys)
    assert code == 2 and "not valid YAML" in err


def test_missing_triton_is_a_message_not_a_traceback() -> None:
    code = ("import sys; sys.modules['triton'] = None\n"
            "import argparse\nfrom tilefit.cli.estimate import add_parser, run\n"
            "p = argparse.ArgumentParser(); add_parser(p.add_subparsers())\n"
            f"sys.exit(run(p.parse_args(['estimate', '--spec', {SPEC!r}, '--target', 'sm_90'])))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "pip install 'tilefit[triton]'" in proc.stderr and "Traceback" not in proc.stderr


def test_d21_analytic_mode_reports_a_frontend_error_as_a_row(capsys: pytest.CaptureFixture[str]) -> None:
    """A negative block made the analytic model's probe compile raise out of the CLI ("internal error")."""
    code, out, err = _run(["--spec", SPEC, "--target", "sm_90", "--config", "BLOCK_M=-64", "--config", "BLOCK_N=64",
                           "--config", "BLOCK_K=32", "--config", "num_warps=4", "--config", "num_stages=2",
                           "--config", "GROUP_M=8", "--mode", "analytic", "--format", "json"], capsys)
    (row,) = json.loads(out)
    assert code == 1 and row["fits"] is None and row["failure"]["kind"] == "compile"
    assert "arange" in row["error"] and "internal error" not in err

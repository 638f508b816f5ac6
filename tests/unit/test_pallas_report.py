"""Reading libtpu's VMEM report (estimate/pallas_report.py) and asking libtpu for it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tilefit.estimate import pallas_report

# A report libtpu 0.0.42.1 wrote for megablox gmm (512^3 tiles, v5e, at a 30 MiB limit), cut to the
# kernel, one small fusion and the program's temporaries; E1001 at lower limits printed "size 4.60M".
REPORT = Path(__file__).resolve().parents[1] / "data" / "libtpu" / "vmem_report_gmm_v5e.html"


def test_the_kernels_scoped_block_is_its_need() -> None:
    r = pallas_report.parse(REPORT.read_text())
    assert r is not None and r.op == "gmm.1"
    assert r.bytes == 4820992  # 1 MiB accumulator + 3 x 1 MiB double-buffered windows + spills
    assert r.spill_bytes() == 626688
    tags = [t for t, _ in r.allocations]
    assert tags[0] == "scratch operand" and sum("window allocation" in t for t in tags) == 3


@pytest.mark.parametrize("text", ["", "<html>no data</html>", "const DATA = {not json", "const DATA = []"])
def test_a_report_without_data_is_none(text: str) -> None:
    assert pallas_report.parse(text) is None


def test_enable_appends_to_the_users_flags_and_leaves_their_dump_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pallas_report, "_dump_dir", None)
    monkeypatch.setenv("LIBTPU_INIT_ARGS", "--xla_tpu_scoped_vmem_limit_kib=65536")
    path = pallas_report.enable()
    assert path is not None and path.is_dir()
    flags = os.environ["LIBTPU_INIT_ARGS"].split()
    assert flags[0] == "--xla_tpu_scoped_vmem_limit_kib=65536" and f"--xla_jf_dump_to={path}" in flags
    assert pallas_report.active() and pallas_report.take() is None  # nothing compiled yet
    path.rmdir()
    monkeypatch.setattr(pallas_report, "_dump_dir", None)
    monkeypatch.setenv("LIBTPU_INIT_ARGS", "--xla_jf_dump_to=/tmp/mine")
    assert pallas_report.enable() is None and not pallas_report.active()
    monkeypatch.setenv("LIBTPU_INIT_ARGS", "")
    monkeypatch.setenv("TILEFIT_LIBTPU_REPORT", "0")
    assert pallas_report.enable() is None and not pallas_report.active()

"""libtpu's VMEM errors read through the knowledge base, bad Pallas configs as rows (D12), quiet libtpu."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from tilefit.estimate.pallas_compile import attempt_from_error, error_summary, quiet_libtpu
from tilefit.estimate.pallas_layout import tiling_problem
from tilefit.targets import load_targets

KERNELS = Path(__file__).resolve().parents[2] / "examples" / "kernels"
MIB = 1 << 20

# What libtpu 0.0.42.1 printed for kernels compiled for v5e (tilefit's exact mode, CPU only).
E1001 = (
    "RESOURCE_EXHAUSTED: E1001: CompileTimeScopedVmemOom:\nRan out of memory in memory space vmem while "
    "allocating on stack for %tpu_custom_call.1 = bf16[8192,8192]{1,0:T(8,128)(2,1)} custom-call(%args_0_.1, "
    "%args_1_.1), custom_call_target=\"tpu_custom_call\". Scoped allocation with size 18.36M and limit 16.00M "
    "exceeded scoped vmem limit by 2.36M. It should not be possible to run out of scoped vmem - \n"
    "See https://openxla.org/xla/errors/error_1001 for more details."
)
ALLOCATION = (
    "RESOURCE_EXHAUSTED: Allocation (size=138412032) would exceed memory (size=134217728) :: #allocation2 "
    "[shape = 'f32[270336,128]{1,0:T(8,128)}', space=vmem, size = 0x8400000, scoped, tag = 'scratch "
    "operand'] :: tpu_custom_call.1"
)
USED = (
    "RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in memory space vmem. Used "
    "256.00M of 128.00M vmem. Exceeded vmem capacity by 128.00M.\n\nProgram vmem requirement 256.00M:"
)


def test_e1001_size_comes_from_the_knowledge_base_entry() -> None:
    att = attempt_from_error(16 * MIB, RuntimeError(E1001))
    assert att.scoped_size == 19251855 and att.physical_used is None and att.error is None


@pytest.mark.parametrize(("text", "used", "cap"), [(ALLOCATION, 138412032, 134217728), (USED, 256 * MIB, 128 * MIB)])
def test_past_physical_vmem_both_forms(text: str, used: int, cap: int) -> None:
    att = attempt_from_error(128 * MIB, RuntimeError(text))
    assert (att.physical_used, att.physical_size, att.scoped_size, att.error) == (used, cap, None, None)


def test_other_errors_keep_their_message() -> None:
    exc = ValueError("The Pallas TPU lowering currently requires that the last two dimensions of your block")
    att = attempt_from_error(16 * MIB, exc)
    assert att.scoped_size is None and att.physical_used is None
    assert att.error == error_summary(exc) and att.error.startswith("ValueError: The Pallas TPU lowering")


def test_an_e1001_limit_never_names_v4() -> None:
    # v4's scoped limit is all of its 16 MiB VMEM: libtpu reports past-physical there, never E1001
    names = [t.name for t in load_targets().with_limit("scoped-vmem", 16 * MIB)]
    assert names == ["v5e", "v5p"]


def test_squeezed_dims_are_exempt_from_the_tiling_rule() -> None:
    # paged attention's q block (None, 4, None, 128) over (8, 32, 1, 128)
    assert tiling_problem((None, 4, None, 128), (8, 32, 1, 128), 2) is None
    assert tiling_problem((None, 128), (4096, 128), 4) is None
    assert "second-last block dim 4" in (tiling_problem((1, 4, 128), (8, 32, 128), 2) or "")


def test_quiet_libtpu_hides_what_is_written_to_fd_2(capfd: pytest.CaptureFixture[str]) -> None:
    with quiet_libtpu():
        os.write(2, b"Failed to find host bounds for accelerator type\n")
    with quiet_libtpu(show=True):
        os.write(2, b"shown when asked\n")
    err = capfd.readouterr().err
    assert "host bounds" not in err and "shown when asked" in err


def _elementwise() -> object:
    pytest.importorskip("jax")
    from tilefit.estimate.pallas import PallasEstimator, load_kernel

    k = load_kernel(f"{KERNELS / 'pallas_elementwise.py'}:kernel")
    return PallasEstimator(dataclasses.replace(k, params={"rows": 1024, "cols": 1024}), libtpu=False)


def test_negative_block_is_a_row_error_not_a_negative_size_that_fits() -> None:
    u = _elementwise().estimate({"block_rows": -256, "block_cols": 512}, "v5e", "analytic")  # type: ignore[attr-defined]
    assert u.fits is None and u.bytes is None and u.failure is not None and u.failure.kind == "input"
    assert "at least 1" in (u.error or "") and "block_rows=-256" in (u.error or "")


def test_unknown_config_key_is_a_row_error() -> None:
    u = _elementwise().estimate(  # type: ignore[attr-defined]
        {"block_rows": 256, "block_cols": 512, "nope": 1}, "v5e", "analytic"
    )
    assert u.fits is None and u.failure is not None and u.failure.kind == "input"
    assert "nope" in (u.error or "") and "block_cols, block_rows" in (u.error or "")

"""tilefit.vmem: the VMEM headroom rule explain, the Pallas estimator and the fitter share."""

from __future__ import annotations

from tilefit.targets import load_targets
from tilefit.vmem import MIB, flag_for, headroom_limit, vmem_limit_for


def _tpus() -> list:  # type: ignore[type-arg]
    return [t for t in load_targets().targets if t.kind == "tpu"]


def test_headroom_rounds_up_to_a_mib_and_caps_at_physical() -> None:
    assert headroom_limit(20 * MIB, 128 * MIB) == 22 * MIB
    assert headroom_limit(20 * MIB + 1, 128 * MIB) == 23 * MIB
    assert headroom_limit(120 * MIB, 128 * MIB) == 128 * MIB
    assert headroom_limit(0, 128 * MIB) == 0
    assert headroom_limit(5 * MIB, None) == 6 * MIB


def test_limit_for_every_generation_is_the_smallest_that_fits_each() -> None:
    tpus = _tpus()
    physical = {t.name: t.limit("vmem_physical") for t in tpus}
    advice = vmem_limit_for(40 * MIB, tpus)
    small = [n for n, p in physical.items() if p is not None and p < 40 * MIB]
    assert sorted(advice.too_small) == sorted(small)
    assert advice.vmem_limit_bytes == 44 * MIB
    assert advice.snippet == f"compiler_params=pltpu.CompilerParams(vmem_limit_bytes={44 * MIB})"
    assert advice.flag == "LIBTPU_INIT_ARGS=--xla_tpu_scoped_vmem_limit_kib=45056"


def test_more_than_any_physical_vmem_gives_no_limit() -> None:
    advice = vmem_limit_for(1 << 40, _tpus())
    assert advice.vmem_limit_bytes is None and advice.snippet is None and advice.flag is None


def test_flag_rounds_bytes_up_to_kib() -> None:
    assert flag_for(1025) == "LIBTPU_INIT_ARGS=--xla_tpu_scoped_vmem_limit_kib=2"

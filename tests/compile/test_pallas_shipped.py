"""The Pallas TPU kernels that ship with JAX (and tokamax's), estimated on small shapes against libtpu.

One fast config per kernel family; the sweep over >= 10 configs per generation is
benchmarks/pallas_real.py (BENCHMARKS.md). "plain" is a jit compile for the topology at the
kernel's own limit, the truth a user meets.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from tilefit.estimate.pallas import PallasEstimator, PallasKernel
from tilefit.estimate.pallas_compile import TopologyCache, compile_once
from tilefit.settings import Settings
from tilefit.targets import get_target

pytestmark = [
    pytest.mark.compile,
    pytest.mark.skipif(
        importlib.util.find_spec("jax") is None or importlib.util.find_spec("libtpu") is None,
        reason="needs jax[tpu] (jax with libtpu); install tilefit[tpu]",
    ),
]

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "kernels"))
import pallas_shipped as shipped  # noqa: E402

MIB = 1 << 20


@pytest.fixture(scope="module")
def topologies() -> TopologyCache:
    return TopologyCache()


def _est(kernel: PallasKernel, tmp_path: Path, **params: Any) -> PallasEstimator:
    k = dataclasses.replace(kernel, params={**kernel.params, **params})
    return PallasEstimator(k, settings=Settings(cache_dir=tmp_path))


def _plain_fits(est: PallasEstimator, config: dict[str, int], target: str, topo: TopologyCache) -> bool:
    fn, args = est.kernel.instantiate(config, target)
    att = compile_once(fn, args, topo.device(get_target(target).topology or ""), None)
    assert att.error is None, att.error
    return att.ok


def _compiles_at(est: PallasEstimator, config: dict[str, int], target: str, topo: TopologyCache, limit: int) -> bool:
    fn, args = est.kernel.instantiate(config, target)
    att = compile_once(fn, args, topo.device(get_target(target).topology or ""), limit)
    assert att.error is None, att.error
    return att.ok


def test_flash_attention_unrolled_scores_are_counted(tmp_path: Path, topologies: TopologyCache) -> None:
    # block_k < block_k_major: JAX's flash attention unrolls its block_k loop; its f32 score copies spill
    est = _est(shipped.flash, tmp_path, batch=1, heads=2, seq=2048)
    cfg = {"block_q": 1024, "block_k_major": 1024, "block_k": 512}
    a, e = est.estimate(cfg, "v5e", "analytic"), est.estimate(cfg, "v5e", "exact")
    assert e.bytes is not None and a.bytes is not None and e.vmem is not None
    assert e.vmem.compiles == 2  # libtpu's VMEM report at the limit in force, then a confirming compile
    # exact to the 4 KiB tile: that limit compiles, one tile less raises E1001
    assert _compiles_at(est, cfg, "v5e", topologies, e.bytes)
    assert not _compiles_at(est, cfg, "v5e", topologies, e.bytes - 4096)
    assert abs(a.bytes - e.bytes) <= 0.15 * e.bytes
    assert a.fits is e.fits is _plain_fits(est, cfg, "v5e", topologies) is True


def test_paged_attention_squeezed_blocks_are_not_a_tiling_error(tmp_path: Path) -> None:
    # q block (None, 4, None, 128) over (8, 32, 1, 128): the old model compared (4, 128) with (1, 128)
    est = _est(shipped.paged, tmp_path, batch=2, q_heads=8, kv_heads=2, pages_per_seq=32)
    cfg = {"page_size": 16, "pages_per_compute_block": 8}
    a, e = est.estimate(cfg, "v6e", "analytic"), est.estimate(cfg, "v6e", "exact")
    assert a.error is None and e.error is None, (a.error, e.error)
    assert a.fits is e.fits is True and e.vmem is not None and e.vmem.compiles == 2


def test_megablox_gmm_dynamic_grid_counts_as_one_step(tmp_path: Path) -> None:
    # tk = k and tn = n: the only grid dim that moves is the traced number of active tiles, and libtpu
    # then allocates every block once (1.76 MiB here; two buffers each would be 2.6 MiB)
    est = _est(shipped.gmm, tmp_path, m=1024, k=512, n=512, groups=2)
    cfg = {"tm": 256, "tk": 512, "tn": 512}
    a = est.estimate(cfg, "v5e", "analytic")
    assert a.vmem is not None and a.vmem.unsure == () and not a.vmem.compiles  # no libtpu check needed
    blocks = dict(a.vmem.buffers)
    assert blocks["input 0"] == 256 * 512 * 2  # one buffer
    e = est.estimate(cfg, "v5e", "exact")
    assert e.bytes is not None and a.bytes is not None and abs(a.bytes - e.bytes) <= 0.15 * e.bytes
    assert e.vmem is not None and e.vmem.compiles == 2


def test_splash_attention_q_sequence_iota_is_in_vmem_on_v5e(tmp_path: Path, topologies: TopologyCache) -> None:
    # the int32 q_sequence is an iota the program computes: XLA writes it to VMEM (S(1) in the compiled HLO)
    # and the kernel reads its (block_q, 128) blocks in place, so they cost nothing at the default limit
    est = _est(shipped.splash, tmp_path, heads=2, seq=1024)
    cfg = {"block_q": 512, "block_kv": 512, "block_kv_compute": 512}
    a, e = est.estimate(cfg, "v5e", "analytic"), est.estimate(cfg, "v5e", "exact")
    assert a.bytes is not None and e.bytes is not None and e.vmem is not None and a.vmem is not None
    assert a.vmem.prefetched_inputs == ("input 3",)
    assert abs(a.bytes - e.bytes) <= 0.15 * e.bytes and e.vmem.compiles == 2
    assert a.fits is e.fits is _plain_fits(est, cfg, "v5e", topologies) is True


def test_tokamax_traces_under_the_target_device_and_its_body_buffers_count(tmp_path: Path) -> None:
    pytest.importorskip("tokamax")
    est = _est(shipped.tokamax_ragged_dot, tmp_path, m=1024, k=1024, n=1024, groups=2)
    cfg = {"tm": 512, "tk": 512, "tn": 512}
    a = est.estimate(cfg, "v5e", "analytic")
    assert a.error is None, a.error  # tokamax asks pltpu.get_tpu_info() while tracing
    assert a.vmem is not None and any(name.startswith("body scope") for name, _ in a.vmem.buffers)
    assert a.vmem.compiles == 1 and a.fits is True  # the model is unsure: libtpu decided the fit
    e = est.estimate(cfg, "v5e", "exact")
    assert e.bytes is not None and a.bytes is not None and abs(a.bytes - e.bytes) <= 0.25 * e.bytes
    assert e.vmem is not None and e.vmem.compiles == 2


def test_without_libtpus_report_exact_reads_e1001_and_agrees(
    tmp_path: Path, topologies: TopologyCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tilefit.estimate import pallas_report

    est = _est(shipped.paged, tmp_path, batch=2, q_heads=8, kv_heads=2, pages_per_seq=32)
    cfg = {"page_size": 16, "pages_per_compute_block": 8}
    with_report = est.estimate(cfg, "v5e", "exact")
    topologies.device("v5e:2x2")  # libtpu has started (with the report flag): now pretend it had not
    monkeypatch.setattr(pallas_report, "_dump_dir", None)
    est2 = _est(shipped.paged, tmp_path / "other", batch=2, q_heads=8, kv_heads=2, pages_per_seq=32)
    from_e1001 = est2.estimate(cfg, "v5e", "exact")
    assert with_report.bytes is not None and from_e1001.bytes is not None and from_e1001.vmem is not None
    # E1001 prints 0.01 MiB: the search ends within 3 tiles above the exact size
    assert 0 <= from_e1001.bytes - with_report.bytes <= 3 * 4096
    assert from_e1001.fits is with_report.fits is True


def test_ragged_paged_attention_runs_its_own_dmas_so_libtpu_decides(tmp_path: Path) -> None:
    # vLLM's kernel in JAX copies KV pages into VMEM scratch with its own DMAs; its loop's spills are not
    # modelled (the model was fitted on none of it), so analytic says it is unsure and asks libtpu
    est = _est(shipped.ragged_paged, tmp_path, tokens=128, q_heads=8, kv_heads=2, seqs=4, pages_per_seq=16)
    cfg = {"kv_pages_per_block": 8, "queries_per_block": 32}
    a, e = est.estimate(cfg, "v5e", "analytic"), est.estimate(cfg, "v5e", "exact")
    assert a.error is None and e.error is None, (a.error, e.error)
    assert a.vmem is not None and any("own DMAs" in why for why in a.vmem.unsure) and a.vmem.compiles == 1
    assert e.vmem is not None and e.vmem.compiles == 2 and a.fits is e.fits is True

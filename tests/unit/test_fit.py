"""fit() logic without a compiler: perf model, ranking, the report, the NoConfigFits diagnosis.

The estimator here is a table of byte counts (the sm_90 matmul formula S*(BM*BK+BK*BN)*2 that
tests/compile/test_triton_estimate.py checks against the compiler);
what is under test is what fit() does with the numbers, not where they come from (tests/compile does that).
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from tilefit.errors import InputError, NoConfigFits
from tilefit.estimate.base import Mode, Usage
from tilefit.fit import DeviceModel, fit, score
from tilefit.fit.perf import blocks_per_sm, reuse, wave_efficiency
from tilefit.fit.space import as_config, expand, format_config
from tilefit.targets import Target, get_target

LIMIT_90 = 232448


def matmul_bytes(c: Mapping[str, Any]) -> int:
    return int(c["num_stages"]) * (c["BLOCK_M"] * c["BLOCK_K"] + c["BLOCK_K"] * c["BLOCK_N"]) * 2


class TableEstimator:
    """Bytes from a function; analytic = the same bytes x `analytic_scale` (a model that is off)."""

    def __init__(self, fn: Any, limit: int = LIMIT_90, analytic_scale: float = 1.0, broken: Sequence[int] = ()):
        self.fn = fn
        self.limit = limit
        self.analytic_scale = analytic_scale
        self.broken = set(broken)
        self.calls: list[tuple[str, int]] = []

    def estimate(self, config: Mapping[str, Any], target: Target, mode: Mode = "fast") -> Usage:
        return self.estimate_many([config], [target], mode)[0]

    def estimate_many(self, configs: Sequence[Mapping[str, Any]], targets: Sequence[Target], mode: Mode = "fast",
                      *, workers: int | None = None, progress: bool | None = None) -> list[Usage]:
        self.calls.append((mode, len(configs)))
        name = targets[0].name
        out = []
        for c in configs:
            n = self.fn(c)
            if mode == "analytic":
                n = int(n * self.analytic_scale)
            if mode != "analytic" and c.get("BLOCK_M") in self.broken:
                out.append(Usage(name, "shared-memory", None, self.limit, mode, dict(c), None,
                                 error="PTXASError: boom"))
                continue
            out.append(Usage(name, "shared-memory", n, self.limit, mode, dict(c), n <= self.limit))
        return out


SPACE = {"BLOCK_M": [64, 128, 256], "BLOCK_N": [64, 128, 256], "BLOCK_K": [32, 64],
         "num_warps": [4, 8], "num_stages": [2, 3, 4, 5]}


def test_expand_grid_and_dedupe() -> None:
    configs = expand({"A": [1, 2], "num_stages": [1, 1]})
    assert configs == [{"A": 1, "num_stages": 1}, {"A": 2, "num_stages": 1}]
    assert expand([{"A": 1}, {"A": 1}]) == [{"A": 1}]


def test_format_config_puts_launch_options_last() -> None:
    assert format_config({"num_warps": 4, "BLOCK_M": 64}) == "BLOCK_M=64 num_warps=4"
    assert as_config({"A": 1}) == {"A": 1}


def test_reuse_prefers_square_output_tiles_and_long_k() -> None:
    assert reuse({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}) > reuse({"BLOCK_M": 256, "BLOCK_N": 64,
                                                                           "BLOCK_K": 64})
    assert reuse({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}) > reuse({"BLOCK_M": 128, "BLOCK_N": 128,
                                                                           "BLOCK_K": 16})
    assert reuse({"BLOCK_SIZE": 1024}) == 1.0


def test_occupancy_counts_the_reserved_kib_per_block() -> None:
    dev = DeviceModel.from_target(get_target("sm_90"))
    assert dev.reserved_shared_per_block == 1024
    cfg = {"num_warps": 4}
    # 233472 B per SM: two blocks of 115712 B fit only because of the reserve arithmetic.
    two = Usage("sm_90", "shared-memory", 115712, LIMIT_90, "fast", cfg, True)
    over = Usage("sm_90", "shared-memory", 115713, LIMIT_90, "fast", cfg, True)
    assert blocks_per_sm(cfg, two, dev) == 2
    assert blocks_per_sm(cfg, over, dev) == 1


def test_wave_quantisation() -> None:
    assert wave_efficiency(132, 132) == 1.0
    assert wave_efficiency(133, 132) == pytest.approx(133 / 264)
    assert wave_efficiency(66, 132) == 0.5
    dev = DeviceModel.from_target(get_target("sm_90"), sm_count=132)
    cfg = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "num_warps": 8, "num_stages": 3}
    u = Usage("sm_90", "shared-memory", 98304, LIMIT_90, "fast", cfg, True)
    full = score(cfg, u, dev, problem={"BLOCK_M": 128 * 12, "BLOCK_N": 128 * 22})  # 264 tiles: 2 waves
    ragged = score(cfg, u, dev, problem={"BLOCK_M": 128 * 12, "BLOCK_N": 128 * 23})  # 276 tiles
    assert full.programs == 264 and ragged.programs == 276
    assert full.waves > ragged.waves


def test_fit_picks_a_fitting_config_and_reports_every_drop() -> None:
    est = TableEstimator(matmul_bytes)
    result = fit(None, SPACE, "sm_90", estimator=est, exhaustive=True)
    assert matmul_bytes(result.config) <= LIMIT_90
    n_over = sum(matmul_bytes(c) > LIMIT_90 for c in expand(SPACE))
    assert len(result.dropped) == n_over and result.tried == len(expand(SPACE))
    assert len(result.ranked) + len(result.dropped) == result.tried
    scores = [r.score.value for r in result.ranked]
    assert scores == sorted(scores, reverse=True)
    text = result.report()
    assert "dropped (analytic" in text and "> 232448 B" in text
    assert result.to_dict()["config"] == result.config


def test_bounded_search_picks_the_exhaustive_winner_with_fewer_compiles() -> None:
    full_est, bounded_est = TableEstimator(matmul_bytes), TableEstimator(matmul_bytes)
    full = fit(None, SPACE, "sm_90", estimator=full_est, exhaustive=True)
    bounded = fit(None, SPACE, "sm_90", estimator=bounded_est, top_k=3)
    assert bounded.config == full.config
    assert [r.config for r in bounded.ranked[:3]] == [r.config for r in full.ranked[:3]]
    compiled = sum(n for mode, n in bounded_est.calls if mode == "fast")
    assert compiled < sum(n for mode, n in full_est.calls if mode == "fast") // 2
    skipped = bounded.dropped_by("bounded")
    assert skipped and len(bounded.ranked) + len(bounded.dropped) == bounded.tried
    assert "not compiled: model score at most" in skipped[0].describe()


def test_a_model_above_the_compiler_voids_the_bound() -> None:
    # The model says 20% more than the compiler: its bytes bound nothing, every survivor is compiled.
    est = TableEstimator(matmul_bytes, analytic_scale=1.2)
    result = fit(None, SPACE, "sm_90", estimator=est, top_k=3, margin=0.5)
    assert not result.dropped_by("bounded")


def test_analytic_margin_keeps_borderline_configs_for_the_exact_pass() -> None:
    # The model over-estimates by 5%: configs up to 10% over it must reach the compiler.
    est = TableEstimator(matmul_bytes, analytic_scale=1.05)
    result = fit(None, SPACE, "sm_90", estimator=est, margin=0.10)
    analytic = {format_config(d.config) for d in result.dropped_by("analytic")}
    for c in expand(SPACE):
        if matmul_bytes(c) * 1.05 > LIMIT_90 * 1.10:
            assert format_config(c) in analytic
        elif matmul_bytes(c) <= LIMIT_90:
            assert any(r.config == c for r in result.ranked)


def test_compile_errors_are_dropped_with_their_message() -> None:
    est = TableEstimator(matmul_bytes, broken=[64])
    result = fit(None, SPACE, "sm_90", estimator=est, exhaustive=True)
    failed = result.dropped_by("compile-error")
    assert failed and all(d.config["BLOCK_M"] == 64 for d in failed)
    assert "PTXASError: boom" in failed[0].describe()


def test_measurement_reorders_the_top_k() -> None:
    est = TableEstimator(matmul_bytes)
    model = fit(None, SPACE, "sm_90", estimator=est)
    slowest_first = {format_config(r.config): float(i) for i, r in enumerate(model.ranked[:3])}
    measured = fit(None, SPACE, "sm_90", estimator=est, measure=True, top_k=3,
                   bench=lambda c: 10.0 - slowest_first[format_config(c)])
    assert measured.config == model.ranked[2].config
    assert measured.ranked[0].measured_ms == 8.0 and measured.measured


def test_no_config_fits_names_the_full_width_dimension() -> None:
    # A row-softmax-like kernel: the whole 16384-wide fp32 row of each of BLOCK_M rows stays on chip.
    def row_bytes(c: Mapping[str, Any]) -> int:
        return c["BLOCK_M"] * c["BLOCK_N"] * 4 * c["num_stages"]

    space = {"BLOCK_M": [16, 32], "BLOCK_N": [16384], "num_warps": [4], "num_stages": [1, 2]}
    with pytest.raises(NoConfigFits) as info:
        fit(None, space, "sm_90", estimator=TableEstimator(row_bytes))
    err = info.value
    assert err.smallest == 16 * 16384 * 4 and err.limit == LIMIT_90 and err.tried == 4
    msg = str(err)
    assert "BLOCK_N=16384" in msg and "64 KiB per row x 16 rows" in msg and "16384 elements x 4 B" in msg
    assert "at most 2048 would fit" in msg
    assert pickle.loads(pickle.dumps(err)).consumer == err.consumer


def test_no_config_fits_when_everything_fails_to_compile() -> None:
    est = TableEstimator(matmul_bytes, broken=[64, 128, 256])
    with pytest.raises(NoConfigFits) as info:
        fit(None, SPACE, "sm_90", estimator=est, analytic=False)
    assert "failed to compile" in str(info.value) and "PTXASError: boom" in str(info.value)


def test_an_over_estimating_model_is_caught_and_the_analytic_prune_undone() -> None:
    # The model doubles every size: it would prune configs that fit; one exact probe exposes it.
    est = TableEstimator(matmul_bytes, analytic_scale=2.0)
    result = fit(None, SPACE, "sm_90", estimator=est)
    assert not result.dropped_by("analytic")
    assert len(result.ranked) == sum(matmul_bytes(c) <= LIMIT_90 for c in expand(SPACE))


def test_tile_utilisation_and_streaming_register_pressure() -> None:
    dev = DeviceModel.from_target(get_target("sm_90"))
    row = {"BLOCK_SIZE": 16384, "num_warps": 16}
    u = Usage("sm_90", "shared-memory", 512, LIMIT_90, "fast", row, True)
    exact = score(row, u, dev, problem={"BLOCK_SIZE": 16384})
    padded = score({**row, "BLOCK_SIZE": 32768}, u, dev, problem={"BLOCK_SIZE": 16384})
    assert exact.utilisation == 1.0 and padded.utilisation == 0.5 and exact.value > padded.value
    few_warps = score({**row, "num_warps": 2}, u, dev, problem={"BLOCK_SIZE": 16384})
    assert few_warps.register_pressure < exact.register_pressure  # 256 elements per thread vs 32


def test_rank_inputs_carry_helion_hints_instead_of_usage_extra() -> None:
    from tilefit.fit.core import RankInputs, SearchPolicy

    dev = DeviceModel.from_target(get_target("sm_90"))
    cfg = {"block_size_0": 16, "block_size_1": 64, "num_warps": 4, "num_stages": 1}
    u = Usage("sm_90", "shared-memory", 132096, LIMIT_90, "fast", cfg, True)
    plain = RankInputs().score(cfg, u, dev)
    hinted = RankInputs(reduction=("block_size_1",), held=lambda c: 16384).score(cfg, u, dev)
    assert hinted.register_pressure < plain.register_pressure and hinted.reuse != plain.reuse
    with pytest.raises(InputError, match="margin"):
        SearchPolicy(margin=float("nan"))
    with pytest.raises(TypeError, match="unexpected keyword"):
        fit(None, SPACE, "sm_90", estimator=TableEstimator(matmul_bytes), top=3)

"""The plug-in keeps Inductor's num_stages=1 retry (torch >= 2.12) for a kernel whose every config it rejects.

Runs Inductor's real CachingAutotuner._precompile_worker on the CPU; only the compile of one config
(`_precompile_config`, a full triton.compile for a GPU) is replaced, by one that rejects num_stages > 1 the
way the plug-in does after TTGIR.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("triton", reason="the compile tier needs triton")
th = pytest.importorskip("torch._inductor.runtime.triton_heuristics", reason="needs torch's Inductor")

import tilefit  # noqa: E402
from tilefit.plugin.hook import TilefitOutOfResources  # noqa: E402
from tilefit.plugin.inductor import stage_one  # noqa: E402

pytestmark = [pytest.mark.compile,
              pytest.mark.skipif(not hasattr(th.CachingAutotuner, "compile_by_disabling_pipelining"),
                                 reason="this torch has no num_stages=1 retry to keep")]


def _autotuner(configs: list[Any], compiled: list[Any], reject: type[Exception] = TilefitOutOfResources) -> Any:
    tuner = object.__new__(th.CachingAutotuner)
    tuner.configs, tuner.compile_results, tuner.launchers, tuner.inductor_meta = configs, [], [], {}

    def precompile_config(cfg: Any) -> Any:
        if cfg.num_stages > 1:
            raise reject(262144, 232448, "shared memory")
        compiled.append(cfg)
        return ("compiled", cfg.num_stages, dict(cfg.kwargs))

    tuner._precompile_config = precompile_config
    return tuner


def _config(stages: int) -> Any:
    from torch._inductor.runtime.triton_compat import Config

    return Config({"XBLOCK": 128, "NUM_STAGES": stages}, num_warps=4, num_stages=stages)


@pytest.fixture
def plugin() -> Iterator[None]:
    tilefit.install()
    yield
    tilefit.uninstall()


def test_stock_inductor_has_no_retry_when_the_compile_itself_is_rejected() -> None:
    with pytest.raises(th.NoTritonConfigsError, match="TilefitOutOfResources"):
        _autotuner([_config(3)], []).precompile(warm_cache_only=True)


def test_under_the_plugin_every_rejected_config_retries_with_one_stage_like_stock(plugin: None) -> None:
    compiled: list[Any] = []
    tuner = _autotuner([_config(4), _config(3)], compiled)
    tuner.precompile(warm_cache_only=True)
    assert tuner.compile_results == [("compiled", 1, {"XBLOCK": 128, "NUM_STAGES": 1})]
    assert tuner.configs is None and compiled[0].num_warps == 4  # the last config, as stock's retry takes it
    assert stage_one(_config(3)).kwargs["NUM_STAGES"] == 1


def test_other_failures_and_one_stage_configs_still_fail(plugin: None) -> None:
    with pytest.raises(th.NoTritonConfigsError):
        _autotuner([_config(3)], [], reject=th.OutOfResources).precompile(warm_cache_only=True)
    tuner = _autotuner([_config(1)], [])
    tuner._precompile_config = lambda cfg: (_ for _ in ()).throw(TilefitOutOfResources(1, 0, "shared memory"))
    with pytest.raises(th.NoTritonConfigsError):
        tuner.precompile(warm_cache_only=True)


def test_uninstall_restores_inductor(plugin: None) -> None:
    tilefit.uninstall()
    with pytest.raises(th.NoTritonConfigsError):
        _autotuner([_config(3)], []).precompile(warm_cache_only=True)

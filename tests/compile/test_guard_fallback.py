"""guard(): the first launch of a key is checked for the device, later ones are a lookup; decisions persist.

No GPU here: the device is described (an sm_86 card's driver limit) and the launch records its arguments;
tests/device/test_fit_device.py launches for real.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("triton", reason="the compile tier needs triton")

from tilefit.estimate import triton as triton_estimator
from tilefit.estimate.triton import load_module_file
from tilefit.guard.fallback import DeviceInfo, GuardedKernel, guard
from tilefit.settings import Settings

pytestmark = pytest.mark.compile

KERNELS = Path(__file__).resolve().parents[2] / "examples" / "kernels"
ARGS = ["*fp16:16", "*fp16:16", "*fp16:16", "i32:16", "i32:16", "i32:16",
        "i32:16", "i32:1", "i32:16", "i32:1", "i32:16", "i32:1"]
RTX = DeviceInfo(0, "sm_86", "RTX test card", 101376)
# On sm_86 a pointer-load matmul keeps (S - 1) x (BM*BK + BK*BN) fp16 elements
# (mma_v2 keeps one stage fewer than Hopper; test_triton_estimate.py measures it):
# 5 stages of 128x128x64 need 131072 B > 101376 B; 4 stages need 98304 B.
BIG = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8, "num_warps": 4, "num_stages": 5}


class Recorder:
    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def __call__(self, grid: Any, args: Sequence[Any], kwargs: Mapping[str, Any]) -> None:
        self.calls.append(dict(kwargs))


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILEFIT_CACHE_DIR", str(tmp_path / "estimates"))


@pytest.fixture(scope="module")
def matmul() -> Any:
    return load_module_file(str(KERNELS / "matmul.py")).matmul_kernel


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts real estimator calls (the estimator still runs)."""
    calls: list[int] = []
    real = triton_estimator.TritonEstimator.estimate_many

    def spy(self: Any, configs: Any, *a: Any, **k: Any) -> Any:
        calls.append(len(configs))
        return real(self, configs, *a, **k)

    monkeypatch.setattr(triton_estimator.TritonEstimator, "estimate_many", spy)
    return calls


def make(matmul: Any, tmp_path: Path, launch: Recorder) -> GuardedKernel:
    settings = Settings(cache_dir=tmp_path / "cache")
    return GuardedKernel(matmul, device=lambda: RTX, launch=launch, settings=settings)


def test_oversized_config_falls_back_once_and_is_remembered(matmul: Any, tmp_path: Path,
                                                            counted: list[int]) -> None:
    launch = Recorder()
    g = make(matmul, tmp_path, launch)
    with pytest.warns(Warning, match=r"num_stages=5 .*does not fit.*101376 B.*num_stages=4") as rec:
        g[(1,)](*ARGS, **BIG)
    assert [w.category.__name__ for w in rec] == ["TilefitWarning"]
    assert launch.calls[-1] == {**BIG, "num_stages": 4}
    checks = len(counted)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(3):
            g[(1,)](*ARGS, **BIG)
    assert len(counted) == checks  # no estimate after the first launch of a key
    assert all(c["num_stages"] == 4 for c in launch.calls)
    assert g.store is not None and g.store.path.exists()

    fresh_launch = Recorder()
    again = make(matmul, tmp_path, fresh_launch)  # a new process: the decision comes from disk
    with pytest.warns(Warning, match="loaded from an earlier run"):
        again[(1,)](*ARGS, **BIG)
    assert fresh_launch.calls[-1]["num_stages"] == 4
    assert len(counted) == checks


def test_config_that_fits_is_launched_unchanged(matmul: Any, tmp_path: Path) -> None:
    launch = Recorder()
    g = make(matmul, tmp_path, launch)
    ok = {**BIG, "num_stages": 4}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g[(1,)](*ARGS, **ok)
    assert launch.calls == [ok]


def test_tunable_tiles_are_shrunk_when_stages_are_not_enough(matmul: Any, tmp_path: Path) -> None:
    launch = Recorder()
    settings = Settings(cache_dir=tmp_path / "cache")
    tiny = DeviceInfo(0, "sm_86", "a card with 40 KiB", 40960)
    g = GuardedKernel(matmul, device=lambda: tiny, launch=launch, settings=settings, tunable=("BLOCK_K",))
    with pytest.warns(Warning, match="instead"):
        g[(1,)](*ARGS, **{**BIG, "BLOCK_M": 256, "BLOCK_N": 256, "num_stages": 2})
    chosen = launch.calls[-1]
    assert chosen["BLOCK_M"] == 256 and chosen["BLOCK_K"] < 64  # only the tunable key moved


def test_guard_dispatches_on_kernel_kind(matmul: Any) -> None:
    import triton

    tuner = triton.autotune(configs=[triton.Config({"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8})],
                            key=["M"])(matmul)
    assert guard(tuner) is tuner and tuner.early_config_prune is not None
    assert isinstance(guard(matmul, device=lambda: RTX, launch=Recorder()), GuardedKernel)

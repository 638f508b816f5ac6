"""The early_config_prune drops exactly the configs that cannot fit, through triton.autotune's own code."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest
import yaml

pytest.importorskip("triton", reason="the compile tier needs triton")

import triton

from tilefit.errors import NoConfigFits, TilefitWarning
from tilefit.estimate.triton import load_module_file
from tilefit.integrations.triton_autotune import early_config_prune, make_prune

pytestmark = pytest.mark.compile

KERNELS = Path(__file__).resolve().parents[2] / "examples" / "kernels"
# Declared types stand for the tensors and ints a launch would pass (no GPU here).
# The matmul's declared argument types, from its spec (what torch tensors give the JIT).
ARGS = yaml.safe_load((KERNELS / "matmul.yaml").read_text())["args"]
SHAPES = [  # (BM, BN, BK, stages)
    (64, 64, 32, 2), (128, 128, 64, 3), (128, 256, 64, 4), (256, 256, 64, 3),
    (256, 256, 64, 4), (128, 256, 128, 4), (256, 128, 64, 5), (256, 256, 128, 3),
]


def sm90_bytes(bm: int, bn: int, bk: int, stages: int) -> int:
    """A pointer-load matmul on sm_90 keeps S x (BM*BK + BK*BN) fp16 elements in shared memory
    (test_triton_estimate.py measures it)."""
    return stages * (bm * bk + bk * bn) * 2


def configs() -> list[Any]:
    return [triton.Config({"BLOCK_M": m, "BLOCK_N": n, "BLOCK_K": k, "GROUP_M": 8}, num_warps=8, num_stages=s)
            for m, n, k, s in SHAPES]


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILEFIT_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def matmul() -> Any:
    return load_module_file(str(KERNELS / "matmul.py")).matmul_kernel


def autotuner(matmul: Any, prune: Any, space: list[Any]) -> Any:
    tuner = triton.autotune(configs=space, key=["M", "N", "K"],
                            prune_configs_by={"early_config_prune": prune})(matmul)
    tuner.nargs = dict(ARGS)  # what Autotuner.run sets before it prunes
    return tuner


def test_prune_drops_exactly_the_oversized_configs(matmul: Any) -> None:
    space = configs()
    tuner = autotuner(matmul, make_prune(target="sm_90"), space)  # the kernel is found on the stack
    # Triton 3.6 hands the launcher's own options (grid, warmup) to the prune with the call kwargs.
    with pytest.warns(TilefitWarning, match=r"4 of 8 configs do not fit sm_90 .*pruned before compiling"):
        kept = tuner.prune_configs({"grid": lambda meta: (1,), "warmup": False})
    expected = [c for c, shape in zip(space, SHAPES, strict=True) if sm90_bytes(*shape) <= 232448]
    assert kept == expected
    assert 0 < len(kept) < len(space)


def test_prune_is_remembered(matmul: Any) -> None:
    tuner = autotuner(matmul, make_prune(target="sm_90"), configs())
    with pytest.warns(TilefitWarning):
        first = tuner.prune_configs({})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the stored decision is reused silently
        again = autotuner(matmul, make_prune(target="sm_90"), configs()).prune_configs({})
    assert [str(c) for c in again] == [str(c) for c in first]


def test_none_fits_raises_no_config_fits_instead_of_returning_empty(matmul: Any) -> None:
    huge = [c for c, shape in zip(configs(), SHAPES, strict=True) if sm90_bytes(*shape) > 232448]
    tuner = autotuner(matmul, make_prune(target="sm_90"), huge)
    with pytest.raises(NoConfigFits) as info:
        tuner.prune_configs({})
    assert info.value.tried == len(huge) and info.value.limit == 232448
    assert info.value.smallest == min(sm90_bytes(*s) for s in SHAPES if sm90_bytes(*s) > 232448)


def test_drop_in_prune_outside_autotune_says_how_to_bind() -> None:
    from tilefit.errors import InputError

    with pytest.raises(InputError, match="make_prune"):
        early_config_prune(configs(), dict(ARGS))


def test_a_stale_stored_decision_is_not_trusted(matmul: Any, tmp_path: Path) -> None:
    """D10: a decision whose `keep` indices do not fit the space (edited, or another space) is ignored."""
    import json
    import os

    space = configs()
    with pytest.warns(TilefitWarning):
        first = autotuner(matmul, make_prune(target="sm_90"), space).prune_configs({})
    (record,) = (Path(os.environ["TILEFIT_CACHE_DIR"]) / "guard").rglob("*.json")
    doc = json.loads(record.read_text())
    doc["value"]["keep"] = [0, 99]  # out of range for this 8-config space
    record.write_text(json.dumps(doc))
    with pytest.warns(TilefitWarning):  # recomputed, so warned again; no IndexError inside the autotuner
        again = autotuner(matmul, make_prune(target="sm_90"), space).prune_configs({})
    assert [str(c) for c in again] == [str(c) for c in first]

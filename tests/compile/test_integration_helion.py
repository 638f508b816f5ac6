"""Helion's default config of the seed kernel (#470) is replaced by one that fits sm_90; CPU bind, no GPU."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("triton", reason="the compile tier needs triton")
pytest.importorskip("helion", reason="the Helion integration needs helion (and torch)")

from tilefit.errors import NoConfigFits, TilefitWarning
from tilefit.integrations.helion import FitFilter, default_usage, fitting_config

pytestmark = pytest.mark.compile

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "kernels"))
import helion_geglu as seed  # noqa: E402

LIMIT = 232448


@pytest.fixture(scope="module")
def small() -> tuple[Any, ...]:
    return seed.make_args(**seed.SMALL)


def test_default_config_does_not_fit_and_is_replaced(small: tuple[Any, ...]) -> None:
    before = default_usage(seed.geglu_mlp, small, "sm_90")
    assert before.fits is False and (before.bytes or 0) > LIMIT  # 266240 B with helion 1.5.1's [32, 32]
    with pytest.warns(TilefitWarning, match="instead"):
        chosen = fitting_config(seed.geglu_mlp, small, "sm_90")
    bound = seed.geglu_mlp.bind(small)
    assert dict(chosen) != dict(bound.config_spec.default_config())
    after = FitFilter("sm_90").bind(bound, small)
    assert after(chosen) is chosen
    # block_sizes [16, 16] with num_stages=3 is Helion issue 470's 526336 B (sized by tilefit through
# Triton, equal to the OutOfResources number); the filter drops it.
    import helion

    assert after(helion.Config(block_sizes=[16, 16], num_stages=3, num_warps=4)) is None
    assert after.dropped[0][1].bytes == 526336


def test_large_variant_cannot_fit_and_says_why_in_seconds() -> None:
    args = seed.make_args(**seed.LARGE)
    start = time.monotonic()
    with pytest.raises(NoConfigFits) as info:
        fitting_config(seed.geglu_mlp, args, "sm_90")
    assert time.monotonic() - start < 60
    msg = str(info.value)
    # Helion numbers its reduction dims per version (1.4.0: _RDIM_SIZE_2, 1.5.1: _RDIM_SIZE_1).
    assert re.search(r"_RDIM_SIZE_\d+=16384", msg) and "11008" in msg
    assert "64 KiB per row" in msg and "fix:" in msg
    assert (info.value.smallest or 0) > LIMIT


def test_the_helion_backend_serves_the_spec_loader(tmp_path: Path) -> None:
    """estimate/helion.py behind the registry: a spec with `backend: helion` and meta-tensor args."""
    from tilefit import spec as sp

    kernel = Path(seed.__file__).resolve()
    (tmp_path / "geglu.yaml").write_text(
        f"kernel: {kernel}:geglu_mlp\nbackend: helion\nargs:\n  x: '[100, 512] float32'\n"
        "  gate_proj: '[512, 1524] float32'\n  up_proj: '[512, 1524] float32'\n"
        "  down_proj: '[1524, 512] float32'\n"
        "space: {block_size_0: [16], block_size_1: [16], num_warps: [4], num_stages: [1, 3]}\n")
    spec = sp.read_spec(tmp_path / "geglu.yaml")
    (job,) = sp.plan(spec, sp.resolve_targets(["sm_90"]))
    assert job.backend.name == "helion"
    usages = job.estimate("fast")
    # Helion issue 470's 526336 B at num_stages=3; 132096 B at num_stages=1 fits.
    assert [(u.bytes, u.fits) for u in usages] == [(132096, True), (526336, False)]
    assert [o.resource for o in usages[1].over] == ["shared-memory"]

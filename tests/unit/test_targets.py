from __future__ import annotations

import pytest

from tilefit.errors import UnknownTargetError
from tilefit.targets import get_target, load_targets


def test_limit_maps_back_to_device_classes() -> None:
    ts = load_targets()
    assert [t.name for t in ts.with_limit("shared-memory", 101376)] == ["sm_86", "sm_89", "sm_120"]
    assert [t.name for t in ts.with_limit("shared-memory", 232448)] == ["sm_90", "sm_100", "sm_103"]
    assert [t.name for t in ts.with_limit("shared-memory", 131072)] == ["pvc"]
    assert {t.name for t in ts.with_limit("scoped-vmem", 32 * 2**20)} == {"v6e", "tpu7x"}


def test_every_limit_has_a_known_source() -> None:
    ts = load_targets()
    for t in ts.targets:
        for key, lim in t.limits.items():
            assert lim.source in ts.sources, (t.name, key)
            assert lim.value > 0


@pytest.mark.parametrize(
    ("alias", "name"), [("sm90", "sm_90"), ("90", "sm_90"), ("SM_86", "sm_86"), ("gfx942", "gfx942")]
)
def test_aliases(alias: str, name: str) -> None:
    assert get_target(alias).name == name


def test_unknown_target_lists_valid_ones() -> None:
    with pytest.raises(UnknownTargetError) as info:
        get_target("sm_999")
    assert "sm_90" in str(info.value) and "v5e" in str(info.value)


def test_triton_view_of_targets() -> None:
    assert get_target("gfx942").triton is not None
    tri = get_target("gfx942").triton
    assert tri is not None and (tri.backend, tri.arch, tri.warp_size) == ("hip", "gfx942", 64)
    h100 = get_target("sm_90")
    assert h100.limit_for("shared-memory") == 232448 and h100.limit_for("static-shared-memory") == 49152

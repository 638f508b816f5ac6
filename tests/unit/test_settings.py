from __future__ import annotations

from pathlib import Path

import pytest

from tilefit.errors import SettingsError
from tilefit.settings import Settings


def test_defaults_and_env() -> None:
    s = Settings.from_env({"TILEFIT_WORKERS": "3", "TILEFIT_USE_CACHE": "no", "TILEFIT_CACHE_DIR": "/tmp/x"})
    assert (s.workers, s.use_cache, s.cache_dir) == (3, False, Path("/tmp/x"))
    assert Settings.from_env({}).compile_timeout_s == 120.0


@pytest.mark.parametrize(
    ("name", "value"),
    [("TILEFIT_WORKERS", "many"), ("TILEFIT_USE_CACHE", "maybe"), ("TILEFIT_COMPILE_TIMEOUT_S", "-1")],
)
def test_bad_values_name_the_variable(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({name: value})

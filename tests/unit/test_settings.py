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


def test_an_unknown_home_is_a_settings_error() -> None:
    # D7: Path.expanduser raised RuntimeError, printed as a traceback with exit code 1.
    with pytest.raises(SettingsError, match="TILEFIT_CACHE_DIR='~nosuchuser/x'"):
        Settings.from_env({"TILEFIT_CACHE_DIR": "~nosuchuser/x"})


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400", "0", "-1", "10s", "99999999999999999999"])
def test_compile_timeouts_must_be_finite_and_positive(value: str) -> None:
    # D13: nan disabled every timeout (and made the pool spin), 0 meant two different things.
    with pytest.raises(SettingsError, match=f"TILEFIT_COMPILE_TIMEOUT_S='{value}'"):
        Settings.from_env({"TILEFIT_COMPILE_TIMEOUT_S": value})


@pytest.mark.parametrize(("name", "value", "message"), [
    ("TILEFIT_COMPILE_MEMORY_MB", "99999999999999999999", "must be 0 \\(no limit\\) to 16777216 MB"),
    ("TILEFIT_MAX_INPUT_BYTES", "99999999999999999999", "must be 0 to 1099511627776 bytes"),
    ("TILEFIT_WORKERS", "99999999999999999999", "must be 0 to 4096"),
    ("TILEFIT_MAX_INPUT_BYTES", "1e6", "expected a whole number"),
    ("TILEFIT_COMPILE_MEMORY_MB", "4G", "expected a whole number"),
])
def test_absurd_sizes_are_range_errors(name: str, value: str, message: str) -> None:
    # D20: a 20-digit size was an internal OverflowError, or killed every compile process.
    with pytest.raises(SettingsError, match=f"{name}='{value}': {message}"):
        Settings.from_env({name: value})


def test_programmatic_settings_are_checked_too() -> None:
    with pytest.raises(SettingsError, match="compile_timeout_s=0"):
        Settings(compile_timeout_s=0)
    assert Settings(compile_memory_mb=0).compile_memory_mb == 0  # 0 MB: no memory limit


def _project(folder: Path, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pyproject.toml").write_text(f"[project]\nname = 'x'\n\n[tool.tilefit]\n{body}\n")
    return folder / "pyproject.toml"


def test_pyproject_settings_sit_between_defaults_and_the_environment(tmp_path: Path) -> None:
    _project(tmp_path, 'compile-timeout-s = 30\nworkers = 2\ncache_dir = "build/cache"\ntargets = ["sm_90", "v5e"]\n'
                       "use_cache = false")
    below = tmp_path / "src" / "pkg"
    below.mkdir(parents=True)
    s = Settings.from_env({}, start=below)  # found by walking up
    assert (s.compile_timeout_s, s.workers, s.use_cache, s.targets) == (30.0, 2, False, ("sm_90", "v5e"))
    assert s.cache_dir == tmp_path / "build" / "cache"  # relative to the pyproject.toml
    s = Settings.from_env({"TILEFIT_WORKERS": "5", "TILEFIT_TARGETS": "gfx942"}, start=below)
    assert (s.workers, s.targets, s.compile_timeout_s) == (5, ("gfx942",), 30.0)


def test_the_nearest_pyproject_wins(tmp_path: Path) -> None:
    _project(tmp_path, "workers = 2")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "pyproject.toml").write_text("[project]\nname = 'y'\n")
    assert Settings.from_env({}, start=tmp_path / "sub").workers == 0
    assert Settings.from_env({}, start=tmp_path).workers == 2


@pytest.mark.parametrize(("body", "message"), [
    ('compile_timeout_s = "x"', '\\[tool.tilefit\\] compile_timeout_s = "x" in .*pyproject.toml: expected a finite'),
    ("compile_timeout_s = nan", "compile_timeout_s = nan in .*: expected a finite number"),
    ("compile_memory_mb = 1.5", "compile_memory_mb = 1.5 in .*: expected a whole number"),
    ("use_cache = 1", "use_cache = 1 in .*: expected one of"),
    ("workers = 99999999999999999999", "workers = .* in .*: must be 0 to 4096"),
    ('timeout = 3', "\\[tool.tilefit\\] has no setting 'timeout' in .*pyproject.toml; settings: cache_dir"),
    ("targets = [1]", "targets = \\[1\\] in .*: expected target names"),
    ("cache_dir = '~nosuchuser/c'", "cache_dir = \"~nosuchuser/c\" in .*: Could not determine home"),
])
def test_a_bad_pyproject_value_names_the_key_and_the_file(tmp_path: Path, body: str, message: str) -> None:
    _project(tmp_path, body)
    with pytest.raises(SettingsError, match=message):
        Settings.from_env({}, start=tmp_path)


def test_broken_toml_is_a_settings_error(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.tilefit\nworkers = ")
    with pytest.raises(SettingsError, match="not valid TOML"):
        Settings.from_env({}, start=tmp_path)


@pytest.mark.parametrize(("env", "pyproject", "message"), [
    ({"TILEFIT_CACHE_DIR": "~nosuchuser/x"}, None, "TILEFIT_CACHE_DIR='~nosuchuser/x'"),
    ({}, 'compile_timeout_s = "x"', '[tool.tilefit] compile_timeout_s = "x" in '),
])
def test_the_cli_reports_bad_settings_in_one_line(tmp_path: Path, env: dict[str, str], pyproject: str | None,
                                                  message: str) -> None:
    import os
    import subprocess
    import sys

    if pyproject:
        _project(tmp_path, pyproject)
    log = tmp_path / "a.log"
    log.write_text("OutOfResources: out of resource: shared memory, Required: 262144, Hardware limit: 232448\n")
    src = Path(__file__).resolve().parents[2] / "src"
    out = subprocess.run([sys.executable, "-m", "tilefit", "explain", str(log)], capture_output=True, text=True,
                         cwd=tmp_path, env={**os.environ, **env, "PYTHONPATH": str(src)}, timeout=60)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and message in out.stderr, out.stderr
    assert "Traceback" not in out.stderr

"""Parts of the plug-in that need no compiler: child environment, boot settings, import hooks, candidates."""

from __future__ import annotations

import os
import sys
import types
from pathlib import Path

import pytest

from tilefit.cli.run import child_env, summary
from tilefit.errors import SettingsError
from tilefit.plugin import BOOT_DIR
from tilefit.plugin.boot_env import on_import, plugin_settings
from tilefit.plugin.report import MAX_CANDIDATES, candidates
from tilefit.trace import FORMAT_VERSION, Header, TraceWriter


def test_child_env_puts_boot_folder_first_and_keeps_the_rest(tmp_path: Path) -> None:
    env = child_env({"PYTHONPATH": f"/a{os.pathsep}{BOOT_DIR}", "KEEP": "1"}, str(tmp_path / "t.jsonl"))
    parts = env["PYTHONPATH"].split(os.pathsep)
    assert parts[0] == str(BOOT_DIR) and parts[-1] == "/a" and parts.count(str(BOOT_DIR)) == 1
    assert (Path(parts[1]) / "tilefit" / "__init__.py").is_file()
    assert env["TILEFIT_PLUGIN"] == "1" and env["TILEFIT_TRACE"] == str(tmp_path / "t.jsonl") and env["KEEP"] == "1"
    assert (BOOT_DIR / "sitecustomize.py").is_file()
    assert "TILEFIT_TRACE" not in child_env({}, None)


def test_boot_settings_are_parsed_with_named_errors() -> None:
    assert plugin_settings({}) == (False, "")
    assert plugin_settings({"TILEFIT_PLUGIN": "yes", "TILEFIT_TRACE": "/tmp/t"}) == (True, "/tmp/t")
    with pytest.raises(SettingsError, match="TILEFIT_PLUGIN='maybe'"):
        plugin_settings({"TILEFIT_PLUGIN": "maybe"})


def test_on_import_runs_after_the_module_finishes_or_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "tilefit_probe_mod.py").write_text("VALUE = 41\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    seen: list[int] = []
    on_import("tilefit_probe_mod", lambda: seen.append(sys.modules["tilefit_probe_mod"].VALUE + 1))
    assert seen == []
    import tilefit_probe_mod  # noqa: F401

    assert seen == [42]
    on_import("tilefit_probe_mod", lambda: seen.append(0))
    assert seen == [42, 0]
    monkeypatch.delitem(sys.modules, "tilefit_probe_mod")


def test_a_failing_callback_is_reported_not_raised(capsys: pytest.CaptureFixture[str]) -> None:
    sys.modules["tilefit_probe_done"] = types.ModuleType("tilefit_probe_done")
    try:
        on_import("tilefit_probe_done", lambda: 1 / 0)
    finally:
        del sys.modules["tilefit_probe_done"]
    assert "tilefit plug-in not installed: division by zero" in capsys.readouterr().err


def test_candidates_are_nearest_first_and_bounded() -> None:
    config = {"BLOCK_M": 256, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8, "num_warps": 8, "num_stages": 4}
    out = candidates(config)
    assert 0 < len(out) <= MAX_CANDIDATES
    assert config not in [{**config, **c} for c in out]
    changed = [sum(1 for k, v in c.items() if v != config[k]) for c in out]
    assert changed == sorted(changed) and changed[0] == 1
    assert all(c.get("BLOCK_K", 64) >= 16 and c.get("num_stages", 4) >= 1 for c in out)
    assert "GROUP_M" not in out[0] and candidates({"XBLOCK": 16, "num_stages": 1}) == []


def test_summary_counts_what_a_trace_holds(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    assert "no Triton compile was recorded" in summary(str(path))
    TraceWriter(path, Header(FORMAT_VERSION, "0.1.0", "3.9.0", os.getpid(), None, 0.0)).add_source("/k.py", "x")
    with path.open("a") as fh:
        fh.write('{"kind": "kernel", "truncated\n')
    text = summary(str(path))
    assert "0 specialisation(s) of 0 kernel(s) from 1 process(es), 0 cannot fit; 1 unreadable line(s)" in text

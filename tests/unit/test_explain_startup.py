"""`tilefit explain` starts without PyYAML (JSON copies), the backend subcommands or any regex it does not use."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PROBE = """
import json, sys
from tilefit.cli import main
code = main(["explain", sys.argv[1]])
from tilefit.kb.repository import load_kb
compiled = sum("regexes" in vars(e) for e in load_kb())
mods = sorted(m for m in sys.modules if m == "yaml" or m.startswith(("tilefit.cli.", "triton", "torch", "jax")))
print(json.dumps({"code": code, "modules": mods, "compiled": compiled, "entries": len(load_kb())}))
"""


def _run(log: Path, env: dict[str, str]) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", PROBE, str(log)], env=env, capture_output=True, text=True,
                         timeout=120, check=True)
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_a_warm_start_imports_no_yaml_no_backend_and_compiles_few_patterns(tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    log.write_text("triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 98304, "
                   "Hardware limit: 65536.\n", encoding="utf-8")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "TILEFIT_USE_CACHE": "1",
           "PYTHONPATH": os.pathsep.join(sys.path)}
    cold = _run(log, env)
    warm = _run(log, env)
    assert cold["code"] == warm["code"] == 0
    assert "yaml" in cold["modules"] and warm["modules"] == []
    assert isinstance(warm["compiled"], int) and isinstance(warm["entries"], int)
    assert 0 < warm["compiled"] < warm["entries"] / 2

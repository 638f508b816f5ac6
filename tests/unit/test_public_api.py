from __future__ import annotations

import subprocess
import sys

import tilefit


def test_all_names_exist() -> None:
    for name in tilefit.__all__:
        assert hasattr(tilefit, name), name


def test_every_public_name_is_in_all() -> None:
    """Two-way: what `tilefit` offers (eagerly or lazily) is exactly `__all__`."""
    import types

    eager = {n for n, v in vars(tilefit).items() if not n.startswith("_") and not isinstance(v, types.ModuleType)
             and n not in ("annotations",)}
    offered = eager | set(tilefit._LAZY)
    assert offered | {"__version__"} == set(tilefit.__all__)


def test_subpackage_all_lists_are_two_way() -> None:
    import importlib

    for name in ("tilefit.fit", "tilefit.estimate", "tilefit.spec"):
        module = importlib.import_module(name)
        for public in module.__all__:
            assert hasattr(module, public), (name, public)


def test_explain_is_callable_from_the_top_level() -> None:
    result = tilefit.explain("out of resource: shared memory, Required: 98304, Hardware limit: 65536")
    assert result.diagnoses[0].match.limit == 65536


def test_core_does_not_import_heavy_backends() -> None:
    code = (
        "import sys, tilefit; from tilefit.report import explain; from tilefit.cli import build_parser; "
        "build_parser(); explain('out of resource: shared memory, Required: 2, Hardware limit: 1'); "
        "explain('E1001: CompileTimeScopedVmemOom\\nx, 33.56M vs 32.00M limit'); "
        "print(sorted(m for m in ('torch', 'triton', 'jax', 'helion') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr

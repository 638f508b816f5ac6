"""The Triton plug-in on the real compiler (triton.compile for sm_90 on the CPU, no GPU needed).

Kernel: examples/kernels/matmul.py (Triton tutorial 03). 256x256x64 with 4 stages needs 262144 B on sm_90
(limit 232448 B), which Triton itself would only report when loading the compiled cubin.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import subprocess
import sys
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

pytest.importorskip("triton", reason="the compile tier needs triton")

import triton
from triton.compiler import ASTSource
from triton.runtime.errors import OutOfResources

import tilefit
from tilefit.errors import InputError
from tilefit.estimate import triton_compile as tc
from tilefit.estimate.triton import load_module_file
from tilefit.estimate.triton_args import parse_signature
from tilefit.plugin import hook as plugin_hook
from tilefit.plugin import installed
from tilefit.plugin.report import find_rejection, report
from tilefit.trace import decode_attrs, decode_constexprs, read_trace, replay_options

pytestmark = pytest.mark.compile

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "examples" / "kernels"
FITS = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8, "num_warps": 4, "num_stages": 2}
OVER = {"BLOCK_M": 256, "BLOCK_N": 256, "BLOCK_K": 64, "GROUP_M": 8, "num_warps": 8, "num_stages": 4}
SM90 = tc.gpu_target("cuda", 90, 32)


@pytest.fixture(scope="module")
def matmul() -> Any:
    spec = yaml.safe_load((KERNELS / "matmul.yaml").read_text())
    kernel = load_module_file(str(KERNELS / "matmul.py")).matmul_kernel
    args = {n: a.stand_in() for n, a in parse_signature(spec["args"]).items()}
    return kernel, args


@pytest.fixture(autouse=True)
def _fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "triton-cache"))
    yield
    tilefit.uninstall()
    triton.knobs.runtime.add_stages_inspection_hook = None


def _compile(matmul: Any, config: dict[str, Any]) -> Any:
    kernel, args = matmul
    sp = tc.specialise(kernel, SM90, args, config)
    return triton.compile(ASTSource(kernel, sp.signature, sp.constexprs, sp.attrs), target=SM90,
                          options=dict(sp.options))


def test_oversized_config_raises_tritons_own_error_before_llvm(matmul: Any) -> None:
    lowered: list[str] = []

    def spy(*args: Any) -> Any:  # a hook installed before tilefit's: sees whether make_llir ever runs
        if not args:
            return ("", "")
        stages = args[1]
        inner = stages["llir"]
        stages["llir"] = lambda src, md: (lowered.append("llir"), inner(src, md))[1]
        return None

    triton.knobs.runtime.add_stages_inspection_hook = spy
    tilefit.install()
    with pytest.raises(OutOfResources) as info:
        _compile(matmul, OVER)
    err = info.value
    assert (err.required, err.limit, err.name) == (262144, 232448, "shared memory")
    assert str(err).startswith("out of resource: shared memory, Required: 262144, Hardware limit: 232448.")
    assert "BLOCK_M=256" in str(err) and "num_stages=4" in str(err) and "sm_90" in str(err)
    assert lowered == [], "LLVM ran for a config that cannot fit"
    assert installed() is not None and installed().stats.rejected == 1  # type: ignore[union-attr]
    _compile(matmul, FITS)
    assert lowered == ["llir"]
    import pickle

    again = pickle.loads(pickle.dumps(err))
    assert isinstance(again, OutOfResources) and str(again) == str(err)


def test_a_config_that_fits_compiles_to_the_same_key_and_binary(matmul: Any, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    stock = _compile(matmul, FITS)
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "second-cache"))
    tilefit.install()
    plugged = _compile(matmul, FITS)
    assert plugged.hash == stock.hash
    assert hashlib.sha256(plugged.asm["cubin"]).digest() == hashlib.sha256(stock.asm["cubin"]).digest()
    assert plugged.asm["ttgir"] == stock.asm["ttgir"]
    assert plugged.metadata.shared == stock.metadata.shared == 16384
    if triton.knobs.runtime.add_stages_inspection_hook is not None:  # 3.9 appends its answer to the cache key
        assert triton.knobs.runtime.add_stages_inspection_hook() == ("", "")


def test_trace_holds_what_a_replay_needs(matmul: Any, tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    tilefit.install(record=path)
    _compile(matmul, FITS)
    with pytest.raises(OutOfResources):
        _compile(matmul, OVER)
    _compile(matmul, FITS)  # served from Triton's cache: recorded from the cached metadata
    tilefit.uninstall()
    trace = read_trace(path)
    assert [(r.fits, r.via, r.sized.shared) for r in trace.records] == [
        (True, "compile", 16384), (False, "compile", 262144), (True, "cache", 16384)]
    rejected = trace.records[1]
    assert rejected.over == ("shared memory",) and rejected.limits.shared == 232448
    assert rejected.options["num_stages"] == 4 and rejected.target["name"] == "sm_90"
    # Replay as `tilefit check` does: load the recorded source text, rebuild the ASTSource, size it again.
    source = trace.source_of(rejected)
    assert source is not None
    replay = tmp_path / "replayed_matmul.py"
    replay.write_text(source.text)
    kernel = getattr(load_module_file(str(replay)), rejected.fn)
    assert hashlib.sha256(kernel.src.encode()).hexdigest() == rejected.src_sha256
    sp = tc.Specialised(dict(rejected.signature), decode_constexprs(rejected), decode_attrs(rejected),
                        replay_options(rejected))
    assert tc.compile_fast(kernel, SM90, sp).shared == 262144
    sm80 = tc.compile_fast(kernel, tc.gpu_target("cuda", 80, 32), sp)
    assert sm80.shared < rejected.sized.shared  # (stages - 1) buffers on Ampere


def test_a_fault_inside_the_plugin_never_breaks_the_compile(matmul: Any, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    def broken(*_a: Any) -> Any:
        raise RuntimeError("planted fault")

    monkeypatch.setattr(plugin_hook, "size_module", broken)
    tilefit.install()
    assert _compile(matmul, FITS).metadata.shared == 16384
    assert _compile(matmul, {**FITS, "num_stages": 3}).metadata.shared > 0
    err = capsys.readouterr().err
    assert err.count("tilefit plug-in: internal error") == 1 and "planted fault" in err


def test_hooks_chain_and_uninstall_restores_them(matmul: Any) -> None:
    calls: list[int] = []

    def theirs(*args: Any) -> Any:
        calls.append(len(args))
        return ("their-key", "their-hash") if not args else None

    triton.knobs.runtime.add_stages_inspection_hook = theirs
    try:
        tilefit.install()
        assert triton.knobs.runtime.add_stages_inspection_hook() == ("their-key", "their-hash")
        with pytest.raises(OutOfResources):
            _compile(matmul, OVER)
        assert 5 in calls
        tilefit.uninstall()
        assert triton.knobs.runtime.add_stages_inspection_hook is theirs
    finally:
        tilefit.uninstall()


def test_triton_without_the_hook_gets_a_clear_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(type(triton.knobs.runtime), "add_stages_inspection_hook")
    with pytest.raises(InputError, match=r"triton .* has no triton\.knobs\.runtime\.add_stages_inspection_hook"):
        tilefit.install()


def test_plain_launch_report_gives_numbers_diagnosis_and_nearest_fitting_configs(matmul: Any) -> None:
    tilefit.install()
    try:
        _compile(matmul, OVER)
    except OutOfResources as exc:
        wrapped = RuntimeError("a framework wrapped it")
        wrapped.__cause__ = exc
        err = find_rejection(wrapped)
    assert err is not None
    start = time.perf_counter()
    text = report(err, installed())
    assert time.perf_counter() - start < 30
    assert "shared memory 262144 > 232448 (1.13x)" in text
    assert "(triton/shared-memory)" in text
    assert "nearest configs that fit" in text
    fitting = [line for line in text.splitlines() if line.startswith("    BLOCK_M")]
    assert fitting and all(int(line.rsplit(": ", 1)[1].split()[0]) <= 232448 for line in fitting)


def _python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


def test_tilefit_run_reaches_children_and_grandchildren(tmp_path: Path) -> None:
    # A site's own sitecustomize must keep working under ours.
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text("import os\nos.environ['SITE_CUSTOMIZE_RAN'] = '1'\n")
    code = (
        "import os, subprocess, sys\n"
        "import tilefit.plugin as p\n"
        "assert p.installed() is None  # nothing until triton is imported\n"
        "import triton\n"
        "print('child', p.installed() is not None, os.environ.get('SITE_CUSTOMIZE_RAN'))\n"
        "sys.stdout.flush()\n"
        "subprocess.run([sys.executable, '-c', 'import triton, tilefit.plugin as p; "
        "print(\"grandchild\", p.installed() is not None)'], check=True)\n"
    )
    env = {**os.environ, "PYTHONPATH": f"{site}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    out = subprocess.run([sys.executable, "-m", "tilefit", "run", "--", sys.executable, "-c", code],
                         env=env, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr
    assert "child True 1" in out.stdout and "grandchild True" in out.stdout


def test_tilefit_run_passes_the_exit_code_and_rejects_bad_commands() -> None:
    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "tilefit", *argv], capture_output=True, text=True, timeout=60)

    assert run("run", "--", sys.executable, "-c", "raise SystemExit(7)").returncode == 7
    missing = run("run", "--", "no-such-command-tilefit")
    assert missing.returncode == 2 and "cannot run 'no-such-command-tilefit'" in missing.stderr
    empty = run("record")
    assert empty.returncode == 2 and "no command given" in empty.stderr


def test_boot_folder_is_importable_without_tilefit_installed() -> None:
    spec = importlib.util.spec_from_file_location("sc", ROOT / "src/tilefit/plugin/boot/sitecustomize.py")
    assert spec is not None and spec.loader is not None
    env_off = {k: v for k, v in os.environ.items() if k not in ("TILEFIT_PLUGIN", "PYTHONPATH")}
    # The base interpreter, outside the virtual environment that has tilefit installed.
    base = Path(sys.base_prefix) / "bin" / "python3"
    if subprocess.run([str(base), "-c", "import tilefit"], env=env_off, capture_output=True).returncode == 0:
        pytest.skip(f"{base} can import tilefit")
    out = subprocess.run([str(base), "-c", "import sys; print('ok')"], capture_output=True, text=True, timeout=120,
                         env={**env_off, "PYTHONPATH": str(ROOT / "src/tilefit/plugin/boot"), "TILEFIT_PLUGIN": "1"})
    assert out.returncode == 0 and "ok" in out.stdout
    assert "tilefit plug-in not installed" in out.stderr  # tilefit itself is not on that path


@pytest.mark.slow  # a fresh interpreter imports torch and helion (about 30 s on a loaded 2-core box)
def test_helion_is_patched_even_when_it_imports_triton_itself() -> None:
    pytest.importorskip("helion", reason="needs helion (and torch)")
    # `import helion` imports triton from inside a half-initialised helion package; the plug-in installs
    # there and must still wrap Helion's default-config paths once their modules are loaded.
    code = (
        "import helion\n"
        "import helion.autotuner.benchmark_provider as bp\n"
        "from helion.runtime.kernel import BoundKernel\n"
        "import tilefit.plugin as p\n"
        "print(p.installed() is not None, BoundKernel.ensure_config_exists.__module__,\n"
        "      bp.LocalBenchmarkProvider._compute_baseline.__module__)\n"
    )
    out = subprocess.run([sys.executable, "-m", "tilefit", "run", "--", sys.executable, "-c", code],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "True tilefit.plugin.helion tilefit.plugin.helion" in out.stdout
    assert "not installed" not in out.stderr


def test_inductor_does_not_log_a_rejected_config_as_a_compile_failure(caplog: pytest.LogCaptureFixture) -> None:
    import logging

    logger = logging.getLogger("torch._inductor.runtime.triton_heuristics")
    tilefit.install()
    rejected = plugin_hook.TilefitOutOfResources(262144, 232448, "shared memory", "hint")
    for exc in (rejected, RuntimeError("a real compile failure")):
        try:
            raise exc
        except Exception:
            logger.exception("Triton compilation failed: %s", "triton_mm")
    logged = [type(r.exc_info[1]).__name__ for r in caplog.records if r.exc_info]
    assert logged == ["RuntimeError"]
    assert "a real compile failure" in caplog.text and "hint" not in caplog.text
    tilefit.uninstall()
    try:
        raise rejected
    except Exception:
        logger.exception("Triton compilation failed")
    assert "hint" in caplog.text


def test_helion_baseline_that_cannot_fit_is_taken_from_the_fitting_config(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("helion", reason="needs helion (and torch)")
    import warnings

    import tilefit.integrations.helion as integration
    from tilefit.plugin import helion as plugin_helion

    sys.path.insert(0, str(KERNELS))
    import helion_geglu as seed

    args = seed.make_args(**seed.SMALL)
    bound = seed.make_kernel(autotune_effort="quick").bind(args)
    real = integration.fitting_config
    monkeypatch.setattr(integration, "fitting_config", lambda k, a: real(k, a, "sm_90", warn=False))

    provider = types.SimpleNamespace(  # the attributes LocalBenchmarkProvider._compute_baseline reads
        kernel=bound, args=args, config_spec=bound.config_spec, settings=bound.settings)

    baselines: list[Any] = []

    def original(self: Any) -> Any:
        config = self.config_spec.default_config()
        baselines.append(dict(config))
        if config["block_sizes"] != [16, 16]:  # what Helion's baseline sees when the default cannot fit
            cause = plugin_hook.TilefitOutOfResources(266240, 232448, "shared memory")
            raise RuntimeError("Default config failed while computing baseline") from cause
        return "baseline"

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert plugin_helion._baseline(original)(provider) == "baseline"
    assert baselines[0]["block_sizes"] != [16, 16] and baselines[1]["block_sizes"] == [16, 16]
    assert dict(bound.config_spec.default_config())["block_sizes"] == [16, 16]  # the search's default seed too


PLAIN_LAUNCH = """
import sys, yaml, triton
from triton.compiler import ASTSource
from tilefit.estimate import triton_compile as tc
from tilefit.estimate.triton import load_module_file
from tilefit.estimate.triton_args import parse_signature
K = sys.argv[1]
spec = yaml.safe_load(open(K + "/matmul.yaml"))
kernel = load_module_file(K + "/matmul.py").matmul_kernel
args = {n: a.stand_in() for n, a in parse_signature(spec["args"]).items()}
T = tc.gpu_target("cuda", 90, 32)
config = {"BLOCK_M": 256, "BLOCK_N": 256, "BLOCK_K": 64, "GROUP_M": 8, "num_warps": 8, "num_stages": 4}
sp = tc.specialise(kernel, T, args, config)
triton.compile(ASTSource(kernel, sp.signature, sp.constexprs, sp.attrs), target=T, options=dict(sp.options))
"""


@pytest.mark.slow
def test_tilefit_record_on_a_plain_launch_that_cannot_fit(tmp_path: Path) -> None:
    script = tmp_path / "launch.py"
    script.write_text(PLAIN_LAUNCH)
    trace = tmp_path / "run.trace.jsonl"
    out = subprocess.run([sys.executable, "-m", "tilefit", "record", "-o", str(trace), "--", sys.executable,
                          str(script), str(KERNELS)], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "TRITON_CACHE_DIR": str(tmp_path / "cache")})
    assert out.returncode == 1  # the child's own exit code: an uncaught exception
    assert "OutOfResources: out of resource: shared memory, Required: 262144" in out.stderr
    assert "tilefit: tilefit_kernel_" in out.stderr and "nearest configs that fit" in out.stderr
    assert "1 specialisation(s) of 1 kernel(s) from 1 process(es), 1 cannot fit" in out.stderr
    (record,) = read_trace(trace).records
    assert record.fn == "matmul_kernel" and record.sized.shared == 262144 and record.pid != os.getpid()

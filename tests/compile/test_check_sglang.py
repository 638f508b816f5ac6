"""`tilefit check` / `tilefit refit` on SGLang's own fused-MoE kernel and bundled tables, from its PyPI wheel.

SGLang is never installed or imported: `make test` downloads the wheel (pip download --no-deps, cached in
.cache/wheels); the tests unpack the kernel file and a few tables from it. Byte counts are Triton's
allocation pass (the `fast` mode of estimate/triton.py); the TTIR-reuse path is checked against it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("triton", reason="the compile tier needs triton")

from tilefit.check import moe, run
from tilefit.check.size import Job, size_jobs, stand_ins
from tilefit.check.source import load_source
from tilefit.check.tables import read_table
from tilefit.cli import main
from tilefit.settings import Settings
from tilefit.targets import get_target

pytestmark = pytest.mark.compile

ROOT = Path(__file__).resolve().parents[2]
VERSION = "0.5.23"
CONFIGS = "sglang/srt/layers/moe/moe_runner/triton_utils/configs"
# A bf16 table tuned on an H100 (Triton 3.1), a block-quantised fp8 table tuned on an H200 and a TMA
# down-projection table: three launch shapes of the kernel.
BF16 = f"{CONFIGS}/triton_3_1_0/E=8,N=3584,device_name=NVIDIA_H100_80GB_HBM3.json"
FP8 = f"{CONFIGS}/triton_3_1_0/E=64,N=512,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128, 128].json"


def _wheel() -> Path:
    folder = Path(os.environ.get("TILEFIT_WHEELS", ROOT / ".cache" / "wheels"))
    found = sorted(folder.glob(f"sglang-{VERSION}-*.whl"))
    if not found:
        cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", f"sglang=={VERSION}", "-d", str(folder)]
        try:
            subprocess.run(cmd, check=True, timeout=600, capture_output=True)
        except (subprocess.SubprocessError, OSError) as exc:
            pytest.skip(f"SGLang's wheel is not in {folder} and pip could not download it ({exc}); run make test")
        found = sorted(folder.glob(f"sglang-{VERSION}-*.whl"))
    return found[0]


@pytest.fixture(scope="module")
def sglang(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An unpacked subset of SGLang's wheel: the kernel file and the bundled MoE tables."""
    out = tmp_path_factory.mktemp("sglang")
    with zipfile.ZipFile(_wheel()) as z:
        for name in z.namelist():
            if name == moe.SOURCE or (name.startswith(CONFIGS) and name.endswith(".json")):
                z.extract(name, out)
    return out


@pytest.fixture(autouse=True)
def _env(sglang: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILEFIT_SGLANG_ROOT", str(sglang))
    monkeypatch.setenv("TILEFIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TILEFIT_PROGRESS", "0")


def _check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["check", *argv, "--format", "json", "--workers", "2"])
    return code, json.loads(capsys.readouterr().out)


def test_check_reports_every_entry_on_every_target(sglang: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = read_table(sglang / FP8)
    code, doc = _check(capsys, str(sglang / FP8), "--target", "sm_90,gfx942", "--no-fix")
    assert len(doc["results"]) == len(table.entries) * 2 * 2  # entries x (up, down) x targets
    assert doc["compiler"].startswith("triton ")
    on_h100 = [r for r in doc["results"] if r["target"] == "sm_90"]
    assert all(r["status"] == "fits" for r in on_h100)  # tuned on an H200: every entry fits sm_90
    assert all(r["limit"] == 65536 for r in doc["results"] if r["target"] == "gfx942")
    assert code == (0 if all(r["status"] == "fits" for r in doc["results"]) else 1)
    assert all(r["line"] > 1 for r in doc["results"])  # the entry's line in the table file


def test_sizes_equal_the_direct_compile(sglang: Path) -> None:
    """Deduplicated, cached, TTIR-reusing sizing gives the bytes of estimate/triton_compile.compile_fast.

    The entries differ in their block sizes (constexprs: never merged by the JIT's divisibility classes of
    runtime integers) and their stages (options: TTIR reused across them).
    """
    from tilefit.estimate import triton_compile as tc

    loaded = load_source(sglang / moe.SOURCE, moe.KERNEL, Path(os.environ["TILEFIT_CACHE_DIR"]))
    kernel = loaded.load()
    table = read_table(sglang / BF16)
    jobs = []
    for m in (1, 64, 1024):
        for stages in (2, 4):
            for target in ("sm_80", "sm_86", "sm_90", "gfx942"):
                cfg = {**table.entries[m], "num_stages": stages}
                launch = moe.launch(table, m, "up", get_target(target), config=cfg)
                jobs.append(Job(str(loaded.module_path), launch.kernel, launch, target))
    assert len({repr(sorted(j.launch.args.items())) for j in jobs if j.target == "sm_86"}) == 3
    for attempt in ("fresh", "cached"):
        usages = size_jobs(jobs, Settings.from_env(), workers=1)
        for job, usage in zip(jobs, usages, strict=True):
            t = get_target(job.target).triton
            assert t is not None
            gpu = tc.gpu_target(t.backend, t.arch, t.warp_size)
            sp = tc.specialise(kernel, gpu, stand_ins(job.launch.args), dict(job.launch.options))
            assert usage.bytes == tc.compile_fast(kernel, gpu, sp).shared, (attempt, job)
    assert len({u.bytes for u in usages}) > 3


@pytest.mark.parametrize("target", ["sm_86", "gfx942"])
def test_refit_writes_a_table_whose_every_entry_fits(sglang: Path, tmp_path: Path, target: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    device = {"sm_86": "NVIDIA GeForce RTX 3090", "gfx942": "AMD Instinct MI300X"}[target]
    code = main(["refit", str(sglang / BF16), "--target", target, "--device-name", device, "--out", str(tmp_path),
                 "--workers", "2"])
    assert code == 0, capsys.readouterr().err
    out = tmp_path / f"E=8,N=3584,device_name={device.replace(' ', '_')}.json"
    new, old = read_table(out), read_table(sglang / BF16)
    assert list(new.entries) == list(old.entries)
    kernels = run.load_kernels(sglang / moe.SOURCE, Settings.from_env())
    rows = run.check_tables([new], [get_target(target)], kernels, fix=False, workers=2)
    assert rows and all(r.usage.fits for r in rows)  # every refitted entry, re-sized by the estimator, fits
    before = run.check_tables([old], [get_target(target)], kernels, fix=False, workers=2)
    for r in before:
        if r.usage.fits and all(b.usage.fits for b in before if b.m == r.m):
            assert new.entries[r.m] == old.entries[r.m]  # kept where it already fits
    assert any(new.entries[m] != old.entries[m] for m in old.entries) == (not all(r.usage.fits for r in before))


def test_fix_is_the_best_fitting_nearby_config(sglang: Path) -> None:
    table = read_table(sglang / BF16)
    kernels = run.load_kernels(sglang / moe.SOURCE, Settings.from_env())
    rows = run.check_tables([table], [get_target("gfx942")], kernels, workers=2)
    broken = [r for r in rows if r.usage.fits is False]
    assert broken, "this H100 table has entries over MI300's 65536 B"
    for r in broken:
        assert r.fix is not None and r.fix.bytes <= 65536
        assert r.fix.config["BLOCK_SIZE_M"] == r.table.entries[r.m]["BLOCK_SIZE_M"]


def test_bad_input_is_one_line_and_writes_nothing(sglang: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    good = (sglang / BF16).read_text()
    cut = tmp_path / "E=8,N=3584,device_name=NVIDIA_H100_80GB_HBM3.json"
    cut.write_text(good[: len(good) // 2])
    out = tmp_path / "out"
    assert main(["refit", str(cut), "--target", "sm_86", "--device-name", "NVIDIA A10", "--out", str(out)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert not out.exists()
    assert main(["refit", str(sglang / BF16), "--device-name", "Some Future GPU", "--out", str(out)]) == 2
    assert "unknown device name" in capsys.readouterr().err
    assert main(["refit", str(sglang / BF16), "--target", "sm_86", "--device-name", "NVIDIA H100 80GB HBM3",
                 "--out", str(out)]) == 2
    assert "is a sm_90 device" in capsys.readouterr().err
    assert main(["check", str(sglang / BF16), "--kernel-source", str(tmp_path / "moved.py")]) == 2
    assert "no such kernel source file" in capsys.readouterr().err
    assert not out.exists()


def test_a_kernel_that_needs_its_package_says_so(tmp_path: Path) -> None:
    """SGLang's qwen4 conv kernel calls a helper imported from sglang.kernels.numerics."""
    with zipfile.ZipFile(_wheel()) as z:
        path = Path(z.extract("sglang/kernels/ops/mamba/qwen4_short_conv.py", tmp_path))
    loaded = load_source(path, "_qwen4_verify_conv_finish_kernel", tmp_path / "cache")
    assert [m.name for m in loaded.missing] == ["round_bf16_to_fp32"]
    assert "sglang.kernels.numerics" in str(loaded.missing[0])
    from tilefit.estimate.triton import TritonEstimator

    est = TritonEstimator(loaded.load(), signature={"conv_ptr": "*bf16:16", "residual_ptr": "*bf16:16",
                                                    "valid_ptr": "*i1:16", "output_ptr": "*bf16:16",
                                                    "num_elements": "i32:16"}, cache=False)
    usage = est.estimate({"CHANNELS": 128, "WIDTH": 4, "BLOCK": 256}, "sm_90")
    assert usage.error is not None
    message = loaded.explain_missing(usage.error)
    assert "round_bf16_to_fp32" in message and "without importing its package" in message


def test_shards_merge_into_the_whole_check(sglang: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    common = [str(sglang / FP8), "--target", "gfx942", "--no-fix", "--format", "json", "--workers", "2"]
    assert main(["check", *common, "--output", str(tmp_path / "whole.json")]) in (0, 1)
    for i in (1, 2, 3):
        assert main(["check", *common, "--shard", f"{i}/3", "--output", str(tmp_path / f"s{i}.json")]) in (0, 1)
    code = main(["check", "--merge", *(str(tmp_path / f"s{i}.json") for i in (1, 2, 3)), "--format", "json"])
    merged = json.loads(capsys.readouterr().out)
    whole = json.loads((tmp_path / "whole.json").read_text())

    def key(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
        return sorted((r["source"], r["m"], r["launch"], r["target"], r["bytes"]) for r in doc["results"])

    assert key(merged) == key(whole) and merged["summary"]["n"] == whole["summary"]["n"]
    assert code == (0 if whole["summary"]["does_not_fit"] + whole["summary"]["error"] == 0 else 1)


def test_ray_executor_gives_the_local_results(sglang: Path) -> None:
    """The optional Ray executor (tilefit[ray]) on a local Ray instance, against the local worker pool."""
    ray = pytest.importorskip("ray", reason="tilefit[ray] is not installed")
    table = read_table(sglang / FP8)
    small = dataclasses.replace(table, entries={m: table.entries[m] for m in list(table.entries)[:3]})
    kernels = run.load_kernels(sglang / moe.SOURCE, Settings.from_env())
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = run.check_tables([small], [get_target("sm_86")], kernels, fix=False, executor="ray",
                                  settings=Settings(use_cache=False))
    finally:
        ray.shutdown()
    local = run.check_tables([small], [get_target("sm_86")], kernels, fix=False, workers=1,
                             settings=Settings(use_cache=False))
    assert [r.usage.bytes for r in remote] == [r.usage.bytes for r in local]
    assert len(remote) == 6


def test_an_interrupted_check_resumes_from_its_cache(sglang: Path) -> None:
    loaded = load_source(sglang / moe.SOURCE, moe.KERNEL, Path(os.environ["TILEFIT_CACHE_DIR"]))
    table = read_table(sglang / BF16)
    jobs = []
    for m in (1, 64, 1024):
        launch = moe.launch(table, m, "up", get_target("sm_86"))
        jobs.append(Job(str(loaded.module_path), launch.kernel, launch, "sm_86"))
    calls: list[int] = []

    def stop(n: int) -> None:
        calls.append(n)
        if len(calls) == 2:  # the first call reports cache hits; the second, the first finished task
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        size_jobs(jobs, Settings.from_env(), workers=1, progress=stop)
    seen: list[int] = []
    usages = size_jobs(jobs, Settings.from_env(), workers=1, progress=seen.append)
    assert seen[0] >= 1 and sum(seen) == 3  # what the interrupted run sized is read back, not compiled again
    assert all(u.bytes for u in usages)


@pytest.mark.slow
def test_grouped_targets_give_the_bytes_of_their_own_compile(sglang: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The groups of data/check/same_bytes.yaml, on 70 random launches of the whole bundle x sm_80, sm_86,
    sm_89 (210 pairs; every dtype, TMA down-projections, fp8 that sm_80/sm_86 refuse and sm_89 compiles):
    sm_86 and sm_89 sized through the group equal their own compiles, and sm_86 has sm_80's bytes."""
    import random

    from tilefit.check import compiles, size
    from tilefit.check.tables import find_tables

    if size.same_bytes_group("sm_86", "") != "sm_80":
        pytest.skip(f"no same-bytes group for Triton {size.triton_version()}")
    kernels = run.load_kernels(sglang / moe.SOURCE, Settings.from_env())
    tables = [read_table(p) for p in find_tables([str(sglang / CONFIGS)])]
    picks = random.Random(12).sample([(t, m, k) for t in tables for m in t.entries for k in moe.kinds(t)], 70)
    assert {p[0].name.dtype for p in picks} >= {None, "fp8_w8a8"} and any(p[0].name.down for p in picks)

    def jobs(target: str) -> list[Job]:
        out = []
        for table, m, kind in picks:
            name = moe.kernel_name(table.name)
            launch = moe.launch(table, m, kind, get_target(target))
            out.append(Job(str(kernels[name].module_path), name, launch, target))
        return out

    settings = Settings(use_cache=False)
    grouped = size_jobs(jobs("sm_80") + jobs("sm_86") + jobs("sm_89"), settings, workers=1)
    by = {t: grouped[i * len(picks):(i + 1) * len(picks)] for i, t in enumerate(("sm_80", "sm_86", "sm_89"))}
    monkeypatch.setattr(compiles, "GROUPING", False)
    monkeypatch.setattr(compiles, "_SIZED", {})  # nothing the grouped run compiled is reused
    direct = {t: size_jobs(jobs(t), settings, workers=1) for t in ("sm_86", "sm_89")}

    def seen(u: Any) -> tuple[Any, ...]:
        return u.target, u.bytes, u.limit, u.fits, u.threads, u.tensor_memory, u.over, u.error

    for t in ("sm_86", "sm_89"):
        assert [seen(u) for u in by[t]] == [seen(u) for u in direct[t]]
    assert [(u.bytes, u.error) for u in direct["sm_86"]] == [(u.bytes, u.error) for u in by["sm_80"]]
    assert sum(u.bytes is not None for u in by["sm_80"]) > 30 and any(u.error for u in by["sm_80"])
    assert any(a.fits != b.fits for a, b in zip(by["sm_80"], by["sm_86"], strict=True))
    # fp8 launches: sm_89 compiles what sm_80 refuses, so fp8 TTIR must void the sm_89 group
    assert any(a.error and b.bytes for a, b in zip(by["sm_80"], direct["sm_89"], strict=True))


def _bundle_tasks(sglang: Path, targets: tuple[str, ...]) -> list[Any]:
    """Every distinct compile of the whole bundle on `targets`, as the worker tasks `tilefit check` makes."""
    from tilefit.check import size
    from tilefit.check.tables import find_tables

    kernels = run.load_kernels(sglang / moe.SOURCE, Settings.from_env())
    jobs = {}
    for path in find_tables([str(sglang / CONFIGS)]):
        table = read_table(path)
        name = moe.kernel_name(table.name)
        for m in table.entries:
            for kind in moe.kinds(table):
                for t in targets:
                    job = Job(str(kernels[name].module_path), name, moe.launch(table, m, kind, get_target(t)), t)
                    jobs.setdefault(size._key(job, size.triton_version()), job)
    return size._tasks(list(jobs.values()))


@pytest.mark.slow
def test_shared_prefixes_and_memo_give_the_bytes_of_a_plain_compile(sglang: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Random tasks of the whole bundle x sm_80, sm_86, sm_89, sm_90, sm_120, gfx942 (>= 150 launch x target
    compiles; every dtype, TMA, launch_pdl): what the worker gives (one TTIR per task, the same-bytes
    groups, make_ttgir replayed from its recorded plan with the num_stages-independent prefix run once,
    the memo of equal TTIR + plan, MLIR's verifier off between passes where Triton exports the switch) equals
    compile_fast, the frontend-to-allocation compile of each launch on its own target (verifier on), byte
    for byte, error for error."""
    import random

    from tilefit.check import compiles
    from tilefit.estimate import mlir_verifier
    from tilefit.estimate import triton_compile as tc
    from tilefit.estimate.triton_kernel import unwrap_kernel
    from tilefit.userfile import load_module_file

    tasks = _bundle_tasks(sglang, ("sm_80", "sm_86", "sm_89", "sm_90", "sm_120", "gfx942"))
    random.Random(2026).shuffle(tasks)
    picked: list[Any] = []
    while sum(len(t.jobs) for t in picked) < 150:
        picked.append(tasks[len(picked)])
    split: list[int] = []
    real = compiles._split
    monkeypatch.setattr(compiles, "_split", lambda cs: split.append(len(cs)) or real(cs))
    monkeypatch.setattr(compiles, "_SIZED", {})
    switched: list[bool] = []
    real_off = mlir_verifier.switch_off
    monkeypatch.setattr(mlir_verifier, "switch_off", lambda pm: switched.append(real_off(pm)) or switched[-1])
    got = [u for t in picked for u in compiles._run_task(t)]
    # Triton 3.9 exports the switch: there every pass manager of the worker must have run without the verifier
    exported = mlir_verifier._enable_verifier() is not None
    assert mlir_verifier.usable() == exported and all(switched) and bool(switched) == exported
    want = []
    for job in (j for t in picked for j in t.jobs):
        gpu = compiles._gpu(job.target)
        k = unwrap_kernel(getattr(load_module_file(job.module_path), job.kernel))
        try:
            want.append((tc.compile_fast(k, gpu, compiles._specialised(k, gpu, job.launch)).shared, False))
        except Exception:
            want.append((None, True))
    assert [(u.bytes, u.error is not None) for u in got] == want
    assert sum(split) >= 30 and sum(b is not None for b, _ in want) >= 100 and any(e for _, e in want)
    assert {j.target for t in picked for j in t.jobs} >= {"sm_80", "sm_90", "sm_120", "gfx942"}


def test_shards_never_compile_the_same_launch_twice(sglang: Path) -> None:
    """`--shard I/N` keeps every target of an entry, and same-config entries of other tables, in one shard: the
    shards' distinct compiles add up to the whole check's (an entry-by-entry split repeated them)."""
    from tilefit.check import size
    from tilefit.check.tables import find_tables

    kernels = run.load_kernels(sglang / moe.SOURCE, Settings.from_env())
    targets = [get_target(t) for t in ("sm_80", "sm_86", "sm_90", "gfx942")]
    plan = [(t, m, k, tgt) for t in map(read_table, find_tables([str(sglang / CONFIGS / "triton_3_1_0")]))
            for m in t.entries for k in moe.kinds(t) for tgt in targets]
    jobs = [run._job(kernels, moe.launch(t, m, k, tgt), tgt) for t, m, k, tgt in plan]
    version = size.triton_version()
    whole = {size._key(j, version) for j in jobs}
    shards = [run.in_shard(plan, jobs, (i, 3)) for i in (1, 2, 3)]
    parts = [{size._key(j, version) for j, y in zip(jobs, mine, strict=True) if y} for mine in shards]
    assert [sum(s[i] for s in shards) for i in range(len(plan))] == [1] * len(plan)
    assert sum(len(p) for p in parts) == len(whole) and all(len(p) > len(whole) / 5 for p in parts)

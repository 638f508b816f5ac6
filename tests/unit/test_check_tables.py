"""Config-table names and files, device names, and the report formats of `tilefit check` (no compiler)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tilefit.check.devices import device_target
from tilefit.check.report import exit_code, merge, render, summarise
from tilefit.check.tables import parse_name, read_table, write_table
from tilefit.cli import main
from tilefit.errors import InputError

# Real names of tables bundled in SGLang 0.5.23's wheel (srt/layers/moe/moe_runner/triton_utils/configs).
NAMES = {
    "E=8,N=3584,device_name=NVIDIA_L40S.json": (8, 3584, "NVIDIA_L40S", None, None, False),
    "E=64,N=512,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128, 128].json":
        (64, 512, "NVIDIA_H200", "fp8_w8a8", (128, 128), False),
    "E=256,N=512,device_name=NVIDIA_H200_down.json": (256, 512, "NVIDIA_H200", None, None, True),
    "E=8,N=7168,device_name=NVIDIA_H200,dtype=fp8_w8a8,per_channel_quant=True.json":
        (8, 7168, "NVIDIA_H200", "fp8_w8a8", None, False),
    "E=384,N=128,device_name=,dtype=int4_w4a16_down.json": (384, 128, "", "int4_w4a16", None, True),
}
ENTRY = {"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 1, "num_warps": 4,
         "num_stages": 2}


@pytest.mark.parametrize("name", list(NAMES))
def test_names_parse_and_round_trip(name: str) -> None:
    parsed = parse_name(name)
    e, n, dev, dtype, shape, down = NAMES[name]
    assert (parsed.experts, parsed.n, parsed.device_name, parsed.dtype, parsed.block_shape, parsed.down) == (
        e, n, dev, dtype, shape, down)
    assert parsed.file_name() == name
    assert parsed.file_name("NVIDIA GeForce RTX 5090").startswith(f"E={e},N={n},device_name=NVIDIA_GeForce_RTX_5090")


@pytest.mark.parametrize(("device", "target"), [
    ("NVIDIA_H100_80GB_HBM3", "sm_90"), ("NVIDIA_H20-3e", "sm_90"), ("NVIDIA_A100-SXM4-80GB", "sm_80"),
    ("NVIDIA_L40S", "sm_89"), ("NVIDIA GeForce RTX 4090", "sm_89"), ("NVIDIA GeForce RTX 3090", "sm_86"),
    ("NVIDIA_B200", "sm_100"), ("NVIDIA_RTX_PRO_6000_Blackwell_Max-Q_Workstation_Edition", "sm_120"),
    ("AMD_Instinct_MI300X", "gfx942"), ("AMD_Instinct_MI355X", "gfx950"), ("", None), ("Some Future GPU", None),
])
def test_device_names(device: str, target: str | None) -> None:
    assert device_target(device) == target


def _table(tmp_path: Path, body: Any, name: str = "E=8,N=3584,device_name=NVIDIA_L40S.json") -> Path:
    p = tmp_path / "triton_3_1_0" / name
    p.parent.mkdir(exist_ok=True)
    p.write_text(body if isinstance(body, str) else json.dumps(body))
    return p


def test_read_table(tmp_path: Path) -> None:
    t = read_table(_table(tmp_path, {"1": ENTRY, "64": {**ENTRY, "USE_TMA": True}}))
    assert list(t.entries) == [1, 64] and t.tuned_with == "3.1.0"
    assert t.label == "triton_3_1_0/E=8,N=3584,device_name=NVIDIA_L40S.json"


@pytest.mark.parametrize(("body", "message"), [
    ('{"1": {"BLOCK_SIZE_M": 16,', "not valid JSON"),
    ("[]", "non-empty JSON object"),
    ({"one": ENTRY}, "not a batch size"),
    ({"1": {**ENTRY, "BLOCK_SIZE_K": 48}}, "not a power of two"),
    ({"1": {k: v for k, v in ENTRY.items() if k != "GROUP_SIZE_M"}}, "missing GROUP_SIZE_M"),
    ({"1": {**ENTRY, "num_stages": "2"}}, "non-negative integer"),
    ({"1": {**ENTRY, "BLOCK_M": 16}}, "unknown key 'BLOCK_M'"),
    ({"1": {**ENTRY, "USE_TMA": 1}}, "true or false"),
])
def test_bad_tables_are_input_errors(tmp_path: Path, body: Any, message: str) -> None:
    with pytest.raises(InputError, match=message):
        read_table(_table(tmp_path, body))


def test_bad_names(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not a fused-MoE config table name"):
        parse_name("config.json")
    with pytest.raises(InputError, match="unknown dtype"):
        parse_name("E=8,N=64,device_name=X,dtype=fp4_magic.json")


def test_write_table_is_atomic_and_round_trips(tmp_path: Path) -> None:
    out = tmp_path / "E=8,N=3584,device_name=NVIDIA_A10.json"
    write_table(out, {1: ENTRY, 2: ENTRY})
    assert read_table(out).entries == {1: ENTRY, 2: ENTRY}
    assert [p.name for p in tmp_path.iterdir()] == [out.name]  # no temporary file left


def _result(target: str, status: str, m: int = 1) -> dict[str, Any]:
    fits = status == "fits"
    return {"source": "triton_3_1_0/E=8,N=3584,device_name=NVIDIA_L40S.json", "path": "t.json", "line": 2,
            "device_name": "NVIDIA_L40S", "tuned_with": "3.1.0", "m": m, "launch": "up",
            "kernel": "fused_moe_kernel", "target": target, "status": status, "config": ENTRY,
            "bytes": 50000 if fits else 120000, "limit": 101376,
            "over": [] if fits else [{"resource": "shared-memory", "required": 120000, "limit": 101376}],
            "error": None, "compiler": "triton 3.9.0",
            "fix": None if fits else {"config": {**ENTRY, "num_stages": 1}, "bytes": 60000,
                                      "change": "num_stages 2 -> 1"}}


def _doc(results: list[dict[str, Any]], shard: str = "1/2") -> dict[str, Any]:
    return {"tilefit": "0.1.0", "format": 1, "compiler": "triton 3.9.0", "targets": ["sm_86", "sm_90"],
            "problem": {"hidden": 4096, "topk": 8}, "shard": shard, "kernel_source": "k.py", "results": results,
            "summary": summarise(results)}


def test_json_report_matches_its_schema_and_merges() -> None:
    schema = json.loads((resources.files("tilefit") / "data" / "check-report.schema.json").read_text())
    a, b = _doc([_result("sm_86", "does not fit")]), _doc([_result("sm_90", "fits")], "2/2")
    jsonschema.validate(a, schema)
    merged = merge([a, b])
    jsonschema.validate(merged, schema)
    assert merged["summary"]["n"] == 2 and merged["summary"]["does_not_fit"] == 1 and merged["summary"]["fixed"] == 1
    assert exit_code(merged) == 1 and exit_code(b) == 0
    with pytest.raises(InputError, match="different compiler"):
        merge([a, {**b, "compiler": "triton 3.6.0"}])


def test_sarif_and_junit() -> None:
    doc = _doc([_result("sm_86", "does not fit"), _result("sm_90", "fits", 2)])
    sarif = json.loads(render(doc, "sarif"))
    assert sarif["version"] == "2.1.0"
    results = sarif["runs"][0]["results"]
    assert [r["level"] for r in results] == ["error", "none"]  # one result per config and target
    assert results[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 2
    message = results[0]["message"]["text"]
    assert "120000 B > 101376 B" in message and "num_stages 2 -> 1" in message
    junit = ET.fromstring(render(doc, "junit"))
    suites = {s.get("name"): s for s in junit.iter("testsuite")}
    assert suites["sm_86"].get("failures") == "1" and suites["sm_90"].get("failures") == "0"
    text = render(doc, "text")
    assert "does not fit" in text and "num_stages 2 -> 1 (60000 B)" in text


def test_cli_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check"]) == 2
    assert "no tables" in capsys.readouterr().err
    assert main(["check", str(tmp_path), "--shard", "3/2"]) == 2
    assert "--shard" in capsys.readouterr().err
    bad = tmp_path / "r.json"
    bad.write_text('{"results": [], "format": 99}')
    assert main(["check", "--merge", str(bad)]) == 2
    assert "newer" in capsys.readouterr().err


def test_a_huge_table_is_refused_before_reading(tmp_path: Path) -> None:
    p = tmp_path / "E=8,N=64,device_name=NVIDIA_A10.json"
    with p.open("wb") as f:
        f.truncate(17 * 1024 * 1024)  # sparse: nothing is read
    with pytest.raises(InputError, match="larger than any config table"):
        read_table(p)


def test_ci_definitions_call_real_flags() -> None:
    """action.yml and the pre-commit hook run `tilefit check` with flags its parser accepts."""
    import shlex

    import yaml

    from tilefit.cli import build_parser

    root = Path(__file__).resolve().parents[2]
    hooks = yaml.safe_load((root / ".pre-commit-hooks.yaml").read_text())
    entry = shlex.split(hooks[0]["entry"])
    assert entry[0] == "tilefit"
    args = build_parser().parse_args([*entry[1:], "E=8,N=64,device_name=NVIDIA_A10.json"])
    assert args.no_fix and "gfx942" in args.target
    action = yaml.safe_load((root / "action.yml").read_text())
    script = "\n".join(step.get("run", "") for step in action["runs"]["steps"])
    for flag in ("--target", "--format", "--output", "--merge", "--kernel-source"):
        assert flag in script
    for used in ("tables", "targets", "kernel-source", "triton-version", "sarif"):
        assert used in action["inputs"] and f"inputs.{used}" in script
    build_parser().parse_args(["check", "x.json", "--target", "sm_90", "--format", "json", "--output", "o.json"])


def test_kernel_source_comes_from_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """TILEFIT_SGLANG_ROOT is a Settings field: the flag wins, then the setting (variable or given)."""
    from tilefit.check import moe, run
    from tilefit.settings import Settings

    monkeypatch.setenv("TILEFIT_SGLANG_ROOT", str(tmp_path / "env"))
    assert Settings.from_env().sglang_root == str(tmp_path / "env")
    assert run.find_kernel_source(None) == tmp_path / "env" / moe.SOURCE
    assert run.find_kernel_source(None, Settings(sglang_root=str(tmp_path))) == tmp_path / moe.SOURCE
    assert run.find_kernel_source("k.py", Settings(sglang_root=str(tmp_path))) == Path("k.py")
    monkeypatch.setenv("TILEFIT_PROVISIONED_TRITON", "3.1.0")
    assert Settings.from_env().provisioned_triton == "3.1.0"


# Triton's own messages (3.6 and 3.9 alike for fp8; 3.9 for the scalar index), as a check records them.
FP8_REFUSED = ("ValueError(\"type fp8e4nv not supported in this architecture. The supported fp8 dtypes are "
               "('fp8e4b15', 'fp8e5')\")")
SCALAR_INDEX = "ValueError('too many indices for tensor of rank 0')"


def _error(target: str, message: str, m: int = 1) -> dict[str, Any]:
    return {**_result(target, "fits", m), "status": "error", "bytes": None, "error": message}


def test_compile_errors_carry_their_cause_in_every_format() -> None:
    from tilefit.check.causes import annotate

    results = [annotate(_error("sm_86", FP8_REFUSED, m)) for m in (1, 2)]
    results += [annotate(_error("sm_90", SCALAR_INDEX)), annotate(_error("sm_90", "some other failure", 2))]
    doc = _doc(results)
    schema = json.loads((resources.files("tilefit") / "data" / "check-report.schema.json").read_text())
    jsonschema.validate(doc, schema)
    assert [r["cause"] and r["cause"]["kind"] for r in results] == ["target", "target", "kernel", None]
    assert "fp8 e4m3 (fp8e4nv) needs sm_89+; this cannot run on sm_86 with any config" in results[0]["cause"]["message"]
    assert doc["summary"]["targets"]["sm_86"]["causes"] == {"fp8e4nv-needs-sm89": 2}
    sarif = json.loads(render(doc, "sarif"))["runs"][0]["results"]
    assert [r["ruleId"] for r in sarif] == ["tilefit/cannot-run-on-target"] * 2 + [
        "tilefit/kernel-does-not-compile", "tilefit/compile-error"]
    assert "needs sm_89+" in sarif[0]["message"]["text"] and sarif[0]["properties"]["cause"] == "fp8e4nv-needs-sm89"
    errors = [e.get("message") for e in ET.fromstring(render(doc, "junit")).iter("error")]
    assert "needs sm_89+" in str(errors[0]) and "Triton 3.8 and older accepted it" in str(errors[2])
    text = render(doc, "text")
    assert text.count("needs sm_89+; this cannot run on sm_86") == 1  # one line for the table on that target
    assert "sm_86: cannot run (2 results)" in text and "[scalar-indexed-triton39]" in text
    assert "2 fp8 e4m3 needs sm_89+" in text  # the per-target count names the cause
    old = {**doc, "results": [{k: v for k, v in r.items() if k != "cause"} for r in results]}
    assert merge([old])["results"][0]["cause"]["id"] == "fp8e4nv-needs-sm89"  # reports from before causes


def test_text_says_by_how_much_and_what_sized_it() -> None:
    text = render(_doc([_result("sm_86", "does not fit"), _result("sm_90", "fits", 2)]), "text")
    head, row = text.splitlines()[:2], text.splitlines()[2]
    assert head[0].startswith("triton_3_1_0/E=8,N=3584,device_name=NVIDIA_L40S.json  (fused_moe_kernel; tuned "
                              "with triton 3.1.0)")
    assert "120000 B" in row and "101376 B" in row and "+18624 B (1.18x)" in row
    assert "num_stages 2 -> 1 (60000 B)" in row
    assert text.rstrip().endswith("sized with triton 3.9.0; 2 results, 1 do not fit, 0 errors, "
                                  "1 fixed by a nearby config")


def test_an_up_table_beside_its_down_sibling_configures_the_up_gemm_only(tmp_path: Path) -> None:
    from tilefit.check import moe
    from tilefit.targets import get_target

    up = tmp_path / "E=8,N=256,device_name=NVIDIA_H20.json"
    up.write_text(json.dumps({"1": ENTRY, "48": ENTRY}))
    assert moe.kinds(read_table(up)) == ("up", "down")
    assert moe.launch(read_table(up), 1, "up", get_target("sm_90")).args["c_sorted"] is False
    (tmp_path / "E=8,N=256,device_name=NVIDIA_H20_down.json").write_text(
        json.dumps({"1": {**ENTRY, "USE_TMA": True}, "64": ENTRY}))
    table = read_table(up)
    assert moe.kinds(table) == ("up",)
    assert moe.launch(table, 1, "up", get_target("sm_90")).args["c_sorted"] is True  # sibling entry uses TMA
    assert moe.launch(table, 48, "up", get_target("sm_90")).args["c_sorted"] is False  # nearest M there is 64
    (tmp_path / "E=8,N=256,device_name=NVIDIA_H20_down.json").write_text("{")
    with pytest.raises(InputError, match=r"_down\.json: not valid JSON"):
        read_table(up)

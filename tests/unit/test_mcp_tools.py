"""The MCP tools' bounds and error mapping, without the MCP SDK (tests/compile/test_mcp_server.py drives the server)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tilefit import mcp_tools, schemas
from tilefit.errors import InputError
from tilefit.mcp_tools import Limits, ToolFailed

ROOT = Path(__file__).resolve().parents[2]
LOG = (ROOT / "examples" / "logs" / "triton-threads.log").read_text()
LIMITS = Limits(root=ROOT, max_configs=16)
SPEC = "examples/kernels/matmul.yaml"  # a space of 3*3*2*1*4*2 = 144 configs, 3 targets


def test_explain_is_the_cli_json() -> None:
    cli = subprocess.run([sys.executable, "-m", "tilefit", "explain", "-", "--format", "json"], input=LOG.encode(),
                         capture_output=True, check=True)
    assert json.loads(mcp_tools.explain_json(LOG, "en", LIMITS)) == json.loads(cli.stdout)


def test_explain_refuses_a_log_over_the_cap() -> None:
    with pytest.raises(InputError, match=r"log of 2001 B exceeds the limit of 2000 B"):
        mcp_tools.explain_json("x" * 2001, "en", Limits(root=ROOT, max_log_bytes=2000))


def test_targets_kb_list_and_kb_show() -> None:
    sm90 = next(t for t in json.loads(mcp_tools.targets_json("nvidia")) if t["name"] == "sm_90")
    assert sm90["limits"]["shared_per_block_optin"]["value"] == 232448
    ids = [e["id"] for e in json.loads(mcp_tools.kb_list_json())]
    assert "triton/shared-memory" in ids and len(ids) == len(set(ids))
    shown = json.loads(mcp_tools.kb_show_json("triton/threads"))
    assert shown["entry"]["id"] == "triton/threads" and shown["entry"]["patterns"]
    assert shown["explanation"]["matches"][0]["entry"] == "triton/threads"
    with pytest.raises(InputError, match="no entry 'nope'"):
        mcp_tools.kb_show_json("nope")


def test_estimate_argv_is_the_cli_command_line() -> None:
    argv = mcp_tools.estimate_argv(LIMITS, kernel=None, spec=SPEC, targets=["sm_90"], args={"M": "i32:16"},
                                   config={"BLOCK_M": [128], "BLOCK_N": [64, 128], "BLOCK_K": [64],
                                           "num_stages": [4], "num_warps": [8]}, mode="fast")
    assert argv[:3] == ["estimate", "--spec", str(ROOT / SPEC)]
    assert "--config=BLOCK_N=64,128" in argv and "--arg=M=i32:16" in argv
    assert argv[-4:] == ["--format", "json", "--target", "sm_90"]


@pytest.mark.parametrize(("call", "message"), [
    (lambda: mcp_tools.estimate_argv(LIMITS, kernel=None, spec=SPEC, targets=None, args=None, config=None),
     r"432 config x target pairs exceed the limit of 16"),  # 144 configs x the spec's 3 targets
    (lambda: mcp_tools.fit_argv(LIMITS, kernel=None, spec=SPEC, target="sm_90", args=None, config=None),
     r"a space of 144 configs exceeds the limit of 16"),
    (lambda: mcp_tools.estimate_argv(LIMITS, kernel="/etc/passwd:k", spec=None, targets=None, args=None,
                                     config=None), r"kernel file /etc/passwd is outside the server's root"),
    (lambda: mcp_tools.estimate_argv(LIMITS, kernel="../x.py:k", spec=None, targets=None, args=None, config=None),
     r"outside the server's root"),
    (lambda: mcp_tools.estimate_argv(LIMITS, kernel="examples/kernels/matmul.py", spec=None, targets=None,
                                     args=None, config=None), r"must look like path/to/file.py:kernel_name"),
    (lambda: mcp_tools.estimate_argv(LIMITS, kernel=None, spec="nope.yaml", targets=None, args=None, config=None),
     r"spec nope.yaml does not exist"),
    (lambda: mcp_tools.estimate_argv(LIMITS, kernel=None, spec=SPEC, targets=["sm_90;rm -rf"], args=None,
                                     config={"BLOCK_M": [1]}), r"is not a target name"),
    (lambda: mcp_tools.estimate_argv(LIMITS, kernel=None, spec=None, targets=None, args=None, config=None),
     r"give kernel"),
    (lambda: mcp_tools.estimate_argv(LIMITS, kernel=None, spec=SPEC, targets=["sm_90"], args=None,
                                     config={"BLOCK_M": ["1,2"]}), r"without commas"),
    (lambda: mcp_tools.fit_argv(LIMITS, kernel=None, spec=SPEC, target=None, args=None, config=None,
                                margin=float("nan")), r"margin nan must be a number"),
])
def test_bad_calls_are_one_line_input_errors(call: object, message: str) -> None:
    with pytest.raises(InputError, match=message) as info:
        call()  # type: ignore[operator]
    assert "\n" not in str(info.value)


def test_run_cli_returns_the_json_and_maps_exit_2_to_the_one_line_message() -> None:
    text = mcp_tools.run_cli(["schema", "fit"], LIMITS)
    assert json.loads(text) == schemas.load("fit")
    with pytest.raises(ToolFailed) as info:
        mcp_tools.run_cli(["schema", "nope"], LIMITS)
    assert str(info.value) == "no schema 'nope'; published: " + ", ".join(schemas.names())


def test_usage_errors_of_the_cli_come_back_as_their_one_line() -> None:
    with pytest.raises(ToolFailed) as info:
        mcp_tools.run_cli(["schema", "a", "b"], LIMITS)
    assert str(info.value) == "unrecognized arguments: b"


def test_check_without_a_check_command_says_so() -> None:
    import importlib.util

    if importlib.util.find_spec("tilefit.cli.check") is not None:
        pytest.skip("this tilefit has a check command")
    with pytest.raises(ToolFailed, match="check is not available in this version of tilefit"):
        mcp_tools.check_argv(LIMITS, paths=["trace.jsonl"], targets=["sm_90"])


def test_mcp_without_the_sdk_names_the_extra_and_bad_flags_exit_2() -> None:
    code = ("import sys; sys.modules['mcp'] = None; from tilefit.cli import main; "
            "raise SystemExit(main(['mcp']))")  # None in sys.modules makes `import mcp` fail, as when not installed
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "pip install 'tilefit[mcp]'" in out.stderr and "Traceback" not in out.stderr
    bad = subprocess.run([sys.executable, "-m", "tilefit", "mcp", "--timeout", "0"], capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 2 and "--timeout: 0 must be positive" in bad.stderr

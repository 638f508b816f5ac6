"""`tilefit mcp` end to end: a real server subprocess driven by the MCP SDK's own stdio client.

Lists the tools, calls each, compares results with the CLI's `--format json` and the published schemas,
and checks that bad calls come back as one-line tool errors and a hanging kernel is stopped with its children.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP server needs tilefit[mcp]")
pytest.importorskip("triton", reason="estimate and fit need triton")

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tilefit import schemas

pytestmark = pytest.mark.compile

ROOT = Path(__file__).resolve().parents[2]
SPEC = "examples/kernels/matmul.yaml"
SMALL = {"BLOCK_M": [128], "BLOCK_N": [128, 256], "BLOCK_K": [64], "num_stages": [4], "num_warps": [8]}
TOOLS = {"explain", "estimate", "fit", "check", "targets", "kb_list", "kb_show"}

Session = Callable[[ClientSession], Awaitable[None]]


def serve(body: Session, *flags: str, root: Path = ROOT) -> None:
    """Start `tilefit mcp FLAGS` with the SDK's stdio client, initialise, and run `body` on the session."""
    env = {"PYTHONPATH": os.pathsep.join(sys.path), "TILEFIT_CACHE_DIR": os.environ["TILEFIT_CACHE_DIR"]}
    params = StdioServerParameters(command=sys.executable, args=["-m", "tilefit", "mcp", *flags], cwd=root, env=env)

    async def main() -> None:
        with anyio.fail_after(240):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                await body(session)

    anyio.run(main)


async def ok(session: ClientSession, tool: str, **arguments: Any) -> Any:
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, result.content
    return json.loads(result.content[0].text)  # type: ignore[union-attr]


async def error(session: ClientSession, tool: str, one_line: bool = True, **arguments: Any) -> str:
    result = await session.call_tool(tool, arguments)
    assert result.is_error, result.content
    text: str = result.content[0].text  # type: ignore[union-attr]
    assert "Traceback" not in text and ("\n" not in text or not one_line), text
    return text


def cli(*argv: str) -> Any:
    out = subprocess.run([sys.executable, "-m", "tilefit", *argv], cwd=ROOT, capture_output=True, timeout=300)
    assert out.returncode in (0, 1), out.stderr
    return json.loads(out.stdout)


def config_flags(space: dict[str, list[Any]]) -> list[str]:
    return [f"--config={k}={','.join(map(str, v))}" for k, v in space.items()]


def without_times(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


def test_tools_are_listed_read_only_and_answer_like_the_cli() -> None:
    log = (ROOT / "examples" / "logs" / "triton-threads.log").read_text()

    async def body(s: ClientSession) -> None:
        tools = (await s.list_tools()).tools
        assert {t.name for t in tools} == TOOLS
        assert all(t.annotations and t.annotations.read_only_hint for t in tools)
        assert all(t.description for t in tools)
        explained = await ok(s, "explain", log=log)
        assert explained["matches"][0]["entry"] == "triton/threads"
        assert schemas.errors("explain", explained) == []
        targets = {t["name"]: t for t in await ok(s, "targets")}
        assert targets["sm_90"]["limits"]["shared_per_block_optin"]["value"] == 232448
        assert {"gfx942", "v5e"} <= set(targets)
        entries = await ok(s, "kb_list", lang="zh")
        assert "triton/shared-memory" in {e["id"] for e in entries}
        shown = await ok(s, "kb_show", entry_id="triton/shared-memory")
        assert shown["explanation"]["matches"][0]["entry"] == "triton/shared-memory"
        rows = await ok(s, "estimate", spec=SPEC, config=SMALL, targets=["sm_90", "sm_86"])
        assert schemas.errors("estimate", rows) == []
        assert without_times(rows) == without_times(
            cli("estimate", "--spec", SPEC, *config_flags(SMALL), "--target", "sm_90,sm_86", "--format", "json"))
        assert {(r["target"], r["bytes"], r["fits"]) for r in rows} >= {("sm_86", 147456, False),
                                                                        ("sm_90", 196608, True)}
        space = {**SMALL, "num_stages": [2, 4]}
        fitted = await ok(s, "fit", spec=SPEC, config=space, target="sm_86")
        assert schemas.errors("fit", fitted) == []
        assert fitted["target"] == "sm_86" and fitted["usage"]["fits"] is True and fitted["tried"] == 4
        assert fitted["config"] == cli("fit", "--spec", SPEC, *config_flags(space), "--target", "sm_86",
                                       "--format", "json")["config"]

        no_fit = await ok(s, "fit", spec=SPEC, config={**SMALL, "BLOCK_N": [256]}, target="sm_86")
        assert no_fit["fits"] is False and no_fit["limit"] == 101376 and no_fit["smallest"] == 147456
        assert schemas.errors("fit", no_fit) == []  # no fit is a result, not a tool error

    serve(body)


def test_bad_calls_are_one_line_tool_errors(tmp_path: Path) -> None:
    async def body(s: ClientSession) -> None:
        assert "exceeds the limit of 1000 B" in await error(s, "explain", log="x" * 1001)
        assert "no entry 'nope'" in await error(s, "kb_show", entry_id="nope")
        assert "valid targets: " in await error(s, "estimate", spec=SPEC, config=SMALL, targets=["sm_91"])
        assert "exceed the limit of 8" in await error(s, "estimate", spec=SPEC)
        assert "outside the server's root" in await error(s, "estimate", kernel="/etc/hosts:k")
        assert "does not exist" in await error(s, "fit", kernel="missing.py:k", config={"B": [1]})
        # Arguments of the wrong shape are rejected by the SDK against the tool's input schema (pydantic's words).
        assert "Input should be 'en' or 'zh'" in await error(s, "explain", False, log="x", lang="fr")
        assert "valid integer" in await error(s, "fit", False, spec=SPEC, problem={"BLOCK_M": "big"})
        assert "unknown tool" in (await error(s, "rm", path="/")).lower()
        if importlib.util.find_spec("tilefit.cli.check") is None:
            assert "not available in this version" in await error(s, "check", paths=["trace.jsonl"])
        else:
            assert "does not exist" in await error(s, "check", paths=["missing-trace.jsonl"])

    serve(body, "--max-log-bytes", "1000", "--max-configs", "8")


def test_a_hanging_kernel_is_stopped_with_its_children(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    (tmp_path / "hang.py").write_text(
        "import subprocess, time\n"
        f"child = subprocess.Popen(['sleep', '300'])\nopen({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "time.sleep(300)\n"
    )

    async def body(s: ClientSession) -> None:
        start = time.monotonic()
        text = await error(s, "estimate", kernel="hang.py:k", config={"B": [1]}, targets=["sm_90"], timeout_s=5)
        assert "ran past its time limit of 5 s" in text and time.monotonic() - start < 60

    serve(body, root=tmp_path)
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):
        for _ in range(50):  # the kill is asynchronous: give the kernel a moment to reap
            os.kill(pid, 0)
            time.sleep(0.1)


def test_a_client_that_goes_away_takes_the_running_compile_with_it(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    (tmp_path / "hang.py").write_text(
        "import subprocess, time\n"
        f"child = subprocess.Popen(['sleep', '300'])\nopen({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "time.sleep(300)\n"
    )

    async def body(s: ClientSession) -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(lambda: s.call_tool("estimate", {"kernel": "hang.py:k", "config": {"B": [1]},
                                                           "targets": ["sm_90"]}))
            with anyio.fail_after(60):
                while not pid_file.exists():
                    await anyio.sleep(0.2)
            tg.cancel_scope.cancel()  # then the session closes: the server reads EOF and stops

    serve(body, root=tmp_path)
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):
        for _ in range(100):
            os.kill(pid, 0)
            time.sleep(0.1)

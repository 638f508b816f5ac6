"""`tilefit mcp`: a Model Context Protocol server over stdio, on the official `mcp` SDK (tilefit[mcp]).

Read-only tools for coding agents: explain, estimate, fit, check, targets, kb_list, kb_show. Each returns
the JSON the CLI prints with `--format json` (as text), or an MCP tool error whose text is tilefit's
one-line message. The work and its bounds live in mcp_tools.py; this module only registers it.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, Literal, TypeVar

from tilefit import mcp_tools
from tilefit.errors import MissingExtraError, TilefitError
from tilefit.mcp_tools import Limits

_T = TypeVar("_T")
_Fn = Callable[..., Any]
_Tool = Callable[[], Callable[[_Fn], _Fn]]  # server.tool with the shared annotations bound
_Call = Callable[[Callable[[], Any], float], Awaitable[Any]]  # run a blocking step in a thread, bounded
_QUICK_S = 60.0  # explain and the knowledge base answer in well under a second; this only stops a runaway

INSTRUCTIONS = (
    "tilefit explains on-chip memory errors of ML kernels (GPU shared memory, TPU VMEM) and sizes kernel "
    "configs with the real compiler, without the device. Use `explain` on an error log or exception text; "
    "`estimate` and `fit` on a Triton kernel file (path:kernel_name) with a config space; `targets` for the "
    "limits of each GPU/TPU. Every tool returns JSON."
)


def serve(limits: Limits) -> None:
    """Serve over stdin/stdout until the client closes them or stops the server; then kill what still runs."""
    import signal

    live: set[int] = set()
    server = build_server(limits, live)

    def stop(signum: int, frame: object) -> None:  # SIGTERM (how clients stop a server) unwinds, running finally
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        server.run("stdio")
    finally:
        signal.signal(signal.SIGTERM, previous)
        mcp_tools.kill_all(live)


def build_server(limits: Limits, live: set[int] | None = None) -> Any:
    """The MCP server with every tool registered; MissingExtraError without the `mcp` package.

    Compile tools add the process groups of their running commands to `live` (see serve).
    """
    try:
        import anyio
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
        from mcp.types import ToolAnnotations
    except ImportError as exc:
        raise MissingExtraError("mcp (the Model Context Protocol SDK, version 2)", "mcp") from exc
    from tilefit import __version__

    # WARNING: the SDK logs every failed call at INFO to stderr, which agents show to the user as noise.
    server = MCPServer("tilefit", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING")
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                                open_world_hint=False)

    async def call(fn: Callable[[], _T], timeout_s: float) -> _T:
        try:
            with anyio.fail_after(timeout_s):
                return await anyio.to_thread.run_sync(fn, abandon_on_cancel=True)
        except TilefitError as exc:
            raise ToolError(str(exc)) from exc
        except TimeoutError:
            raise ToolError(f"no answer within {timeout_s:.0f} s") from None

    tool = functools.partial(server.tool, annotations=read_only, structured_output=False)
    _register_quick(tool, call, limits)
    _register_compile(tool, call, limits, live if live is not None else set())
    return server


def _register_quick(tool: _Tool, call: _Call, limits: Limits) -> None:
    @tool()
    async def explain(log: str, lang: Literal["en", "zh"] = "en") -> str:
        """Diagnose an error log or exception text (Triton OutOfResources, ptxas, CUDA launch, XLA/Mosaic VMEM,
        ...): the knowledge-base entries it matches, the numbers (required, limit, target), and the fixes.
        Returns `tilefit explain --format json`; `matches` is empty when nothing is recognised."""
        text: str = await call(lambda: mcp_tools.explain_json(log, lang, limits), _QUICK_S)
        return text

    @tool()
    async def targets(vendor: Literal["nvidia", "amd", "intel", "google"] | None = None) -> str:
        """Known GPU and TPU targets (sm_90, gfx942, v5e, ...) with their on-chip limits, the source of each
        number, and the devices they cover."""
        text: str = await call(lambda: mcp_tools.targets_json(vendor), _QUICK_S)
        return text

    @tool()
    async def kb_list(lang: Literal["en", "zh"] = "en") -> str:
        """The knowledge base of on-chip memory errors: one row per entry (id, resource, vendor, title)."""
        text: str = await call(lambda: mcp_tools.kb_list_json(lang), _QUICK_S)
        return text

    @tool()
    async def kb_show(entry_id: str, lang: Literal["en", "zh"] = "en") -> str:
        """One knowledge-base entry in full (patterns, real examples, fixes with evidence, dead ends) and
        explain's JSON of its first example. `entry_id` is an id from kb_list, e.g. triton/shared-memory."""
        text: str = await call(lambda: mcp_tools.kb_show_json(entry_id, lang), _QUICK_S)
        return text


def _register_compile(tool: _Tool, call: _Call, limits: Limits, live: set[int]) -> None:
    @tool()
    async def estimate(kernel: str | None = None, spec: str | None = None, targets: list[str] | None = None,
                       args: dict[str, str] | None = None, config: dict[str, list[int | float | str]] | None = None,
                       mode: Literal["fast", "full", "analytic"] = "fast", timeout_s: float | None = None) -> str:
        """On-chip memory of every config of a Triton kernel (or a Pallas spec for TPU targets) on each target,
        from the real compiler, without the device. kernel: path/to/file.py:kernel_name under the server's
        root; spec: a spec YAML (kernel, args, space, targets); args: argument types, e.g. {"a_ptr": "*fp16:16",
        "M": "i32:16"}; config: values per constexpr or launch option, e.g. {"BLOCK_M": [64, 128],
        "num_stages": [2, 3]}; targets: e.g. ["sm_90", "gfx942"]. Returns `tilefit estimate --format json`."""
        argv = await call(lambda: mcp_tools.estimate_argv(limits, kernel=kernel, spec=spec, targets=targets,
                                                          args=args, config=config, mode=mode), _QUICK_S)
        text: str = await call(lambda: mcp_tools.run_cli(argv, limits, timeout_s, live), limits.timeout_s + 30)
        return text

    @tool()
    async def fit(kernel: str | None = None, spec: str | None = None, target: str | None = None,
                  args: dict[str, str] | None = None, config: dict[str, list[int | float | str]] | None = None,
                  problem: dict[str, int] | None = None, margin: float = 0.10, timeout_s: float | None = None) -> str:
        """The fastest config of a space that fits one target, the ranking, and every dropped config with its
        reason; or why none fits (`fits: false`, the smallest config and the fix). Same kernel/spec/args/config
        as estimate; problem: extent tiled by a block key, e.g. {"BLOCK_M": 4096}. Returns `tilefit fit
        --format json`."""
        argv = await call(lambda: mcp_tools.fit_argv(limits, kernel=kernel, spec=spec, target=target, args=args,
                                                     config=config, problem=problem, margin=margin), _QUICK_S)
        text: str = await call(lambda: mcp_tools.run_cli(argv, limits, timeout_s, live), limits.timeout_s + 30)
        return text

    @tool()
    async def check(paths: list[str], targets: list[str] | None = None, timeout_s: float | None = None) -> str:
        """Size every recorded kernel config (a trace from `tilefit record`) or config table for every target,
        and say what does not fit and the fix. Returns `tilefit check --format json`."""
        argv = await call(lambda: mcp_tools.check_argv(limits, paths=paths, targets=targets or []), _QUICK_S)
        text: str = await call(lambda: mcp_tools.run_cli(argv, limits, timeout_s, live), limits.timeout_s + 30)
        return text

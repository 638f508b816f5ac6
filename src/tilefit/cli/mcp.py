"""`tilefit mcp`: serve tilefit's read-only tools to coding agents over the Model Context Protocol (stdio)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_parser(subparsers: Any) -> None:
    """Add the `mcp` subcommand to an argparse subparsers object."""
    p = subparsers.add_parser(
        "mcp", help="serve explain/estimate/fit/check/targets/kb to coding agents over MCP (stdio)",
        description="A Model Context Protocol server over stdin/stdout (needs tilefit[mcp]). Tools return the "
        "JSON of the matching `--format json` command.",
    )
    p.add_argument("--root", type=Path, default=None,
                   help="kernel, spec and trace paths must lie under this folder (default: the current one)")
    p.add_argument("--timeout", type=_positive(float), default=600.0,
                   help="longest run of one estimate/fit/check call, in seconds (default 600)")
    p.add_argument("--max-configs", type=_positive(int), default=4096,
                   help="largest config space (x targets for estimate) one call may size (default 4096)")
    p.add_argument("--max-log-bytes", type=_positive(int), default=4 << 20,
                   help="largest log explain accepts (default 4 MiB)")
    p.set_defaults(func=run)


def _positive(kind: type[Any]) -> Any:
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not 0 < value < float("inf"):
            raise argparse.ArgumentTypeError(f"{text} must be positive")
        return value

    return parse


def run(args: argparse.Namespace) -> int:
    """Serve until the client disconnects; a missing SDK is a MissingExtraError (exit 2 in main)."""
    from tilefit.errors import InputError
    from tilefit.mcp_server import serve
    from tilefit.mcp_tools import Limits

    root = (args.root or Path.cwd()).resolve()
    if not root.is_dir():
        raise InputError(f"--root {args.root} is not a folder")
    limits = Limits(root=root, max_log_bytes=args.max_log_bytes, max_configs=args.max_configs,
                    timeout_s=args.timeout)
    serve(limits)
    return 0

"""`tilefit schema [NAME]`: print a published JSON Schema of a JSON output, or list them."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parser(subparsers: Any) -> None:
    """Add the `schema` subcommand to an argparse subparsers object."""
    p = subparsers.add_parser("schema", help="print the JSON Schema of a --format json output (estimate, fit, ...)",
                              description="Print the published JSON Schema NAME; without NAME, list them.")
    p.add_argument("name", nargs="?", help="schema name, e.g. estimate or fit")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print one schema (exit 0), or the list; an unknown name is an InputError (exit 2 in main)."""
    from tilefit import schemas

    if args.name is None:
        print("\n".join(schemas.names()))
        return 0
    sys.stdout.write(schemas.text(args.name))
    return 0

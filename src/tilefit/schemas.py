"""The published JSON Schemas of tilefit's JSON outputs: `tilefit schema NAME` prints one.

Each schema is a data file `data/schemas/NAME.schema.json` (or `data/NAME.schema.json`); a schema may
`$ref` another by its `$id` (fit's `usage` is `urn:tilefit:schema:estimate#/$defs/usage`).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from tilefit.errors import InputError

_FOLDERS = ("data/schemas", "data")
_SUFFIX = ".schema.json"


def _files() -> dict[str, Any]:
    root = resources.files("tilefit")
    found: dict[str, Any] = {}
    for folder in _FOLDERS:
        node = root.joinpath(folder)
        if not node.is_dir():
            continue
        for item in node.iterdir():
            if item.name.endswith(_SUFFIX):
                found.setdefault(item.name[: -len(_SUFFIX)], item)
    return found


def _resolve(name: str) -> Any:
    """The file of a schema name; `check` also finds `check-report` (the name a command's report has)."""
    files = _files()
    return files.get(name) or files.get(f"{name}-report")


def names() -> list[str]:
    """Names of the published schemas, e.g. ['estimate', 'fit', ...]."""
    return sorted(_files())


def load(name: str) -> dict[str, Any]:
    """One schema as a dict; InputError names the published ones."""
    item = _resolve(name)
    if item is None:
        raise InputError(f"no schema {name!r}; published: {', '.join(names())}")
    doc: dict[str, Any] = json.loads(item.read_text(encoding="utf-8"))
    return doc


def text(name: str) -> str:
    """One schema as the text of its file."""
    load(name)
    return str(_resolve(name).read_text(encoding="utf-8"))


def errors(name: str, instance: Any) -> list[str]:
    """Where parsed JSON `instance` breaks schema `name`, one line per error ("path: message"); empty when valid."""
    import jsonschema
    from referencing import Registry, Resource

    schemas = [load(n) for n in names()]
    registry: Registry[Any] = Registry().with_resources(
        (s["$id"], Resource.from_contents(s)) for s in schemas if "$id" in s
    )
    validator = jsonschema.Draft202012Validator(load(name), registry=registry)
    found = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
    return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in found]

"""The published JSON Schemas: valid schemas, enums equal to the Python Literals, `tilefit schema` prints them.

Real CLI outputs are validated against them in tests/compile/test_schemas_cli.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import get_args

import jsonschema
import pytest

from tilefit import schemas
from tilefit.estimate.base import FailureKind, Mode, Overrun, Usage
from tilefit.fit.report import DropReason
from tilefit.resources import Resource


@pytest.mark.parametrize("name", ["estimate", "fit"])
def test_schemas_are_valid_draft_2020_12(name: str) -> None:
    doc = schemas.load(name)
    jsonschema.Draft202012Validator.check_schema(doc)
    assert doc["$id"] == f"urn:tilefit:schema:{name}"


def test_enums_equal_the_literals() -> None:
    est, fit = schemas.load("estimate")["$defs"], schemas.load("fit")["$defs"]
    assert est["resource"]["enum"] == list(get_args(Resource))
    assert est["failure"]["properties"]["kind"]["enum"] == list(get_args(FailureKind))
    assert est["usage"]["properties"]["mode"]["enum"] == list(get_args(Mode))
    assert fit["dropped"]["properties"]["reason"]["enum"] == list(get_args(DropReason))


def test_usage_fields_are_the_schema_properties() -> None:
    from tilefit.estimate.base import UsageRow

    row = Usage("sm_90", "shared-memory", 1, 2, "fast", {}, True).to_dict()
    properties = set(schemas.load("estimate")["$defs"]["usage"]["properties"])
    assert set(row) == properties == set(UsageRow.__annotations__)


@pytest.mark.parametrize(("part", "cls"), [("vmem", "VmemDetail"), ("failure", "Failure"), ("overrun", "Overrun")])
def test_typed_parts_are_the_schema_properties(part: str, cls: str) -> None:
    import dataclasses

    from tilefit import usage

    fields = {f.name for f in dataclasses.fields(getattr(usage, cls))}
    assert set(schemas.load("estimate")["$defs"][part]["properties"]) == fields


def test_a_row_that_breaks_the_contract_is_reported_with_its_path() -> None:
    row = Usage("sm_86", "shared-memory", 147456, 101376, "fast", {"BLOCK_N": 256}, False,
                over=(Overrun("shared-memory", 147456, 101376, "sm_86"),)).to_dict()
    row = json.loads(json.dumps(row))  # what --format json prints, parsed (tuples become lists)
    assert schemas.errors("estimate", [row]) == []
    bad = {**row, "bytes": "147456", "mode": "quick", "surprise": 1}
    problems = schemas.errors("estimate", [bad])
    assert any(p.startswith("0/bytes: ") for p in problems) and any(p.startswith("0/mode: ") for p in problems)
    assert any("surprise" in p for p in problems)
    fit_doc = {"target": "sm_86", "config": {}, "usage": bad, "tried": 1, "seconds": 0.1, "measured": False,
               "ranked": [], "dropped": []}
    assert schemas.errors("fit", fit_doc)  # fit's usage is estimate's row, checked through the $ref


def tilefit(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tilefit", *argv], capture_output=True, text=True, timeout=60)


def test_schema_command_lists_prints_and_refuses_unknown_names() -> None:
    listed = tilefit("schema")
    assert listed.returncode == 0 and {"estimate", "fit"} <= set(listed.stdout.split())
    printed = tilefit("schema", "fit")
    assert printed.returncode == 0 and json.loads(printed.stdout) == schemas.load("fit")
    unknown = tilefit("schema", "nope")
    assert unknown.returncode == 2 and unknown.stderr.startswith("tilefit: error: no schema 'nope'; published: ")
    assert "Traceback" not in unknown.stderr

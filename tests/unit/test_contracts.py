"""The typed contracts: one resource table that the KB schema, Usage and the errors agree with, and the
typed Usage parts (over, failure, vmem) surviving a JSON round trip (the estimate cache stores them)."""

from __future__ import annotations

import json
import pickle
from importlib import resources
from typing import Any, get_args

from tilefit import targets
from tilefit.errors import DoesNotFit, NoConfigFits, UnsupportedTarget
from tilefit.estimate.base import Failure, Overrun, Usage, VmemDetail
from tilefit.kb import model
from tilefit.resources import ON_CHIP, TABLE, Resource


def _schema() -> dict[str, Any]:
    text = (resources.files("tilefit") / "data" / "kb-entry.schema.json").read_text(encoding="utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


def _enum(node: Any, key: str) -> list[str]:
    """The first `enum` under a property named `key`, anywhere in the schema."""
    if isinstance(node, dict):
        if key in node and isinstance(node[key], dict) and "enum" in node[key]:
            return list(node[key]["enum"])
        for value in node.values():
            found = _enum(value, key)
            if found:
                return found
    if isinstance(node, list):
        for value in node:
            found = _enum(value, key)
            if found:
                return found
    return []


def test_schema_enums_equal_the_python_literals() -> None:
    schema = _schema()
    assert _enum(schema, "resource") == list(get_args(Resource))
    assert _enum(schema, "vendor") == list(get_args(model.Vendor))
    assert _enum(schema, "knob") == list(get_args(model.Knob))
    assert _enum(schema, "limit_vendor") == list(get_args(targets.Vendor))


def test_one_resource_table_behind_the_kb_and_targets() -> None:
    assert get_args(Resource) == model.RESOURCES and model.ON_CHIP is ON_CHIP
    assert set(TABLE) == set(get_args(Resource))
    assert {r for r, row in TABLE.items() if row.on_chip} == ON_CHIP
    assert targets.RESOURCE_LIMIT_KEY["shared-memory"] == "shared_per_block_optin"
    assert targets.get_target("sm_90").limit_for("shared-memory") == 232448
    assert targets.get_target("v5e").limit_for("scoped-vmem") == 16 * 2**20


def test_no_config_fits_has_one_spelling_of_a_resource() -> None:
    for spelling in ("shared-memory", "shared memory"):
        err = NoConfigFits("sm_90", spelling, 232448, 300000, tried=3)
        assert err.resource == "shared-memory"
        assert "fits shared memory on sm_90" in str(err)
    assert NoConfigFits("v5e", "scoped-vmem", 1, None).resource == "scoped-vmem"


def test_overrun_is_the_does_not_fit_message_in_its_unit() -> None:
    over = Overrun("threads", 2048, 1024, "sm_90")
    assert str(over) == "threads 2048 > 1024 threads on sm_90 (2.00x)"
    assert str(Overrun("shared-memory", 262144, 232448, "sm_90")) == (
        "shared-memory 262144 B > 232448 B on sm_90 (1.13x)")
    err = pickle.loads(pickle.dumps(over.error("smaller tiles")))
    assert isinstance(err, DoesNotFit) and (err.required, err.hint) == (2048, "smaller tiles")
    unsupported = pickle.loads(pickle.dumps(UnsupportedTarget("pvc", "why", ["triton"])))
    assert str(unsupported) == "pvc: why; supported: triton"


def test_usage_round_trips_through_json_with_its_typed_parts() -> None:
    u = Usage("sm_90", "shared-memory", 262144, 232448, "fast", {"BLOCK_M": 256}, False,
              over=(Overrun("shared-memory", 262144, 232448, "sm_90"),), compiler="triton 3.9.0")
    failed = Usage("sm_90", "shared-memory", None, 232448, "fast", {}, None, error="boom",
                   failure=Failure("compile", "boom", "ptxas", stderr="x"))
    tpu = Usage("v5e", "scoped-vmem", 1 << 20, 16 << 20, "exact", {}, True,
                vmem=VmemDetail(physical=128 << 20, buffers=(("x", 4096),), prefetched_inputs=("q",)))
    for usage in (u, failed, tpu):
        again = Usage.from_dict(json.loads(json.dumps(usage.to_dict())))
        assert again == usage
    assert u.reason == "shared-memory 262144 B > 232448 B on sm_90 (1.13x)" and failed.reason == ""


def test_the_json_row_has_exactly_the_typed_view_keys() -> None:
    from tilefit.estimate.base import UsageRow

    row = Usage("sm_90", "shared-memory", 1, 2, "fast", {}, True).to_dict()
    assert set(row) == set(UsageRow.__annotations__)

"""Fix-rate measurement (`tilefit kb measure`): rules made from the knowledge base's fixes, applied to
populations of failing configs of real kernels and estimated again. It imports estimate and fit; kb/
imports nothing of it (the knowledge base only stores the records it writes)."""

from __future__ import annotations

from tilefit.measure.plan import run_plan
from tilefit.measure.rates import (
    Population,
    Rule,
    RuleResult,
    gpu_rules,
    load_plan,
    measure,
    render_table,
    store,
    tpu_rules,
    write_record,
)

__all__ = [
    "Population", "Rule", "RuleResult", "gpu_rules", "load_plan", "measure", "render_table", "run_plan", "store",
    "tpu_rules", "write_record",
]

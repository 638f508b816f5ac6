"""`tilefit estimate` output formatting from fixed Usage rows: no compiler needed."""

from __future__ import annotations

import json

from tilefit.cli.estimate import render_json, render_table
from tilefit.estimate.base import Overrun, Usage

CFG = {"BLOCK_M": 128, "num_stages": 4}
ROWS = [
    Usage("sm_90", "shared-memory", 131072, 232448, "fast", CFG, True),
    Usage("sm_86", "shared-memory", 147456, 101376, "fast", CFG, False,
          over=(Overrun("shared-memory", 147456, 101376, "sm_86"),)),
    Usage("gfx942", "shared-memory", None, 65536, "fast", {"BLOCK_M": 3}, None,
          error="at 3:5:\n    x = f(y)\n        ^\nValueError: bad warps"),
]

EXPECTED = """\
config                    target  fits          bytes   limit   %     note
BLOCK_M=128 num_stages=4  sm_90   fits          131072  232448  56%
BLOCK_M=128 num_stages=4  sm_86   does not fit  147456  101376  145%  shared-memory 147456 B > 101376 B on sm_86 (1.45x)
BLOCK_M=3                 gfx942  error         -       65536   -     at 3:5: ... ValueError: bad warps
1 of 3 fit"""


def test_table_golden() -> None:
    assert render_table(ROWS) == EXPECTED


def test_full_mode_table_has_register_columns() -> None:
    row = Usage("sm_90", "shared-memory", 98304, 232448, "full", CFG, True, registers=168, spills=0)
    head, line = render_table([row]).splitlines()[:2]
    assert head.split()[6:8] == ["regs", "spills"]
    assert line.split()[7:9] == ["168", "0"]  # the config cell holds two words


def test_json_is_a_list_of_usage_dicts() -> None:
    rows = json.loads(render_json(ROWS))
    assert [r["fits"] for r in rows] == [True, False, None]
    assert rows[0]["percent"] == 100 * 131072 / 232448
    assert rows[2]["error"].endswith("ValueError: bad warps")  # JSON keeps the whole message

"""Which bundled SGLang MoE entries Triton 3.9 refuses on sm_90: block-quantised fp8 with swap_ab.

SGLang 0.5.23's fused_moe_kernel swaps A and B on sm_90 for fp8 when BLOCK_SIZE_M < 64 <= BLOCK_SIZE_N
(`should_enable_swap_ab`); with block quantisation and BLOCK_SIZE_N <= group_n, b_scale is a scalar that
becomes a_scale, and `a_scale[:, None]` is refused by Triton 3.9 ("too many indices for tensor of rank
0"), accepted by Triton 3.6 and 3.8. This counts the launches the check's mirror makes that take that
path, per device the table was tuned for (no compiler needed).

    python benchmarks/check_swap_ab.py --root <unpacked sglang wheel>
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from tilefit.check import moe
from tilefit.check.tables import find_tables, read_table
from tilefit.targets import get_target

CONFIGS = "sglang/srt/layers/moe/moe_runner/triton_utils/configs"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", required=True, help="a folder holding the wheel's sglang/ files, unpacked")
    args = ap.parse_args()
    h100 = get_target("sm_90")
    entries = gemms = block = 0
    tables: set[str] = set()
    devices: Counter[str] = Counter()
    for path in find_tables([str(Path(args.root) / CONFIGS)]):
        table = read_table(path)
        if table.name.dtype != "fp8_w8a8" or not table.name.block_shape:
            continue
        for m in table.entries:
            block += 1
            hit = 0
            for kind in moe.kinds(table):
                a = moe.launch(table, m, kind, h100).args
                hit += bool(a["swap_ab"]) and int(str(a["BLOCK_SIZE_N"])) <= int(str(a["group_n"]))
            gemms += hit
            if hit:
                entries += 1
                tables.add(table.label)
                devices[table.name.device_name] += 1
    print(f"block-quantised fp8 entries: {block}; refused by Triton 3.9 on sm_90: {entries} entries "
          f"({gemms} GEMM launches) in {len(tables)} tables")
    print("by the device a table was tuned for: " + ", ".join(f"{d or '(none)'} {n}" for d, n in devices.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

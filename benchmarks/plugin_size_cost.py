"""CPU cost of the plug-in's sizing per compile: TTGIR of real kernels for sm_90, no GPU needed.

    PYTHONPATH=src python benchmarks/plugin_size_cost.py

For each kernel: Triton's own TTIR+TTGIR time, the sizing (plugin/size.py: copy the module, run the head
of make_llir up to the allocation) with the copy printed with debug locations (before) and without (now).
Times are the mean of 5, in ms; the sized bytes must be equal both ways.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
from triton._C.libtriton import ir  # noqa: E402

from tilefit.estimate import triton_compile as tc  # noqa: E402
from tilefit.estimate.triton import load_module_file  # noqa: E402
from tilefit.estimate.triton_args import parse_signature  # noqa: E402
from tilefit.plugin import size  # noqa: E402

KERNELS = ROOT / "examples" / "kernels"
CASES = [("attention", "attention_fwd", {"HEAD_DIM": 256, "BLOCK_M": 128, "BLOCK_N": 128, "CAUSAL": False,
                                          "num_warps": 8, "num_stages": 3}),
         ("attention", "attention_fwd", {"HEAD_DIM": 128, "BLOCK_M": 128, "BLOCK_N": 64, "CAUSAL": False,
                                          "num_warps": 8, "num_stages": 3}),
         ("matmul", "matmul_kernel", {"BLOCK_M": 256, "BLOCK_N": 256, "BLOCK_K": 64, "GROUP_M": 8,
                                      "num_warps": 8, "num_stages": 4}),
         ("matmul", "matmul_kernel", {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32, "GROUP_M": 8,
                                      "num_warps": 4, "num_stages": 3})]


def copy_with_locations(module: Any) -> Any:
    """The copy as the plug-in made it before: str(module), debug locations included."""
    fd, path = tempfile.mkstemp(suffix=".ttgir")
    with os.fdopen(fd, "w") as fh:
        fh.write(str(module))
    copy = ir.parse_mlir_module(path, module.context)
    copy.context = module.context
    os.unlink(path)
    return copy


def mean_ms(fn: Any, n: int = 5) -> float:
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return round((time.perf_counter() - start) / n * 1e3, 1)


def main() -> None:
    target = tc.gpu_target("cuda", 90, 32)
    for name, fn, config in CASES:
        spec = yaml.safe_load((KERNELS / f"{name}.yaml").read_text())
        kernel = getattr(load_module_file(str(KERNELS / f"{name}.py")), fn)
        args = {n: a.stand_in() for n, a in parse_signature(spec["args"]).items()}
        sp = tc.specialise(kernel, target, args, config)
        start = time.perf_counter()
        module, _backend, options = tc.lower(kernel, target, sp)
        lower_ms = round((time.perf_counter() - start) * 1e3, 1)
        saved = size.copy_module
        size.copy_module = copy_with_locations
        before = mean_ms(lambda: size.size_module(module, target, options))  # noqa: B023 (called at once)
        sized_before = size.size_module(module, target, options)
        size.copy_module = saved
        now = mean_ms(lambda: size.size_module(module, target, options))  # noqa: B023 (called at once)
        sized = size.size_module(module, target, options)
        assert sized == sized_before, (sized, sized_before)
        print(f"{fn} {config}: ttir+ttgir {lower_ms} ms; sizing {before} -> {now} ms; shared {sized.shared} B")


if __name__ == "__main__":
    main()

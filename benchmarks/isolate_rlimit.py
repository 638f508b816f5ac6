"""Why tilefit.isolate limits RLIMIT_DATA and not RLIMIT_AS: what loading the compiler and one huge compile need.

    python benchmarks/isolate_rlimit.py            # imports only (seconds)
    python benchmarks/isolate_rlimit.py --compile  # also the 512x512x64 full compile under 600 MB (about 15 s each)

Each case runs in a fresh interpreter under the limit and prints what happened; nothing is cached.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMPORT = """
import resource, sys
kind, mb = sys.argv[1], int(sys.argv[2])
if mb:
    resource.setrlimit(getattr(resource, "RLIMIT_" + kind), (mb << 20, mb << 20))
try:
    import triton, torch
    ok = "loads"
except BaseException as exc:
    ok = f"fails: {type(exc).__name__}: {str(exc)[-70:]}"
st = {l.split(":")[0]: int(l.split()[1]) >> 10 for l in open("/proc/self/status") if l.startswith(("VmPeak", "VmData"))}
print(f"{kind:4} {mb:5} MB: import triton+torch {ok}  (VmPeak {st['VmPeak']} MiB, VmData {st['VmData']} MiB)")
"""
COMPILE = """
import resource, sys, time, yaml
kind, mb = sys.argv[1], int(sys.argv[2])
resource.setrlimit(getattr(resource, "RLIMIT_" + kind), (mb << 20, mb << 20))
from tilefit.estimate.triton import TritonEstimator, load_module_file
k = sys.argv[3]
kernel = load_module_file(k + "/matmul.py").matmul_kernel
sig = yaml.safe_load(open(k + "/matmul.yaml"))["args"]
cfg = {"BLOCK_M": 512, "BLOCK_N": 512, "BLOCK_K": 64, "GROUP_M": 8, "num_warps": 4, "num_stages": 3}
TritonEstimator(kernel, signature=sig, cache=False).estimate(cfg, "sm_90", "full")
print("compiled")
"""


def main() -> None:
    for kind in ("AS", "DATA"):
        for mb in (0, 300, 4096):
            subprocess.run([sys.executable, "-c", IMPORT, kind, str(mb)], check=False)
    if "--compile" not in sys.argv:
        return
    with tempfile.TemporaryDirectory() as cache:
        env = {"TRITON_CACHE_DIR": cache, "PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
        for kind in ("AS", "DATA"):
            out = subprocess.run(["/usr/bin/time", "-f", "%e s, peak RSS %M KB", sys.executable, "-c", COMPILE, kind,
                                  "600", str(ROOT / "examples" / "kernels")], capture_output=True, text=True,
                                 env=env, check=False)
            how = "compiled" if out.returncode == 0 else f"exit {out.returncode} (SIGABRT: LLVM out of memory)"
            print(f"{kind:4}   600 MB: 512x512x64 full compile {how}; {out.stderr.strip().splitlines()[-1]}")


if __name__ == "__main__":
    main()

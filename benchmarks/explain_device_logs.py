"""Real failure logs printed on a GPU machine by the stacks users run, each labelled by construction, read by explain.

Every scenario is a small program that asks one stack (Triton, PyTorch Inductor, CuPy, Numba-CUDA, JAX, nvcc) for
more of one on-chip resource than the GPU has, or makes a look-alike failure (device memory, grid size, Triton's
tensor-size cap). It runs in a child process, and its combined output, the last lines as people paste them, is
the log. The label comes from the program, not from reading the log: the resource asked for, and the numbers the
stack itself reports (Triton's compiled metadata, the driver's attributes). A number is kept as `required` or
`limit` only where the log prints it, as the corpus' labels are.

On the GPU machine (nothing beyond its image is needed):

    python3 benchmarks/explain_device_logs.py run OUT/device_logs.jsonl [SCENARIO ...]

(the Liger-Kernel scenarios need liger-kernel 0.8.5 carried as a wheel: the machine has no network)

Here, on the logs that came back:

    PYTHONPATH=src python benchmarks/explain_device_logs.py check tests/data/device/h100_logs.jsonl
    PYTHONPATH=src python benchmarks/explain_device_logs.py check tests/data/device/h200_logs.jsonl

The committed file is the run's output with `url`, `required` and `limit` added by hand: the program's truth where the
log prints the number (in decimal or in hex), and the numbers Inductor's message prints for its own config.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

PRELUDE = """
import json, os, sys
def truth(**kw):
    with open(os.environ["TILEFIT_TRUTH"], "w") as f:
        json.dump(kw, f)
"""

# A kernel on dynamic shared memory, shared by the scenarios that size it: "@DYNAMIC@" stands for its parameters
# and body.
DYNAMIC = """(float* x) {
    extern __shared__ float s[];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}"""
# A kernel that keeps 96 floats live per thread (above 96 registers unless capped), shared by the register scenarios:
# "@HEAVY@" in a program stands for its parameters and body.
HEAVY = """(const float* x, float* y) {
    float a[96];
    #pragma unroll
    for (int i = 0; i < 96; i++) a[i] = x[threadIdx.x * 96 + i];
    float s = 0.0f;
    #pragma unroll
    for (int j = 0; j < 8; j++) {
        #pragma unroll
        for (int i = 0; i < 96; i++) s += a[i] * a[(i * 7 + j) % 96];
    }
    y[threadIdx.x] = s;
}"""

TRITON_MM = """
import torch, triton, triton.language as tl
from triton.runtime.autotuner import OutOfResources

@triton.jit
def matmul(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * sam + (k + rk)[None, :] * sak)
        y = tl.load(b + (k + rk)[:, None] * sbk + rn[None, :] * sbn)
        acc += tl.dot(x, y)
    tl.store(c + rm[:, None] * scm + rn[None, :] * scn, acc.to(tl.float16))

M = N = K = 2048
a = torch.randn(M, K, device="cuda", dtype=torch.float16)
b = torch.randn(K, N, device="cuda", dtype=torch.float16)
c = torch.empty(M, N, device="cuda", dtype=torch.float16)
args = (a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
max_shared = triton.runtime.driver.active.utils.get_device_properties(0)["max_shared_mem"]
"""

TORCH_EXT = r'''
import os, torch
from torch.utils.cpp_extension import load_inline
os.environ.setdefault("TORCH_CUDA_ARCH_LIST", "9.0")
cuda_src = """
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>
__global__ void heavy@HEAVY@
__global__ void dynamic_smem@DYNAMIC@
void run_heavy(torch::Tensor x, torch::Tensor y) {
    heavy<<<1, 1024>>>(x.data_ptr<float>(), y.data_ptr<float>());
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}
void run_dynamic(torch::Tensor x, int64_t bytes) {
    C10_CUDA_CHECK(cudaFuncSetAttribute(dynamic_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
    dynamic_smem<<<1, 256, bytes>>>(x.data_ptr<float>());
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}
void run_block(torch::Tensor x, int64_t threads) {
    dynamic_smem<<<1, (int)threads, 1024>>>(x.data_ptr<float>());
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}
"""
cpp_src = """
void run_heavy(torch::Tensor x, torch::Tensor y);
void run_dynamic(torch::Tensor x, int64_t bytes);
void run_block(torch::Tensor x, int64_t threads);
"""
ext = load_inline("tilefit_device_logs", cpp_sources=cpp_src, cuda_sources=cuda_src,
                  functions=["run_heavy", "run_dynamic", "run_block"], extra_cuda_cflags=["-maxrregcount=128"],
                  build_directory=os.environ["TILEFIT_EXT_DIR"])
'''

# Numba-CUDA 0.30.4 still names np.row_stack at import, which the image's NumPy 2.5 no longer has: the alias is put
# back before the import (nothing of the launch changes).
NUMBA = """
import numpy as np
np.row_stack = np.vstack
from numba import cuda
x = cuda.to_device(np.ones(1 << 16, dtype=np.float32))
"""
# cuda.core (cuda-python's launch API, what numba-cuda 0.30 launches through): a kernel compiled from source by NVRTC,
# a stream and a buffer.
CUDA_CORE = """
try:
    from cuda.core import Device, LaunchConfig, Program, ProgramOptions, launch
except ImportError:
    from cuda.core.experimental import Device, LaunchConfig, Program, ProgramOptions, launch
dev = Device()
dev.set_current()
s = dev.create_stream()
arch = "".join(str(v) for v in dev.compute_capability)
def kernel(code):
    return Program(code, code_type="c++", options=ProgramOptions(arch=f"sm_{arch}")).compile("cubin").get_kernel("k")
buf = dev.allocate(4096 * 4, stream=s)
"""
# JAX's Pallas on Mosaic GPU (plgpu.kernel): kernels whose bodies leave the output alone, sized by their scratch or
# their warpgroups.
MOSAIC_GPU = """
import warnings
warnings.filterwarnings("ignore")
import jax, jax.numpy as jnp
from jax.experimental.pallas import mosaic_gpu as plgpu
kernel = plgpu.kernel
x = jnp.ones((128,), jnp.float32)
def body(x_ref, o_ref, s_ref):
    pass
def body3(x_ref, o_ref):
    pass
"""
# A Numba kernel that keeps 160 values live per thread (about 160 registers): "@NUMBA_HEAVY@" stands for it.
NUMBA_HEAVY = ("@cuda.jit\ndef heavy(x, y):\n    i = cuda.threadIdx.x\n"
               + "".join(f"    a{j} = x[(i * 160 + {j}) % x.size]\n" for j in range(160))
               + "    s = 0.0\n"
               + "".join(f"    s += a{j} * a{(j * 7 + 3) % 160}\n" for j in range(160))
               + "".join(f"    y[(i + {j}) % y.size] = s * a{j}\n" for j in range(0, 160, 8)))

# name -> (resource label, stack, program). Programs call truth(...) with what the stack itself says was asked.
# Tried on the H100 and left out (2026-11-27): a Triton kernel of 128 fp32 values per thread at 32 warps (ptxas kept
# it to 32 registers with 518 spills, no failure), flex_attention's backward at head_dim 256 in fp32 (it ran);
# nvcc 13.0 accepts __launch_bounds__(2048) without a word; JAX 0.11.2's pallas_call with Mosaic GPU's
# CompilerParams found no lowering; LigerLayerNorm over a 65536-wide bf16 row ran, forward and backward;
# flex_attention with kernel_options of 256x256 fp32 tiles and 4 stages was still compiling after 300 s, with nothing
# printed; a 600000-byte per-thread array filled in a loop compiled without a word (nvcc folded it). On the H200
# (2026-11-27): a 128 KiB cuda.shared.array under numba-cuda 0.30.4 compiled and ran, exit code 0, nothing printed;
# a torch extension (load_inline, TORCH_CUDA_ARCH_LIST=9.0) with a 64 KiB __shared__ array built without a word.
SCENARIOS: dict[str, tuple[str, str, str]] = {
    "triton-matmul-shared": ("shared-memory", "triton", TRITON_MM + """
cfg = dict(BM=256, BN=256, BK=128, num_stages=4, num_warps=8)
ck = matmul.warmup(*args, grid=(M // 256, N // 256), **cfg)
truth(required=ck.metadata.shared, limit=max_shared)
matmul[(M // 256, N // 256)](*args, **cfg)
torch.cuda.synchronize()
"""),
    "triton-autotune-all-shared": ("shared-memory", "triton", TRITON_MM + """
configs = [triton.Config(dict(BM=256, BN=256, BK=128), num_stages=s, num_warps=8) for s in (4, 5)]
tuned = triton.autotune(configs=configs, key=["M"])(matmul)
first = matmul.warmup(*args, grid=(M // 256, N // 256), BM=256, BN=256, BK=128, num_stages=4, num_warps=8)
second = matmul.warmup(*args, grid=(M // 256, N // 256), BM=256, BN=256, BK=128, num_stages=5, num_warps=8)
truth(required=[first.metadata.shared, second.metadata.shared], limit=max_shared)
tuned[lambda meta: (M // meta["BM"], N // meta["BN"])](*args)
torch.cuda.synchronize()
"""),
    "triton-64-warps": ("threads", "triton", """
import torch, triton, triton.language as tl

@triton.jit
def add(x, y, z, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(z + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)

n = 1 << 20
x = torch.randn(n, device="cuda"); y = torch.randn_like(x); z = torch.empty_like(x)
truth(required=64 * 32, limit=1024)
add[(n // 4096,)](x, y, z, n, BLOCK=4096, num_warps=64)
torch.cuda.synchronize()
"""),
    "triton-numel-cap": ("off-chip", "triton", """
import torch, triton, triton.language as tl

@triton.jit
def big(x, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x + offs, tl.load(x + offs) * 2)

x = torch.randn(1 << 21, device="cuda")
truth(note="Triton caps a block at 1048576 elements: a front-end limit, not an on-chip one")
big[(1,)](x, BLOCK=1 << 21)
"""),
    "triton-grid-y": ("off-chip", "triton", """
import torch, triton, triton.language as tl

@triton.jit
def fill(x, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x + offs, offs.to(tl.float32))

x = torch.empty(128, device="cuda")
truth(note="grid y over 65535: a grid limit")
fill[(1, 70000)](x, BLOCK=128)
torch.cuda.synchronize()
"""),
    "inductor-flex-attention-d512": ("shared-memory", "torch", """
import torch
from torch.nn.attention.flex_attention import flex_attention
q, k, v = (torch.randn(1, 4, 1024, 512, device="cuda", dtype=torch.bfloat16) for _ in range(3))
truth(note="head_dim 512 in bf16: the default tiles need more shared memory than 227 KiB")
out = torch.compile(flex_attention)(q, k, v)
torch.cuda.synchronize()
"""),
    "torch-device-oom": ("off-chip", "torch", """
import torch
truth(note="device memory, not on chip")
x = torch.empty(300 * 1024**3, dtype=torch.uint8, device="cuda")
"""),
    "cupy-optin-attribute": ("shared-memory", "cupy", """
import cupy as cp
src = r'''extern "C" __global__ void k@DYNAMIC@'''
k = cp.RawKernel(src, "k")
x = cp.ones(256, dtype=cp.float32)
truth(required=300000, limit=cp.cuda.runtime.getDeviceProperties(0)["sharedMemPerBlockOptin"])
k.max_dynamic_shared_size_bytes = 300000
k((1,), (256,), (x,), shared_mem=300000)
cp.cuda.Device().synchronize()
"""),
    "cupy-dynamic-without-optin": ("shared-memory", "cupy", """
import cupy as cp
src = r'''extern "C" __global__ void k@DYNAMIC@'''
k = cp.RawKernel(src, "k")
x = cp.ones(256, dtype=cp.float32)
truth(required=100000, limit=49152)
k((1,), (256,), (x,), shared_mem=100000)
cp.cuda.Device().synchronize()
"""),
    "cupy-block-2048": ("threads", "cupy", """
import cupy as cp
src = r'''extern "C" __global__ void k(float* x) { x[threadIdx.x] += 1.0f; }'''
k = cp.RawKernel(src, "k")
x = cp.ones(2048, dtype=cp.float32)
truth(required=2048, limit=1024)
k((1,), (2048,), (x,))
cp.cuda.Device().synchronize()
"""),
    "cupy-static-shared-128k": ("static-shared-memory|shared-memory", "cupy", """
import cupy as cp
src = r'''extern "C" __global__ void k(float* x) {
    __shared__ float s[32768];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = s[(threadIdx.x * 7) % 32768];
}'''
k = cp.RawKernel(src, "k")
x = cp.ones(256, dtype=cp.float32)
truth(required=131072, limit=49152)
k((1,), (256,), (x,))
cp.cuda.Device().synchronize()
"""),
    "cupy-registers-701": ("registers|threads", "cupy", """
import cupy as cp
src = r'''extern "C" __global__ void heavy@HEAVY@'''
k = cp.RawKernel(src, "heavy", options=("--maxrregcount=128",))
x = cp.ones(1024 * 96, dtype=cp.float32)
y = cp.empty(1024, dtype=cp.float32)
truth(registers=k.num_regs, threads=1024, max_threads=k.max_threads_per_block)
k((1,), (1024,), (x, y))
cp.cuda.Device().synchronize()
"""),
    "jax-pallas-triton-shared": ("shared-memory", "jax", """
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

def kernel(x_ref, y_ref, o_ref):
    o_ref[...] = jnp.dot(x_ref[...], y_ref[...], preferred_element_type=jnp.float32)

x = jnp.ones((256, 1024), jnp.float32)
y = jnp.ones((1024, 256), jnp.float32)
truth(note="a 256x1024 by 1024x256 fp32 block product in one program")
out = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((256, 256), jnp.float32))(x, y)
print(out.block_until_ready()[0, 0])
"""),
    "jax-device-oom": ("off-chip", "jax", """
import jax, jax.numpy as jnp
truth(note="device memory, not on chip")
x = jnp.ones((300 * 1024**3 // 4,), jnp.float32)
print(x.block_until_ready()[0])
"""),
    "nvcc-static-shared-64k": ("static-shared-memory|shared-memory", "nvcc", r"""
import subprocess, tempfile, os
src = '''__global__ void k(float* x) {
    __shared__ float s[16384];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = s[(threadIdx.x * 7) % 16384];
}
'''
d = tempfile.mkdtemp()
open(os.path.join(d, "k.cu"), "w").write(src)
truth(required=65536, limit=49152)
r = subprocess.run(["nvcc", "-arch=sm_90", "-c", "k.cu", "-o", "k.o"], cwd=d)
sys.exit(r.returncode)
"""),
    "nvcc-spills-maxrregcount": ("registers", "nvcc", r"""
import subprocess, tempfile, os
src = '''__global__ void heavy@HEAVY@
'''
d = tempfile.mkdtemp()
open(os.path.join(d, "heavy.cu"), "w").write(src)
truth(registers=32)
r = subprocess.run(["nvcc", "-arch=sm_90", "-c", "-Xptxas", "-v", "-maxrregcount=32", "heavy.cu", "-o", "heavy.o"],
                   cwd=d)
sys.exit(r.returncode)
"""),
    "nvcc-warn-spills-launch-bounds": ("registers", "nvcc", r"""
import subprocess, tempfile, os
src = '''__global__ void __launch_bounds__(1024, 2) heavy@HEAVY@
'''
d = tempfile.mkdtemp()
open(os.path.join(d, "heavy.cu"), "w").write(src)
truth(registers=32, threads=1024, blocks_per_sm=2)
r = subprocess.run(["nvcc", "-arch=sm_90", "-c", "-Xptxas", "-warn-spills", "heavy.cu", "-o", "heavy.o"], cwd=d)
sys.exit(r.returncode)
"""),
    "cuda-runtime-block-2048": ("threads", "nvcc", r"""
import subprocess, tempfile, os
src = '''#include <cstdio>
__global__ void k(float* x) { x[threadIdx.x] += 1.0f; }
int main() {
    float* x;
    cudaMalloc(&x, 2048 * sizeof(float));
    k<<<1, 2048>>>(x);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "CUDA error at main.cu:7: %s (%s)\\n", cudaGetErrorString(err), cudaGetErrorName(err));
        return 1;
    }
    return 0;
}
'''
d = tempfile.mkdtemp()
open(os.path.join(d, "main.cu"), "w").write(src)
subprocess.run(["nvcc", "-arch=sm_90", "main.cu", "-o", "main"], cwd=d, check=True)
truth(required=2048, limit=1024)
sys.exit(subprocess.run(["./main"], cwd=d).returncode)
"""),
    "cuda-runtime-optin-300000": ("shared-memory", "nvcc", r"""
import subprocess, tempfile, os
src = '''#include <cstdio>
__global__ void k(float* x) { extern __shared__ float s[]; s[threadIdx.x] = x[threadIdx.x]; __syncthreads();
    x[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x]; }
int main() {
    float* x;
    cudaMalloc(&x, 256 * sizeof(float));
    int bytes = 300000;
    cudaError_t err = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
    if (err != cudaSuccess) {
        fprintf(stderr, "cudaFuncSetAttribute(MaxDynamicSharedMemorySize, %d) failed: %s\\n", bytes,
                cudaGetErrorString(err));
        return 1;
    }
    k<<<1, 256, bytes>>>(x);
    return cudaDeviceSynchronize() != cudaSuccess;
}
'''
d = tempfile.mkdtemp()
open(os.path.join(d, "main.cu"), "w").write(src)
subprocess.run(["nvcc", "-arch=sm_90", "main.cu", "-o", "main"], cwd=d, check=True)
truth(required=300000, limit=232448)
sys.exit(subprocess.run(["./main"], cwd=d).returncode)
"""),
    "cuda-runtime-registers-701": ("registers|threads", "nvcc", r"""
import subprocess, tempfile, os
src = '''#include <cstdio>
__global__ void heavy@HEAVY@
int main() {
    float *x, *y;
    cudaMalloc(&x, 1024 * 96 * sizeof(float));
    cudaMalloc(&y, 1024 * sizeof(float));
    heavy<<<1, 1024>>>(x, y);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "kernel launch failed: %s\\n", cudaGetErrorString(err));
        return 1;
    }
    return 0;
}
'''
d = tempfile.mkdtemp()
open(os.path.join(d, "main.cu"), "w").write(src)
subprocess.run(["nvcc", "-arch=sm_90", "-maxrregcount=128", "main.cu", "-o", "main"], cwd=d, check=True)
truth(threads=1024)
sys.exit(subprocess.run(["./main"], cwd=d).returncode)
"""),
    "cupy-launch-bounds-512": ("threads", "cupy", """
import cupy as cp
src = r'''extern "C" __global__ void __launch_bounds__(256) k(float* x) { x[threadIdx.x] += 1.0f; }'''
k = cp.RawKernel(src, "k")
x = cp.ones(512, dtype=cp.float32)
truth(required=512, limit=k.max_threads_per_block)
k((1,), (512,), (x,))
cp.cuda.Device().synchronize()
"""),
    "jax-pallas-triton-64-warps": ("threads", "jax", """
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0

x = jnp.ones((4096,), jnp.float32)
truth(required=2048, limit=1024)
out = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((4096,), jnp.float32),
                     compiler_params=pltriton.CompilerParams(num_warps=64))(x)
print(out.block_until_ready()[0])
"""),
    "torch-dataloader-small-shm": ("off-chip", "torch", r"""
import subprocess, tempfile, os
inner = '''
import torch
from torch.utils.data import DataLoader, Dataset
class Big(Dataset):
    def __len__(self):
        return 64
    def __getitem__(self, i):
        return torch.ones(4 * 1024 * 1024)
for batch in DataLoader(Big(), batch_size=8, num_workers=2):
    pass
'''
d = tempfile.mkdtemp()
open(os.path.join(d, "train.py"), "w").write(inner)
truth(note="host /dev/shm of 1 MiB under DataLoader workers")
cmd = "mount -t tmpfs -o size=1m tmpfs /dev/shm && exec " + sys.executable + " train.py"
sys.exit(subprocess.run(["unshare", "-m", "sh", "-c", cmd], cwd=d).returncode)
"""),
    "liger-rmsnorm-131072": ("off-chip", "liger", """
import torch
from liger_kernel.transformers import LigerRMSNorm
norm = LigerRMSNorm(131072).cuda()
x = torch.randn(4, 131072, device="cuda")
truth(required=131072, limit=65536, note="Liger-Kernel's own cap on a fused row")
norm(x)
torch.cuda.synchronize()
"""),
    "sdpa-flash-head-dim-512": ("off-chip", "torch", """
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
q, k, v = (torch.randn(1, 4, 1024, 512, device="cuda", dtype=torch.float16) for _ in range(3))
truth(note="FlashAttention's supported head dims: a shape check, not a memory limit")
with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
    F.scaled_dot_product_attention(q, k, v)
torch.cuda.synchronize()
"""),
    "torch-extension-registers-701": ("registers|threads", "torch", TORCH_EXT + """
x = torch.ones(1024 * 96, device="cuda")
y = torch.empty(1024, device="cuda")
truth(threads=1024)
ext.run_heavy(x, y)
torch.cuda.synchronize()
"""),
    "cuda-core-block-2048": ("threads", "cuda.core", CUDA_CORE + """
k = kernel('extern "C" __global__ void k(float* x) { x[threadIdx.x] += 1.0f; }')
truth(required=2048, limit=1024)
launch(s, LaunchConfig(grid=1, block=2048), k, buf)
s.sync()
"""),
    "cuda-core-dynamic-smem-100000": ("shared-memory", "cuda.core", CUDA_CORE + """
k = kernel('extern "C" __global__ void k(float* x) { extern __shared__ float t[]; t[threadIdx.x] = x[threadIdx.x]; '
           'x[threadIdx.x] = t[0]; }')
truth(required=100000)
launch(s, LaunchConfig(grid=1, block=256, shmem_size=100000), k, buf)
s.sync()
"""),
    "torch-extension-optin-300000": ("shared-memory", "torch", TORCH_EXT + """
x = torch.ones(256, device="cuda")
truth(required=300000, limit=232448)
ext.run_dynamic(x, 300000)
torch.cuda.synchronize()
"""),
    "torch-extension-block-2048": ("threads", "torch", TORCH_EXT + """
x = torch.ones(2048, device="cuda")
truth(required=2048, limit=1024)
ext.run_block(x, 2048)
torch.cuda.synchronize()
"""),
    "nvcc-shared-initializer": ("off-chip", "nvcc", r"""
import subprocess, tempfile, os
src = '''__global__ void k(float* x) {
    __shared__ float s[4] = {0.0f, 1.0f, 2.0f, 3.0f};
    x[threadIdx.x] = s[threadIdx.x % 4];
}
'''
d = tempfile.mkdtemp()
open(os.path.join(d, "k.cu"), "w").write(src)
truth(note="a language rule on __shared__ variables, not a size")
r = subprocess.run(["nvcc", "-arch=sm_90", "-c", "k.cu", "-o", "k.o"], cwd=d)
sys.exit(r.returncode)
"""),
    "cuda-runtime-local-memory-launch": ("off-chip", "nvcc", r"""
import subprocess, tempfile, os
src = '''#include <cstdio>
__global__ void k(const int* idx, float* y) {
    float a[100000];
    for (int i = 0; i < 100000; i++) a[i] = i * 0.5f;
    y[blockIdx.x * blockDim.x + threadIdx.x] = a[idx[threadIdx.x]];
}
int main() {
    int* idx; float* y;
    cudaMalloc(&idx, 1024 * sizeof(int));
    cudaMemset(idx, 0, 1024 * sizeof(int));
    cudaMalloc(&y, 132 * 2048 * sizeof(float));
    k<<<264, 1024>>>(idx, y);
    cudaError_t err = cudaDeviceSynchronize();
    if (err == cudaSuccess) err = cudaGetLastError();
    printf("launch of 264 x 1024 threads with 400000 B of local memory each: %s (%s)\\n", cudaGetErrorString(err),
           cudaGetErrorName(err));
    return err != cudaSuccess;
}
'''
d = tempfile.mkdtemp()
open(os.path.join(d, "main.cu"), "w").write(src)
subprocess.run(["nvcc", "-arch=sm_90", "main.cu", "-o", "main"], cwd=d, check=True)
truth(note="local memory for every resident thread comes from device memory")
sys.exit(subprocess.run(["./main"], cwd=d).returncode)
"""),
    "cupy-shared-out-of-bounds": ("off-chip", "cupy", """
import cupy as cp
src = r'''extern "C" __global__ void k(float* x) {
    extern __shared__ float s[];
    s[threadIdx.x + (1 << 24)] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = s[threadIdx.x];
}'''
k = cp.RawKernel(src, "k")
x = cp.ones(256, dtype=cp.float32)
truth(note="a write far past the block's dynamic shared memory: a kernel bug, not a shortage")
k((1,), (256,), (x,), shared_mem=1024)
cp.cuda.Device().synchronize()
"""),
    "triton-out-of-bounds-pointer": ("off-chip", "triton", """
import torch, triton, triton.language as tl

@triton.jit
def scale(x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x + offs + (1 << 40), tl.load(x + offs) * 2)

x = torch.randn(4096, device="cuda")
truth(note="an unmasked store far out of bounds: an illegal address, not a shortage")
scale[(4,)](x, 4096, BLOCK=1024)
torch.cuda.synchronize()
"""),
    "inductor-user-autotune-all-shared": ("shared-memory", "torch", TRITON_MM + """
configs = [triton.Config(dict(BM=256, BN=256, BK=128), num_stages=s, num_warps=8) for s in (4, 5)]
tuned = triton.autotune(configs=configs, key=["M"])(matmul)

def f(a, b):
    c = torch.empty(a.shape[0], b.shape[1], device=a.device, dtype=torch.float16)
    tuned[lambda meta: (M // meta["BM"], N // meta["BN"])](a, b, c, M, N, K, a.stride(0), a.stride(1),
                                                             b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    return c

truth(required=[524288, 655360], limit=max_shared)
torch.compile(f)(a, b)
torch.cuda.synchronize()
"""),
    "jax-mosaic-gpu-smem": ("shared-memory", "jax", MOSAIC_GPU + """
truth(required=65536 * 4, note="256 KiB of SMEM scratch; the device's opt-in maximum is the limit")
f = kernel(body, out_type=jax.ShapeDtypeStruct((128,), jnp.float32),
           scratch_types=[plgpu.SMEM((65536,), jnp.float32)])
print(f(x).block_until_ready()[0])
"""),
    "jax-mosaic-gpu-9-warpgroups": ("threads", "jax", MOSAIC_GPU + """
truth(required=9 * 128, limit=1024)
f = kernel(body3, out_type=jax.ShapeDtypeStruct((128,), jnp.float32), num_threads=9, thread_name="wg")
print(f(x).block_until_ready()[0])
"""),
    "numba-block-2048": ("threads", "numba", NUMBA + """
@cuda.jit
def k(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] += 1
truth(required=2048, limit=1024)
k[1, 2048](x)
cuda.synchronize()
"""),
    "numba-block-z-128": ("threads", "numba", NUMBA + """
@cuda.jit
def k(x):
    x[cuda.threadIdx.z] += 1
truth(required=128, limit=64)
k[1, (1, 1, 128)](x)
cuda.synchronize()
"""),
    "numba-dynamic-smem-100000": ("shared-memory", "numba", NUMBA + """
from numba import float32
@cuda.jit
def k(x):
    s = cuda.shared.array(0, dtype=float32)
    s[cuda.threadIdx.x] = x[cuda.threadIdx.x]
    cuda.syncthreads()
    x[cuda.threadIdx.x] = s[(cuda.threadIdx.x + 1) % cuda.blockDim.x]
truth(required=100000)
k[1, 256, 0, 100000](x)
cuda.synchronize()
"""),
    "numba-registers-701": ("registers|threads", "numba", NUMBA + "@NUMBA_HEAVY@" + """
y = cuda.device_array(1 << 16, dtype=np.float32)
truth(note="about 160 registers per thread at 1024 threads: more than the 64K-register file")
heavy[1, 1024](x, y)
cuda.synchronize()
"""),
    "numba-grid-y-70000": ("off-chip", "numba", NUMBA + """
@cuda.jit
def k(x):
    x[cuda.blockIdx.y % x.size] += 1
truth(note="grid y over 65535: a grid limit")
k[(1, 70000), (32, 1)](x)
cuda.synchronize()
"""),
    "numba-device-oom": ("off-chip", "numba", NUMBA + """
truth(note="device memory: 2 TB asked of a 141 GB card")
big = cuda.device_array(1 << 39, dtype=np.float32)
"""),
    "cupy-grid-y-70000": ("off-chip", "cupy", """
import cupy as cp
src = r'''extern "C" __global__ void k(float* x) { x[blockIdx.y % 64] += 1.0f; }'''
k = cp.RawKernel(src, "k")
x = cp.ones(64, dtype=cp.float32)
truth(note="grid y over 65535: a grid limit")
k((1, 70000), (32,), (x,))
cp.cuda.Device().synchronize()
"""),
}

SCENARIOS = {name: (label, stack, body.replace("@HEAVY@", HEAVY).replace("@DYNAMIC@", DYNAMIC)
                    .replace("@NUMBA_HEAVY@", NUMBA_HEAVY))
             for name, (label, stack, body) in SCENARIOS.items()}

TAIL_LINES = 60
# one build of the CUDA extension, shared by the scenarios that use it (torch's lock serialises the builds)
_EXT_DIR = os.path.join(tempfile.gettempdir(), "tilefit_device_ext")


def _run_one(name: str, timeout: float) -> dict[str, Any]:
    resource, stack, body = SCENARIOS[name]
    with tempfile.TemporaryDirectory() as tmp:
        prog = Path(tmp, f"{name.replace('-', '_')}.py")
        prog.write_text(PRELUDE + textwrap.dedent(body))
        truth_path = Path(tmp, "truth.json")
        env = dict(os.environ, TILEFIT_TRUTH=str(truth_path), PYTHONUNBUFFERED="1", TILEFIT_EXT_DIR=_EXT_DIR,
                   XLA_PYTHON_CLIENT_PREALLOCATE="false")
        try:
            done = subprocess.run([sys.executable, prog.name], cwd=tmp, env=env, capture_output=True, text=True,
                                  timeout=timeout)
            out, rc = done.stdout + done.stderr, done.returncode
        except subprocess.TimeoutExpired as exc:
            out = (exc.stdout or b"").decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
            rc = -9
        truth = json.loads(truth_path.read_text()) if truth_path.exists() else {}
    lines = out.rstrip("\n").split("\n")
    return {"scenario": name, "stack": stack, "resource": resource, "rc": rc, "truth": truth,
            "log": "\n".join(lines[-TAIL_LINES:])}


def _versions() -> dict[str, str]:
    probe = ("import importlib.metadata as m\n"
             "for p in ('torch','triton','cupy-cuda13x','jax','jaxlib','liger-kernel','numba','numba-cuda',\n"
             "          'cuda-core'):\n"
             "    try: print(p, m.version(p))\n"
             "    except Exception: pass\n"
             "import torch; print('gpu', torch.cuda.get_device_name(0))\n")
    got = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120).stdout
    versions = dict(line.split(" ", 1) for line in got.splitlines() if " " in line)
    nvcc = subprocess.run(["nvcc", "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    versions["nvcc"] = nvcc[-1] if nvcc else ""
    return versions


def run(path: str, names: list[str], timeout: float = 300.0) -> None:
    os.makedirs(_EXT_DIR, exist_ok=True)
    versions = _versions()
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        rows = list(pool.map(lambda n: _run_one(n, timeout), names or list(SCENARIOS)))
    with open(path, "w") as f:
        for row in rows:
            row["versions"] = versions
            f.write(json.dumps(row) + "\n")
            print(f"{row['scenario']:36} rc={row['rc']:<4} {row['resource']:36} {json.dumps(row['truth'])[:100]}")


def check(path: str) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from tilefit.kb.repository import load_kb
    from tilefit.match.judge import recognised
    from tilefit.match.matcher import match

    kb = load_kb()
    rows = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    good = 0
    for row in rows:
        ok = recognised(row, kb)
        good += ok
        got = [(m.entry.id, m.required, m.limit) for m in match(row["log"], kb) if m.entry.on_chip][:2]
        print(f"{'ok  ' if ok else 'MISS'} {row['url']:60} want {row['resource']} "
              f"{row.get('required')}/{row.get('limit')}  got {got}")
    print(f"{good}/{len(rows)} recognised")
    return 0 if good == len(rows) else 1


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "run" and set(sys.argv[3:]) <= set(SCENARIOS):
        run(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) == 3 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2]))
    else:
        sys.exit(__doc__)

"""The general rules learnt from fresh-18 to fresh-29, each on the sentence of the real log that taught it.

Whole logs are in tests/data/corpus/fresh{18..29}_logs.jsonl (tests/kb/test_fresh_separate.py); these cases pin
the rule itself, so that a later change that breaks one names it.
"""

from __future__ import annotations

import pytest

from tilefit.kb.repository import load_kb
from tilefit.match.matcher import match

KB = load_kb()


def _first_on_chip(text: str) -> tuple[str, int | None, int | None] | None:
    on_chip = [m for m in match(text, KB) if m.entry.on_chip]
    return (on_chip[0].entry.resource, on_chip[0].required, on_chip[0].limit) if on_chip else None


@pytest.mark.parametrize(("text", "expected"), [
    # pascal-pkgs-ci#25: Triton's exception as a logger prints it (its repr)
    ("ERROR 05-20 16:28:24 [engine.py:161] OutOfResources(98304, 49152, 'shared memory')",
     ("shared-memory", 98304, 49152)),
    # triton#11358: the same for tensor memory
    ("all four focused cases failed with `OutOfResources(576, 512, 'tensor memory')` before the fix",
     ("tensor-memory", 576, 512)),
    # FreeToken#19: the resource name lost in a table cell
    ("| `main` @ `2757bb5` | OK | **FAIL** — `OutOfResources: Required: 81920, Hardware limit: 65536` |",
     ("shared-memory", 81920, 65536)),
    # arrayfire#2028: CUDA's 701 by its code alone
    ("In file src/backend/cuda/jit.cpp:469\nCU Error (701)\n", ("registers", None, None)),
    # web-llm#644: MLC's own WebGPU check
    ("Error: Cannot initialize runtime because of requested maxComputeWorkgroupStorageSize exceeds limit. "
     "requested=32768, limit=16384.", ("shared-memory", 32768, 16384)),
    # tfjs#5494: Dawn/Tint
    ("Tint Reflection failure:\nWorkgroup X dimension exceeds maximum allowed:512 > 256", ("threads", 512, 256)),
    # Vulkan-Samples#165: the validation layer's per-dimension limit, an index in brackets
    ("VkShaderModule 0x4c000000004c[] local_size_x (256) exceeds device limit maxComputeWorkGroupSize[0] (128).",
     ("threads", 256, 128)),
    # chipStar#1611, Metal.jl#132: other runtimes' thread checks
    ("chipStar rejected the launch with `Requested total local size 500 exceeds HW limit 384`", ("threads", 500, 384)),
    ("ArgumentError: Number of threads in group (832) should not exceed 768", ("threads", 832, 768)),
    # triton#8488: ptxas's register count is what the kernel was held to
    ("ptxas fatal   : (C7600) Register allocation failed with register count of '255'. Compile the program with a "
     "higher register target", ("registers", None, 255)),
    # intel-xpu-backend-for-triton#3449: IGC's per-thread scratch space, in bytes
    ("error: total scratch space exceeds HW supported limit for kernel bwd_prepare_wy_repr_kernel: 594720 bytes (max "
     "permitted PTSS 262144 bytes)", ("registers", 594720, 262144)),
    # open-gpu-kernel-modules#29: NCCL's own kernels' shared memory, with NCCL all around it
    ("test:259034:259124 [0] NCCL INFO ncclMaxSharedMem 82240 exceeds device/fn maxSharedMem 79856",
     ("shared-memory", 82240, 79856)),
    # llama.cpp#27674: an occupancy of zero
    ("`GGML_ASSERT(max_blocks_per_sm > 0) failed`. `-fa off` makes the models run.", ("shared-memory", None, None)),
    # HVM1#383: a launch refused with invalid argument
    ("Returns: Failed to launch kernels. Error code: invalid argument.", ("shared-memory", None, None)),
    # futhark#797, MIOpen#25: AMD's OpenCL compiler
    ("error: local memory limit exceeded (139264) in segmap_intragroup_37931", ("shared-memory", 139264, None)),
    # tpu-inference#1820: XLA's allocation report
    ("(EngineCore pid=1866) ERROR 03-19 00:43:27 [core.py:1101] Program vmem requirement 132.51M:",
     ("vmem", 138946806, None)),
    # mpv#4668: "consumes"
    ("```--window-scale=0.2972``` consumes 50544 bytes. My gpu only has 49152 bytes of shared memory.",
     ("shared-memory", 50544, 49152)),
    # AutoDock-GPU#12: an expression's result, not its first factor
    ("Redefine size of \"gradient_per_contributor\" __local array\n\nSo this array consumes 4 bytes * 100 * 100 = "
     "40000 bytes, although the maximum  local memory size for RX-Vega56 GPU is 32768 bytes (according to `clinfo` "
     "output).", ("shared-memory", 40000, 32768)),
    # tokamax#1401: "N bytes vs a M limit"
    ("The GLU tile heuristic ignores the GPU's per-block shared memory, so some\nshapes get a tile that can't compile "
     "(e.g. float32 M=64, K=384, N=4096 on an\n82-SM sm_120: 110592 bytes vs a 101376 limit, measured with Triton "
     "3.8).", ("shared-memory", 110592, 101376)),
    # cufinufft#24 (fresh-28): the request in parentheses, "gpu" inside a function's name
    ("error: not enough shared memory (92160)\nerror: cnufftspread3d_gpu_subprob", ("shared-memory", 92160, None)),
    # Unity PostProcessing#470 (fresh-28): GLSL's work-group invocations
    ("E Unity   : -------- GLSL link error:  Max number of total work group invocations exceeded.",
     ("threads", None, None)),
    # unified-runtime#1322 (fresh-28): SYCL's runtime words
    ("Native API failed. Native API returns: -996 (The plugin has emitted a backend specific error)\nExcessive "
     "allocation of local memory on the device", ("shared-memory", None, None)),
    # ROCm/triton#747 (fresh-27): "threads/block", a count before the limit's noun
    ("Currently, exceeding 16 warps with a warp size of 64 (e.g. on Instinct devices) exceeds the 1024 thread/block "
     "limit and will error out.", ("threads", None, 1024)),
    # helion#2984: an estimate over a cap, XLA's units
    ("At these shapes, Helion's default heuristic config for `xsa_kernel` estimates 134 MB scoped VMEM — over TPU "
     "v7's 64 MB cap.", ("scoped-vmem", 140509184, 67108864)),
    # FlagGems#5258: counts read over a wrapped line
    ("`num_warps=16` results in `16 * 64 = 1024` threads per block, which exceeds\nthe hardware limit of 512 "
     "threads.", ("threads", 1024, 512)),
    # llama.cpp#15375: a partial match's missing number
    ("For large tensors, the workgroup size may exceed the kernel limit, resulting in kernel launch failure. E.g., "
     "the max workgroup size for this kernel on A750 is 896 but 1024 is required.", ("threads", 1024, 896)),
    # Stratified-Transformer#22: the block is named, and the limit ends the sentence
    ("When I note the code 'assert n_max <= 1024', there will be an CUDA error: invalid configuration argument. We "
     "have the constraint because the maximum threads of a CUDA thread block is 1024.", ("threads", None, 1024)),
    # triton#6106, sglang#10023 (fresh-29): a block's warps
    ("Cap warp count based on device warp size\n\nSome devices have warp size 64, so trying to launch a kernel with "
     ">16 warps is invalid.", ("threads", None, None)),
    ("[TP0] QY1/QY2 has 128 threads per warp, one should limit number of warps not exceed 8, so decrease "
     "self.num_warps: 32 to 8", ("threads", None, None)),
    # reims-vgpu#40: NVIDIA's Xid 13 for a block's registers
    ("This results in `Xid 13: SKEDCHECK19_CTA_REGISTER_CONSUMPTION failed` in kernel log on the Tesla P100.",
     ("registers", None, None)),
])
def test_learnt_wordings_are_read(text: str, expected: tuple[str, int | None, int | None]) -> None:
    assert _first_on_chip(text) == expected


@pytest.mark.parametrize("text", [
    # ReBarUEFI#48: a BIOS's PCI resources
    "I get POST code d4:\n\n0xD4 PCI resource allocation error. Out of Resources",
    # llama.cpp#9476: host memory in SYCL's words
    "Update run-llama2.sh, set context with default value 8192 to avoid memory out of resource issue with SYCL.",
    # hashcat#2221: a warning that a timeout may cause CL_OUT_OF_RESOURCES is not the error
    "* Device #1: WARNING! Kernel exec timeout is not disabled.\n This may cause \"CL_OUT_OF_RESOURCES\" or related "
    "errors.\nOpenCL Platform #1: NVIDIA Corporation",
    # john#1571: CL_OUT_OF_RESOURCES after a GPU hang
    "drm_intel_gem_bo_context_exec() failed: Input/output error\nOpenCL CL_OUT_OF_RESOURCES error in "
    "opencl_office2013_fmt_plug.c:328 - failed in clEnqueue",
    # llama.cpp#22893: a module that did not load, next to the occupancy call
    "CUDA error: shared object initialization failed\n  current device: 0, in function launch_fattn at "
    "fattn-common.cuh:1428\n  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&max_blocks_per_sm, fattn_kernel, "
    "block_dim.x * block_dim.y * block_dim.z, nbytes_shared)",
    # realm#365: a 701 traced to the parameter buffer
    "The CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (error 701) was caused by parameter passing incompatibility when using "
    "CU_LAUNCH_PARAM_BUFFER_POINTER with small (1-byte) reduction operator structs.",
    # chipStar#1432: an API that is not implemented
    "`hipFuncSetAttribute` returns `hipErrorNotSupported` (CHIPBindings.cc:182), so any kernel that opts into a "
    "larger dynamic shared memory limit fails at launch time.",
    # TornadoVM#160 (fresh-28): OpenCL's out-of-resources on a buffer write
    "[JNI] uk.ac.manchester.tornado.drivers.opencl> CL_OUT_OF_RESOURCES error executing CL_COMMAND_WRITE_BUFFER on "
    "NVIDIA GeForce GTX 1080 Ti (Device 0).",
    # genbmm#12, CudaSift#50: invalid configuration with nothing about the block is the grid
    "I found that this error will raise when the batch size dimension is too large.\n`RuntimeError: CUDA error: "
    "invalid configuration argument`",
    "checkMsg() CUDA error: LowPass() execution failed\n in file <cudaSiftH.cu>, line 416 : invalid configuration "
    "argument.",
])
def test_learnt_look_alikes_stay_off_chip(text: str) -> None:
    assert _first_on_chip(text) is None


def test_invalid_configuration_alone_is_read_as_the_grid() -> None:
    found = match("RuntimeError: CUDA error: invalid configuration argument", KB)
    assert [(m.entry.id, m.entry.resource, m.entry.on_chip) for m in found] == [
        ("cuda/invalid-configuration-grid", "grid", False)]

"""Messages compilers and runtimes print when a kernel runs out of an on-chip resource, as their sources word them.

Each case is the message of the named project with plausible numbers filled in, behind a traceback frame of that
project (what a pasted log shows around it). These are the wordings explain11 learnt from the projects' own
sources rather than from a user's paste; the real logs are the corpus tests.
"""

from __future__ import annotations

import pytest

from tilefit.kb.repository import load_kb
from tilefit.match.matcher import match

KB = load_kb()


def _read(project: str, message: str) -> tuple[str, int | None, int | None] | None:
    log = f'  File "/usr/local/lib/python3.11/site-packages/{project}/kernel.py", line 212, in launch\n{message}'
    on_chip = [m for m in match(log, KB) if m.entry.on_chip]
    return (on_chip[0].entry.resource, on_chip[0].required, on_chip[0].limit) if on_chip else None


@pytest.mark.parametrize(("project", "message", "expected"), [
    # Intel's GPU runtime (compute-runtime)
    ("compute-runtime", "Size of SLM (196608) larger than available (131072)", ("shared-memory", 196608, 131072)),
    # Triton's Intel backend, with the numbers its compiler read, and the spill it retries
    ("triton", "out of resource: per-thread scratch space (PTSS), Required: 270336, Hardware limit: 262144. Reducing "
     "block sizes or `num_stages` may help.", ("registers", 270336, 262144)),
    ("triton", '(I): Detected 1024 spills for  "_attn_fwd"', ("registers", None, None)),
    # libtpu's decimal megabytes (134.22 MB is 128 MiB)
    ("helion", "XLA:TPU compile permanent error. Ran out of memory in memory space vmem. Estimated 150.99MB exceeds "
     "134.22MB vmem capacity.", ("vmem", 150990000, 134220000)),
    # Dawn (Chrome's WebGPU)
    ("dawn", "The total use of workgroup storage (65536 bytes) is larger than the maximum allowed (32768 bytes).",
     ("shared-memory", 65536, 32768)),
    ("dawn", "Entry-point uses workgroup_size(2048, 1, 1) that exceeds the maximum allowed (1024, 1024, 64).",
     ("threads", 2048, 1024)),
    # Direct3D's older compiler (FXC)
    ("fxc", "error X4586: The total amount of group shared memory (131072 bytes) exceeds the cs_5_1 limit of 32768 "
     "bytes", ("shared-memory", 131072, 32768)),
    # a program's own check, with bare numbers after "larger than"
    ("sglang", "RuntimeError: shared memory size 196608 is larger than the device limit 101376",
     ("shared-memory", 196608, 101376)),
    # AMDGPU's register allocator (AMDGPU.jl#536 prints it bare)
    ("amdgpu", "error: ran out of registers during register allocation", ("registers", None, None)),
    # Metal.jl and CUDA.jl's launch checks
    ("Metal.jl", "Total used threadgroupMemoryLength(49152) must be <= 32768 bytes.", ("shared-memory", 49152, 32768)),
    ("CUDA.jl", "Amount of dynamic shared memory exceeds kernel limit (96.000 KiB > 48.000 KiB).",
     ("shared-memory", 98304, 49152)),
    ("CUDA.jl", "Amount of dynamic shared memory exceeds device limit (400.000 KiB > 48.000 KiB).",
     ("shared-memory", 409600, 49152)),
    # JAX: Mosaic GPU and its Triton kernels
    ("jax", "Mosaic GPU kernel exceeds available shared memory: smem_bytes=264192 > max_smem_bytes=232448",
     ("shared-memory", 264192, 232448)),
    ("jax", "Shared memory requested (262144 b) exceeds device resources (232448 b).",
     ("shared-memory", 262144, 232448)),
    ("jax", "Total TMEM allocation exceeds memory limit. Requested 768 columns which exceeds limit of 512.",
     ("tensor-memory", 768, 512)),
    # nvFuser
    ("nvfuser", "Not enough tensor memory columns: tried to allocate 768, but only 512 available.",
     ("tensor-memory", 768, 512)),
    # CUTLASS's CuTe DSL launch checks
    ("cutlass", "dynamic shared memory = 262144 bytes exceeds max opt-in shared memory per block = 232448 bytes.",
     ("shared-memory", 262144, 232448)),
    ("cutlass", "Too many registers needed: 98304 (SM register file capacity: 65536)", ("registers", 98304, 65536)),
    # FlashInfer's own checks
    ("flashinfer", "SharedStorage requires 114688 bytes but sm_120 provides 101376 bytes. Reduce head_dim (currently "
     "256) or tile size.", ("shared-memory", 114688, 101376)),
    # TileLang's launcher: CUDA's 701 after the kernel name
    ("tilelang", "Failed to launch kernel main_kernel on device 0: 701", ("registers", None, None)),
    # tpu-inference's tuner: an estimate over the limit, both as names (VMEM named first; the limit is the kernel's
    # vmem_limit_bytes, scoped VMEM's, the finer resource of the sentence)
    ("tpu_inference", "[Debug] Skip (page_size=128, tunable_params.bkv_p=64, tunable_params.bq_sz=256) because "
     "vmem_estimate=71303168 > VMEM_LIMIT_BYTES=62914560", ("scoped-vmem", 71303168, 62914560)),
    # AITER's instance generator: the size right before "exceeds" is the requirement
    ("aiter", "LDS=96KiB exceeds 64KiB", ("shared-memory", 98304, 65536)),
    # Helion's CuTe backend: a bound written as "the N-byte capacity"
    ("helion", "Backend 'cute' does not support: tcgen05 grouped N,M worklist generated allocations require 245760 "
     "bytes of per-CTA SMEM, exceeding the 232448-byte capacity", ("shared-memory", 245760, 232448)),
    # DirectX Shader Compiler's validator (HLSL groupshared)
    ("dxc", "error: Total Thread Group Shared Memory storage is 65536, exceeded 32768.",
     ("shared-memory", 65536, 32768)),
    # libtpu's newer SMEM report, the space not repeated after the sizes
    ("tpu_inference", "Ran out of memory in memory space smem. Used 1.06M of 1.00M (+66.1K)",
     ("tpu-smem", 1111491, 1048576)),
    # ptxas's callee-register error cut inside the callee's name
    ("cccl", "ptxas error   : Entry function '_ZN3cub6detail4scan16DeviceScanKernelE' with max regcount of 168 calls "
     "function '_ZN3cub6detail4scan10", ("registers", None, 168)),
    # a vLLM check with its bound as a name
    ("vllm", "RuntimeError: multi-step: not enough threads to map block_table to FlashInfer's paged_kv_indices on GPU. "
     "num_queries = 512 blocks = 132 max_threads = 1024", ("threads", None, 1024)),
    # vLLM's MoE LoRA kernel: "not implemented yet" is the fallback, not the shared-memory check
    ("vllm", "RuntimeError: Shared memory usage exceeds device limit, and global memory fallback is not implemented "
     "yet.", ("shared-memory", None, None)),
    # Mesa's GLSL linker, FXC's and the HLSL compilers' limits, Mesa r600's register allocator
    ("mesa", "deferred4_a: deferred4_a: error: Too much shared memory used (36860/32768)",
     ("shared-memory", 36860, 32768)),
    ("fxc", "Build to FXB using FXC error X4505: maximum temp register index exceeded", ("registers", None, None)),
    ("reshade", "110, 1-24 error x3655 : the product of the arguments  of numthreads(2040, 1, 1) must be less or equal "
     "to 1024", ("threads", 2040, 1024)),
    ("mesa", "EE r600_shader.c:3661 r600_shader_from_tgsi - GPR limit exceeded - shader requires 305 registers",
     ("registers", 305, None)),
    # a Gluon test gated off a GPU: a request and a bare bound, "against"
    ("triton", "`test_tma_slice` and `test_tma_im2col[1024 pixels]` need 131,072 bytes of shared memory against "
     "101,376: they skip on `max_shared_mem`", ("shared-memory", 131072, 101376)),
    # Kokkos' own launch checks (CUDA, HIP, SYCL)
    ("kokkos", "Kokkos::TeamPolicy< Cuda > the team size is too large. Team size x vector length must be smaller than "
     "1024.", ("threads", None, 1024)),
    ("kokkos", "Kokkos::TeamPolicy<SYCL> the team size is too large. Team size x vector length is 2048 but must be "
     "smaller than 1024", ("threads", 2048, 1024)),
    ("kokkos", "Kokkos::Impl::ParallelReduce< HIP > requested too large team size.", ("threads", None, None)),
    ("kokkos", "Kokkos::Impl::ParallelReduce< Cuda > requested too much L0 scratch memory",
     ("shared-memory", None, None)),
    ("kokkos", "Kokkos::Impl::ParallelFor<SYCL> insufficient shared memory! Requested 98304 bytes but maximum is 65536",
     ("shared-memory", 98304, 65536)),
    ("kokkos", "Kokkos::Impl::ParallelReduce< HIP > could not find a valid execution configuration: your kernel "
     "requires 98304 bytes of shared memory per block but only 65536 bytes per block are available.",
     ("shared-memory", 98304, 65536)),
    # dmlc/MXNet's check with the runtime's own code for too many resources (7)
    ("mxnet", "src/operator/contrib/proposal.cu:495: Check failed: error == cudaSuccess (7 vs. 0)",
     ("registers", None, None)),
    # LMDeploy's TurboMind check on a block's threads; MLC's (TVM's) thread check
    ("lmdeploy", "[TM][FATAL][0821.14:03:12.123456][rms_norm.cu:515] Check failed: threads <= 1024 (1536 vs. 1024)",
     ("threads", 1536, 1024)),
    ("mlc_llm", "AssertionError: cuda max num threads exceeded: 2048*1*1>1024", ("threads", 2048, 1024)),
    # a static assertion in a .cuh header: the file names the GPU
    ("deep_gemm", "deep_gemm/include/deep_gemm/impls/sm100_bf16_mega_moe.cuh(281): error: static assertion failed with "
     '"Too many registers"', ("registers", None, None)),
    # Liger's own CUDA kernels: the attribute's value is the request; its SM90 planner's "over the N B ... limit"
    ("liger_kernel", "moe_bwd: cudaFuncSetAttribute(MaxDynamicSharedMemorySize=235520, device opt-in limit=232448) "
     "failed: invalid argument", ("shared-memory", 235520, 232448)),
    ("liger_kernel", "phase-serial SMEM union is 241664 B, over the 232448 B Hopper opt-in limit",
     ("shared-memory", 241664, 232448)),
    # TransformerEngine: an assertion's source text, then its message (the "max" of the former is no bound)
    ("transformer_engine", "utils.h:50 in function check_shared_memory_capacity_num_experts: Assertion failed: "
     "shared_memory_size <= static_cast<size_t>(max_smem_per_block). Shared memory size (266240 bytes) exceeds device "
     "capacity (232448 bytes). Try reducing", ("shared-memory", 266240, 232448)),
    ("transformer_engine", "swizzle.cu:2158 in function operator(): Assertion failed: max_active_blocks_per_sm > 0. "
     "Occupancy query returned 0 blocks per SM.", ("shared-memory", None, None)),
    # unsloth's tuner reprints Triton's OutOfResources; Triton's metadata of a spilling kernel
    ("unsloth", "Kernel config KernelConfigForward(BLOCK_SIZE_M=128, num_warps=8, num_stages=4) failed: threads, "
     "required: 2048, limit: 1024", ("threads", 2048, 1024)),
    # (the count Triton compiled to, read since explain30: n_regs is the kernel's registers per thread)
    ("unsloth", "_grouped_gemm_forward_kernel: n_regs=255 n_spills=184 metadata={'num_warps': 8, 'num_stages': 4}",
     ("registers", 255, None)),
    # HPC libraries' own checks: AMReX's SYCL registers, RAJA's threads, RAFT's occupancy, FAISS, Taichi, Cycles,
    # OpenMM's OpenCL codes
    ("amrex", "amrex::Abort::0::ParallelFor: Exceeded the number of registers available on the hardware.\n\tThe "
     "number registers per work-group cannot exceed 65536 for this kernel on this device.",
     ("registers", None, 65536)),
    ("raja", "RAJA::kernel exceeds max num threads", ("threads", None, None)),
    ("raja", "CUDA error: invalid argument cudaLaunchKernel(func=0x4c2d80, gridDim={512,1,1}, blockDim={256,1,1}, "
     "args=0x7ffc1a2b3e40, sharedMem=65536, stream=0x5591c3a8e0f0)", ("shared-memory", 65536, None)),
    ("cuml", "RAFT failure at file=optimize_batch_kernel.cuh line=875: No active blocks for tpb=256 and smem=114688; "
     "adjust the sequential-kernel launch configuration.", ("shared-memory", 114688, None)),
    ("faiss", "GpuIndexIVFPQ.cu:607: Device 0 has 49152 bytes of shared memory, while 8 bits per code and 96 "
     "sub-quantizers requires 98304 bytes.", ("shared-memory", 98304, 49152)),
    ("taichi", "Requested dynamic shared memory size of 262144 bytes, but the device supports max capacity of 232448 "
     "bytes.", ("shared-memory", 262144, 232448)),
    ("cycles", "Launch exceeded resources in CUDA queue enqueue (integrator_shade_surface)", ("registers", None, None)),
    ("openmm", "Error invoking kernel computeNonbonded: clEnqueueNDRangeKernel (-5)", ("registers", None, None)),
    ("openmm", "Error invoking kernel findBlocksWithInteractions: clEnqueueNDRangeKernel (-54)",
     ("threads", None, None)),
    # DXC's newer validator wordings, glslang's mesh/task local_size
    ("dxc", "error: Total Thread Group Shared Memory used by 'main' is 36864, exceeding maximum: 32768.",
     ("shared-memory", 36864, 32768)),
    ("dxc", "Function: main: error: Declared Thread Group Count 2048 (X*Y*Z) is beyond the valid maximum of 1024.",
     ("threads", 2048, 1024)),
    ("glslang", "ERROR: shader.mesh:4: 'local_size' : too large, see gl_MaxMeshWorkGroupSizeEXT",
     ("threads", None, None)),
    # Megablox GMM's tile search against vmem_limit_bytes (tpu-inference, MaxText)
    ("tpu_inference", "ValueError: Could not find valid tile sizes for dims=Dimensions(size_m=8192, size_k=7168, "
     "size_n=4096, size_group=256, size_lhs_group=1, size_lhs_sublane=8) and final_estimate=71303168 (limit: "
     "67108864).", ("scoped-vmem", 71303168, 67108864)),
    # AMD's GEMM generators (Tensile, hipBLASLt), torch-xpu-ops, IPEX's XeTLA static assertions, PyOpenCL, PyCUDA
    ("tensile", "Generating asm kernel error: total vgpr: 272 not in [0, 256]. kernel=Cijk_Ailk_Bljk_HHS_BH_MT256",
     ("registers", 272, 256)),
    ("tensile", "Cijk_Ailk_Bljk_HHS_BH_MT256 overflowed resources. errorCode=1, msg='too many vgprs', vgprs=268, "
     "sgprs=94, accvgprs=256", ("registers", 268, None)),
    ("torch_xpu_ops", "Provided interpolation parameters can not be handled with current algorithm implementation. "
     "Please reduce the scale factor. Too much shared memory required: 143360 vs 131072",
     ("shared-memory", 143360, 131072)),
    ("intel_extension_for_pytorch", "fmha_forward.hpp:88: error: static assertion failed due to requirement "
     "'196608U <= 131072U': The local memory size should be less than arch total local memory size",
     ("shared-memory", 196608, 131072)),
    ("pyopencl", "pyopencl._cl.LogicError: clEnqueueNDRangeKernel failed: INVALID_WORK_ITEM_SIZE",
     ("threads", None, None)),
    ("pycuda", "pycuda._driver.LaunchError: too many threads", ("threads", None, None)),
    ("KernelAbstractions", "ERROR: KernelAbstractions.POCL.nanoOpenCL.CLError(-5)", ("registers", None, None)),
    # a bound stated as what must fit: Liger's SM100 static assertions, FLA's TileLang schedule, tpu-inference's tuner
    ("liger_kernel", 'mlp3.cuh(41): error: static assertion failed with "SM100 MLP3 accumulator stages must fit in 512 '
     'TMEM columns"', ("tensor-memory", None, 512)),
    ("fla", "TileLang backend has no launchable backward schedule for chunk_size 64 with head dim 128 on a device with "
     "166912B shared memory per block; fall back to Triton", ("shared-memory", None, 166912)),
    ("tpu_inference", "[Debug] Skip (page_size=16, tunable_params.bkv_p=64, tunable_params.bq_sz=128) because "
     "smem_estimate=1052672 > SMEM_LIMIT_BYTES=943718.4", ("tpu-smem", 1052672, 943718)),
    # edge runtimes: MediaPipe's glog check against the device's work-group size, LiteRT's and TNN's OpenCL errors
    ("mediapipe", "Check failed: num_classes_ < max_wg_size (1203 vs. 1024) # classes must be < 1024",
     ("threads", 1203, 1024)),
    ("litert", "Failed to clEnqueueNDRangeKernel - Invalid work item size", ("threads", None, None)),
    ("tnn", "OpenCL ERROR CODE : -55", ("threads", None, None)),
    ("tnn", "OpenCL ERROR CODE : -5", ("registers", None, None)),
    # NVIDIA's libraries: NCCL's newer wording, cuDNN frontend's checks and launch reports, cuTile's schedule
    ("nccl", "gpu-node-01:21874:21874 [0] enqueue.cc:81 (ncclInitKernelsForDevice) NCCL WARN cudaArch 900 dynamic smem "
     "82240 exceeds device/fn maxSharedMem 49152", ("shared-memory", 82240, 49152)),
    ("cudnn", "[cudnn_frontend] Error: Skipping plan since shared memory violation. Requires 233472",
     ("shared-memory", 233472, None)),
    ("cudnn", "cudaKernelSetAttributeForDevice failed (smem=237568 bytes, error=invalid argument)",
     ("shared-memory", 237568, None)),
    ("cudnn", "num_threads must not exceed the CUDA block size limit, got 2048", ("threads", 2048, None)),
    ("cutile", "shared-memory schedule requires 241664 bytes, but SM100 provides 232448",
     ("shared-memory", 241664, 232448)),
    # flash-attention's CuTe DSL assertion on TMEM columns
    ("flash_attn", "    assert self.tmem_total <= self.tmem_alloc_cols\nAssertionError", ("tensor-memory", None, None)),
    # a size after "exceeds" is the bound even after "requested" (MAX's SM90 matmul); "exposes N" (GPTQModel's Machete)
    ("max", "requested SMEM size exceeds 227KB limit.", ("shared-memory", None, 232448)),
    ("gptqmodel", "Machete kernel requires at least 204800 bytes of opt-in shared memory per block; `NVIDIA H20` "
     "exposes 166912.", ("shared-memory", 204800, 166912)),
    # nvFuser's scheduler rejections
    ("nvfuser", "Scheduler _outer_persistent_ ***rejected*** because : not enough registers for persistence",
     ("registers", None, None)),
    # libplacebo's compute-shader checks (mpv's renderer)
    ("libplacebo", "Disabling error diffusion due to shmem requirements (51840) exceeding capabilities (49152)",
     ("shared-memory", 51840, 49152)),
    # a constraint a scheduler could not meet (Hidet)
    ("hidet", "hidet.ir.library.tune.ScheduleError: dynamic shared memory <= 49152", ("shared-memory", None, 49152)),
    ("hidet", "hidet.ir.library.tune.ScheduleError: threads in a block <= 1024", ("threads", None, 1024)),
    # an OpenCL wrapper's name of -5
    ("vnlnet", "clEnqueueNDRangeKernel failed: OUT_OF_RESOURCES", ("registers", None, None)),
    # ptxas's register checks, as its strings read in the ptxas Triton 3.6 and 3.9 ship (explain13's PyPI harvest)
    ("triton", "ptxas fatal   : (C7602) Insufficient registers (128) to compile instruction at line 2043 in function "
     "_attn_fwd. Try to compile with register target of 168 or higher.", ("registers", 168, 128)),
    ("triton", "ptxas error   : Function _kernel size requires more registers(280) than available(255)",
     ("registers", 280, 255)),
    ("triton", "ptxas info    : (C7511) Potential Performance Loss: wgmma.mma_async instructions are serialized due "
     "to insufficient register resources for the wgmma pipeline in the function '_attn_fwd'",
     ("registers", None, None)),
    # LLVM's AMDGPU backend inside Triton's AMD codegen
    ("triton", "error: scalar registers (110) exceeds limit (106) in function 'matmul_kernel'",
     ("registers", 110, 106)),
    # a device's own limit is a GPU's (torch.cuda's _compile_kernel, ONNX Runtime's CUDA provider)
    ("torch", "Requested shared memory (262144 bytes) exceeds device limit (232448 bytes). Consider reducing block "
     "size or shared memory usage.", ("shared-memory", 262144, 232448)),
    ("onnxruntime", "SparsePagedAttention requires 98304 bytes of shared memory, but the device provides 49152",
     ("shared-memory", 98304, 49152)),
    # Apple's OpenCL, and sgminer's enqueue with -54
    ("opencl", "clEnqueueNDRangeKernel failed: total work group size (512) is greater than the device can support "
     "(256)", ("threads", 512, 256)),
    ("sgminer", "Error -54: Enqueueing kernel onto command queue. (clEnqueueNDRangeKernel)", ("threads", None, None)),
    # serving kernels' own checks (vLLM, FlashInfer, TileLang as their PyPI packages ship them): a device that
    # "supports" or "allows" a bare size, a limit written as the right side of ">", TMEM columns a CTA "only has"
    ("flashinfer", "Check failed: (max_dynamic_smem >= kShrinkDecodeSmemBytes) is false: Cake BGMV MoE decode shrink "
     "requires 196608 bytes of dynamic shared memory, but device 0 supports 101376", ("shared-memory", 196608, 101376)),
    ("flashinfer", "W4A16 shared-memory footprint exceeds device opt-in limit: 114688 > 101376 bytes (layout=trellis)",
     ("shared-memory", 114688, 101376)),
    ("tilelang", "Check failed: (num_cols_total <= kTmemNumColumns) is false: This block allocates 768 TMEM columns "
     "across 3 tcgen05.alloc calls, but a CTA only has 512 columns", ("tensor-memory", 768, 512)),
    ("tilelang", "webgpu's threadIdx.z cannot exceed 64, but got bdz=128", ("threads", 128, 64)),
    # CuTe DSL's capacity first, then the request in a sentence of its own; XLA's TMEM check
    ("cutlass", "Insufficient Shared Memory capacity for compute capability sm_90a (capacity: 232448 bytes). Required "
     "262144", ("shared-memory", 262144, 232448)),
    ("jax", "Tensor memory size limit exceeded: requested 640, available: 512", ("tensor-memory", 640, 512)),
    # ggml's assertions and its OpenCL check with the call's arguments (llama.cpp as llama-cpp-python vendors it)
    ("llama_cpp", "ggml/src/ggml-cuda/mmid.cu:147: GGML_ASSERT(nbytes_shared <= smpbo) failed",
     ("shared-memory", None, None)),
    ("llama_cpp", "ggml-metal-ops.cpp:1832: GGML_ASSERT(nth <= "
     "ggml_metal_pipeline_max_theads_per_threadgroup(pipeline)) failed", ("threads", None, None)),
    ("llama_cpp", "ggml_opencl: clEnqueueNDRangeKernel(queue, kernel, work_dim, NULL, global_work_size, "
     "local_work_size, 0, NULL, NULL) error -54 at ggml-opencl.cpp:1180", ("threads", None, None)),
    # the CUDA runtime's block check (CuPy), and torch's _compile_kernel with a threshold in parentheses
    ("cupy", "Block Dimensions (2048,1,1) include one or more values that exceed the device limit of (1024,1024,64)",
     ("threads", 2048, 1024)),
    ("torch", "Kernel requires 98304 bytes of shared memory (>= 48KB), but only 65536 bytes configured. Call "
     "kernel.set_shared_memory_config(shared_mem) after compilation and before launching the kernel.",
     ("shared-memory", 98304, 65536)),
    # explain14: rocMLIR's LDS check, whose "KB" follows a count of bytes; a Kokkos team's scratch pad full inside the
    # kernel; PyCUDA's block-shape setter; AMD's OpenCL -54 as a return value; GLSL's local invocations
    ("migraphx", "MLIR backend compilation failed: Error: totalLDSSize (131072) exceeds 65536KB",
     ("shared-memory", 131072, 65536)),
    ("kokkos", "ScratchMemorySpace<...>::get_shmem: Failed to allocate 36 byte(s); remaining capacity is 36 byte(s)",
     ("shared-memory", 36, None)),
    ("pycuda", "    func._set_block_shape(*block)\npycuda._driver.LogicError: cuFuncSetBlockShape failed: invalid "
     "argument",
     ("threads", None, None)),
    ("pyopencl", "export GPU_MAX_WORKGROUP_SIZE=1024 did not help: failed in clEnqueueNDRangeKernel with return value= "
     "-54. 256 is the default max value now.", ("threads", None, 256)),
    ("simpleclouds", "java.io.IOException: The amount of local invocations (X * Y * Z) is greater than the maximum "
     "allowed! Wanted: 1024; Allowed: 512", ("threads", 1024, 512)),
    ("sycl", "what():  The implementation handling parallel_for with reduction requires work group size not bigger "
     "than 4096 -54 (CL_INVALID_WORK_GROUP_SIZE)", ("threads", None, 4096)),
    # ROCr's queue error for a dispatch whose group segment (LDS) is out of bounds, as CLR prints it
    ("torch", ":0:rocdevice.cpp            :2984: 93862815501 us: Callback: Queue 0x7f0ed8000000 aborting with error : "
     "HSA_STATUS_ERROR_INVALID_ALLOCATION: The requested allocation is not valid. code: 0x1003",
     ("shared-memory", None, None)),
    # explain14, from the projects' sources: AdaptiveCpp's launch errors with the runtime's code, Kokkos' other team
    # size checks, wgpu's device limits, IGC's spill memory, CLR's LDS check, MIOpen's and Tensile's own words
    ("hipSYCL", "from /opt/AdaptiveCpp/src/runtime/cuda/cuda_queue.cpp:158 @ launch_kernel_from_module(): cuda_queue: "
     "could not submit kernel from module (error code = CU:701)", ("registers", None, None)),
    ("hipSYCL", "from /opt/AdaptiveCpp/src/runtime/ocl/ocl_queue.cpp:99 @ submit_ocl_kernel(): ocl_queue: Kernel "
     "launch failed (error code = CL:-5)", ("registers", None, None)),
    ("hipSYCL", "from /opt/AdaptiveCpp/src/runtime/ocl/ocl_queue.cpp:99 @ submit_ocl_kernel(): ocl_queue: Kernel "
     "launch failed (error code = CL:-54)", ("threads", None, None)),
    ("kokkos", "terminate called after throwing an instance of 'std::runtime_error'\n  what():  "
     "Kokkos::Impl::ParallelReduce< Cuda > bad team size", ("threads", None, None)),
    ("kokkos", "Kokkos::Impl::ParallelFor/Reduce< HIP > could not find a valid team size.", ("threads", None, None)),
    ("kokkos", "Kokkos::MDRangePolicy: Product of tile dimensions exceed maximum limit: 1024", ("threads", None, 1024)),
    ("wgpu", "Limit 'max_compute_workgroup_storage_size' value 65536 is better than allowed 32768",
     ("shared-memory", 65536, 32768)),
    ("wgpu", "Limit 'max_compute_invocations_per_workgroup' value 2048 is better than allowed 1024",
     ("threads", 2048, 1024)),
    ("intel_extension_for_pytorch", "warning: Spill memory used = 4096 bytes for kernel gemm_kernel\n Compiling "
     "kernel with spill code may degrade performance. Please consider rewriting the kernel to use less registers.",
     ("registers", None, None)),
    ("torch", ":1:rocvirtual.cpp            :3433: 1234567890 us: [pid:4321 tid:0x7f] No local memory available",
     ("shared-memory", None, None)),
    ("miopen", "MIOpen Error: /MIOpen/src/solver/softmax/softmax.cpp:194: Exceed local memory capacity",
     ("shared-memory", None, None)),
    ("tensile", "Cijk_Ailk_Bljk_DB_MT128x128x16_MI16x16x4x1_SN_GRVW2_TT4_64_WG32_8_1 overflowed resources. "
     "errorCode=7, msg='too many accvgprs', vgprs=128, sgprs=80, accvgprs=272", ("registers", 272, None)),
    # compilers' and kernel libraries' own checks (PyPI packages' strings): TVM's verifier, IREE, OpenVINO, tinygrad,
    # Liger, FBGEMM
    ("tvm", "Extent of threadIdx.z (128) is greater than maximum allowed (64);", ("threads", 128, 64)),
    ("iree", "The shared memory size 81920 required by the ukernel exceeds the maximum allowed size 65536.",
     ("shared-memory", 81920, 65536)),
    ("iree", "error: per-matmul shared memory must fit in workgroup memory", ("shared-memory", None, None)),
    ("iree", "exports[0] block dims 2048x1x1 exceeds device maximum 1024x1024x64", ("threads", 2048, 1024)),
    ("openvino", "CSE exceeded GRF usage limit. Usage: 264. Retry CSE and skip some expressions...",
     ("registers", 264, None)),
    ("tinygrad", "RuntimeError: Too many resources requested for launch, prod(local_size)=1024, self.max_threads=640",
     ("registers", 1024, 640)),
    ("tinygrad", "RuntimeError: Too many resources requested: group_segment_size", ("shared-memory", None, None)),
    ("liger_kernel", "CuTe DSL fused_add_rms_norm fwd stages X+R in dynamic smem (262144 bytes > 232448 sm_100 cap) "
     "for an all-fp32 staged pair at hidden 32768", ("shared-memory", 262144, 232448)),
    ("fbgemm_gpu", "[fbgemm_gpu/src/faster_hash_ops/faster_hash.cu(412)] [_zero_collision_hash_cuda]: Requested shared "
     "memory per block (262144 bytes) is not within the range [0, 232448]", ("shared-memory", 262144, 232448)),
    ("fbgemm_gpu", "Check failed: dynamic_smem_size <= used_shared_bytes (262144 vs. 232448).",
     ("shared-memory", 262144, 232448)),
    ("fbgemm_gpu", "block_bucketize_sparse_features does not have sufficient shared memory.Please contact the FBGEMM "
     "team.", ("shared-memory", None, None)),
    # FlagTree's Triton for accelerators with megabytes of on-chip SRAM: the compiler's own words are believed
    ("flagtree", "out of resource: SRAM, Required: 2359296, Hardware limit: 2097152. Reducing block sizes or "
     "`num_stages` may help.", ("shared-memory", 2359296, 2097152)),
    # hashcat's device checks and its CUDA launch, CUDA's samples, MatX's cuBLASDx check (their sources)
    ("hashcat", "* Device #1: This device's shared buffer size is too small.", ("shared-memory", None, None)),
    ("hashcat", "* Device #1: The requested thread size '1024' exceeds the recommended limit of the backend runtime "
     "'512'.", ("threads", 1024, 512)),
    ("hashcat", "cuLaunchKernel(): 701", ("registers", None, None)),
    ("cuda_samples", "Block X dimension is too large for device", ("threads", None, None)),
    ("matx", "cuBLASDx not supported: matrix size too large for shared memory", ("shared-memory", None, None)),
    # TileLang's attribute call with the bound a device "allows" after it (sglang#36507, fresh-37)
    ("tilelang", "tvm.error.InternalError: Failed to set the allowed dynamic shared memory size to 169984 (SM120 "
     "allows ~101376)", ("shared-memory", 169984, 101376)),
    # Python GPU packages: VkFFT (pyvkfft), nvFuser, torch-mlir's GPU dialect, nvmath, Warp
    ("pyvkfft", "cuLaunchKernel error: 701, 4096 1 1 - 1024 1 1", ("registers", None, None)),
    ("pyvkfft", "RuntimeError: VkFFT error 4037: VKFFT_ERROR_FAILED_TO_SET_DYNAMIC_SHARED_MEMORY C2C (4096,4096) "
     "complex64 2D inplace [cuda]", ("shared-memory", None, None)),
    ("nvfuser", "Not enough tensor memory columns: tried to allocate 1024", ("tensor-memory", 1024, None)),
    ("torch_mlir", "Trying to launch a GPU kernel with grid_dims = (1, 1, 1) block_dims = (2048, 1, 1). It is larger "
     "than the limits.", ("threads", 2048, None)),
    ("nvmath", "The product of the entries in block_dim should be between 1 and 1024 ; got block_dim = Dim3(x=64, "
     "y=32, z=1)", ("threads", None, 1024)),
    ("warp", "RuntimeError: block_dim must be at most 1024 on CPU, got 2048", ("threads", 2048, 1024)),
])
def test_a_runtime_message_is_read_with_its_numbers(
    project: str, message: str, expected: tuple[str, int | None, int | None]
) -> None:
    assert _read(project, message) == expected


@pytest.mark.parametrize(("project", "message"), [
    # a sanitizer's own shadow memory for local memory is not the kernel's
    ("unified-runtime", "Failed to allocate shadow memory for local memory, maybe the number of workgroup (1048576) is "
     "too large"),
    # Metal's alignment assertion: a size of the wrong multiple
    ("mlx", "-[MTLDebugComputeCommandEncoder setThreadgroupMemoryLength:atIndex:]:799: failed assertion "
     "`length(140) must be a multiple of 16 bytes.'"),
    # OpenCL's out-of-resources before any kernel: the context could not be created
    ("hashcat", "hashcat (v6.1.1) starting...\n\nclCreateContext(): CL_OUT_OF_RESOURCES"),
    # PostgreSQL's System V segment, with "Invalid argument" and "shared memory"
    ("postgres", "FATAL:  could not create shared memory segment: Invalid argument\nDETAIL:  Failed system call was "
     "shmget(key=5432001, size=61816832, 03600)."),
    # a runtime that could not find the memory pool to query
    ("AMDGPU", "ERROR: LoadError: Failed to find local memory region for GPU-c2a765d6163dea76 [gfx90a]"),
    # a program the driver could not build
    ("hashcat", "Kernel /root/OpenCL/shared.cl build failed\nclCompileProgram(): CL_OUT_OF_RESOURCES"),
    # Triton's exception class imported, not raised (a broken install)
    ("triton", "    from ..runtime.autotuner import OutOfResources\nImportError: cannot import name 'OutOfResources' "
     "from partially initialized module 'triton.runtime.autotuner' (most likely due to a circular import)"),
    # Windows' shared GPU memory, then a Vulkan device-memory error
    ("video2x", "When upscaling after around 30 Seconds my GPU (Shared Memory) is full and the upscaling process "
     "crashes with the Error code: VK_ERROR_OUT_OF_DEVICE_MEMORY"),
    # a type error about a symbolic shared-memory size
    ("tilelang", ' dynamic_smem_buf = int(attrs["dyn_shared_memory_buf"])\nTypeError: int() argument must be a string, '
     "a bytes-like object or a real number, not 'Mul'"),
    # an argument rejected for its value
    ("tpu_inference", "ValueError: vmem_limit_bytes=0 must be positive."),
    # a host segment for a CPU all-reduce (IPEX), a PyOpenCL buffer read after a long job
    ("intel_extension_for_pytorch", "shmid cannot create shared memory of size 67108864"),
    ("pyopencl", "    cl.enqueue_copy(queue, result_count_np, result_count_cl)\npyopencl.RuntimeError: "
     "clEnqueueReadBuffer failed: out of resources"),
    # a program's element cap, not a block's threads (unsloth's "maximum CUDA blocksize")
    ("unsloth", "RuntimeError: Cannot launch Triton kernel since n = 46336 exceeds the maximum CUDA blocksize = "
     "65535.\n     21 # CUDA only supports 65535 - 2^16-1 threads per block"),
    # a "threads" bound no block has: the dispatch's items (wonnx), a grid dimension
    ("wonnx", "number of items (20000000) exceeds maximum number of threads (65535); adjusting workgroup size=306 and "
     "threads=65360 (this will compute 20000160 items)"),
    # a Triton fork's grid check in Triton's words (FlagTree)
    ("flagtree", "out of resource: grid size, Required: 131072, Hardware limit: 65535. Reducing block sizes or "
     "`num_stages` may help."),
    # a feature the device lacks (shadPS4), an emulator's host segment that failed to initialise (xenia)
    ("shadps4", "Shader requires support for atomic Int64 shared memory operations that your Vulkan instance does not "
     "advertise"),
    ("xenia", "d3d12_command_processor.cc: Failed to initialize shared memory"),
    # a host call on a mapped region (Triton Inference Server)
    ("tritonserver", "unable to munmap shared memory region, errno: Invalid argument"),
    # a transport's host segment, on a host whose name says gpu (UCX)
    ("ucx", "[1724151234.512873] [gpu-node3:48213:0]         mm_iface.c:626  UCX  ERROR mm: shared memory segment "
     "length cannot exceed 4294967295"),
    # a launch too large for the grid (NVIDIA Warp)
    ("warp", "Kernel 'fill' was launched with dim.size=80000000000000000 (block_dim=256), exceeding the lean 3D grid "
     "capacity of 72055395491209216 work items. Use @wp.kernel(grid_stride=True) to launch dimensions this large."),
    # a device index error while querying the shared-memory limit
    ("liger_kernel", "moe_bwd: querying the opt-in shared-memory limit failed: invalid device ordinal"),
    # a host segment a program could not create or map (ThunderKittens' broker)
    ("thunderkittens", "KittensBroker: Failed to map to shared memory"),
    # a binary built for another GPU, reported by the call that sets the shared-memory attribute (FlashInfer)
    ("flashinfer", "CUDA Error: no kernel image is available for execution on the device (209) sampling.cuh: line 544 "
     "at function cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_size)"),
    # a CPU's registers and a host's threads, near GPU words
    ("torch", "LLVM ERROR: ran out of registers during register allocation (target: riscv64) while building the CUDA "
     "extension's host code"),
    ("vllm", "Error: Resource temporarily unavailable: pthread_create failed, too many threads (GPU server)"),
    # memory a GPU shares with the CPU
    ("jetson", "The Jetson Orin Nano has only 8GB of shared memory between the CPU and the GPU, so the model does not "
     "fit"),
    ("mlx", "On Apple Silicon the GPU uses unified memory; only 16 GB shared memory available for the Metal backend"),
    # a limit of megabytes read from prose is a host segment's, not a block's
    ("tritonclient", "The container only has 64MB of shared memory; the Triton server requires 256MB"),
    # OpenCL's -5 reported when waiting for a kernel that ran (hashcat: a watchdog or a crash), not at its launch
    ("hashcat", "clFinish(): CL_OUT_OF_RESOURCES"),
    # a host segment that could not be mapped (Paddle's IPC)
    ("paddle", "Memory map failed when create shared memory, error number is 12."),
    # Intel's runtime too: the private (stack) surface in the GPU's memory
    ("compute-runtime", "Failed to allocate private surface of 8589934592 bytes, used local memory 60129542144, max "
     "global memory 68719476736"),
    # ROCm's runtime calls the GPU's own memory local
    ("torch", ":1:rocdevice.cpp            :2420: 1234567890 us: [pid:4321 tid:0x7f] Fail allocation local memory"),
    # the same HSA status from an allocation of device memory, not a queue's dispatch
    ("hip", "hsa_memory_allocate failed: HSA_STATUS_ERROR_INVALID_ALLOCATION: The requested allocation is not valid."),
    # XLA's launch with a grid past its z limit, whatever the shared memory
    ("jax", "XlaRuntimeError: INTERNAL: Failed to launch CUDA kernel: triton_gemm_dot_0 with block dimensions: 128x1x1 "
     "and grid dimensions: 4x1x102400 and shared memory size: 65536: CUDA_ERROR_INVALID_VALUE: invalid argument"),
])
def test_a_runtime_look_alike_stays_off_chip(project: str, message: str) -> None:
    assert _read(project, message) is None


def test_xla_shared_memory_warnings_over_an_allocator_oom_stay_off_chip() -> None:
    """AFProfile#12 (fresh-25): XLA's non-fatal 'Shared memory size limit exceeded' above the device running out."""
    log = ("2024-08-06 14:43:33.378237: W external/xla/xla/service/gpu/ir_emitter_triton.cc:761] Shared memory size "
           "limit exceeded.\n2024-08-06 14:44:44.977818: W external/tsl/tsl/framework/bfc_allocator.cc:485] Allocator "
           "(GPU_0_bfc) ran out of memory trying to allocate 103.65GiB (rounded to 111289565184)requested by op ")
    assert not [m.entry.id for m in match(log, KB) if m.entry.on_chip]

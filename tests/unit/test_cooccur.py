"""The general layer (tilefit.match.cooccur): a sentence naming an on-chip resource with a failure, read only when
no knowledge-base entry matched. Texts are real wordings from public issue trackers (named in each comment)."""

from __future__ import annotations

import pytest

from tilefit.kb.repository import load_kb
from tilefit.match.cooccur import infer
from tilefit.match.matcher import inferred, match

KB = load_kb()


def _first_on_chip(text: str) -> list[tuple[str, int | None, int | None]]:
    """The first on-chip answer explain gives the text: its resource and the numbers read, or nothing."""
    return [(m.entry.resource, m.required, m.limit) for m in match(text, KB) if m.entry.on_chip][:1]


def _on_chip(text: str) -> list[str]:
    return [m.entry.id for m in match(text, KB) if m.entry.on_chip]


@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # MoltenVK#735: a Metal assertion as a title
    ("VkCmdFillBuffer threadsPerThreadgroup.width(1024) must be <= 256", "threads", 1024, 256),
    # Unity PostProcessing#580: prose with both counts
    ("Metal: Compute shader has 512 threads in a threadgroup which is more than the supported max of 256 in this "
     "device", "threads", 512, 256),
    # Metal.jl#698: a title with no failure word but "max"
    ("Check max threadgroup size before launching mapreduce kernel", "threads", None, None),
    # TensorRT-LLM#1025: the opt-in attribute with "failed"
    ("If cudaFuncAttributeMaxDynamicSharedMemorySize failed,  Cuda kernel should not use shared memory anymore.",
     "shared-memory", None, None),
    # triton#996: a title; OutOfResource is GPU context of its own
    ("[RUNTIME] Now throwing OutOfResource exception when too much shared memory is used", "shared-memory", None,
     None),
    # torch-xpu-ops#146: a register spill needs no failure word
    ("Evaluate register spill in SYCL kernel", "registers", None, None),
    # bedrock-clump#1: OpenCL's -5 in prose
    ("OpenCL throws CL_OUT_OF_RESOURCES on certain cards\n\nclumpFinderOpenCL works on NVIDIA's GTX 970 but fails on a "
     "TITAN Xp", "registers", None, None),
])
def test_sentences_are_read_as_the_resource(text: str, resource: str, required: int | None,
                                            limit: int | None) -> None:
    """The layer on its own (some of these the knowledge base has learnt since; it still answers first)."""
    found = inferred(text, KB)
    assert [m.entry.resource for m in found] == [resource]
    assert (found[0].required, found[0].limit, found[0].confidence) == (required, limit, "inferred")
    assert [m.entry.resource for m in match(text, KB)][:1] == [resource]


@pytest.mark.parametrize("text", [
    # host shared memory: Docker, PostgreSQL, NCCL's segments, multiprocessing
    "Shared memory of docker container too small. Right now, the shared memory size (`shm_size`) isn't specified.",
    'ERROR:  could not resize shared memory segment "/PostgreSQL.638321836" to 16777216 bytes: No space left',
    "Looks like we're failing to create a shared memory segment. Did you ensure you had enough shared memory?",
    "torch.multiprocessing shared memory exhausted: too many open tensors in the DataLoader workers",
    # jax#22817: a type error that names SMEM and VMEM
    "This error is happening because `pl.program_id` returns a scalar which lives in a separate memory space from "
    "vectors (SMEM vs VMEM). The compiler is trying to cast the `program_id` to a vector",
    # a kernel bug, not a shortage
    "could under-request dynamic shared memory, causing an illegal memory access at runtime",
    # CPU registers
    "x86 registers exceed the limit of the inline assembly constraint",
    # a resource phrase with no failure
    "This PR documents the shared memory layout of the GEMM kernel.",
])
def test_look_alikes_and_plain_mentions_are_not_read(text: str) -> None:
    assert infer(text, KB) is None
    assert not [m for m in match(text, KB) if m.entry.on_chip]


def test_a_knowledge_base_match_comes_first() -> None:
    """The layer answers only when nothing matched: a known error line keeps its exact entry and numbers."""
    text = ("triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 98304, Hardware limit: "
            "49152. Reducing block sizes or `num_stages` may help.")
    found = match(text, KB)
    assert found and found[0].confidence == "exact" and (found[0].required, found[0].limit) == (98304, 49152)


def test_linear_on_a_long_log() -> None:
    """100,000 phrase hits with no failure word: bounded work per hit, at most _MAX_HITS hits read per phrase."""
    import time

    text = "shared memory layout note.\n" * 100_000
    t0 = time.perf_counter()
    assert infer(text, KB) is None
    assert time.perf_counter() - t0 < 5.0


def test_memory_space_errors_are_not_shortages() -> None:
    """pytorch/helion#2069 (fresh-11, the one look-alike the layer read on chip blind): a value in the wrong TPU
    memory space is a type error."""
    text = ("[Pallas] Fix SMEM/VMEM conflict for tensors with mixed access patterns\n\nIf a later access needed a "
            "slice, the tensor was already in SMEM and would fail with `ValueError: Can only load scalars from SMEM`.")
    assert infer(text, KB) is None


def test_a_long_log_is_read_at_its_head_and_its_tail() -> None:
    """explain() on a 4 MB log: the layer's answer from the title at the head, or from the last line.

    Positions are in the normalised log (tilefit.match.normalize), where the noise lines' "INFO" prefix is gone from
    every line after the first."""
    from tilefit.match.normalize import normalize
    from tilefit.report import explain

    title = "Shader uses too much threadgroup memory on the M1 GPU, the pipeline fails to build\n"
    noise = "INFO step 1 loss=0.25 lr=1e-4 grad_norm=0.5 ok\n" * 90_000
    for log, at in ((title + noise, 12), (noise + title, len(normalize(noise)) + 12)):
        found = [d.match for d in explain(log).diagnoses]
        assert [(m.entry.resource, m.confidence, m.start) for m in found] == [("shared-memory", "inferred", at)]


@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # gpuweb#5315 (fresh-12): WebGPU's names of the thread limit, with "limits"
    ("This can cause issues where a user attempts to launch shaders based on WebGPU's reported "
     "`maxComputeWorkgroupSize{XYZ}` or `maxComputeInvocationsPerWorkgroup` limits, but the actual limit for that "
     "shader in a given context is lower.", "threads", None, None),
    # EN605.617#14 (fresh-12): "only allows up to N" is a limit, N its count
    ("Since K80 only allows up to 1024 threads per block, the remaining calculations will be skipped.", "threads",
     None, 1024),
    # pytorch#100326 (fresh-3): an architecture short of resources with none named; shared memory is what differs
    ("Closing, as this is expected behavior. sm86 doesn't have enough resources to support flash attention kernel, "
     "and you are getting proper warnings and regular slow execution.", "shared-memory", None, None),
    # hashintel/hash#9179 (new_logs): the title states the shortage, the next sentence names workgroup memory
    ("### Histogram exceeds workgroup storage\n\n`local_hist` is `256` bins times the metric count of `atomic<u32>` "
     "in workgroup memory, and `requestGpuDevice` never raises `maxComputeWorkgroupStorageSize`.", "shared-memory",
     None, None),
    # vllm#11493 (fresh-12): a race fixed in the title does not veto a shared-memory limit found further down ("has
    # only 128KB" is the limit the text states)
    ("Resolve race conditions in Marlin kernel\n\nHey @wchen61 it seems the marlin kernel tests are failing with this "
     "change. Could you try debugging your changes against the `kernels/test_marlin_gemm.py::test_gptq_marlin_gemm` "
     "test?\n\nHi, @mgoin I tried to analyze the cause of the unit test failure on the L4 and determined that it is "
     "due to the different shared memory sizes between the L4 and A100. The L4 has only 128KB of shared memory, "
     "whereas the A100 has 192KB.", "shared-memory", None, 131072),
])
def test_fresh12_wordings_are_read(text: str, resource: str, required: int | None, limit: int | None) -> None:
    found = inferred(text, KB)
    assert [(m.entry.resource, m.required, m.limit, m.confidence) for m in found][:1] == [
        (resource, required, limit, "inferred")]


@pytest.mark.parametrize("text", [
    # a cluster's or an X server's resources, not a GPU architecture's
    "Why? Your local Kubernetes cluster doesn't have enough resources to run everything.",
    "This usually happens when X doesn't have enough resources to allocate to direct viewing with the xv driver.",
    # popsift#109 (fresh-10): a bare "failed" in the next sentence is another bug (a zero size passed to a launch)
    "Pass correct shared memory size to orientation kernel\n\ncuda-memcheck failed in the kernel ori_par when "
    "PopSift was built in Debug mode.",
    # cccl#8223 (fresh-6): conflicting launch bounds are no shortage
    "Don't specify `__launch_bounds__` together with `__block_size__`\n\nWith nvcc before 13.1 it leads to ptxas "
    "errors as:\nConflicting directives: .maxntid and .reqntid cannot both be specified",
])
def test_fresh12_rules_leave_look_alikes_alone(text: str) -> None:
    assert infer(text, KB) is None


@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # TensorRT-LLM#1925 (fresh-14): "lacks" is a shortage; a backend library under /opt/tritonserver/ is where the
    # kernel ran, not a server's shared-memory region
    ("  what():  [TensorRT-LLM][ERROR] Assertion failed: GPU lacks the shared memory resources to run GroupedGEMM "
     "kernel (/tmp/tritonbuild/tensorrtllm/tensorrt_llm/cpp/tensorrt_llm/kernels/cutlass_kernels/moe_gemm/"
     "moe_gemm_kernels_template.h:122)\n2       0x7fa66c5f4273 /opt/tritonserver/backends/tensorrtllm/"
     "libtensorrt_llm.so(+0xb0b273) [0x7fa66c5f4273]", "shared-memory", None, None),
    # ucc#1193 (fresh-14): a limit in K of registers per block is 1024 of them
    ("The kernel is failing to launch because it requires Registers Per Thread: 156 according to an nsys profile. By "
     "default we launch with 512 threads, so 512 * 156 = 79872, greater than the 64k limit.", "registers", 79872,
     65536),
])
def test_fresh14_wordings_are_read(text: str, resource: str, required: int | None, limit: int | None) -> None:
    found = inferred(text, KB)
    assert [(m.entry.resource, m.required, m.limit, m.confidence) for m in found][:1] == [
        (resource, required, limit, "inferred")]


@pytest.mark.parametrize("text", [
    # Triton Inference Server's own shared memory: the server named as a word, or its python backend's region
    "tritonserver: Unable to initialize shared memory key 'triton_python_backend_shm_region_2'",
    # a GPU that lacks DataLoader shared memory is a host matter
    "The GPU lacks shared memory for the DataLoader workers: DataLoader worker (pid 3002) is killed by signal: Bus "
    "error.",
])
def test_fresh14_rules_leave_look_alikes_alone(text: str) -> None:
    assert infer(text, KB) is None


@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # helion#510 (fresh-15): Triton's out-of-resource errors while autotuning are its shared-memory check
    ("If I let the autotuner decide the block size, I encounter many out-of-resource errors in Triton",
     "shared-memory", None, None),
    # helion#2842 (fresh-15): "the ... cap" is a limit, and its size is the limit (the scoped VMEM's since explain29:
    # the finer resource named in the sentence)
    ("Tensors that have no alignment requirement of their own get their block size inflated, which can multiply "
     "their VMEM footprint and push the kernel over the 64 MiB scoped-VMEM cap.", "scoped-vmem", None, 67108864),
    # cudf-spark-jni#3002 (fresh-15): a failure phrase around the resource phrase
    ("In this situation the kernels are compiled to use much more registers than usual. As such, some kernels "
     "failed to launch in our tests.", "registers", None, None),
])
def test_fresh15_wordings_are_read(text: str, resource: str, required: int | None, limit: int | None) -> None:
    found = inferred(text, KB)
    assert [(m.entry.resource, m.required, m.limit, m.confidence) for m in found][:1] == [
        (resource, required, limit, "inferred")]


@pytest.mark.parametrize("text", [
    # "cap" as a verb is not a limit (mujoco_warp#1524's title names threads; its body says registers ran short)
    "Cap the tile size at 256 for the sampling kernel on every GPU.",
    # OpenCL's and HSA's OUT_OF_RESOURCES are not Triton's shared-memory check, and Triton names no shortage here
    "hsa api call failure: Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES while loading the triton runtime",
])
def test_fresh15_rules_leave_look_alikes_alone(text: str) -> None:
    assert [m.entry.resource for m in inferred(text, KB)][:1] != ["shared-memory"]


@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # sgl-flash-attn#50 (fresh-40): the opt-in limit is shared memory's own; "only" states a bound only right before
    # the size ("counts only V and K, adding an unnecessary 16 KiB reservation" states none)
    ("SM86/SM89 FA3 with head dimension 256 can fail at `cudaFuncSetAttribute` when variable-length split attention "
     "selects the M128/N48 tile. Q and V share a union, but the epilogue padding calculation counts only V and K, "
     "adding an unnecessary 16 KiB reservation. A compiled instance requested 106,752 bytes on an RTX 4090D whose "
     "opt-in limit is 101,376 bytes.", "shared-memory", 106752, 101376),
    # faiss#3207 (fresh-38): "can only address" then the size is the bound
    ("GPUs by default can only address 48kiB shared memory per block without special opt-in", "shared-memory",
     None, 49152),
    # hashcat#2010 (fresh-53): LLVM's register allocator in an OpenCL build log
    ("* Device #1: Kernel m16800-pure.kernel not found in cache! Building may take a while...\nclBuildProgram(): "
     "CL_BUILD_PROGRAM_FAILURE\nregister allocation failed: maximum interference for recoloring "
     "reached. Use -fexhaustive-register-search to skip cutoffs", "registers", None, None),
    # aomp#1978 (fresh-49): HSA's runtime is a GPU's
    ("Reduce OMP_DEVICE_TEAM_THREAD_LIMIT 1024 to 512\n\n - Avoids register allocation issue at runtime\n - Which is "
     "incorrectly reported by HSA as:\n HSA_STATUS_ERROR_INVALID_ISA", "registers", None, None),
    # iree#19595 (fresh-49): "only" and a size is a shortage, and the size before "when the available" is not the bound
    ("sm_86 gpus like a rtx3070 get a incorrect workgroup memory config of 163 KB when the available is only 100KB.",
     "shared-memory", None, 102400),
    # ArborX#1385 (fresh-53): Kokkos' level-0 scratch is a team's shared memory; "isn't enough" is a shortage
    ("This pull request fixes the MovingLeastSquares unit tests when running with HIP by using scratch level 1. "
     "Generally, this pull request automatically switches to scratch level 1 when there isn't enough memory available "
     "for scratch level 0.", "shared-memory", None, None),
    # rocm-libraries#596 (fresh-55): "is greater than N" alone states the bound
    ("numVgprs is not calculated correctly. hipBLASLT complains about number of registers is greater than 256 if DU "
     "is set to 64", "registers", None, 256),
    # tilelang#2831 (fresh-11): columns are TMEM's unit where TMEM is named
    ("[CUDA] Pack logical TMEM buffers into shared `tcgen05.alloc` arenas\n\nA 384-column accumulator next to three "
     "4-column block-scale buffers needs **396** columns, but as four separate allocations it asks the hardware for "
     "608 of the 512 columns", "tensor-memory", None, None),
    # vllm#52056 (fresh-18): digits inside a word between the count and "budget"
    ("On gfx1201 the kernel needs more registers than the 256-VGPR wave32 budget, so it spills.", "registers", None,
     256),
    # renderdoc#180's words: "N invocations per work-group" is the request
    ("The Vulkan compute shader defines a local work-group size of 32x32, which gives us 1024 invocations per "
     "work-group. This causes issues on older GPUs: it is more than the limit.", "threads", 1024, None),
    # xmrig#1276 (fresh-52): a card named with its number is a GPU word
    ("xmrig on GTX1070: It looks like too many threads: the maximum value seems to be 128", "threads", None, 128),
])
def test_explain14_wordings_are_read(text: str, resource: str, required: int | None, limit: int | None) -> None:
    found = inferred(text, KB)
    assert [(m.entry.resource, m.required, m.limit, m.confidence) for m in found][:1] == [
        (resource, required, limit, "inferred")]


def test_a_device_dump_states_the_thread_limit() -> None:
    """SQLCipher-Password-Cracker-OpenCL#6 (fresh-53): the limit only in the device's properties, printed above."""
    text = ("LogicError: clEnqueueNDRangeKernel failed: INVALID_WORK_GROUP_SIZE\n\nwhen i run with my graphic HD 520\n"
            + "Init OpenCL...\n" * 40
            + " Device - Name: Intel(R) Gen9 HD Graphics NEO\n Device - Max Work Group Size: 256\n")
    assert [(m.entry.resource, m.required, m.limit) for m in match(text, KB)][:1] == [("threads", None, 256)]


def test_an_issue_number_is_no_size() -> None:
    """A number after "#" names an issue or a pull request ("for RDNA (#9210) > The test fails"), even before ">"."""
    from tilefit.match.prose import numbers_near

    text = ("[AMD] skip test_gather for RDNA (#9210) > The test fails on RDNA3 with too much shared memory: it needs "
            "more than the 65536 byte limit")
    at = text.index("shared memory")
    assert numbers_near(text, at, at + len("shared memory"), "shared-memory") == (None, 65536)


def test_a_line_number_in_a_prefix_is_no_count() -> None:
    """Oceananigans.jl#4047 (fresh-53) behind vLLM's logger prefix: '...py:520]' is a source line, not a request."""
    text = ("(VllmWorker rank=0 pid=1234) ERROR 05-01 12:00:00 [multiproc_executor.py:520] ERROR: Number of threads "
            "per block exceeds kernel limit (640 > 512).\n  [1] error(s::String)\n    @ Base ./error.jl:35")
    assert [(m.entry.resource, m.required, m.limit) for m in match(text, KB)][:1] == [("threads", 640, 512)]


@pytest.mark.parametrize(("text", "expected"), [
    # tfjs#4807 (fresh-13): a bare "K" right at a comparison is kibibytes
    ("For the vec4 matmul the shared memory array is 64K exceeding the limit 32K on windows.", (65536, 32768)),
    # triton#827 (fresh-23): ">= 64K" is a bound
    ("Add an explicit error if shared memory size >= 64K on P100.", (None, 65536)),
    # elsewhere it is as often a context length
    ("The shared memory overflow shows up with a max context of 128K tokens.", (None, None)),
])
def test_a_bare_k_is_read_only_at_a_comparison(text: str, expected: tuple[int | None, int | None]) -> None:
    from tilefit.match.prose import numbers_near

    at = text.index("shared memory")
    assert numbers_near(text, at, at + len("shared memory"), "shared-memory") == expected


@pytest.mark.parametrize(("text", "resource", "limit"), [
    ("在 RTX 3090 上运行 triton kernel 报错，共享内存不足，怎么调整 BLOCK_SIZE？", "shared-memory", None),
    ("CUDA kernel 启动失败：每个线程块的线程数超过了 1024 的上限", "threads", 1024),
    ("RTX 4090 で実行すると共有メモリが足りないというエラーになります (Triton kernel)", "shared-memory", None),
    ("GPU 커널 실행 시 공유 메모리 부족 오류가 발생합니다 (RTX 3080)", "shared-memory", None),
    ("Ошибка: недостаточно разделяемой памяти на GPU при запуске ядра CUDA", "shared-memory", None),
    ("Error: memoria compartida insuficiente en la GPU al lanzar el kernel CUDA", "shared-memory", None),
    ("CUDA カーネルのレジスタが不足してスピルが発生しています (RTX 3060)", "registers", None),
])
def test_reports_in_other_languages_are_read(text: str, resource: str, limit: int | None) -> None:
    """The general layer's words in other languages reports are written in (CJK, Russian, Spanish)."""
    assert [(m.entry.resource, m.limit) for m in match(text, KB) if m.entry.on_chip][:1] == [(resource, limit)]


@pytest.mark.parametrize("text", [
    "Docker 容器里 DataLoader 报 共享内存不足，需要加 --shm-size",
    "Kubernetes pod: ошибка, недостаточно разделяемой памяти /dev/shm для PostgreSQL",
])
def test_host_shared_memory_in_other_languages_stays_off_chip(text: str) -> None:
    assert not _on_chip(text)


@pytest.mark.parametrize(("text", "resource"), [
    # a datacenter card by its name and head_dim are GPU words
    ("OOM in shared memory when head_dim=256 on A10", "shared-memory"),
    # Triton's own words: its exception's name, its singular "out of resource" (CUDA's is "resources")
    ("fused_moe config for H100 crashes on RTX 4090: out of resource", "shared-memory"),
    ("[Bug] MLA decode OutOfResources on 5090", "shared-memory"),
    # CUDA's 701 stays CUDA's
    ("cudaErrorLaunchOutOfResources on GTX 1080", "registers"),
])
def test_titles_people_write_are_read(text: str, resource: str) -> None:
    assert [m.entry.resource for m in match(text, KB) if m.entry.on_chip][:1] == [resource]


@pytest.mark.parametrize(("text", "required", "limit"), [
    # a card's model number is no bound ("but the RTX 3090 only has 101376 bytes")
    ("Kernel needs 131072 bytes of shared memory but the RTX 3090 only has 101376 bytes per block", 131072, 101376),
    # "required N, available M"; a card that "supports" a bare size
    ("shared memory: required 65536, available 49152 (GTX 1080 Ti)", 65536, 49152),
    ("The fused MoE Triton kernel requires 147456 bytes shared memory while the L40S supports 101376", 147456, 101376),
])
def test_sizes_people_write_are_read(text: str, required: int, limit: int) -> None:
    assert _first_on_chip(text) == [("shared-memory", required, limit)]


@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # mfem#4015 (fresh-60): a size in LaTeX dollars, and a bound that is not read across a sentence ("= 43904$ bytes.
    # The max on V100" gives the max, not 43904)
    ("I'm trying to test with CUDA and it turns out the new kernels use too much shared memory, so compilation fails "
     "for the 3D kernel. In 3D the kernels total $(2\\times 14^3) \\times 8 = 43904$ bytes. The max on V100 is $49152$ "
     "bytes of SM.", "shared-memory", None, 49152),
    # project-maya v1.0.7 (fresh-62): "asked for" a size, "more than" the bound
    ("Fix (RTX 20-series): the prefill attention asked for 66 KB of shared memory, more than the 64 KB Turing GPUs "
     "have, and the failure went unnoticed until the engine crashed.", "shared-memory", 67584, 65536),
    # torch-mojo-backend#440 (fresh-60): PTX's `.shared`; the size after ">" is a bound although "Use" stands before it
    ("Use dynamic shared memory for the >48 KiB GEMM routes\n\nptxas rejects a kernel whose *static* `.shared` exceeds "
     "48 KiB, and one such kernel fails the whole `.so`.", "shared-memory", None, 49152),
    # ptypy-like: a lower-case "kb" is a size
    ("The kernel fails: shared memory needed is 64kb but the limit is 48kb on this GPU", "shared-memory", 65536, 49152),
    # traccc#327 (fresh-59): SYCL's limit per dimension, read where all three agree
    ("terminate called after throwing an instance of 'sycl::_V1::nd_range_error'\n  what():  The number of work-items "
     "in each dimension of a work-group cannot exceed {256, 256, 256} for this device -54 "
     "(PI_ERROR_INVALID_WORK_GROUP_SIZE)", "threads", None, 256),
    # hipfire#582 (fresh-61): a sequence's length is no size ("memory.max_seq = 32768")
    ("At the default `memory.max_seq = 32768` the request is ~130 KB, twice the 64 KB LDS limit, so the kernel launch "
     "fails:\nHipError { code: 1, message: \"hipModuleLaunchKernel: invalid argument\" }", "shared-memory", 133120,
     65536),
    # flashinfer#1561 (fresh-63): a size per SM and a block's threads as a constant are a GPU's
    ("CI failed because of too many shared memory usage (the public CI was executed on a machine with small shared "
     "memory size ~98k/sm), need to tweak `BLOCK_THREADS` to make sure shared memory usage is bounded.",
     "shared-memory", None, None),
    # sglang#21610 (fresh-63): a block's limit by its number of threads
    ("The existing `moe_align_block_size` CUDA kernel uses CUB block-level scan primitives that are limited to 1024 "
     "threads, which caps the maximum number of experts at 1024.", "threads", None, 1024),
    # PTX's bound on a block (".maxntid") and the threads of a launch in CUDA's <<<grid, block>>> (triton#2166's words
    # in one sentence)
    ("The launch func<<<grid_size, 1024, 512, stream>>> fails with invalid argument: the PTX has .maxntid 128, 1, 1",
     "threads", 1024, 128),
    # cuda-api-wrappers#545 (fresh-64): "launch it with N threads"
    ("The following example demonstrates an example kernel, whose launch should fail since the maximum number of "
     "threads per block is 1024, and we are trying to launch it with 1500 threads.", "threads", 1500, 1024),
    # libCEED#902 (fresh-64): a block's extent in z, and the request in parentheses
    ("backends cuda-shared: fix launch bounds to avoid invalid z dimension\n\nThe typical max z dimension size of a "
     "thread block is 64 and we were computing larger values (like 85) in some cases.", "threads", 85, 64),
    # unified-runtime#1299 (fresh-64): CUDA's per-block register limit by its name, past a mention of non-uniform
    # work groups (which is no threads limit)
    ("[CUDA] Fix MaxRegsPerBlock check in setKernelParams\n\nAlso change the error code returned if `MaxRegsPerBlock` "
     "is exceeded from `INVALID_WORK_GROUP_SIZE` to `OUT_OF_RESOURCES`. The previous fail mode produced confusing "
     "errors mentioning non-uniform work group sizes even if they were uniform.", "registers", None, None),
    # sglang-das#326 (fresh-65): the memory's name between the size and "exceeding"
    ("fix(hcu): avoid gfx936 QSA LDS overflow\n\nOn gfx936 this compiles to 67584 bytes of LDS, exceeding the "
     "65536-byte hardware limit. gfx936 selects the legacy MMAC layout, where the chained dot needs an additional "
     "2048-byte LDS scratch buffer.", "shared-memory", 67584, 65536),
    # numba-dpex's work items per dimension; FBGEMM's dim3 block.x and its bound as a range (harvested messages)
    ("Attempting to launch kernel vecadd with 2048 work items in dimension 0 is not supported. The device supports "
     "only 1024 work items for dimension 0.", "threads", 2048, 1024),
    ("[fbgemm_gpu/src/faster_hash_ops/faster_hash.cu(412)] [_zero_collision_hash_cuda]: block.x value 2048 is not "
     "within the range (0, 1024)", "threads", 2048, 1024),
    # gsplat: what failed to be set is the request; FasterTransformer's "block.x > 1024!" (harvested messages)
    ("Failed to set shmem for gradient kernel (245760 bytes).", "shared-memory", 245760, None),
    ("unfused_attention_kernels.cu: [ERROR][invokeAddHead3SizeQKVBias] block.x > 1024!", "threads", None, 1024),
    # harvested HPC messages: a GPU's opt-in limit by its number (cufinufft), QUDA's requested block size, "shared
    # memory bytes per block: N"
    ("[cufinufft] Config exceeds 101376 bytes available (needs 147456 bytes)", "shared-memory", 147456, 101376),
    ("QUDA: ERROR: Requested block size 32x8x8=2048 greater than max 1024", "threads", 2048, 1024),
    ("dslash_coarse_mma.in.hpp: Using too many shared memory bytes per block: 262144", "shared-memory", 262144, None),
    # rocFFT's "max threads per dim exceeded"
    ("rocfft: max threads per dim exceeded: transpose_kernel2_scheme", "threads", None, None),
    # probes in the shapes reports take: a device's limit named as "the limit of this device", a bare bound after
    # "exceeds" with its noun after it
    ("error: shared memory usage 98304 exceeds the 49152 limit of this device", "shared-memory", 98304, 49152),
    # a Chinese report: 共享内存 (shared memory), and a card named by its number before 上 ("on a 4090")
    ("我在4090上运行时报错：共享内存不足", "shared-memory", None, None),
    # AMD's LDS beside HIP's invalid value
    ("hipErrorInvalidValue when launching fused attention with 96KB LDS on gfx1100", "shared-memory", None, None),
    # a block's limit by its count ("1024-thread block limit", TileLang); warps are no count of threads, and a
    # number before "exceeds" is no bound ("num_warps=16 exceeds max threads per block")
    ("AutoWarpSpecialization skipped: 36 warps exceed the target's 1024-thread block limit", "threads", None, 1024),
    ("error: 2048 threads exceed the 1024 thread limit on this GPU", "threads", 2048, 1024),
    ("Triton: num_warps=16 exceeds max threads per block on AMD (wave64)", "threads", None, None),
])
def test_explain15_wordings_are_read(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # Falcor#472 (fresh-61): a declaration in the wrong place
    "test.slang(4): error 31201: modifier 'groupshared' is not allowed here.\n    groupshared float tmp[256];",
    # GenieX#1250 (fresh-61): an instruction's operand rule of Adreno's compiler
    "NumConstRegsError: # of constant registers must be < 2.\nAssertion failed: false && \"back-end instruction "
    "validation failed\", file QGPUInstructionValidator.cpp, line 440",
    # vllm#27542: an instruction's qualified state space is no shared-memory shortage
    "ptxas /tmp/x.ptx, line 818; error   : Feature '.tile::gather4 with destination state space as .shared::cluster' "
    "not supported on .target 'sm_120a'",
    # bevy#16781, MNN#896 (fresh-58, 57): Metal's empty dispatch names threadsPerThreadgroup too
    "-[MTLDebugComputeCommandEncoder dispatchThreadgroups:threadsPerThreadgroup:]:1293: failed assertion "
    "`(threadgroupsPerGrid.width(0) * threadgroupsPerGrid.y(1) * threadgroupsPerGrid.depth(1))(0) must not be 0.'",
    # and a threadgroup of no threads
    "-[MTLDebugComputeCommandEncoder dispatchThreadgroups:threadsPerThreadgroup:]:1099: failed assertion "
    "`(threadsPerThreadgroup.width(0) * threadsPerThreadgroup.height(1) * threadsPerThreadgroup.depth(1))(0) must not "
    "be 0.'",
    # intel/llvm#3565 (fresh-60): SYCL's -54 for a global range the local range does not divide
    "what():  Non-uniform work-groups are not supported by the target device -54 (CL_INVALID_WORK_GROUP_SIZE)",
    # XLA's HBM report under a heading that names VMEM too (error_1002.md, fresh-62)
    "**Category:** HBM and Vmem OOM\n\nXlaRuntimeError: RESOURCE_EXHAUSTED: TPU TensorCore Hbm usage: 34.82G, "
    "SparseCore Hbm usage 174.10G, exceeding available bytes: 95.74G",
    # bitsandbytes#2071 (fresh-63): a count of blocks gone negative (an int32 overflow)
    "A tensor with `numel() >= 2**31` therefore wraps the count negative, `num_blocks = n / blocksize` goes negative, "
    "and the launch fails:\n\nError invalid configuration argument at line 62 in file .../csrc/ops.cu",
    # cccl#8223: PTX directives in conflict
    "With nvcc before 13.1 it leads to ptxas errors as:\nConflicting directives: .maxntid and .reqntid cannot both be "
    "specified",
    # pykokkos#146 (fresh-64): a team's scratch pad that was never sized (set_scratch_size not called)
    "ScratchMemorySpace<...>::get_shmem: Failed to allocate 32 byte(s); remaining capacity is 0 byte(s)",
    # OpenCL-CTS: the writer blames the global range for CL_OUT_OF_RESOURCES
    "WARNING: kernel reported CL_OUT_OF_RESOURCES, indicating the global dimensions are too large. Skipping this size.",
    # Windows' shared GPU memory (system RAM) in Chinese
    "我的电脑共享内存不足 (Windows 共享 GPU 内存)",
    "怎么使用GPU的共享内存？总是报错cuda内存不足，显示的是GPU的专用内存，如何调用共享内存?",
    # a GPU's numbers and limits stated with no failure: an L2 cache's, a device's property, a directive a target lacks
    "The GPU has 101376 bytes available in its L2 cache limit for persisting accesses",
    "Shared memory limit of this device: 49152 bytes (informational)",
    "Error: .maxntid directive not supported on target sm_50",
])
def test_explain15_look_alikes_stay_off_chip(text: str) -> None:
    assert not _on_chip(text)


@pytest.mark.parametrize(("text", "entry", "required", "limit"), [
    # a log cut off inside the numbers keeps the resource its words name, and no number that was cut
    ("triton.runtime.errors.OutOfResources: out of resource: threads, Requ", "triton/threads", None, None),
    ("error: local memory (70000) exceeds limit (6", "hip/lds-exceeds-limit", 70000, None),
    # ROCm's Triton launcher puts a code before the message ("Messsage", its typo)
    ("triton.Config(..., num_warps=64)\nTriton Error [HIP]:  Code: 1, Messsage: invalid argument",
     "triton/too-many-warps", None, None),
    # cumm's "error code 701." at a sentence's end
    ("run_launch_driver_api launch.h:90\ncuda failed with error code 701. use CUDA_LAUNCH_BLOCKING=1 to get correct "
     "traceback.", "cuda/too-many-resources-for-launch", None, None),
    # MIVisionX's "failed(-5)" after the enqueue call
    ("ERROR: clEnqueueNDRangeKernel(supernode,2,*,{1920,1080,1},{16,16,1},...) failed(-5) for group#0",
     "opencl/out-of-resources-enqueue", None, None),
    # Triton's numbers quoted without the exception: a limit of five digits or more is shared memory's; PTSS's own
    # numbers stay its
    ("[Bug]: SM120 decode fails: Required: 131072, Hardware limit: 101376", "triton/shared-memory", 131072, 101376),
    ("out of resource: per-thread scratch space (PTSS), Required: 270336, Hardware limit: 262144",
     "intel/ptss-scratch-space", 270336, 262144),
    # FlashAttention's launch templates check cudaFuncSetAttribute(..., MaxDynamicSharedMemorySize, smem_size) there
    ("CUDA error (/workspace/flash-attention/hopper/flash_bwd_launch_template.h:213): invalid argument",
     "generic/invalid-argument-shared-memory", None, None),
])
def test_a_log_cut_off_or_reworded_keeps_its_entry(text: str, entry: str, required: int | None,
                                                    limit: int | None) -> None:
    assert [(m.entry.id, m.required, m.limit) for m in match(text, KB) if m.entry.on_chip][:1] == [
        (entry, required, limit)]


@pytest.mark.parametrize(("text", "required", "limit"), [
    # two triples of a block's extents: the dimension that is over (harvested messages of Dawn, CubeCL, wgpu, IREE)
    ("Block Dimensions (32,32,128) include one or more values that exceed the device limit of (1024,1024,64)", 128, 64),
    ("Entry-point uses workgroup_size(1, 1, 128) that exceeds the maximum allowed (1024, 1024, 64).", 128, 64),
    ("Too many resources were requested during launch\nCube dim exceeds maximum bounds.\nRequested (1, 1, 128), max is "
     "(1024, 1024, 64).", 128, 64),
    ("Shader entry point's workgroup size [1, 1, 128] (128 total invocations) must be less or equal to the "
     "per-dimension limit [256, 256, 64] and the total invocation limit 256", 128, 64),
    ("exports[0] block dims 1x1x2048 exceeds device maximum 1024x1024x1024", 2048, 1024),
    # no dimension over: the total is, as read
    ("Shader entry point's workgroup size [64, 32, 1] (2048 total invocations) must be less or equal to the "
     "per-dimension limit [1024, 1024, 64] and the total invocation limit 1024", 2048, 1024),
    # triples of a stack trace are no extents of the error's (Metal.jl#132)
    ("ArgumentError: Number of threads in group (832) should not exceed 768\n  Stacktrace:\n    [1] Metal.HostKernel{"
     "Val{CartesianIndices((10, 10, 10))}, Val{CartesianIndices((1, 1, 1))}}", 832, 768),
])
def test_extents_per_dimension_read_the_dimension_that_is_over(text: str, required: int, limit: int) -> None:
    assert _first_on_chip(text) == [("threads", required, limit)]


@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # ROCm/aiter#5409 (fresh-68): a request by its verb and a bound a setting caps
    ("At BLOCK_M=128 the kernel needs about 470 VGPRs (it uses no LDS at all). `waves_per_eu=2` caps the budget at "
    "256, so the excess spills to scratch inside the KV loop.", "registers", 470, 256),
    # libretro/common-shaders#29 (fresh-69): Mesa's i965 register allocator in a shader compile
    ("Mesa 10.2.4 implementation error: Failed to compile vertex shader: vec4\ncompile failed: no register to spill",
     "registers", None, None),
    # llvm#155902 (fresh-67): AMDGPU's register scavenger
    ("[AMDGPU] Hit an ICE with this message: `Cannot scavenge register in FI elimination!`", "registers", None, None),
    # ROCm/aomp#24 (fresh-67): the kernel metadata's spill count
    ("Kernel 1 only\n      NumSGPRs:        90\n      NumVGPRs:        256\n      NumSpilledVGPRs: 158",
     "registers", None, None),
    # HOMMEXX#148, lammps#4102 (fresh-70): Kokkos' check quoted in prose after a GPU word
    ('Kokkos --with-cuda --debug reports "too large team size"', "threads", None, None),
    ("When running Kokkos on GPUs with neighbor threading the code sometimes gave an error that the requested team "
     "size was too large.", "threads", None, None),
    # GPUMD#1525 (fresh-70): a block's limit by CUDA's number
    ("MN > 1024, the launch fails. Both exceed the CUDA upper limit of 1024", "threads", None, 1024),
    # Vulkan-ValidationLayers#6961 (fresh-67): the validation layer's shared-memory limits by name
    ("The code that validates against VUID-RuntimeSpirv-Workgroup-06530 compares that grand total to the "
     "maxMeshSharedMemorySize limit.", "shared-memory", None, None),
    # sources' own wordings, with the numbers they state (harvested from CUTLASS, Vulkan's layers, TensorRT, RGA,
    # oneDNN, JAX's Mosaic GPU and Helion)
    ("Invalid tile description. Configuration uses too much shared memory. Consider reducing stage count or tile "
     "shape.\nDetails:\nMainloop uses 32768 bytes of shared memory per stage, and 4 stages for a total of 131072 "
     "bytes.\nThe maxmium amount of shared memory that can be used per block is 101376 bytes.",
     "shared-memory", 131072, 101376),
    ("vkCreateComputePipelines(): shader [VK_SHADER_STAGE_TASK_BIT_EXT] uses 16384 bytes of task payload memory and "
     "20480 bytes of shared memory (combined 36864 bytes), which is more than maxTaskPayloadAndSharedMemorySize "
     "(32768).", "shared-memory", 36864, 32768),
    ("Error: shared memory usage in 'kernel_cutlass_gemm_0' may exceed available memory set in kernel launch. "
     "Allocated: 49152 bytes. Used: 98304 bytes.", "shared-memory", 98304, 49152),
    ("[TRT] [E] Register limit exceeded at __myl_fused_kernel_4; more than 255 registers needed to compile program "
     "(CUDA)", "registers", None, 255),
    ("[TRACE][gpu/intel/gemm/jit/dsl/ir/pass/cse.cpp:725] CSE exceeded GRF usage limit. Usage: 17408, limit: 16384. "
     "Retry CSE and skip some expressions (GPU registers)", "registers", 17408, 16384),
    ('  File "/usr/local/lib/python3.12/site-packages/jax/_src/pallas/mosaic_gpu/core.py", line 1875, in f\n'
     "Requested too many CUDA threads per block. Each Mosaic thread corresponds to 128 CUDA threads. At most 16 are "
     "supported, got Mesh(grid=(132,), grid_names=('sm',), num_threads=20, thread_name='wg')", "threads", 20, 16),
    ("helion.exc.InvalidConfig: maxnreg=256 exceeds register budget for num_warps=16 (max 128)", "registers", 256,
     128),
    # JAX's Mosaic GPU: SMEM there is a block's shared memory, not a TPU's scalar memory; registers per thread that
    # a TMEM load needs
    ('  File "/usr/local/lib/python3.12/site-packages/jax/_src/pallas/mosaic_gpu/lowering.py", line 412, in f\n'
     'AssertionError: Ran out of scoped SMEM', "shared-memory", None, None),
    ('  File "/usr/local/lib/python3.12/site-packages/jax/experimental/mosaic/gpu/tcgen05.py", line 900, in f\n'
     "ValueError: TMEM translation too big : shape='16x256b' and num=128 involve 512 registers per-thread, which "
     "exceeds the limit of 255", "registers", 512, 255),
    # ptxas: a register cap over the target's (nccl#165, fresh-74)
    ("ptxas warning : Too big maxrregcount value specified 96, will be ignored", "registers", 96, None),
    # a message right under a frame without source is no source line, even where it reads like an assignment
    ('  File "/usr/local/lib/python3.12/site-packages/cutlass/cute/runtime.py", line 9, in launch\n'
     "blockDim.z = 128 exceeds max block dim z = 64.", "threads", 128, 64),
    # a comparison that is its own failure, under a bracketed level word (FasterTransformer)
    ("[ERROR][invokeAddHead3SizeQKVBias] block.x > 1024! (CUDA kernel)", "threads", None, 1024),
    # TensorRT's own words for its engine builder are GPU context
    ("[TRT] [E] ERROR: Could not find a valid tactic for node /model/attn/MatMul due to insufficient shared memory",
     "shared-memory", None, None),
    # two bare sizes compared (FlashInfer's CuTe DSL kernels)
    ("AssertionError: KV256 shared-memory pipeline exceeds the static SMEM budget: 245760 > 232448",
     "shared-memory", 245760, 232448),
    # an architecture leading a file's name is GPU context (DeepGEMM's JIT assertions)
    ("Assertion error (csrc/jit_kernels/impls/sm100_fp8_gemm_1d1d.hpp:88): Too many registers", "registers", None,
     None),
    # a use over its bound with a slash (aiter), and a bound after a label's colon (quack)
    ("RuntimeError: Out of LDS on gfx942: 98304 / 65536 bytes", "shared-memory", 98304, 65536),
    ("ValueError: SM12x: exceeds 99 KB SMEM", "shared-memory", None, 101376),
    # DLA is also a backbone's name; only a DLA's SRAM is vetoed
    ("CenterNet DLA-34: CUDA kernel failed: shared memory exceeds the limit of 49152 bytes on this GPU",
     "shared-memory", None, 49152),
    # and on a TPU, scalar memory
    ('  File "/usr/local/lib/python3.12/site-packages/jax/_src/pallas/mosaic/lowering.py", line 412, in f\n'
     'AssertionError: Ran out of scoped SMEM', "tpu-smem", None, None),
])
def test_explain16_wordings_are_read(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # llvm#98222 (fresh-67): a CPU target named in its triple
    "$ clang -std=c++20 -target armv7-unknown-linux -fsanitize=address -c out-of-regs.cpp\n"
    "error: ran out of registers during register allocation",
    "clang --target=aarch64-linux-gnu -O2 -c foo.c\nLLVM ERROR: ran out of registers during register allocation",
    # Kokkos' host backends abort with the same words for a CPU's threads (kokkos#6699)
    "[ RUN      ] openmp.reducers_int\nKokkos::abort: Requested Team Size is too large!",
    # foundry#5 (fresh-70): a kernel missing from the binary, reported by the shared-memory attribute's call
    '[rank0]: RuntimeError: CUDA error: "named symbol not found" at run_fmha.cu:160\n[rank0]: Failed call: '
    "cudaFuncSetAttribute(*kernel_ptr, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_size)",
    # a query of a limit that failed is no kernel over it (TensorRT's plugins, vLLM, MatX, as their sources word it)
    "[TRT] get_max_shared_memory_per_block :failed to get max shared memory per block (CUDA kernel plugin)",
    "WARNING: Unable to determine shared memory size on this hardware; flex_attention kernel options fall back",
    "matxException (matxNotSupported: CUB block shared-memory queries require MATX_EN_JIT) - cub_device.h:266 (CUDA)",
    # a traceback frame's source line names a variable (pytorch#93802, fresh-73)
    '  File "/home/u/triton/python/triton/code_gen.py", line 1320, in _compile\n    name, asm, shared_mem = '
    "_triton.code_gen.compile_ttir(backend, generator.module, device, num_warps, num_stages, extern_libs)\n"
    "RuntimeError: Internal Triton PTX codegen error: ",
    # Triton's own check in a traceback's source lines above another error (auto-round#2048, fresh-74)
    "Torch 2.13.0: RuntimeError: Triton Error [CUDA]: no kernel image is available for execution on the device\n"
    "        # not enough shared memory to run the kernel\n        max_shared = max_shared_mem(device)\n"
    "        if self.metadata.shared > max_shared:\n"
    '            raise_(OutOfResources(self.metadata.shared, max_shared, "shared memory"))',
    # a logger's level word or a JSON field's name is no failure of what the line names (Metal.jl#26 as vLLM's logger
    # or a JSON record would carry it)
    "(VllmWorker rank=0 pid=1234) ERROR 05-01 12:00:00 [multiproc_executor.py:520] Threadgroup memory breaks on "
    "small datatypes\n(VllmWorker rank=0 pid=1234) ERROR 05-01 12:00:00 [multiproc_executor.py:520] Shows 0 for "
    "Int8/Int16 on the Metal GPU",
    '{"error": "Threadgroup memory breaks on small datatypes\\n\\nShows 0 for Int8/Int16 on the Metal GPU"}',
    # a build's command line names limits in its options, above an unrelated error
    "RuntimeError: Error building extension 'fused_adam': [1/3] /usr/local/cuda/bin/nvcc -c multi_tensor_adam.cu -o "
    "multi_tensor_adam.cuda.o --use_fast_math -maxrregcount=64\nFAILED: multi_tensor_adam.cuda.o\nnvcc fatal   : "
    "Value 'sm_120' is not defined for option 'gpu-architecture'",
    "/usr/local/cuda/bin/nvcc -DSHARED_MEM_BYTES=98304 -DMAX_THREADS_PER_BLOCK=1024 -O3 -c kernel.cu -o kernel.o\n"
    'kernel.cu(42): error: identifier "blockDimx" is undefined\n1 error detected in the compilation of "kernel.cu".',
    # a dump of the device's properties, or ptxas's report of a kernel, states no failure; the error after it is
    # another one
    './deviceQuery Starting...\nDevice 0: "NVIDIA GeForce RTX 4090"\n'
    "  Total amount of shared memory per block:       49152 bytes\n"
    "  Total shared memory per multiprocessor:        102400 bytes\n"
    "  Total number of registers available per block: 65536\n"
    "  Maximum number of threads per block:           1024\nResult = PASS\n"
    "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory",
    "Building wheel for flash-attn (setup.py) ... error\n"
    "  ptxas info    : Used 255 registers, 98304 bytes smem, 400 bytes cmem[0]\n"
    "  c++: fatal error: Killed signal terminated program cc1plus",
    # clinfo's columns above a build that failed (a failure of its own, not of a size)
    "Number of platforms                               1\n  Device Name                                     NVIDIA "
    "GeForce RTX 3080\n  Max work group size                             1024\n  Local memory size"
    "                               49152 (48KiB)\nERROR: clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE (-11)",
    # no device, or a driver too old for the runtime, whatever limits a dump above names; vulkaninfo's dump
    "Device 0: NVIDIA GeForce GTX 1080 Ti\n  max threads per block: 1024\n  max shared memory per block: 48 KB\n"
    "  multiprocessor count: 28\nError: CUDA driver version is insufficient for CUDA runtime version",
    "Error: no CUDA-capable device is detected\nDevice limits: maxThreadsPerBlock=1024, sharedMemPerBlock=49152",
    "  VkPhysicalDeviceLimits:\n    maxComputeSharedMemorySize                      = 49152\n"
    "    maxComputeWorkGroupSize: count = 3\n        1024\n        1024\n        64\n"
    "ERROR at /vulkan-sdk/vulkaninfo/vulkaninfo.h:240:vkCreateInstance failed with ERROR_INCOMPATIBLE_DRIVER",
    # a Jetson DLA's managed SRAM (TensorRT's sample engines)
    "User-specified DLA managed SRAM size is too large and has been clipped to 2^30 bytes. Please make sure that this "
    "is the intended managed SRAM size. (TensorRT, Jetson GPU)",
    # pinned host memory (torch's pin-memory utilities)
    "RuntimeError: Unpinning shared memory failed with error-code: 713 (CUDA)",
])
def test_explain16_look_alikes_stay_off_chip(text: str) -> None:
    assert not _on_chip(text)


def test_explain16_a_property_dump_gives_no_count_of_another_resource() -> None:
    """deviceQuery's lines stay apart: "49152 bytes" above "Maximum number of threads" is no bound of registers."""
    log = ("  Total amount of shared memory per block:       49152 bytes\n"
           "  Maximum number of threads per block:           1024\n"
           "RuntimeError: CUDA error: too many resources requested for launch")
    assert [(m.entry.id, m.limit) for m in match(log, KB) if m.entry.on_chip] == [
        ("cuda/too-many-resources-for-launch", None)]


# explain17: a device's capacities stated as "max N <thing>" in a report's environment are no failure; a bare
# "max N" after a request is the bound it went over
@pytest.mark.parametrize(("text", "expected"), [
    ("GPU: H100 80GB (228 KB shared memory per SM, 50 MB L2, max 1024 threads per block)\n"
     "Segmentation fault (core dumped)", []),
    ("CUDA kernel: 2048 threads per block, max 1024", [("threads", 2048, 1024)]),
    # clinfo's NVIDIA columns above an unrelated launch error: "Max compute units 46" is no bound of registers
    ("Platform Name                                   NVIDIA CUDA\n"
     "  Max compute units                               46\n"
     "  Max work group size                             1024\n"
     "  Local memory size                               49152 (48KiB)\n"
     "  Registers per block (NV)                        65536\n"
     "  Max constant buffer size                        65536 (64KiB)\n"
     "clEnqueueNDRangeKernel failed: CL_INVALID_KERNEL_ARGS", []),
])
def test_explain17_max_before_a_count_is_a_capacity(text: str, expected: list[tuple[str, int, int]]) -> None:
    assert _first_on_chip(text) == expected


# explain17: wordings and numbers learnt from fresh-75 to 81 (each line is the form, in words of our own)
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # the HSA runtime refusing a dispatch; the ROCr debug agent's queue state (a report's description of the card's
    # VRAM below keeps the general layer off: the knowledge base must know the wording)
    ("Callback: Queue 0x7f00 aborting with error : HSA_STATUS_ERROR_OUT_OF_REGISTERS: Kernel has requested more "
     "VGPRs than are available on this agent code: 0x2d\nAborted (core dumped)\nTotal VRAM 8176 MB, total RAM 32029 MB",
     "registers", None, None),
    ("Queue error state in GPU agent: AMD gfx906\nQueue ID: 1234 (Out of VGPRs;)\nTotal VRAM 16368 MB",
     "registers", None, None),
    # SYCL's bound per dimension, the three values alike
    ("RuntimeError: The number of work-items in each dimension of a work-group cannot exceed {512, 512, 512} for "
     "this device", "threads", None, 512),
    # a size past what the hardware has, named after it; WebGPU's "workgroup storage"
    ("On Metal the 8192-entry kernel is past the 32 KB of threadgroup memory the hardware has, so it fails to load.",
     "shared-memory", None, 32768),
    ("The workgroup storage limit size is `16384` bytes in this WebGPU implementation, but this isn't enough for the "
     "tile buffers of the new kernel.", "shared-memory", None, 16384),
    # a graphics driver is a GPU word; counts where they stand and what the hardware has
    ("Mesa's vc4 driver now fails register allocation: we're at ~90 registers of pressure, while the hardware only "
     "has ~64 registers available.", "registers", 90, 64),
    # a product's factor is no request; a sum stated as one is
    ("The kernel requires 32 VGPRs x 8 tiles = 256 VGPRs for the cache, plus 96 for the accumulators, totaling ~360 "
     "VGPRs per lane. RDNA3 has 256 VGPRs per lane, so the compiler spills to scratch.", "registers", 360, 256),
    # a bound that holds is no failure; another resource's failure after a work-group's size is that resource's
    ("When no workgroup size is set, the compiler will use too many registers for launches with many threads.",
     "registers", None, None),
    ("The buffer overflows the 32KB SLM budget at rank 128, so clBuildProgram fails with CL_OUT_OF_RESOURCES, while "
     "the block count never exceeds max_work_group_size / rank.", "shared-memory", None, 32768),
    # AMD's OpenCL compiler out of private resources; CLBlast's code after the call's name
    ("[OPENCL]: Using device: Tahiti\nError:E013:Insufficient Private Resources!", "registers", None, None),
    ("CLBlast: OpenCL error: clEnqueueNDRangeKernel: -5", "registers", None, None),
    # fresh-82 to 85: a bound by its participle and a request by its verb, not the digits that end a name; a bound per
    # block is not compared with a count per thread; OpenCL's name of a kernel's work-group bound in a Chinese report
    ("On this Adreno the WGsize is capped to 128, where the kernel attn_f32_f16 required 256, so "
     "clEnqueueNDRangeKernel fails with CL_INVALID_WORK_GROUP_SIZE.", "threads", 256, 128),
    ("Each element got a block of 1024 threads; with 90 registers per thread the block asks for more than the 65536 "
     'registers it can be given and the launch fails with "too many resources requested for launch".',
     "registers", None, 65536),
    ("[OpenCL] 该设备的GPU为Adreno 512，CL_KERNEL_WORK_GROUP_SIZE 为 256，之前设置的lws超出此大小",
     "threads", None, 256),
    # sizes in the sources' own messages (the harvest): a setting that is the subject of the need is no request;
    # "requires at least N ... bytes ..., got M"; "fit into LDS of size N bytes"; "to at most N bytes"
    ("Cache lookup_buffer_size=32768 needs 180000 bytes of shared memory to resolve lookups, but the device allows "
     "166912; lower lookup_buffer_size.", "shared-memory", 180000, 166912),
    ("attention kernel requires at least 70000 shared-memory bytes per SM, got 49152.", "shared-memory", 70000, 49152),
    ("HIP: Cannot fit the input tile into LDS of size 65536 bytes even after splitting rows", "shared-memory", None,
     65536),
    ("CUDA launch failed: reduce dynamic shared memory in the launch to at most 101376 bytes, or use smaller tiles.",
     "shared-memory", None, 101376),
])
def test_explain17_wordings(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # a local size unlike the one the kernel was compiled for, not over a limit
    "what():  The specified local size {1, 1, 64} doesn't match the required work-group size specified in the "
    "program source {1, 1, 32}",
    # NVIDIA's OpenCL after an out-of-bounds access
    "[OPENCL]:CL ERROR:CL_OUT_OF_RESOURCES\n[OPENCL]:CL ERROR:NVIDIA: ILLEGAL READ OR WRITE TO A BUFFER",
    # a tensor moved to the device: an allocation
    '  File "convert.py", line 12, in to\n    new = Params(super().to(device=device,\n'
    "RuntimeError: Native API failed. Native API returns: -5 (PI_ERROR_OUT_OF_RESOURCES)",
    # a host's limit on a process's threads; a host backend's Kokkos team, whatever the build's name says
    "ERROR: maximum number of threads per process exceeded (ulimit -u 1024)",
    '[CUDA-12.2-NVCC] 3: C++ exception with description "Kokkos::TeamPolicy<OpenMP>: Requested too large team size. '
    'Requested: 64, Maximum: 16" thrown in the test body.',
])
def test_explain17_look_alikes_stay_off_chip(text: str) -> None:
    assert not _on_chip(text)


# explain17: a launch's printed block over what any block may have is the cause of "invalid configuration argument",
# whatever the print says of the grid; a block within it leaves the grid as the likelier cause
@pytest.mark.parametrize(("text", "expected"), [
    ("error in my_im2col_cuda: invalid configuration argument\n"
     "launch arguments: gridDim=(4096, 1, 1), blockDim=(32, 48, 1), shm_size=4096", [("threads", 1536, 1024)]),
    ("RuntimeError: CUDA error: invalid configuration argument\nkernel config: grid=(64, 1, 1), block=(8, 8, 128)",
     [("threads", 8192, 1024)]),
    ("error in my_im2col_cuda: invalid configuration argument\n"
     "launch arguments: gridDim=(1, 70000, 1), blockDim=(256, 1, 1), shm_size=4096", []),
    # a grid over its limit next to a block within it (IREE's words)
    ("Trying to launch a GPU kernel with grid_dims = (4294967296, 1, 1) block_dims = (128, 1, 1). It is larger than "
     "the limits.", []),
    ("Trying to launch a GPU kernel with grid_dims = (16, 1, 1) block_dims = (4096, 1, 1). It is larger than the "
     "limits.", [("threads", 4096, None)]),
    # a query of the bound that failed
    ("OpenCL: Get max workgroup size failed!", []),
    # a launch's print (TileLang's form): the block over what any block may have is the cause, not the memory beside
    # it; a size of none is no shortage
    ("Launch failed: CUDA_ERROR_INVALID_VALUE\n grid=(32,1,1),  block=(1536,1,1) dyn_smem_bytes=32768",
     [("threads", 1536, None)]),
    ("Launch failed: CUDA_ERROR_INVALID_VALUE\n grid=(32,1,1),  block=(256,1,1) dyn_smem_bytes=0", []),
])
def test_explain17_a_printed_block_over_1024_threads(text: str, expected: list[tuple[str, int, int]]) -> None:
    assert _first_on_chip(text) == expected


# explain17: messages from the sources of HPC, kernel and OpenCL/graphics projects (harvest 6), in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # Kokkos' check before it named the shared memory (kokkos#7399: a reducer too large for a HIP reduce)
    ("Kokkos::Impl::ParallelReduce< HIP > could not find a valid execution configuration.", "shared-memory", None,
     None),
    ("GPU kernel launch: required shared memory size 150000 exceed max shared memory size of current gpu arch 101376",
     "shared-memory", 150000, 101376),
    ("cupy filter: inadequate shared memory available on this GPU for the kernel", "shared-memory", None, None),
    ("CLBlast: -54 (512 is larger than 256)", "threads", 512, 256),
    ("CLBlast: -2046", "shared-memory", None, None),
    ("OPENCL_V< CLFFT_OUT_OF_RESOURCES > (659): clEnqueueNDRangeKernel failed", "registers", None, None),
    ("The total number of invocations within a work group exceeds MAX_COMPUTE_WORK_GROUP_INVOCATIONS.", "threads",
     None, None),
    ("ERROR: 0:3: 'local_size_x' : invalid value: Value must be at least 1 and no greater than 1024", "threads", None,
     1024),
    ("Assertion exception (csrc/kernels/intranode.cu:698): num_threads <= 1024", "threads", None, 1024),
])
def test_explain17_harvest6(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


# explain17: fresh-86 (the newest threads) and the seventh harvest (renderers, miners, OpenCL tools)
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("Metal kernels crash on the M1 Pro (threadgroup 1024 > 768), so they fall back to the standard path.",
     "threads", 1024, 768),
    # setmaxnreg's register budgets of warpgroups; "shmem requirements"
    ("cutlass kernel hangs at warpgroup_reg_alloc<240>() on the H100 after the launch-bounds change", "registers",
     None, None),
    ("[cutedsl] flash-bwd: balance the setmaxnreg budgets (fixes the hang on fresh compiles)", "registers", None,
     None),
    ("works on A100 but not on the RTX A5000 due to shmem requirements of the CUTLASS kernel", "shared-memory", None,
     None),
    # gpuowl's -5 after its name; ccminer's 701 tagged with the API; Metal's threadgroup memory with a hyphen
    ("Exception gpu_error: OUT_OF_RESOURCES (-5) fftHin at src/clwrap.cpp:319 run", "registers", None, None),
    ("CUDA error DRIVER: '701' in func 'scan_context' line 1200", "registers", None, None),
    ("bucket_count=16384 exceeds the stable threadgroup-memory path on Metal.", "shared-memory", None, None),
])
def test_explain17_fresh86_and_harvest7(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


# explain17: the seventh harvest's kernel libraries and portability layers (alpaka, cuVS, BladeDISC, SYCL-TLA,
# XeTLA), in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("The given work division is not valid or not supported by the device of type AccGpuCudaRt<3,unsigned int>!",
     "threads", None, None),
    ("search kernel: block_size cannot be larger than max_block size 1024", "threads", None, 1024),
    ("GPU failed with 701 in LaunchKernel", "registers", None, None),
    ("CUDA Runtime failure: '#701'", "registers", None, None),
    # a device's size by its label, what a kernel has in parentheses, a bound after "should be less than"
    ("gemm test: hardware smem_size: 131072, required smem_size: 163840", "shared-memory", 163840, 131072),
    ("topk fallback requires >=128KB smem per block (have 101376).", "shared-memory", 131072, 101376),
    ("SYCL kernel: The local memory size should be less than 64KB!", "shared-memory", None, 65536),
])
def test_explain17_harvest7(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


# explain17: the eighth harvest (hand-written CUDA kernels, vllm-ascend): an Ascend NPU's unified buffer and L1/L0
# buffers are its cores' on-chip scratchpads (read as shared memory where the NPU is named); labelled sizes
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("[vllm-ascend] rope tiling: D is too big to load in ub, ubSize is 196608 bytes, loading requires 262144 bytes.",
     "shared-memory", 262144, 196608),
    ("csrc/ops/block_mmad.hpp:153:5: error: static assertion failed: L1TileShape exceeding the L1 space! (torch_npu, "
     "Ascend 910B)", "shared-memory", None, None),
    ("GPU kernel: Max shared memory: 49152, requested shared memory: 98304", "shared-memory", 98304, 49152),
    # Level Zero's validation layer prints the call with its group size
    ("ERROR (ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION) in zeKernelSetGroupSize(hKernel=0x55d4c8e2a0f0, "
     "groupSizeX=4096, groupSizeY=1, groupSizeZ=1)", "threads", 4096, None),
])
def test_explain17_harvest8(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


# explain17: the ninth harvest (a GPU database, emulators, ML compilers and DSLs), in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("GPU kernel: Failed to set max dynamic shared size to 114688 bytes (Error code: 1)", "shared-memory", 114688,
     None),
    ("CUDA block size should be less or equal to 1024", "threads", None, 1024),
    ("L0 error: group size dimension is not valid for the kernel or device", "threads", None, None),
    ("CM-ERROR: CM_EXCEED_MAX_SLM_SIZE kernel.cc 103", "shared-memory", None, None),
    ("CM-ERROR: CM_INVALID_KERNEL_SPILL_CODE executor.cc 120 (kernel on the Intel GPU)", "registers", None, None),
])
def test_explain17_harvest9(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


# explain17: the tenth harvest (FBGEMM, CUDA's library samples, ccv, WebGPU's samples), in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("GPU solver: Skipping BPC=4: requires 200704 bytes/block shared memory, device limit is 166912.",
     "shared-memory", 200704, 166912),
    ("[src/attn/flash.cu:203]:CUDA - Error: 701", "registers", None, None),
    ("This demo cannot run on this system. maxComputeInvocationsPerWorkgroup is 256, and this demo requires at least "
     "512.", "threads", 512, 256),
])
def test_explain17_harvest10(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # a shape rule, a count that must be positive, a feature another backend has
    "Cuda::single_block_reduce requires power-of-two blockDim",
    "The number of threads per block must be > 0",
    "requested shared memory for deposition, but shared memory is only available for CUDA or HIP",
    # a work-group larger than the whole range; an Ascend buffer's event IDs; failed queries of the bound
    "Work group size larger than global size",
    # a launch's total threads over 2^32 (FBGEMM's HIP check), not a block's
    "[jagged_bmm_kernel] [grid dim 8388608 x 1 x 1] [block dim 1024 x 1 x 1]: Total number of threads 8589934592 is "
    "greater than the HIP limit of 2^32",
    # an emulator's guest memory; Vulkan's and OpenCL's device-local memory (device memory)
    "An error occurred while mapping shared memory in guest: Cannot allocate memory (GPU emulation)",
    "OpenCL: Unable to allocate device-local memory: CL_OUT_OF_RESOURCES",
    "[vllm-ascend] L1 Buffer overflow: Exceeds the supported range of EVENT(0~7)",
    "Error: getting the maximum work-group size is not supported by the device",
    "Error -30: Failed to clGetDeviceInfo when trying to get CL_DEVICE_MAX_WORK_GROUP_SIZE",
    # "reduce" in a path's or name's segment is no failure of the info line under it
    '  File "/opt/lib/comm/reduce_scatter/kernel_perf.cu", line 10\nnum_threads:1024 with shared memory size: 0',
])
def test_explain17_harvest6_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain18: the eleventh harvest (a GPU simulator, JVM and .NET GPU runtimes, MXNet), in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("Simulator uArch: ERROR ** Kernel requires more resources than shader has.", "registers", None, None),
    ("Execution error: Shader kernel CTA (block) size is too large for microarch config.\n"
     "       CTA size (x*y*z) = 1280, max supported = 1024", "threads", 1280, 1024),
    ("[JNI] ERROR : clEnqueueNDRangeKernel -> Returned: -54", "threads", None, None),
    ("[JNI] ERROR : clEnqueueNDRangeKernel -> Returned: -5", "registers", None, None),
    ("java.lang.Error: failed guarantee: local allocation is too large for device", "shared-memory", None, None),
    ("Invalid group dimensions (1536, 1, 1) (exceeds maximum (1024, 1024, 64))", "threads", 1536, 1024),
    ("Not supported total group size. The total group size must be <= the number of available threads (512)",
     "threads", None, 512),
    ("too large launch parameter: LayerNorm[64,1], [4096,1,1]", "threads", 4096, None),
])
def test_explain18_harvest11(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # MXNet's same words for a grid above 65535 blocks: the block is small
    "too large launch parameter: ReduceKernel[90000,1], [256,1,1]",
    "Invalid grid dimensions (70000, 70000, 70000) (exceeds maximum (65535, 65535, 65535))",
])
def test_explain18_harvest11_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain18: what fresh-87 to 93 taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # a number the reporter elided
    ("-O1 is needed to get past a HIP out of memory error: `error: local memory (XXX) exceeds limit (65536)`",
     "shared-memory", None, 65536),
    # a bare "k" right before the memory's name
    ("The 3D spreader fails in double precision; is this the 48k shared memory limit of the GPU?", "shared-memory",
     None, 49152),
    # Triton's class name cut by whoever pasted it
    ("[1/0] Runtime error during autotuning:\nNo valid triton configs. OutOfResou...", "shared-memory", None, None),
])
def test_explain18_fresh87_93(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # a CPU's registers: LLVM's scavenger on a general-purpose class, CPU flags, an ARM triple
    "LLVM ERROR: Error while trying to spill R7 from class GPR: Cannot scavenge register without an emergency spill "
    "slot! (flang -O3, the kernel module)",
    "clang -O3 -march=armv8.2-a -c kernel.c\nkernel.c:12:3: error: inline assembly requires more registers than "
    "available",
    "fatal error: error in backend: ran out of registers in kernel foo\nTarget: arm-unknown-linux-androideabi",
    # a module the driver refuses to load, whatever it says of shared memory
    "A kernel whose parameter is in the .shared state space cannot be loaded:\nDriverError(200, \"device kernel image "
    "is invalid\")",
])
def test_explain18_fresh87_93_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain18: sizes the harvests' messages state and prose did not read
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # CUTLASS's Python interface names the architecture before the bound
    ("Configuration uses too much shared memory. Consider reducing stage count or tile shape.\nDetails:\nMainloop "
     "uses 40960 bytes of shared memory per stage, and 3 stages for a total of 122880 bytes.\nThe maxmium amount of "
     "shared memory that can be used per block on CC 89 is 101376.", "shared-memory", 122880, 101376),
    # a bound after a comma and "exceeds"
    ("Pallas kernel: the resident block is 25165824 bytes, exceeds the 16777216 byte VMEM threshold.", "vmem",
     25165824, 16777216),
    # the left side of a comparison after "available" is the request, the right side the bound
    ("TPU kernel: row pointers would exceed available SMEM (1064960 bytes > 1048576 bytes)", "tpu-smem", 1064960,
     1048576),
])
def test_explain18_harvest_sizes(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


# explain18: the eleventh harvest's packages (MindSpore's Ascend tilings and its GPU kernel generator), in words of
# our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("mindspore tiling: L0B load size 98304 with baseN 192 exceeds L0BSize 65536.", "shared-memory", 98304, 65536),
    ("[mindspore] Current L1 size 655360 exceeds L1Size limit 524288. No valid L1 tiling factors.", "shared-memory",
     655360, 524288),
    ("mindspore: conv tiling failed, L1 min tiling excced L1 size", "shared-memory", None, None),
    ("AKG: Cannot bind axis to 1536 threads, maximal thread number is 1024.", "threads", 1536, 1024),
])
def test_explain18_harvest11_packages(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


# explain18: prose that states what a GPU has less of, and a work-group's total items
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("Pascal cards have less shared memory (48KB instead of 64KB on Volta), so the tile sizes need adjusting; the "
     "kernel fails with invalid argument.", "shared-memory", None, 49152),
    ("Adds support for sm86 GPUs, which have a smaller shared memory size (99kb per block), so the number of stages "
     "has to be reduced.", "shared-memory", None, 101376),
    ("The compute shaders use workgroup sizes that total 512 workgroup items, but the device allows a maximum "
     "supported workgroup invocations of 256.", "threads", 512, 256),
])
def test_explain18_prose_less(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


# explain18: one allocation of a kernel's scoped VMEM (XLA's first E1001 page) is the scoped limit's, not the capacity's
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("XlaRuntimeError: RESOURCE_EXHAUSTED: Allocation (size=100663296) would exceed memory (size=67108864) :: "
     "#allocation7 [shape = 'u8[100663296]{0}', space=vmem, size = 0x6000000, tag = 'scoped memory for "
     "my_kernel.1']", "scoped-vmem", 100663296, 67108864),
    ("XlaRuntimeError: RESOURCE_EXHAUSTED: Allocation (size=138412032) would exceed memory (size=134217728) :: "
     "#allocation2 [shape = 'f32[33792,1024]{1,0}', space=vmem, size = 0x8400000, tag = 'input window, operand 0']",
     "vmem", 138412032, 134217728),
])
def test_explain18_vmem_allocation_tag(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


# explain18: the twelfth harvest (Futhark's generated code, CLTune, FluidX3D, FFmpeg's OpenCL filters), in words of
# our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("Kernel main.segscan_1234 with 81920 bytes of memory exceeds device limit of 65536", "shared-memory", 81920,
     65536),
    ("[  FAILED  ] catched exception: Using too much local memory", "shared-memory", None, None),
    ("[sharpen_opencl @ 0x55d0] Failed to enqueue kernel: -5.", "registers", None, None),
    ("[blend_opencl @ 0x55d0] Failed to enqueue blend kernel for plane 2: -54.", "threads", None, None),
    ("| Error: OpenCL kernel \"update_fields(...)\" failed with error code -5!  |", "registers", None, None),
    ("Internal OpenCL error: -5", "registers", None, None),
])
def test_explain18_harvest12(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


# explain18: accelerators' Triton forks name their on-chip SRAM in Triton's words (harvest 11: FlagGems' vendors)
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("error: out of resource: uni_sram", "shared-memory", None, None),
    ("out of resource: nram, Required: 655360, Hardware limit: 524288", "shared-memory", 655360, 524288),
])
def test_explain18_accelerator_sram(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


# explain18: the thirteenth harvest (cuda-oxide, Rust-CUDA, traccc's SYCL, profanity, AMD's shader compiler), in words
# of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("CUDA launch of matmul: 81920 shared-memory bytes exceed the device portable limit 49152", "shared-memory",
     81920, 49152),
    ("reduce_rows: block has 1536 threads; device maximum is 1024", "threads", 1536, 1024),
    ("called `Result::unwrap()` on an `Err` value: LaunchOutOfResources", "registers", None, None),
    ("Assertion `sizeof(float) * n_threads * 64 < q.get_device().get_info<::sycl::info::device::local_mem_size>()' "
     "failed.", "shared-memory", None, None),
    ("OpenCL: std::runtime_error - kernel queueing failed (res = -5)", "registers", None, None),
    ("Assertion `esLdsSizeDwords <= maxHwLdsSizeDwords' failed.", "shared-memory", None, None),
])
def test_explain18_harvest13(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


def test_explain18_camel_case_lds_is_case_sensitive() -> None:
    # "fieldsSize" holds the letters of "ldsSize"
    assert not _on_chip("Assertion `fieldsSizeDwords <= maxFieldsSizeDwords' failed.")


# explain18: the sixteenth harvest (pg-strom, libgpuarray, Glow's OpenCL backend, sppark), in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("ERROR:  failed on cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, 200704): CUDA_ERROR_INVALID_VALUE",
     "shared-memory", 200704, None),
    ("CLBlastDgemm(...): not enough local memory on the device", "shared-memory", None, None),
    ("F0511 OpenCL.cpp:496] Check failed: err == CL_SUCCESS (-5 vs. 0) Error in clEnqueueNDRangeKernel.",
     "registers", None, None),
    ("F0511 OpenCL.cpp:521] Check failed: err == CL_SUCCESS (-54 vs. 0) Error in clEnqueueNDRangeKernel.",
     "threads", None, None),
    ("F0511 OpenCL.cpp:693] Check failed: wgs0 * wgs1 <= max_kern_wg_size (512 vs. 256) Bad workgroup size",
     "threads", 512, 256),
])
def test_explain18_harvest16(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # a cooperative launch's grid over the blocks that can be resident at once; a failed query of a property
    "cudaLaunchCooperativeKernel((const void*)f, gridDim, blockDim, args, shared_sz, stream)@gpu_t.cuh:129 failed: "
    "\"too many blocks in cooperative launch\"",
    "  File \"/opt/glow/lib/Backends/OpenCL/OpenCLDeviceManager.cpp\", line 77\nError message: Error getting device "
    "local memory type.",
])
def test_explain18_harvest16_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain18: the seventeenth harvest (OpenCL applications and benchmarks: Pyrit, mixbench), in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("SystemError: CUDA_ERROR_LAUNCH_OUT_OF_RESOUCES", "registers", None, None),
    ("OpenCL error in file 'kernels_ocl.cpp' in line 90 : Code -5.", "registers", None, None),
    ("Error: Unsupported workgroup size (1536).", "threads", 1536, None),
])
def test_explain18_harvest17(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


# explain18: the eighteenth harvest (luminal, clvk, OpenCLOn12, Aparapi, OpenCL.jl), in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # (the printed block's threads over the stated bound are the request)
    ("threadblock is too big: (32, 64, 1) > 1024", "threads", 2048, 1024),
    ("[CLVK] dispatch: Too many work items per workgroup: 32 * 64 * 1 > 1024", "threads", 2048, 1024),
    ("threadblock is too big: (16, 16, 2) > 1024", "threads", None, 1024),
    ("local_work_size exceeds max work items per group.", "threads", None, None),
    # (Aparapi's -54 is read by the OpenCL status pattern, "returned" included since harvest 11)
    ("OpenCL execution seems to have failed (runKernelJNI returned -54)", "threads", None, None),
    ("OpenCL execution seems to have failed (runKernelJNI returned -5)", "registers", None, None),
    ("Failure to allocate resources required by the OpenCL implementation on the device.", "registers", None, None),
])
def test_explain18_harvest18(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # a local size unlike the compiled one; a range that is not uniform
    "[CLVK] cvk_enqueue_ndrange_kernel: work-group size does not match the required size",
    "[CLVK] dispatch: Splitting this region is required, but it is not possible because the support has been "
    "disabled (most probably by '-cl-uniform-work-group-size').",
])
def test_explain18_harvest18_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain18: the nineteenth harvest (KTT, portFFT, PyFR), in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("[Warning] Kernel run failed with reason: Block size of 1536 exceeds current device limit", "threads", 1536,
     None),
    ("Insufficient amount of local memory available: 65536B. Required: 81920B.", "shared-memory", 81920, 65536),
    ("Local mem required: 81920 B. Available:  65536 B.", "shared-memory", 81920, 65536),
    ("pyfr.backends.cuda.driver.CUDALaunchOutOfResources", "registers", None, None),
    ("pyfr.backends.opencl.driver.OpenCLOutOfResources", "registers", None, None),
    ("pyfr.backends.opencl.driver.OpenCLInvalidWorkGroupSize", "threads", None, None),
])
def test_explain18_harvest19(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


# explain18: the twenty-first harvest (triton-ascend): Ascend's compiler states its unified buffer in bits
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("error: ub overflow, requires 2097152 bits while 1572864 bits available! (possible reason: multi-buffer)",
     "shared-memory", 262144, 196608),
])
def test_explain18_ascend_bits(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


# explain19: what fresh-97 to 101 taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # markdown's emphasis around a size, and the nearer cue decides which side it is ("only" before, "vs" after)
    ("Porting to the RTX 5080: it has only **99 KB** shared memory/block (vs 227 KB on H100), so the kernel fails to "
     "launch.", "shared-memory", None, 101376),
    # a bare "k" after "limited to"
    ("Use one dynamic shared memory buffer on CUDA, instead of static arrays that fail when limited to 48k.",
     "shared-memory", None, 49152),
    # a setting's name that ends in _limit, its size in parentheses (the scoped limit's since explain30: no TPU has
    # 32 MiB of VMEM, and vmem_limit_bytes sets a kernel's scoped VMEM)
    ("The Pallas kernel sets aside `vmem_limit_bytes` (32MB on v5e) and still hits a VMEM OOM.", "scoped-vmem", None,
     33554432),
    # TMEM's bound with its unit in parentheses
    ("Configs over the tcgen05 tensor memory limit (512 columns) fail at launch, not at compile.", "tensor-memory",
     None, 512),
])
def test_explain19_fresh97_101(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # an Ascend launch's BlockDim counts blocks over the AI cores (a grid), not threads
    "Chunk size 32 overflows the launch (BlockDim>num_cores):\n[ERROR] [AscPlugin] AscendKernelLaunchWithFlagV2 ret "
    "107000\n[ERROR] [AscPlugin] Kernel: [fwd] Stream: [0x1] BlockDim: [70000] kernel launch failure!",
])
def test_explain19_fresh97_101_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain19: the twenty-second harvest (Dawn in the webgpu npm package, CUB's assertions), in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("Required limit (49152) is greater than the supported limit (32768).\n - While validating "
     "maxComputeWorkgroupStorageSize\n - While validating required limits", "shared-memory", 49152, 32768),
    ("Required limit (1024) is greater than the supported limit (256).\n - While validating "
     "maxComputeInvocationsPerWorkgroup", "threads", 1024, 256),
    ("static_assert failed: Number of threads per block need to be inside [1;1024] (BLOCK_THREADS=2048)", "threads",
     None, 1024),
    ("The scan kernel fails to launch: a CTA is capped at 1024 threads.", "threads", None, 1024),
])
def test_explain19_harvest22(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # errno's "Invalid argument" (strerror's capital) under a host's shared memory, not CUDA's "invalid argument"
    "[info] allocating shared memory of 20933050 bytes\n[warn] caught exception: Invalid argument, code 21",
])
def test_explain19_fresh103_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain19: the twenty-second harvest's Mesa and LLVM packages, and fresh-102's Ascend reports, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("radeonsi: LLVM failed to compile a shader correctly: SGPR:VGPR usage is 96:272, but the hw limit is 104:256",
     "registers", 272, 256),
    ("Mesa: User error: GL_INVALID_VALUE in glDispatchComputeGroupSizeARB(product of local_sizes exceeds "
     "MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB (32 * 32 * 2 > 1024))", "threads", 2048, 1024),
    ("radeonsi (r300 GPU): Ran out of hardware temporaries", "registers", None, None),
    ("MESA: freedreno GPU compute shader: ir3_ra() failed!", "registers", None, None),
    ("AMDGPU backend: LLVM ERROR: failed to find free scratch register", "registers", None, None),
    # Ascend's compiler misspelling "available"; its note without numbers; a report's Chinese
    ("loc(\"module.hivm.mlir\":2:3): error: ub overflow, requires 2097152 bits while 1572864 bits avaliable!",
     "shared-memory", 262144, 196608),
    ("[NOTE] Due to Ub overflow, automatically set enable-auto-multi-buffer to false; compilation still failed.",
     "shared-memory", None, None),
    ("编译失败：需要 2097152 bits (256 KB) 的 UB 空间，但实际只有 1572864 bits (192 KB) 可用", "shared-memory", 262144,
     196608),
])
def test_explain19_harvest22_fresh102(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # a CPU's inline assembly: no GPU near
    "x86_64-linux-gnu-gcc: error: couldn't allocate output register for constraint 'x'",
    # a host's errno names no kernel argument
    "[warn] caught exception: Invalid argument while mapping the shared memory region",
])
def test_explain19_harvest22_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain19: fresh-104's compiler tests, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("error: The combined byte size of all variables in the workgroup address space exceeds 32768 bytes",
     "shared-memory", None, 32768),
    ("error: expected shared memory usage <= 65536, got 98304", "shared-memory", 98304, 65536),
    ("error: Total number of threads in a thread block 2048 exceeds the limit of 1024 with compilation pipeline "
     "LLVMGPUVectorize", "threads", 2048, 1024),
])
def test_explain19_fresh104(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # a thread's own address spaces in the same words
    "error: The combined byte size of all variables in the function address space exceeds 8192 bytes",
    "error: The combined byte size of all variables in the private address space exceeds 8192 bytes",
])
def test_explain19_fresh104_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain19: the twenty-second harvest's mixed registries (cuQuantum, ONNX Runtime Web, OpenCV), in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # a possessive among the words between "exceeding" and the bound
    ("cudensitymat: the kernel needs 245760 B of dynamic shared memory, exceeding the device's max opt-in limit of "
     "232448", "shared-memory", 245760, 232448),
    # a printed work-group over a device's 256, not CUDA's 1024
    ("[WebGPU] workgroup size [32, 16, 1] exceeds the maximum workgroup invocations 256.", "threads", 512, 256),
    # the local size of a launch the runtime refused, not its global size
    ("OpenCL error CL_INVALID_WORK_GROUP_SIZE (-54) during call: clEnqueueNDRangeKernel('blur', dims=2, "
     "globalsize=3840x2160x1, localsize=16x64x1) sync=false", "threads", 1024, None),
])
def test_explain19_harvest22_mixed(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # C's undefined behaviour, not Ascend's Unified Buffer
    "clang -fsanitize=undefined: signed integer ub overflow detected in parse_int()",
])
def test_explain19_ascend_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain19: the twenty-second harvest's scientific packages, piglit and clesperanto, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("Test requires GL_MAX_COMPUTE_SHARED_MEMORY_SIZE >= 49152.  The driver supports 32768.", "shared-memory", 49152,
     32768),
    ("Test requires GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS >= 1536.  The driver supports 1024.", "threads", 1536, 1024),
    ("Block size (16, 16, 8) exceeds hardware limits.", "threads", None, None),
    ("Unable to determine GPU block size for this kernel. Final block size was too large: (4096, 1, 1).", "threads",
     4096, None),
    ("Could not enqueue task: CL_OUT_OF_RESOURCES", "registers", None, None),
    ("clesperanto (OpenCL) Warning: The kernel size is too large for the device local memory. Total kernel size is "
     "98304 bytes, but the "
     "device local memory size is 65536 bytes.", "shared-memory", 98304, 65536),
])
def test_explain19_harvest22_sci(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


# explain19: the twenty-second harvest's NVIDIA wheels (ptxas, cudafe++, cuDNN), in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("ptxas error   : GMMA sequence has too many active live ranges (296), reduce it to bring it under (255)",
     "registers", 296, 255),
    ("attn.cu(41): error: block size specified exceeds the maximum value of 1024", "threads", None, 1024),
    ("attn.cu(41): error: block size value is too large", "threads", None, None),
    ("cudnnGraphExecute: engine 12 rejected: too many threads (>1024)", "threads", None, 1024),
    ("cudnn_frontend: CUDNN_STATUS_NOT_SUPPORTED_SHARED_MEMORY_INSUFFICIENT", "shared-memory", None, None),
])
def test_explain19_harvest22_nvidia(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # a setting refused for its sign; the driver's reserved shared memory; a cluster's blocks against launch bounds
    "cuDNN EngineHeuristics: shared memory limit (-1) must be non-negative.",
    "ptxas error   : Function '_Z4gemmPf' uses reserved shared memory when not allowed.",
    "gemm.cu(8): error: total number of blocks in cluster computed from __cluster_dims__ exceeds __launch_bounds__ "
    "specified limit for max blocks in cluster",
])
def test_explain19_harvest22_nvidia_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain19: the twenty-second harvest's Intel runtime wheels (libsycl), in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    ("Number of work-items in a work-group exceed limit for dimension 0 : 1536 > 1024", "threads", 1536, 1024),
    ("The total number of work-items in the work-group (768) exceeds the maximum specified in the program source "
     "(256)", "threads", 768, 256),
    ("Required work-group size 1536 is not supported on the device", "threads", 1536, None),
])
def test_explain19_harvest22_sycl(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # the launch's shape, not a bound: a local size over the global range, a zero size, a product past size_t
    "Local workgroup size cannot be greater than global range in any dimension",
    "The launch work-group size cannot be zero.",
    "Required work-group size is not supported (total number of work-items requested can't fit into size_t)",
])
def test_explain19_harvest22_sycl_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain20: what fresh-101's misses and fresh-106 on taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # devices named by their small shared memory, with no failure word in the sentence (pytorch#184310's kind)
    ("Pick smaller attention tiles for low shared-memory CUDA devices such as the RTX 3090.", "shared-memory", None,
     None),
    # a quoted check that lost its first words: the limit is an NVIDIA opt-in maximum, so the request is shared memory
    ("vLLM on a DGX Spark dies with \"Allocated: 110592 bytes. Max: 101376 bytes.\"", "shared-memory", 110592, 101376),
    ("fused MoE: 245760 > 232448 at this tile", "shared-memory", 245760, 232448),
    # one size read both ways, then another bound: the first bounds the need from below (TensorRT-LLM#5265's kind)
    ("The new decode kernel needs shared memory larger than 160kB, while the sm_120 part only has 99kB.",
     "shared-memory", 163840, 101376),
    # a register file stated in K is the bound where no count per thread was asked for (cuml#1236's kind) ...
    ("Given the 64K limit on the number of registers, the solver kernel fails to launch with full blocks once it "
     "spills past its register budget.", "registers", None, 65536),
    # XLA's launch line names its block "block dims" (a Pallas kernel at 64 warps, on an H100), and its "shared memory
    # size: 0" is no request
    ("INTERNAL: CUDA error: Failed to launch CUDA kernel: fused_scale; block dims: 2048x1x1; grid dims: 8x1x1; shared "
     "memory size: 0: CUDA_ERROR_INVALID_VALUE: invalid argument", "threads", 2048, None),
    # fresh-112 and 113's kinds: a GPU compiler's register allocator giving up; Intel's spill count beside GRF mode;
    # a comparison's own bound before an attribute stated earlier; a Chinese report's cues; "oversubscribes"
    ("LLVM ERROR: cannot allocate physical AR register for the async-copy operand (warp-specialized kernel, S4000 "
     "GPU)", "registers", None, None),
    ("IGC: the kernel is compiled with 2048 spills and no retry in 256-GRF mode follows.", "registers", None, None),
    ("On this card (`sharedMemPerBlockOptin` = 101,376 B) the sort kernel fails:\nradix_sort: dynamic smem 99840 "
     "exceeds 98304 (optin 101376 - static 3072)", "shared-memory", 99840, 98304),
    ("该 kernel 要求单个 block 至少 160 KB shared memory，而 4090 可用 shared memory 为 101376 bytes，启动失败。",
     "shared-memory", 163840, 101376),
    ("The prefill kernel oversubscribes the GPU's shared memory at 16384-token chunks.", "shared-memory", None, None),
])
def test_explain20(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


# explain20: CuPy's attribute setter refused, as an H100 printed it (benchmarks/explain_device_logs.py), in a shape of
# our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # the attribute setter refused: the request is in the source line above
    ("Traceback (most recent call last):\n  File \"run.py\", line 9, in <module>\n"
     "    scan.max_dynamic_shared_size_bytes = 262144\n"
     '  File "cupy/_core/raw.pyx", line 272, in cupy._core.raw.RawKernel.max_dynamic_shared_size_bytes.__set__\n'
     "cupy_backends.cuda.api.driver.CUDADriverError: CUDA_ERROR_INVALID_VALUE: invalid argument",
     "shared-memory", 262144, None),
])
def test_explain20_cupy(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # MLIR's verifier refusing an op's types under a Triton fork's OutOfResources (FlagTree#1249's kind)
    "OutOfResources: out of resource: uni_sram\nPassManager::run failed: 'triton_xpu.cmpf' op result #0 must be "
    "floating-point or ranked tensor of floating-point values, but got 'tensor<16384xui32>'",
    # a code generator that cannot lower an operation, a zero-length shared array, a misaligned address: bugs, not
    # shortages (aiter#4987's, composable_kernel#3017's and cutlass#2968's kinds)
    "The fused MoE on gfx1250 emits llvm.amdgcn.raw.ptr.buffer.load.lds:\nLLVM ERROR: Do not know how to expand this "
    "operator's operand!",
    "gemm_kernel.hpp:88:40: error: zero size arrays are an extension [-Werror,-Wzero-length-array]\n"
    "    __shared__ char smem[GetSmemSize()];",
    "[BUG] Address misaligned in the smem -> tmem copy (tcgen05.cp) of my Blackwell GEMM",
    # a dump of the device's maxima is no launch: "block dim: (1024,1024,64)" above a launch refused for its grid
    "threads in a block: 1024\nblock dim: (1024,1024,64)\ngrid dim: (2147483647,65535,65535)\nfound 0 voxels\n"
    "CUDA failure: invalid configuration argument in voxelize.cu:88",
    # a C compiler's inline assembly on a CPU (IBM XL C building POWER9 kernels, blis#357's kind)
    "kernels/power9/3/gemm_d12x6.c, line 88.9: 1500-065: (S) Too many registers are required in the asm statement.",
])
def test_explain20_look_alikes(text: str) -> None:
    assert not _on_chip(text)


@pytest.mark.parametrize(("text", "entry", "required", "limit"), [
    # a block's element cap is Triton's or a library's, explained as such and never on chip (an H100 printed the
    # first under Triton 3.6; Liger-Kernel 0.8.5's calculate_settings words the second)
    ("triton.compiler.errors.CompilationError: at 2:11:\nnumel (4194304) exceeds triton maximum tensor numel (1048576)",
     "triton/max-tensor-numel", 4194304, 1048576),
    ("RuntimeError: Cannot launch Triton kernel since n = 151936 exceeds the recommended Triton blocksize = 65536.",
     "liger/fused-block-cap", 151936, 65536),
])
def test_explain20_block_element_caps(text: str, entry: str, required: int, limit: int) -> None:
    found = match(text, KB)
    assert [(m.entry.id, m.required, m.limit) for m in found] == [(entry, required, limit)]
    assert not found[0].entry.on_chip and found[0].entry.resource == "block-elements"


# explain21: a launch refused for its block, where only the code shows the block. The driver API (Numba, CuPy) says
# CUDA_ERROR_INVALID_VALUE, the runtime "invalid configuration argument"; the launch's own form gives the threads.
@pytest.mark.parametrize(("text", "entry", "required", "limit"), [
    ("  File \"add.py\", line 9, in <module>\n    add[blocks, 2048](a)\n"
     "numba.cuda.cudadrv.driver.CudaAPIError: [1] Call to cuLaunchKernel results in CUDA_ERROR_INVALID_VALUE",
     "cuda/driver-launch-invalid-value", 2048, 1024),
    # Numba printing no block: the likeliest cause, inferred, without numbers
    ("numba.cuda.cudadrv.driver.CudaAPIError: [1] Call to cuLaunchKernel results in CUDA_ERROR_INVALID_VALUE",
     "cuda/driver-launch-invalid-value", None, None),
    # CuPy's positional launch, three frames above the driver's status (an H100's log under CuPy 14.2)
    ("  File \"k.py\", line 12, in <module>\n    k((1,), (64, 32), (x,))\n"
     "  File \"cupy/_core/raw.pyx\", line 101, in cupy._core.raw.RawKernel.__call__\n"
     "  File \"cupy_backends/cuda/api/driver.pyx\", line 286, in cupy_backends.cuda.api.driver.launchKernel\n"
     "  File \"cupy_backends/cuda/api/driver.pyx\", line 73, in cupy_backends.cuda.api.driver.check_status\n"
     "cupy_backends.cuda.api.driver.CUDADriverError: CUDA_ERROR_INVALID_VALUE: invalid argument",
     "cuda/driver-launch-invalid-value", 2048, 1024),
    # the runtime's word, the block only in the <<<>>> launch: the block, not the grid
    ("fitness<<<numBlocks, dim3(64, 32)>>>(d_dest, d_pop);\nCUDA error: invalid configuration argument",
     "cuda/invalid-configuration", 2048, 1024),
    ("kernel<<<(n + 255) / 256, 2048>>>(x, n);\nError: invalid configuration argument",
     "cuda/invalid-configuration", 2048, 1024),
])
def test_explain21_launch_forms(text: str, entry: str, required: int | None, limit: int | None) -> None:
    assert [(m.entry.id, m.required, m.limit) for m in match(text, KB)][:1] == [(entry, required, limit)]


@pytest.mark.parametrize("text", [
    # a block within 1024 beside the runtime's word: the grid is the likelier cause
    "kernel<<<grid, 256>>>(x);\nCUDA error: invalid configuration argument",
    # a launch whose dynamic shared memory is the argument: read as that, not as the block
    "  File \"k.py\", line 17, in <module>\n    k((1,), (256,), (x,), shared_mem=100000)\n"
    "  File \"cupy_backends/cuda/api/driver.pyx\", line 286, in cupy_backends.cuda.api.driver.launchKernel\n"
    "cupy_backends.cuda.api.driver.CUDADriverError: CUDA_ERROR_INVALID_VALUE: invalid argument",
])
def test_explain21_launch_forms_not_threads(text: str) -> None:
    assert not [m for m in match(text, KB) if m.entry.resource == "threads"]


# explain21: what fresh-114 to 119 taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # a code span with a number between the cue and the size (cuvs#2310's kind)
    ("cudaErrorInvalidValue: invalid argument\nThe dynamic shared-memory request for `dim = 8192` and `float` input is "
     "32768 bytes.", "shared-memory", 32768, None),
    # an NPU's unified buffer named by its capacity (tilelang-ascend#1646's kind)
    ("[Bug] Ascend memory planning crashes when a kernel's UB demand exceeds the 192 KB UB capacity",
     "shared-memory", None, 196608),
    # a bound written as code writes it, a product with 1024 (aiter's static assertion, hidet's schedule check)
    ("error: static assertion failed due to requirement 'LDS_BYTES <= 64 * 1024': LDS budget exceeded",
     "shared-memory", None, 65536),
    ("hidet.ir.library.tune.ScheduleError: dynamic shared memory <= 99 * 1024", "shared-memory", None, 101376),
    # "limited to" states the bound, not a usage ("usage is limited to N" is no requirement)
    ("GPU kernel error: shared memory usage is limited to 101376 bytes, but this tile requires 131072 bytes",
     "shared-memory", 131072, 101376),
    # OpenCL's string for CL_INVALID_WORK_ITEM_SIZE, bare (Futhark's, libgpuarray's and RPP's kind), and a block's
    # threads as a "number of threads" beside a GPU word (nvFuser's kind; since explain31 its own entry, which reads
    # the block's threads)
    ("Running kernel failed:  Invalid Work Item Size", "threads", None, None),
    ("RuntimeError: Selected invalid number of threads for cuda: 2048", "threads", 2048, None),
    # a Mesa driver's own compiler giving up, its name the only GPU word (mesa-lima#56's kind)
    ("kmscube fails on the lima driver with \"ppir: regalloc fail\"", "registers", None, None),
])
def test_explain21(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # TVM's check that loops bound to one thread index agree in extent (tvm#17002's kind)
    "Check failed: (ana.CanProveEqual(dom->extent, new_iter_var->dom->extent)) is false: ValueError: All loops that "
    "are bound to `threadIdx.x` should have the same extent. However, there are two loops with extent 64 and 128",
    # a device query's banner: the maximum is the phrase's own word, not a failure (cuda_hgemm's kind)
    "[HGEMM 2024-09-08 09:07:36 41827:41827 main.cu:85 main] Max number of threads per block: 1024",
    # Windows' shared GPU memory growing beside a DirectML device removal (tensorflow-directml-plugin#359's kind)
    "HRESULT failed with 0x887a0005: GetDeviceRemovedReason(); the GPU memory and shared memory keep growing until "
    "the crash",
])
def test_explain21_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain21: numba-cuda 0.30's launches through cuda.core and CuPy's, as an H200 printed them (tests/data/device)
_CUDA_CORE = ("  File \"/site-packages/numba_cuda/numba/cuda/dispatcher.py\", line 527, in launch\n"
              "    launch(stream, config, kernel, *kernelargs)\n"
              "  File \"cuda/core/_launcher.pyx\", line 70, in cuda.core._launcher.launch\n"
              "  File \"cuda/core/_utils/cuda_utils.pyx\", line 145, in "
              "cuda.core._utils.cuda_utils._check_driver_error\n"
              "cuda.core._utils.cuda_utils.CUDAError: CUDA_ERROR_INVALID_VALUE: This indicates that one or more of the "
              "parameters passed to the API call is not within an acceptable range of values.")


@pytest.mark.parametrize(("launch", "entry", "required", "limit"), [
    ("add[grid, (1, 1, 96)](x)", "cuda/driver-launch-invalid-value", 96, 64),
    ("add[grid, 4096](x)", "cuda/driver-launch-invalid-value", 4096, 1024),
    # the block within the limits and no other word: the likeliest cause still, without numbers
    ("add[grid, threads](x)", "cuda/driver-launch-invalid-value", None, None),
    # Numba's fourth launch argument is the dynamic shared memory
    ("add[grid, 128, 0, 65536](x)", "cuda/invalid-argument-dynamic-smem", 65536, None),
    # and cuda.core's launch configuration names it
    ("launch(s, LaunchConfig(grid=8, block=128, shmem_size=65536), k, buf)", "cuda/invalid-argument-dynamic-smem",
     65536, None),
])
def test_explain21_cuda_core(launch: str, entry: str, required: int | None, limit: int | None) -> None:
    text = f"  File \"run.py\", line 9, in <module>\n    {launch}\n" + _CUDA_CORE
    assert [(m.entry.id, m.required, m.limit) for m in match(text, KB)][:1] == [(entry, required, limit)]


@pytest.mark.parametrize("text", [
    # a grid 70000 high under Numba and under CuPy: the same code, a grid limit
    "  File \"run.py\", line 9, in <module>\n    add[(4, 70000), (32, 1)](x)\n" + _CUDA_CORE,
    "  File \"run.py\", line 9, in <module>\n    k((4, 70000), (32,), (x,))\n"
    "  File \"cupy_backends/cuda/api/driver.pyx\", line 286, in cupy_backends.cuda.api.driver.launchKernel\n"
    "cupy_backends.cuda.api.driver.CUDADriverError: CUDA_ERROR_INVALID_VALUE: invalid argument",
    # OpenCL's CL_OUT_OF_RESOURCES at a transfer after the kernel (John the Ripper's words): an earlier crash
    "OpenCL CL_OUT_OF_RESOURCES error in opencl_rawmd5_fmt_plug.c:312 - Failed to read buffer buffer_out.",
])
def test_explain21_launch_look_alikes(text: str) -> None:
    assert not _on_chip(text)


def test_explain21_bare_work_group_code() -> None:
    # a miner's enqueue refused with OpenCL's code alone (profanity#1's kind)
    found = match("Initializing OpenCL...\nstd::runtime_error - kernel queueing failed (res = -54)", KB)
    assert [m.entry.id for m in found][:1] == ["opencl/invalid-work-group-size"]


@pytest.mark.parametrize(("text", "entry", "required", "limit"), [
    # JAX's Mosaic GPU refusing a kernel's SMEM, and its launch of too many warpgroups with no shared memory asked
    # (both as an H200 printed them under JAX 0.11.2)
    ("ValueError: Mosaic GPU kernel exceeds available shared memory: smem_bytes=131072 > max_smem_bytes=101376",
     "xla-gpu/mosaic-gpu-shared-memory", 131072, 101376),
    ("jax.errors.JaxRuntimeError: INTERNAL: Mosaic GPU kernel 'attn_mosaic_gpu_kernel' (host func: "
     "'_mlir_ciface_attn_mosaic_gpu', device: 0, smem: 0 bytes, cluster: 1) launch failed: CUDA_ERROR_INVALID_VALUE "
     "[invalid argument] (CUDA error 1) [executable_name='jit_attn']", "cuda/driver-launch-invalid-value", None, None),
])
def test_explain21_mosaic_gpu(text: str, entry: str, required: int | None, limit: int | None) -> None:
    assert [(m.entry.id, m.required, m.limit) for m in match(text, KB)][:1] == [(entry, required, limit)]


def test_explain21_cuda_core_launch_config() -> None:
    # cuda.core's own launch configuration, three frames above the driver's code (an H200's log, cuda.core 1.2)
    text = ("  File \"run.py\", line 19, in <module>\n"
            "    launch(s, LaunchConfig(grid=(8, 8), block=(64, 32)), k, buf)\n" + _CUDA_CORE.split("\n", 2)[2])
    assert [(m.entry.id, m.required, m.limit) for m in match(text, KB)][:1] == [
        ("cuda/driver-launch-invalid-value", 2048, 1024)]


def test_explain21_launch_index_is_released() -> None:
    # the launch index of the texts read is dropped when a log is done, by match() and by explain()'s diagnoses
    from tilefit.match import cooccur
    from tilefit.report import explain

    text = "kernel<<<1, 2048>>>(x);\nCUDA error: invalid configuration argument"
    assert [m.entry.id for m in match(text, KB)] == ["cuda/invalid-configuration"]
    assert cooccur._index.cache_info().currsize == 0
    assert [d.entry.id for d in explain(text.encode()).diagnoses] == ["cuda/invalid-configuration"]
    assert cooccur._index.cache_info().currsize == 0


# explain22: what fresh-122 to 135 (errors and prose quoted in repository files) taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # Chinese cues before bare sizes: only 32768, 34560 needed (a Vulkan device's workgroup storage)
    ("设备 maxComputeSharedMemorySize 仅 32768 < matmul 分块所需 34560，校验层报 VUID-RuntimeSpirv-Workgroup-06530",
     "shared-memory", 34560, 32768),
    # a Chinese comparison between counts: the threadgroup's 1024 over the limit of 512 (Metal)
    ("Metal 断言失败：线程组大小(1024)超过了512的限制", "threads", 1024, 512),
    # counts with thousands separators are one count each
    ("CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: 1024 threads x 128 regs = 131,072 > 65,536 registers per block",
     "registers", 131072, 65536),
    # XLA's "Used X of Y" states the use, then what there is
    ("The prefetched operand pushes SMEM past its limit on the TPU (XLA: \"Used 1.04M of 1.00M smem\")",
     "tpu-smem", 1090519, 1048576),
    # a size, a few words, then "which exceeds": the size is the request
    ("The upstream stages give a 212 KB shared-storage kernel which exceeds the 99 KB per-block smem opt-in cap",
     "shared-memory", 217088, 101376),
    # the bound with its unit after "exceeds the"
    ("The tile needs 4*32*520*2 = 133120 B of shared memory exceeds the 99 KB optin ceiling on sm_120",
     "shared-memory", 133120, 101376),
    # "against" a size of the memory states the bound
    ("Large Pallas tiles fail to compile: the float32 copy runs against 64 MiB of VMEM", "vmem", None, 67108864),
    # a table row of tried configurations: "rejected" is the failure
    ("| Pallas | 512 | rejected: 21.8 MB scoped VMEM > 16 MB |", "scoped-vmem", 22858957, 16777216),
    # code spans between "exceeds" and the bound
    ("Double-buffered it needs `39.64 MiB`, which exceeds `TPU v6e`'s `30.72 MiB` scoped VMEM limit.",
     "scoped-vmem", 41565553, 32212255),
    # "超过500万" is more than five million elements, no count of threads; a clock's digits are no request
    ("[12:00:00] 数组元素超过500万个时，Metal 断言：线程组大小(1024)超过了512的限制", "threads", 1024, 512),
])
def test_explain22(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # a CPU's inline assembly, in a CPU architecture's source tree
    "arch/x86/lib/mul.c:61:3: error: inline assembly requires more registers than available\n"
    "error: ran out of registers during register allocation\n"
    "A bug in llvm's register allocator; building with another -mtune avoids it.",
    # OpenCL's -5 from creating a context, from a memory fault, from arguments bound in the wrong order
    "On node n8 `clCreateContext` fails with `CL_OUT_OF_RESOURCES (-5)` while CUDA works: a wedged node.",
    "clEnqueueNDRangeKernel(\"assemble\") Status error code: CL_OUT_OF_RESOURCES (-5)\n"
    "Every later call returns CL_NV_INVALID_MEM_ACCESS (-9999).",
    "Adding the flag before the optional blocks produced CL_OUT_OF_RESOURCES (-5) on clEnqueueNDRangeKernel: a "
    "parameter-binding mismatch with the GPU side.",
    # a runtime's -5 that the writer traces to device memory
    "Native API returns: -5 (PI_ERROR_OUT_OF_RESOURCES)\nThis error is caused by out of GPU memory; free the "
    "previous model first.",
    # CUDA's 701 for an argument buffer larger than the kernel declares
    "cuLaunchKernel validates the buffer against the declared argument size: an oversized kernarg blob gives "
    "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES.",
    # a compiler that could not size a GPU copy (OpenACC), beside a vector loop on threadIdx.x
    "50, #pragma acc loop vector(128) /* threadIdx.x */\n48, Accelerator restriction: size of the GPU copy of A is "
    "unknown\nPGC-F-0704-Compilation aborted due to previous errors.",
    # kernel arguments against the registers that pass them (a parameter limit)
    "Invalid Kernel Argument Size: the size of a kernel argument exceeds the amount of registers available for "
    "argument storage.",
    # a CPU loop's spills, and a report of none
    "The loop keeps ten arrays live and forces over 160 bytes of register spilling to the stack per pixel.",
    "ptxas info: Used 64 registers, 0 bytes spill stores, 0 bytes spill loads\n- 0 spills: no register spills to "
    "local memory.",
])
def test_explain22_look_alikes(text: str) -> None:
    assert not _on_chip(text)


def test_explain22_sycl_registers_per_work_group() -> None:
    whole = ("what():  Exceeded the number of registers available on the hardware.\n"
             "\tThe number registers per work-group cannot exceed 65536 for this kernel on this device.\n"
             "\tThe kernel uses 96 registers per work-item for a total of 1024 work-items per work-group.")
    cut = ("Exceeded the number of registers available on the hardware.\n"
           "The kernel uses 80 registers per work-item for a total of 1024 work-items.")
    # the prose's register file, not the work-group cap beside it
    told = ("The size was clamped only against `device::max_work_group_size` (1024). At 80 registers per work-item, "
            "1024 work-items need 81920 registers against a 65536 limit:\n" + cut)
    for text, required, limit in ((whole, 98304, 65536), (cut, 81920, None), (told, 81920, 65536)):
        found = [(m.entry.id, m.required, m.limit) for m in match(text, KB) if m.entry.on_chip][:1]
        assert found == [("intel/sycl-registers-per-work-group", required, limit)]


def test_explain22_ptxas_hex_without_unit() -> None:
    found = match("ptxas error: uses too much shared data (0xd800, 0xc000 max)", KB)
    assert [(m.entry.id, m.required, m.limit) for m in found][:1] == [("ptxas/too-much-shared-data", 55296, 49152)]


# explain22: fresh-136 to 139 (prose in repository files, kernel comments, long logs, non-English pages)
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # a register file's cap named by what ran into it (AMD's VGPRs)
    ("On gfx1201 the 4-row kernel exceeds 256 VGPRs and spilled: 160 -> 277 us.", "registers", None, 256),
    ("The gate/up kernel allocated all 256 VGPRs and spilled 52 bytes to scratch.", "registers", None, 256),
    # a tensor memory's columns all taken, not the "max" of another setting beside it
    ("A single M=64, N=256 fp32 accumulator takes all 512 TMEM columns; max safe k_depth = 32.", "tensor-memory",
     None, 512),
    # what a GPU "gives a block"
    ("128 rows is out: its tile wants 52 KB where sm_75 gives a block 48 KB of static shared memory, and ptxas "
     "fails.", "shared-memory", 53248, 49152),
    # "caps LDS at 64 KB" states the bound
    ("Triton's default 2-stage pipeline runs out of shared memory on gfx942, which caps LDS at 64 KB.",
     "shared-memory", None, 65536),
    # CUDA's dim3 is a GPU word (a Japanese comment: not enough registers for 1024 threads)
    ("dim3 block(32, 16, 1);  // 1024スレッド作るにはレジスタが足りない模様", "registers", None, None),
])
def test_explain22_notes(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


def test_explain22_microcontroller_registers() -> None:
    assert not _on_chip("Some kernels were too large for the ESP32 register file. The resulting register spills "
                        "caused extra stack-memory traffic.")


# explain23: what fresh-140 to 147 taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # XLA's shared-memory check cut after the request (a width-limited table cell)
    ("| run7 | failed | XlaRuntimeError: RESOURCE_EXHAUSTED: Shared memory size limit exceeded: requested 98304, "
     "availab; width-limited (50 cols) |", "shared-memory", 98304, None),
    # Triton's own format with registers as the resource, as Triton-based tools quote it
    ("assert classify('out of resource: registers, Required: 384, Hardware limit: 255') == RESOURCE_LIMIT",
     "registers", 384, 255),
    # Metal's message with its middle elided
    ("The 64 KB staging build cannot create a pipeline on the M2 (\"Threadgroup memory size (65536) exceeds ... "
     "32768\").", "shared-memory", 65536, 32768),
    # a block's thread bound as a rate, before a warp count that comes after it
    ("On wave64 devices 32 warps exceed 1024 threads/block and fail at launch; the count is capped to 16 (1024/64).",
     "threads", None, 1024),
    # a summary names the overflow, the sizes are stated paragraphs down in other words
    ("The kernel crashes at launch with cudaErrorInvalidValue (SMEM overflow) at head_dim=256 on RTX 3090.\n\n"
     "Details of the config follow. The SM80 branch used one hardcoded forward config for every head dimension, "
     "unlike SM90, which picks its tile size by head dimension; the causal path and the bf16 path share it, and the "
     "split-KV path inherits it through the same helper, so all of them launch the same block shape whatever the "
     "head dimension asks of the card, and none of them checks the card before the launch.\n\n"
     "- The tile needs `2*(128*256) + 2*64*512 = 131072` bytes of static shared "
     "memory, but sm_86 is capped at 101376 B.", "shared-memory", 131072, 101376),
    # LDS that "goes beyond" the hardware's limit
    ("* root cause: the backward kernel is not supported for hdim > 256 because its use of LDS goes beyond the "
     "hardware limitations.\n* also reorders the math to avoid VGPR spills.", "shared-memory", None, None),
    # Chinese labels before sizes with units: the requirement, then the limit
    ("**问题**: STAGES=3, 512 threads 的 kernel 共享内存超限\n```\n需求: 81,920 bytes (80 KB)\n"
     "限制: 65,536 bytes (64 KB)\n```",
     "shared-memory", 81920, 65536),
    # a bound named after its size in Chinese ("the 48KB cap")
    ("TILE_N 如果用 128，kernel 的共享内存不够（48KB 上限）。", "shared-memory", None, 49152),
    # shares of a profile are no counts; "255 regs (cap)" is the register bound
    ("Profiling: dKV 53% (MFU 6%) > dQ 27% (MFU 12%) > fwd 18%. Register spill: dKV kernel has 302 spills at 255 "
     "regs (cap), 163KB smem.", "registers", None, 255),
    # a size weighed "against" a bound per SM, after a verb of the device's that names no size
    ("The generated kernel requests more dynamic shared memory than the device allows (e.g. 196608 B against a "
     "101376 B/SM hardware limit); it fails at launch.", "shared-memory", 196608, 101376),
    # a must-be bound alone, a comment echoing Metal's check
    ("var threadSize: MTLSize {  // must be <= 1024. (device threadgroup size limit)", "threads", None, 1024),
    # "costing" a size, then "— over" the bound a GPU gives ("over RDNA's 64 KB per-workgroup budget")
    ("Staging full-width tiles in shared memory costs ~80 KB of LDS at D=256 — over RDNA's 64 KB per-workgroup "
     "budget, so the launch fails.", "shared-memory", 81920, 65536),
    # "超限" (over the limit) is a failure word
    ("BT=128 时 kernel 的共享内存超限，编译失败。", "shared-memory", None, None),
])
def test_explain23(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # an illegal instruction (CUDA's 715) in a tiled launch: a fault, not a block over its bound
    "wp.launch_tiled(kernel, dim=1, block_dim=16)  # FAILS: 16 threads for 9 elements\n"
    "Warp CUDA error 715: an illegal instruction was encountered",
    # a CPU's inline assembly: the x86-64 target named, and the Linux kernel's arch/x86 tree
    "While building the Linux kernel's arch/x86/crypto/poly1305.c with -O2 (x86-64), clang fails:\n"
    "error: inline assembly requires more registers than available",
    # a thread's local memory (device memory) over ptxas' cap, filed under register pressure
    "### Build fails with register pressure\n```\nptxas error   : Entry function '_Z4stepPf' uses too much local "
    "data (0x90000 bytes, 0x80000 max)\n```",
    # the OS's shared memory in CubeCL's words
    "if (size > 8192) log_fatal(\"too much shared memory requested; only 8k are allowed\");\n"
    "id = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);",
    # nvcc's rule against initialising a __shared__ array, quoted in notes beside its size
    "// 32x32 tiles: As and Bs take 8192 bytes of shared memory (ptxas: 30 registers, 8192 bytes smem)\n"
    "// __shared__ float As[32][32] = {};  is rejected by the compiler:\n"
    "//   error: dynamic initialization is not supported for __shared__ variables",
    # OpenCL's -54 for a global size the work-group does not divide
    "clEnqueueNDRangeKernel returns CL_INVALID_WORK_GROUP_SIZE: the global size 1000 is not evenly divisible by the "
    "local size 64 on this GPU.",
    # CUDA IPC (Triton Inference Server's shared-memory regions), wrapped between "memory" and "region"
    "error: Unable to init infer data manager: failed to register CUDA shared memory\nregion 'output_0': failed to "
    "open CUDA IPC handle: invalid argument",
    # CUDA's 701 from an argument buffer the driver over-reports against the kernel's own parameter size
    "Launch each kernel with the kernel's own EIATTR_CBANK_PARAM_SIZE, not the driver's argument-buffer size, which is "
    "8 bytes too large and makes cuLaunchKernel fail with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES.",
    # a service mesh's Listener Discovery Service
    "warn Envoy proxy is NOT ready: config received from XDS server, but was rejected: lds updates: 0 successful, "
    "12 rejected",
])
def test_explain23_look_alikes(text: str) -> None:
    assert not _on_chip(text)


def test_explain23_tiny_sizes_are_no_shared_memory_bounds() -> None:
    # a field's padding is no request; the sizes of the table are
    text = ("fix: keep HEAD_DIM 256 within 64 KiB smem on SM75. Each placeholder occupies 16 B after alignas(16), "
            "so the shared storage struct pushes past 65536 B and cudaFuncSetAttribute is rejected with "
            "cudaErrorInvalidValue.")
    assert all(m.required != 16 for m in match(text, KB) if m.entry.on_chip)
    # a device that reports no shared memory at all states both sizes small
    assert _first_on_chip("cudaLaunchKernel failed on the GPU: Requested 1152 bytes of shared memory, but max is "
                          "0 bytes.") == [("shared-memory", 1152, 0)]


def test_explain23_wrapped_ptxas_diagnostic() -> None:
    # ptxas' line with its code is no property dump: a wrap that carries its words to the next line keeps it whole
    text = ("ptxas info    : (C7511) Potential Performance Loss: wgmma.mma_async instructions\n"
            "are serialized due to insufficient register resources for the wgmma pipeline in\n"
            "the function '_ZN7cutlass13device_kernelIEEvNT_6ParamsE'")
    assert [m.entry.id for m in match(text, KB) if m.entry.on_chip][:1] == ["ptxas/wgmma-serialized-registers"]


def test_explain23_launch_lines_of_their_own() -> None:
    # ptxas' hex pair without "uses", as a results list quotes it after a config
    text = "V3 batch 64 nThreads 128 -- too much shared data (0x20000 bytes, 0xc000 max)\nV3* batch 16 -- 0.1 ms"
    assert _first_on_chip(text) == [("static-shared-memory", 131072, 49152)]
    # TVM's launch error with the extents on the next line: the block over CUDA's 1024 threads
    text = "TVMError: CUDALaunch Error: CUDA_ERROR_INVALID_VALUE\n grid=(512,1,1),  block=(1536,1,1)"
    assert _first_on_chip(text) == [("threads", 1536, 1024)]
    # the same with a grid whose z is over 65535: the grid's limit, not a block's
    assert not _on_chip("TVMError: CUDALaunch Error: CUDA_ERROR_INVALID_VALUE\n grid=(8,1,150000),  block=(4,4,1)")


# explain24: what fresh-163 to 169 taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # XLA's sizes in a commit message under its numberless error name: the request before "VMEM scoped allocation",
    # the bound after "available"
    ("Fix CompileTimeScopedVmemOom in the fused MoE kernel\n\nThe tuned tiles generated a 40.50M VMEM scoped "
     "allocation during the decode trace, strictly exceeding the available 32.00M space.",
     "scoped-vmem", 42467328, 33554432),
    # (a count of allocations is no size: the request needs XLA's unit)
    ("Fix CompileTimeScopedVmemOom: each grid step made 1 scoped allocation more than planned and exceeded the "
     "available 32.00M.", "scoped-vmem", None, 33554432),
    ("The per-page metadata exceeds the 1MB smem budget and the compile dies with 'Ran out of memory in memory space "
     "smem'.", "tpu-smem", None, 1048576),
    # a size, then the bound after "(>", a GPU's name between the size and "limit"
    ("Merging the branches pushes SMEM from 160 KB to 240 KB\n(> 227 KB H100 limit).", "shared-memory", 245760, 232448),
    # a runtime's check with both operands, as glog prints them
    ("When the kernel runs on Metal: TVMError: Check failed: blockSize <= maxTotalThreadsPerThreadgroup (1024 vs. "
     "768) :", "threads", 1024, 768),
    # a number in millions is no count of threads
    ("The overflowed size asked for ~268M threads, which exceed the hardware limit of 1024: RuntimeError: The number "
     "of work-items in each dimension of a work-group cannot exceed {1024, 1024, 1024}.", "threads", None, 1024),
    # a device's default bound
    ("Creating the compute pipeline failed: the device was created without raising maxComputeInvocationsPerWorkgroup, "
     "so it fell back to the default 256 invocations per workgroup.", "threads", None, 256),
    # register caps by Intel's name of the file, and by what the cap did
    ("64 live f32 values per thread reach the 256-GRF SIMD-16 budget on this GPU, causing 4 KB of register spill.",
     "registers", None, 256),
    ("Without launch bounds the compiler budgets for 1024 threads, capping every kernel at 128 VGPRs and spilling to "
     "scratch.", "registers", None, 128),
    # counts between Chinese words, in markdown's emphasis; a block's threads in Chinese words
    ("示例：设置的线程块线程数量为**4096**个（超过了线程块内线程数量最大值**1024**个），启动时报 invalid configuration "
     "argument。", "threads", 4096, 1024),
    ("练习：以每區塊 2048 個執行緒啟動 kernel，cudaGetLastError() 傳回 invalid configuration argument。",
     "threads", 2048, None),
    # ptxas' message quoted with its request elided, the bound kept
    ("Larger tiles fail to build: `ptxas error   : Entry function '_Z4tileILi96EEvPf' uses too much shared data (... "
     "bytes, 0xc000 max)`", "static-shared-memory", None, 49152),
    # a request and what one CTA has, in one phrase
    ("Each TMEM buffer got its own tcgen05.alloc rounded up to a power of two, so the kernel asked for 512 + 32 + 32 "
     "+ 32 = 608 of the 512 columns a CTA has and failed to compile.", "tensor-memory", 608, 512),
    # a mobile GPU's name is a GPU's
    ("unrolling the reduction caused an error due to insufficient shared memory on Mali", "shared-memory", None, None),
    # the bound in parentheses after "exceeds", by the memory's name
    ("| 16 / 7 | **CompileError: local memory (76288 B) exceeds** (RDNA3 LDS = 64 KB) |",
     "shared-memory", 76288, 65536),
    # a bound in K after the memory's name and ">"
    ("Fixed the exhaustive search of the OpenCL direct convolution: Fatal runtime error (required LDS > 64k) on "
     "gfx906.", "shared-memory", None, 65536),
    # AMD's accumulation registers by their names, a cap "beyond" a count, an MI-series name with its hyphen
    ("fix: catch accvgpr overflows beyond 256 registers in the MFMA kernels", "registers", None, 256),
    ("Reject totalAgprs larger than agprLimit in the MFMA tuning", "registers", None, None),
    ("Fix MI-100 register allocation error", "registers", None, None),
    # a block's thread bound in parentheses after the limit's name
    ("The fused kernel falls back to the decomposed one when 2*S+1 exceeds the per-cube thread limit (1024).",
     "threads", None, 1024),
    # a workstation GPU's name is a GPU's; Kokkos' message quoted without its last word
    ("[LinearAttn] Fix out of shared memory issue on A6000", "shared-memory", None, None),
    ('The reduction no longer crashes, but it says "requested too much L0 scratch", which is not helpful.',
     "shared-memory", None, None),
    # a bare bound after "maximum of", the unit stated with the request
    ("When a tile kernel's dynamic shared memory request did not fit, the warning named the opt-in limit as the "
     "maximum available: on an RTX 3090 a 101,120 byte request was refused against a stated maximum of 101,376.",
     "shared-memory", 101120, 101376),
    # a register cap named by its count, spills past it
    ("The fused D=256 forward spills its fp32 accumulator past the 255-register cap, so it is unsafe to ship as "
     "default.", "registers", None, 255),
])
def test_explain24(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # an inline-assembly constraint of a register class the target lacks
    "error: couldn't allocate output register for constraint 'f' when the PTX helpers are built for gfx1100",
    # pocl's CPU device
    "* Device #1: pthread-Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz\nclEnqueueNDRangeKernel(): CL_OUT_OF_RESOURCES",
    # a tensor that XLA spills to HBM: a cost, no failure
    "A 300 MB intermediate exceeds on-chip VMEM capacity (64 MiB) on v7x, so XLA spills it to HBM on every layer.",
    # Metal's alignment rule for threadgroup memory, no size over a bound
    "fix(metal): pad the fallback kernel's threadgroup memory to a 16-byte boundary. Metal asserts that threadgroup "
    "memory lengths are multiples of 16 bytes, which 2 * k * 4 bytes is not for odd k, and the dispatch fails.",
    # a race on shared memory (compute-sanitizer's racecheck) beside an algorithm's "overflow" path, either order
    "The overflow refinement path has an smem race (flagged by racecheck).",
    "Fix smem race in the top-k overflow path (flagged by racecheck)",
    # Envoy's Listener Discovery Service by its listeners
    "Validate duplicate listeners in the LDS response and reject the update when one is found.",
    # Windows' driver lending system RAM once VRAM runs out
    "Since driver 536.40 an application that runs out of GPU memory may continue in shared memory; a new setting "
    "disables the shared memory fallback.",
    # the display watchdog (CUDA's 702), with the causes a thread speculates on
    "cuCtxSynchronize returns CUDA_ERROR_LAUNCH_TIMEOUT. I read that too many registers per thread or too much shared "
    "memory per block can cause it, but my kernel uses 40 bytes of shared memory.",
    # Qualcomm's SMEM checked by a trusted OS
    'EMSG("smem: smem_size exceeds uint32_t\\n");\nreturn TEE_ERROR_BAD_PARAMETERS;',
    # a CPU's vector registers
    "perf: vectorize the int8 prefill, fix pv_gemm register pressure\n\n- Fix pv_gemm dispatch: use D_UNROLL=128 "
    "(AVX512) / 64 (AVX) / 32 (SSE2) instead of the full D, which spilled registers",
    # nvcc's rule against initialising a static __shared__ variable, beside a file named for registers
    "/src/knn/registers-inl.cuh(177): error #20054-D: dynamic initialization is not supported for a function-scope "
    "static __shared__ variable within a __device__/__global__ function",
    "Add workaround for pre-11.8 CTK smem init errors\n\nStatic shared memory cannot be initialized by constructors, "
    "so older toolkits report an error on static shared memory declarations of complex types.",
    # a division by zero in an occupancy calculation; an assembler's register-class alignment rule
    "Fix branch target exceeds SIMM16 error by adding 32 bit long jump. Also fix div/0 error for lds limited "
    "occupancy calculation",
    "Fix an error: invalid register class: vgpr tuples must be 64 bit aligned",
    # SPIR-V's zero-sized work-group; DXC's stage that may not use groupshared memory at all
    "spirv-val: print the entry point functions\n\n```\nerror: 6: Local Size execution mode must not have a product "
    "of zero (X = 0, Y = 1, Z = 1).\n  OpExecutionMode %2 LocalSize 0 1 1\n```",
    "// Test that the proper error for groupshared is produced when compiling in patch constant shader functions.\n"
    "// CHECK: error: Thread Group Shared Memory not supported from non-compute entry points.",
    # races on shared memory written with a hyphen
    "CUDA: Fix data-races when reusing SMEM in block_reduce\n\nblock_reduce doesn't resync after reading from SMEM, "
    "causing data-races when SMEM is reused for several reductions.",
    # a CPU library's threads
    "OpenBLAS : Program will terminate because you tried to start too many threads.\nDoes linking to it really limit "
    "the max number of threads that the program creates? I guess the large number of threads is too much.",
    # a launch of nothing refused as an invalid value
    "cuLaunchKernel() failed with Error code: 1\nError Name: CUDA_ERROR_INVALID_VALUE\nError Description: invalid "
    "argument\nTraceback (most recent call last):\n  File \"t.py\", line 30, in <module>\n    kernel.launch(0,0, "
    "[darr, dout])",
    # a stub that was never implemented, whatever attribute it was asked to set
    "HIP: implement cuFuncSetAttribute (was an unimplemented stub returning hipErrorUnknown)\n\nEvery use of "
    "RawKernel.max_dynamic_shared_size_bytes fails on HIP, even when assigning 0.",
    # a program build short of the driver's host heap
    "// the compiler returns CL_OUT_OF_HOST_MEMORY/CL_OUT_OF_RESOURCES for the largest OpenCL FA programs: retry the "
    "build",
    # a device query that failed for want of host memory (OpenCL's -6), printed in a work-group property's place
    "As my user, clinfo shows an error on the line `Kernel preferred work group size multiple   <create kernel : "
    "error -6>`; run as root, the same line reads 64.\nclCreateKernel gives error code -6 there, which is "
    "CL_OUT_OF_HOST_MEMORY.",
])
def test_explain24_look_alikes(text: str) -> None:
    assert not _on_chip(text)


def test_explain24_a_crashed_launch_under_a_loggers_error_prefix() -> None:
    # a kernel that crashed (CUDA_ERROR_LAUNCH_FAILED) under a logger whose every line says ERROR: the block size the
    # code above prints is no block over its bound
    prefix = "(VllmWorker rank=0 pid=1234) ERROR 05-01 12:00:00 [multiproc_executor.py:520] "
    lines = ["threadsperblock = 64", "blockspergrid = ceil(n / threadsperblock)",
             "kernel[blockspergrid, threadsperblock](arr)", "", "but I get these errors on Windows:", "",
             "2020-01-01 10:00:00,000 - ERROR - Call to cuMemcpyDtoH results in CUDA_ERROR_LAUNCH_FAILED",
             "Traceback (most recent call last):", '  File "run.py", line 12, in main',
             "    kernel[blockspergrid, threadsperblock](arr)",
             '  File "C:\\envs\\lib\\site-packages\\numba\\cuda\\compiler.py", line 497, in __call__',
             "    sharedmem=self.sharedmem)"]
    assert not _on_chip("\n".join(prefix + line for line in lines))


# explain25: what fresh-190 to 209 taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # newer libtpu drops the space's name after the numbers
    ("Nightly jobs crash at engine init: `Ran out of memory in memory space smem. Used 1.50M of 1.00M`",
     "tpu-smem", 1572864, 1048576),
    ("XLA:TPU compile permanent error. Ran out of memory in memory space vmem. Used 20.00M of 16.00M\n",
     "vmem", 20971520, 16777216),
    # the bound as what devices allow
    ("The wide tiles need more shared memory per block than these GPUs provide: they request 110592 bytes per "
     "block; both devices allow at most 101376.", "shared-memory", 110592, 101376),
    # a register cap set by words or by the flag, a register's width no count
    ("Debug builds of the sort kernel fail to launch on the GPU, so limit register usage to 96 per thread.",
     "registers", None, 96),
    ("Bug: the debug build fails to launch, so cap the register usage with -maxrregcount=64 in the CUDA flags",
     "registers", None, 64),
    ("The cooperative kernel fails to launch under -G, so limit register usage to 128 per thread to fit the maximum "
     "number of 32-bit registers per SM.", "registers", None, 128),
    # a GEMV schedule is a GPU's
    ("Fix: the GEMV rule uses too much shared memory on the 70B model.", "shared-memory", None, None),
    # OOMs as a failure
    ("The autotuned configs make the shared memory OOMs on the GPU for the larger head dims.", "shared-memory", None,
     None),
    # a size that leads by an arrow to the failure's name (a guard of the rule below: an arrow after a bound is no
    # comparison); a bound before an arrow is still the bound
    ("XLA keeps the gather's output in scoped VMEM, so one gather of [n, vocab] rows exceeds the 16M scoped limit "
     "once n grows (e.g. [256, 50000] bf16 = 24.4M -> CompileTimeScopedVmemOom).", "scoped-vmem", 25585254, 16777216),
    ("the kernel's fp32 shared-memory footprint exceeds the H100 default limit (~99KB) -> a failed GPU compile",
     "shared-memory", None, 101376),
    # a GPU by its model number that has so much shared memory
    ("GB10 has 101,376 bytes shared memory. The default MoE configs request ~147KB and fail with OutOfResources.",
     "shared-memory", 150528, 101376),
    # a size per CTA named as its limit
    ("With three stages the kernel needs 65600 B, a little past Turing's 64 KB/CTA limit, so it failed to launch.",
     "shared-memory", 65600, 65536),
    # a block's size in brackets after its Chinese name, its bound after 限制在
    ("注意：这里故意使用了很大的线程块大小 (2048)\n这可能会导致错误，因为：大多数 GPU 的最大线程块大小限制在 1024",
     "threads", 2048, 1024),
    # an accelerator's on-chip memory in Triton's words
    ("OutOfResources: out of resource: NRAM, Required: 1500000, Hardware limit: 1048576", "shared-memory", 1500000,
     1048576),
    # a device's size per block opening a list item, then the need
    ("Three facts measured on the device:\n\n1. 64KB of shared memory per block. The tuned update config asks for\n"
     "   81920 bytes in both dtypes, and 12 of the cases died\n   with OutOfResources.", "shared-memory",
     81920, 65536),
    # a need, then the bound after it (a guard of the rule above: a size per block after a need's verb is the need)
    ("On this GPU it needs 80 KB of shared memory per block, but the card allows 64 KB, so the launch fails.",
     "shared-memory", 81920, 65536),
    # CUDA's 701 by other words
    ('It fixes a bug: "out of launch resources" on some GPUs after the strides became 64-bit; the CUDA block is now '
     "32x8 threads.", "registers", None, None),
    # a workgroup too large, a thread limit exceeded
    ("Vulkan validation errors on Android:\n- Query pool statistics\n- Compute Shader workgroup too large",
     "threads", None, None),
    ("The GPU tiling search failed when a single option exceeds the thread limit.", "threads", None, None),
    # a sweep of block sizes assigned as a list is no block of 16M threads
    ("With these settings I get an error about not enough shared memory being available on my RTX 3090:\n\n"
     "    tile_m = [64, 128]\n    block = [128, 256, 512]", "shared-memory", None, None),
    # the bound compared with the requirement right after it, over one stated before
    ("The MoE kernel spills its accumulator to LDS and overflows the 160 KiB LDS budget on the GPU (observed 269 KiB "
     "required vs 163 KiB hardware limit).", "shared-memory", 275456, 166912),
    # a guide's heading "HIP Out of Memory (LDS)" is no device memory
    ("### 4. HIP Out of Memory (LDS)\n\n**Error:** `LDS size exceeds limit`\n\n**Cause:** Kernel uses more LDS than "
     "available (64 KB on the GPU).", "shared-memory", None, 65536),
    # a TPU by its generation
    ("The kernel prefetches the segment ids into SMEM, so above 512K tokens it fails to compile. Measured on a v5p.",
     "tpu-smem", None, None),
    # an assembler's bound in parentheses after the register file's name, across a wrapped line
    ("feat: add 640-expert top-8 kernels for gfx942/gfx950\n\nOnly subm=4 is provided. The 12mxM tile does not fit at "
     "640 experts --\nsp3 rejects it with \"s_load_dword exceeds the total number of SGPRs\navailable (102 total "
     "SGPRs)\", the same limit that keeps 12x384x8 out.", "registers", None, 102),
])
def test_explain25(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # C++ overload resolution on a tile's storage type
    "Passing shared-memory tiles to a device function fails to compile:\nerror: no matching function for call to "
    "'scale_tile'\nnote: candidate function not viable: no known conversion from 'tile_shared_t<float>' to "
    "'tile_register_t<float>'",
    # an illegal address by its number
    "The CUDA graph runner passed sharedMemBytes=0, so kernels using dynamic shared memory failed with CUDA error 700 "
    "on replay.",
    # a correctness bug named as such
    "[KVCache] Fix attention kernel for ROCm\n\nWhen compiling a kernel to ROCm, the local registers must be stored "
    "and loaded consistently (all vector or all scalar access), or otherwise there will be a correctness issue.",
    # Level Zero's code alone: device memory or a context far more often
    "Starting the engine on the second card fails with UR_RESULT_ERROR_OUT_OF_RESOURCES during _compile_to_module; "
    "parallel compile workers exhausted the Level Zero context.",
    # a cluster launch without its attribute
    "  // cudaLaunchKernelExC requires an explicit cluster dimension attribute even for kernels\n  // with "
    "__cluster_dims__; without it the launch fails with invalid argument.\n  launch_cluster_kernel(kernel, args, "
    "grid, extern_shared_mem, num_clusters, stream);",
    # a granularity rule, and two layouts that disagree
    "AutoWS register budgets must be divisible by 8, so maxRegAutoWS=196 is rejected by the GPU backend.",
    "wip: disable the scale-factor TMA load, TMA atom/SMEM size mismatch\n\nRoot cause: the TMA atom expects 16384 "
    "bytes per tile, but the SMEM layout has a cosize of 1024 per stage.\n\nFix requires aligning the TMA atom tile "
    "with the SMEM layout. The kernel compiles and runs with NaN.",
    # a launch of no threads
    "The error is cudaErrorInvalidConfiguration: a launch requesting more shared memory per block than the device "
    "supports triggers it, as do too many threads. Here we launch a kernel with block size 0 on an empty tensor.",
    # compilers refusing code for what it is: a target feature the GPU lacks, a name the headers lack, an attribute
    # misplaced after __shared__
    "The quantization kernels fail to build on gfx1201 with `needs target feature vmem-to-lds-load-insts` and the "
    "legacy path with `Cannot select: intrinsic %llvm.amdgcn.raw.buffer.load.lds`, so the LDS loads need a fallback.",
    "fix: guard the oversized shared memory enums by CUDA version\n\nThe JIT build breaks on CUDA 13.3 with\n  "
    'fmha.cuh(136): error: identifier "CU_SHARED_MEMORY_MODE_X" is undefined',
    "kernel.cuh:488:16: error: 'alignas' attribute cannot be applied to types\n    __shared__ alignas(16) float "
    "smem_tile[LDS_ELEMS];\nso the LDS tile fails to compile on the GPU",
    # a fault in kernels that spill, not the spill
    "The driver computed the scratch wave size 4x too large, causing MMU faults on any GPU kernel that spills "
    "registers.",
])
def test_explain25_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain26: what fresh-221 to 228 taught, in words of our own
_E26_FILLER = ("The check computes the expected tile from the device's own opt-in value, asserts the planned tile "
               "through the plan info, and runs the kernel against a float32 reference for both dtypes, so every "
               "architecture checks the same thing; for one-byte caches the assertion is the only check that runs. ")


@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # a shortage fastened to the phrase needs no GPU word near it (a commit title)
    ("Skip candidate compute locations that use too much shared memory", "shared-memory", None, None),
    ("Tests that fail to execute properly due to shared memory constraints on some architectures are skipped now.",
     "shared-memory", None, None),
    # a table's VRAM column describes the cards, no device-memory failure; a tilde before the bound
    ("Fine-tuning fails on these cards.\n\n| GPU | VRAM | Shared mem/block |\n|---|---|---|\n"
     "| RTX 4090 | 24 GB | 99 KB |\n\nThe compiled flex_attention kernel requires ~128 KB of shared memory per "
     "block, but these GPUs are capped at ~99 KB per block.", "shared-memory", 131072, 101376),
    # the sizes stated above the sentence the knowledge base reads
    ("fix the tile probe\n\nAt head dim 448 the short-query layout costs (104448 bytes) exceeds the\n101376-byte "
     "per-block opt-in limit of 99KB parts.\n\n" + _E26_FILLER + _E26_FILLER + "On 99KB parts the fallback keeps the "
     "configuration dispatchable where the small tile would exceed the per-block limit, and on larger-smem parts it "
     "runs.", "shared-memory", 104448, 101376),
    # a TPU's pair in parentheses in XLA's units; a TPU by its name with a generation; an array's shape no launch
    ("* Pallas TPU step at L=8: VMEM OOM at compile (65.09M of 64M at L=8). Fixed by sharing the root scratch.",
     "vmem", 68251812, 67108864),
    ("Reproduced VMEM OOM at the production shape on tpu7x:4x8x8: one expert window bf16[1, 7168, 4096] = 56 MiB -> "
     "112 MiB double-buffered > 64 MiB VMEM", "vmem", 117440512, 67108864),
    # the scoped limit named beside VMEM; a flag in KiB (and a raised one) is no bound in bytes
    ("- Hypothesis: the earlier OOM was TPU VMEM pressure.\n- Scoped VMEM OOM is mitigated by "
     "`LIBTPU_INIT_ARGS=--xla_tpu_scoped_vmem_limit_kib=50000`.", "scoped-vmem", None, None),
    # a local memory's bytes set equal in a report, beside its limit
    ("RuntimeError: Too many resources requested: group_segment_size\n\nAfter the reclaim:\n  true local LDS = 131072 "
     "bytes\n  limit          = 65536 bytes", "shared-memory", 131072, 65536),
    # the phrase a shortage is fastened to, over one named before it in passing
    ("// a very large work group size can make the OpenCL build fail due to insufficient local memory, even though it "
     "is clamped before running", "shared-memory", None, None),
    # a block's bound in words and by a comparison
    ("fix threads per block in the persistent heuristic\n\nThreads per block can be larger than 1024 due to ceilDiv.",
     "threads", None, 1024),
    ("HIP kernels launched with a workgroup size > 256 and without launch bounds may give wrong results.",
     "threads", None, 256),
    # LLVM's spill comments in a GPU's assembly, an architecture with a letter after its number
    ("Tests fail in CI on gfx90a, caused by the compiler spilling inside the asm block:\n\tbuffer_store_dword v6, off, "
     "s[80:83], 0 ; 4-byte Folded Spill", "registers", None, None),
    # cuobjdump's resource usage gives a 701's registers per thread
    ("CUDA error: too many resources requested for launch\nFunction _Z6kernelPf:\n\tREG:72 STACK:0 SHARED:0 LOCAL:0 "
     "CONSTANT[0]:360 TEXTURE:0", "registers", 72, None),
    # wgpu-core's later wording of a workgroup over its invocations, quoted in a shader's comments
    ("// TODO continue from here\n//  In wgpuDeviceCreateComputePipeline\n   //    Error matching shader requirements "
     "against the pipeline\n   //    Shader entry point's workgroup size [32, 32, 2] (2048 total invocations) must be "
     "less or equal to the per-dimension limit [1024, 1024, 64] and the total invocation limit 1024\n\n@compute\n"
     "@workgroup_size(32, 32, 2)\nfn big() {", "threads", 2048, 1024),
    # Triton's TMEM line after a note on warps is no thread count
    ("# as it surfaces on a B200 with num_warps >= 8):\n#   \"out of resource: tensor memory, Required: 640, Hardware "
     "limit: 512.\n#    Reducing block sizes or `num_stages` may help.\"", "tensor-memory", 640, 512),
    # a limit's name, then its size in parentheses (Japanese); a size computed as a product (Chinese)
    ("**猜测**：SM120 の共有メモリ制限 (99KB) を超えたためにタイルの初期化が失敗した。"
     "Failed to initialize cutlass TMA WS grouped gemm.", "shared-memory", None, 101376),
    ("症状：tile 改成 8192 后 kernel launch 返回 cudaErrorInvalidValue。\n"
     "怀疑 smem 超限：8192 点 × 4 分量 × 4B = 128KB，超过单 block 默认上限 48KB（需要 cudaFuncSetAttribute）。",
     "shared-memory", 131072, 49152),
    # Intel's register file by the mode that spills; an AMD kernel at its VGPR cap
    ("cmake: always pass the large register file flag\n\nWithout it, at the default 128 GRF/thread the inner loops of "
     "the attention kernels spill into scratch on every access.", "registers", None, 128),
    ("Dispatch on a smaller K to reduce register pressure\n\nK<=8 eliminates all register spills on B580 (GRF 128) for "
     "every dtype.", "registers", None, 128),
    ("LLVM hoists the mask out of the loop and keeps it live, and a kernel at 256 VGPRs spills (80 VGPRs in the "
     "causal variant).", "registers", None, 256),
    # a size that grew is the need; a bound after an apostrophe of its own; a constant in KiB
    ("For hdim=256 on SM86 the host-side estimate pushed smem from 96KB to 104KB, exceeding the ~99KB limit.",
     "shared-memory", 106496, 101376),
    ("Failed to initialize cutlass TMA WS grouped gemm\n\nThe autotuner skips these tiles because they overflow your "
     "GPU\u2019s 99KB shared memory.", "shared-memory", None, 101376),
    ("# LDS budget per workgroup on gfx950: a config whose LDS request exceeds it fails to build (\"local memory (N) "
     "exceeds limit\"), so the tuner drops it.\n_MAX_LDS_BYTES = 160 * 1024", "shared-memory", None, 163840),
    # a shortage fastened to the phrase needs no other failure word either
    ("fix softmax exceeds shared memory error", "shared-memory", None, None),
    ("fix: group_norm modify case because of out-of-shared-memory", "shared-memory", None, None),
    # a block's bound by its number after "exceeds"
    ("[AMD] Error out if exceeding max threads per block (#6125)\n\nThis change adds a check to error out if warp size "
     "* thread size exceeds 1024.", "threads", None, 1024),
    # Intel's register file by its name, CUDA's spill space by its
    ("Fix grf spill issues in the GEMV kernel", "registers", None, None),
    ("remove volatile keyword in the router kernel utils to avoid local mem spill on SM100", "registers", None, None),
])
def test_explain26(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # a container's shared memory by its signal (a guard: explain25's src kept it off chip already, through no rule;
    # the fastened shortage above must not read it)
    "Add a SIGBUS start-up warning: when insufficient shared memory is mounted for the shards, they die with signal 7.",
    # an address's alignment
    "Enforce 128B alignment for every TMA shared memory allocation, to avoid CUDA_ERROR_MISALIGNED_ADDRESS errors.",
    # OpenCL's out-of-resources from a batch too large for the card's memory, in Chinese
    "调优：若出现显存不足错误，先减小批次。如出现 cl_out_of_resources 错误，把 --gpu-batch-size 减半。",
    # an invalid argument after an invalid device ordinal, beside a device query's shared memory
    "Running on \"NVIDIA GeForce RTX 3060\", MaxSharedMemoryPerBlock 49152, MaxSharedMemoryPerBlockOptin 101376\n"
    "CUDA ERROR (code = 101, invalid device ordinal) at memory.c:200\nCUDA ERROR (code = 1, invalid argument) at "
    "memory.c:662",
    # the report ruling shared memory out
    "定位：prompt.cu 的 kernel launch 报 cudaErrorInvalidValue；前面的 cudaFuncSetAttribute（kPromptSmemBytes）已成功 "
    "=> 不是 smem 超限。优先排查无效的 cudaStream_t。",
    # the heap of in-kernel allocations
    "With the new ensemble kernels an out-of-dynamic GPU memory error may occur for a large number of threads; use the "
    "older release for higher trajectory counts.",
    # a driver without non-uniform work-groups (a guard: explain25's src kept it off chip, through no rule)
    "terminate called after throwing an instance of 'std::runtime_error'\n  what():  in create_kernel "
    "src/core/CL/CLKernelLibrary.cpp:604: Non uniform workgroup size is not supported!!\nAborted",
    # a spill the report rules out
    "The fp16 kernel is 50x slower.\n\nIT IS NOT SPILLING, which was the first guess. The IGC build log says:\n"
    "    tf32: \"compiled SIMD16 allocated 128 regs and spilled around 28\"\n    fp16: clean, no spill",
    # Metal without non-uniform threadgroups
    "MTLValidateFeatureSupport:6563: failed assertion `Dispatch Threads with Non-Uniform Threadgroup Size is not "
    "supported on this device'",
    # an address's alignment
    "        with T.Kernel(T.ceildiv(S, block_S), B * H, threads=threads) as (bs, bbh):\n"
    "            # mind the scope of the shared memory: may cause misaligned address when the buffer is too small\n"
    "            Beta_shared = T.alloc_shared((block_S,), dtype=input_dtype, scope=\"shared\")",
])
def test_explain26_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain27: what fresh-250 to 257 taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # NVIDIA's per-thread ceiling is a GPU word of its own
    ("Measured against the naive baseline: the tuned variant still uses 255 registers and spills, so it is not final.",
     "registers", 255, None),
    # Intel's register file by its name
    ("On Intel GPUs without DPAS the unrolled dot keeps every operand live, so the schedule can exceed the 4KB GRF "
     "and spill.", "registers", None, None),
    # Intel's per-thread scratch space past its bound: register spills, as intel/ptss-scratch-space reads the error
    # line and most reports label it (explain26 had kept it off chip after three commits of one batch)
    ("Skip test_reduce on a770: it needs ~430KB of per-thread scratch space, exceeding the 256KB HW PTSS limit even "
     "after the existing 256-GRF retry path.", "registers", None, None),
    # a block's threads over their bound named beside the driver's invalid value: the block is the cause
    ("// The old launch used <<<1, n>>>, which exceeds the 1024 threads/block limit for every real hidden size, so it "
     "failed with cudaErrorInvalidValue. Now the threads stride over n and reduce through shared memory.",
     "threads", None, 1024),
    # what a kernel must fit within; a device's size by its name with an apostrophe; a TPU generation's SMEM stated
    ("count the SMEM budget right for split K and V buffers\n\nEach stage holds K plus V, so kv_stage drops to fit "
     "within 228KB budget.", "shared-memory", None, 233472),
    ("// fall back to global memory when the temp storage exceeds the LDS budget.\n// With the fold pinned at two "
     "items per thread, that happens from 16 experts up on gfx942's 64 KiB LDS.", "shared-memory", None, 65536),
    ("Prune tuner entries before the sweep: v7x SMEM is 1MB per core and the scalar-prefetched page table must fit.",
     "tpu-smem", None, 1048576),
    # a bound read first and the request stated after it in other words
    ("This is required to allow larger than 48kb shared memory per kernel.\n\nA three-stage fp16 GEMM (needs 72KB "
     "of SMEM, fine on an RTX 4090) comes first.", "shared-memory", 73728, 49152),
    # (fresh-258 to 273) a bound's own change is its new value; a wrapped sentence that ends on "(e.g. H=32768) and"
    # is no device property; tpu-inference's ragged paged attention by its short name; a TPU's VMEM per core
    ("Update the shared memory limit for sm_86, sm_89 and sm_120 from 102400 bytes to 101376 bytes so the GEMM config "
     "filter stops choosing tiles that fail to launch.", "shared-memory", None, 101376),
    ("On TPU the default config, which OOMs scoped vmem at large hidden sizes (e.g. H=32768) and\nhard-fails "
     "autotuning, is skipped now.", "scoped-vmem", None, None),
    ("Revert \"[Batch RPA] drop the block_size override\" -- fixes smem compile OOM in the nightly perf jobs",
     "tpu-smem", None, None),
    ("Tile the fused MoE kernel: v7x per-core VMEM is 64 MB and the old plan exceeded it.", "vmem", None, 67108864),
    # (fresh-277) a bound the request does not pass is the program's own setting; the one it passes is the device's
    ("All GEMM kernels fail to launch on gfx942: they request 160KB of dynamic shared memory (`LDS_LIMIT = 163840` in "
     "the common header), but the hardware only supports 64KB per workgroup.", "shared-memory", 163840, 65536),
])
def test_explain27(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # an x86 kernel's SIMD registers, inside a name and counted
    "Revert the qk_gemm_specialized_avx512 tiling to 2x2 to fix massive register spilling in the batched path "
    "(acc[8][4] = 32 ZMMs).",
    # (fresh-258 to 273) a value read before it was written; a POWER CPU's accumulators in ggml's CPU backend
    "Fix: the ids ref is uninitialized SMEM and was only zeroed under pl.when(sz > 0), so leftover garbage overflowed "
    "the DMA byte count on v7x.",
    "ggml-cpu: force inline of the tinyBLAS_PPC accumulator saves so the compiler keeps the MMA accumulators in the "
    "kernel's register context and avoids spills.",
    # a device query's last line inside a quoted field states what the device has, as it does on its own line
    '{"error": "With ten times the points it stops: CUDA error 9 at kmeans.cu:604\\nDevice 0: \\"GeForce GT 430\\"\\n'
    '  Total amount of shared memory per block:       49152 bytes\\n'
    '  Warp size:                                     32\\n'
    '  Maximum number of threads per block:           1024"}',
])
def test_explain27_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain28: what fresh-278 to 293 taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # a count of threads beside registers bounds nothing of the registers; the bound named after its count
    ("Cap register allocation: on sm_90 the compiler wants more than 128 registers, which is the maximum for 512 "
     "threads in a block.", "registers", None, 128),
    # a profiler's count per thread is the kernel's use
    ("perf: fewer accumulator tiles per warp. Nsight showed 96 regs/thread for the old tiling on the GPU, which "
     "limited occupancy.", "registers", 96, None),
    # the other count of a pair stays read where one side is another resource's
    ("Since the GPU kernel uses many registers (around 40), the per-block limit is exceeded with 1024 threads.",
     "registers", 40, None),
    # "capped at the N budget", "over the N budget": the size is the bound
    ("The GPU kernel's per-workgroup LDS is capped at the 64 KB budget now.", "shared-memory", None, 65536),
    ("Tile growth pushed the GPU kernel's LDS use over the 64 KB budget.", "shared-memory", None, 65536),
    # a shortage stated in the next sentence: "If it doesn't fit"
    ("The launcher asks cudaFuncSetAttribute whether enough shmem is available for the sketch. If it doesn't fit, "
     "the error stays sticky.", "shared-memory", None, None),
    # a device's own shared memory is a GPU's
    ("We print the properties at start-up because a model once hit the device's shared memory limit silently.",
     "shared-memory", None, None),
    # (fresh-294 to 301) CUDA's 701 names neither count: a thread count beside it is its own
    ("# Max 128 threads on this Jetson, else the launch dies:\n"
     "# pycuda._driver.LaunchError: cuLaunchKernel failed: too many resources requested for launch",
     "registers", None, 128),
    # the largest as the bound, not a block's side
    ("The largest block that runs is 16*64. On CUDA the largest number of threads in a block is 1024.\n"
     "numba.cuda.cudadrv.driver.CudaAPIError: [1] Call to cuLaunchKernel results in CUDA_ERROR_INVALID_VALUE",
     "threads", None, 1024),
    # a size against a budget
    ("The padded layout pushes the GPU kernel's LDS tile to 180 KB against a 163,840 B budget, so it drops a stage.",
     "shared-memory", 184320, 163840),
    # NCCL-EP's kernels are GPU kernels
    ("NCCL-EP dispatch: the 6x4x7168 = 168KB ring exceeds the 48KB static cap, so it moves to dynamic shared memory.",
     "shared-memory", 172032, 49152),
    # (fresh-302 to 309) AMDGPU's bound on a work-group by its attribute's name
    ("RuntimeError: launch block size 512x1x1 = 512 threads exceeds the AMDGPU default max_flat_workgroup_size of "
     "256", "threads", 512, 256),
    # a GPU's model number is no count
    ("// The RTX 4070 has a limit of 1024 threads per block; this demo launches 1100.\nkernel<<<1, 1100>>>();",
     "threads", 1100, 1024),
    # a few words between "supports" and "up to"; a request beside the bound it met
    ("The work division is rejected on the GPU: CUDA supports only a block size up to 64 for z.", "threads", None,
     64),
    ("The chosen GPU thread block size for z is too big: it was trying to use 80, when the limit was 64.",
     "threads", 80, 64),
    # a register count a kernel needs, by its unit (not a factor of a product)
    ("GPU kernels sometimes exceed the 256-VGPR hardware limit, e.g. a tile needing ~270 VGPRs.",
     "registers", 270, 256),
    # a property's value named as such
    ("Threads per threadgroup can't exceed maxTotalThreadsPerThreadgroup; a GPU with a maxTotalThreadsPerThreadgroup "
     "value of 640 rejects the launch.", "threads", None, 640),
])
def test_explain28(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # Triton's exception named as the one that was not raised
    "On this GPU some tuning candidates crash the compiler (PassManager::run failed) rather than raising "
    "triton.runtime.autotuner.OutOfResources, so the tuner skips them too.",
    # Python's recursion limit in a test of shared memory
    "Shared memory support is still broken for PTX: the LDS test dies with RecursionError: maximum recursion depth "
    "exceeded.",
    # the class caught by code quoted in a message, not raised
    "Move the static_assert so the autotuner catches it:\n"
    "    except (OutOfResources, CompileTimeAssertionFailure, PTXASError):\n"
    "        return [float('inf')] * 3",
    # host shared memory of data-loading workers, named by the command's flag
    "insufficient shared memory (my guess) when rendering on the GPU box\nThe crash goes away when I pass "
    "--num-workers=0.",
])
def test_explain28_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain29: what fresh-310 to 317 taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # XLA's refusal of a scoped VMEM budget over the chip's maximum, whole and cut in the middle
    ("E1203 10:11:12.000000  42 memory_space_assignment_util.cc:607] INVALID_ARGUMENT: 83886080 bytes of scoped Vmem "
     "requested (via TpuCompilationEnvironment field xla_tpu_scoped_vmem_limit_kib), but the max valid bytes is "
     "67043328.", "scoped-vmem", 83886080, 67043328),
    ("blocked on v5p: `83886080 bytes of scoped Vmem requested ... max valid bytes is 67043328`", "scoped-vmem",
     83886080, 67043328),
    # a VMEM scratch buffer past the memory, the allocation's description cut from the line
    ("pltpu.VMEM((40960, 128), f32): compile fails: RESOURCE_EXHAUSTED: Allocation (size=20971520) would exceed "
     "memory (size=16777216)", "vmem", 20971520, 16777216),
    # AMD's OpenCL compiler out of local memory
    ("Building kernel for Pitcairn...\nError:E012:Insufficient Local Resources!\nFailed to init GPU thread 0",
     "shared-memory", None, None),
    # an architecture's size per block, by its name
    ("The backward config needs 98304B of shared memory, which can never fit Volta's 96KB/CTA once the epilogue "
     "buffer is added.", "shared-memory", 98304, 98304),
])
def test_explain29(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


def test_explain29_architecture_tuned_for_is_no_bound() -> None:
    # the size a kernel was tuned for on another architecture is not the failing device's bound
    text = ("The pipeline is sized against Hopper's 192 KB smem budget (200000-byte request); on devices below that "
            "opt-in limit `cudaFuncSetAttribute` fails with cudaErrorInvalidValue.")
    assert _first_on_chip(text)[0][2] != 196608


def test_explain29_tilelang_retyped() -> None:
    # TileLang's attribute failure retyped without its article is TileLang's entry (with its fixes), not a guess
    found = [(m.entry.id, m.required) for m in match("bwd step: Failed to set allowed dynamic shared memory size to "
                                                      "150000", KB)]
    assert found[:1] == [("tilelang/dynamic-shared-memory", 150000)]


# explain29: what fresh-318 to 323 taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # SMEM beside a GPU's bound on shared memory per block is a GPU block's, even in a Pallas (Mosaic) report
    ("- Large direct block copy with `block_rows=64` exceeded SMEM:\n  `smem_bytes=262152 > max_smem_bytes=232448`.\n"
     "- Untiled copy failed because Mosaic async copies require each dimension to be <=256.", "shared-memory", 262152,
     232448),
    # Kokkos' check of a team's vector length
    ("[ RUN      ] hip.team_vector_reduce\nKokkos::TeamPolicy error: vector_length (4096) exceeds the maximum allowed "
     "(64)", "threads", 4096, 64),
    ("Kokkos::TeamPolicy error: vector_length argument must be less or equal to vector_length_max()", "threads", None,
     None),
    # the attribute call's failure by its code, in Chinese and in English
    ("运行 int8 gemm 测试报错，cudaFuncSetAttribute返回的错误码为1", "shared-memory", None, None),
    # an architecture's name with digits between a size and its bound
    ("Shared memory: the tile is right at the 99 KB / sm_86 limit, and exceeding it fails at launch.",
     "shared-memory", None, 101376),
])
def test_explain29_second(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # the attribute call failing with another error (a kernel not loaded)
    "cudaFuncSetAttribute() returned error: invalid resource handle",
    # a launch of an empty grid (a batch of no tokens)
    "An idle rank runs the MLP over a 0-token batch, so silu_and_mul launches over an empty grid and fails:\n"
    "    RuntimeError: Failed to launch kernel: invalid argument",
])
def test_explain29_look_alikes(text: str) -> None:
    assert not _on_chip(text)


def test_explain29_attribute_call_failed() -> None:
    # the attribute call's failure is the dynamic shared memory entry's (with its advice), not only a mention
    found = [(m.entry.id, m.required) for m in match(
        "cudaFuncSetAttribute(gemm_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 180224) failed", KB)]
    assert found[:1] == [("cuda/invalid-argument-dynamic-smem", 180224)]


# explain29: what fresh-325 to 329 taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # the TPU's sync-flag space, by libtpu's message and in prose
    ("jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Ran out of memory in memory space sflag",
     "tpu-smem", None, None),
    ("The MoE kernel produced an s32[2048] sflag scratch (8192B) that exceeds v6e's 2048B sflag and fails with "
     "RESOURCE_EXHAUSTED.", "tpu-smem", 8192, 2048),
    # a scoped budget named apart from VMEM
    ("Pallas kernel on v5e: a 30.5 MiB VMEM allocation exceeding the default scoped budget of 16 MiB.",
     "scoped-vmem", 31981568, 16777216),
    # a register cap set with nvfortran's option
    ("The (512,1,1) block needs a `-gpu=maxregcount:96` cap because the kernel used 168 registers/thread and fails "
     "to launch otherwise.", "registers", 168, 96),
    # a size a formula estimated
    ("A simplified SMEM formula estimated 160KB for\n`128x128x160B` \u2014 exceeding SM89's 99KB limit.",
     "shared-memory", 163840, 101376),
    # (fresh-330 to 335) a block's thread count in Chinese beside CUDA's invalid configuration
    ("| `cudaErrorInvalidConfiguration` | Block 线程数超过 1024 | 把 TILE 改小 |", "threads", None, 1024),
    # a size "which OOMed" on a GPU's shared memory
    ("The old shape needed a [64,512] fp32 accumulator (~128KB) which OOMed on A10G's 100KB shared memory in CI.",
     "shared-memory", 131072, 102400),
    # (fresh-324) libtpu's numbers retold in a run's notes
    ("Compile failed with a VMEM OOM in the splash backward kernel. Scoped allocation of 40.50M exceeded the 32.00M "
     "limit.", "scoped-vmem", 42467328, 33554432),
])
def test_explain29_third(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


def test_explain29_sflag_is_its_own_entry() -> None:
    found = [m.entry.id for m in match("RESOURCE_EXHAUSTED: Ran out of memory in memory space sflag", KB)]
    assert found[:1] == ["tpu/sflag"]


def test_explain29_routine_tpu_report_is_no_failure() -> None:
    # libtpu's INFO report of a compile that fit
    assert not _on_chip(
        "I0320 03:59:34.722540 855 deepsea_compiler_backend.cc:2152] XLA::TPU program VMEM usage: 141.0K / 128.00M\n"
        "I0320 03:59:34.777636 888 deepsea_compiler_backend.cc:2167] Program vmem requirement 141.0K:")


def test_explain29_general_layer_prefers_the_finer_resource() -> None:
    # the general layer's answer for a sentence naming VMEM, then the scoped limit it went past, is scoped VMEM's
    from tilefit.match.cooccur import infer

    found = infer("Compiling on v5p: the kernel's VMEM went past the scoped limit of 16 MiB and compile failed.", KB)
    assert found is not None and found.entry.id == "generic/scoped-vmem-mention"


# explain30: what fresh-336 to 343 taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # XLA's numbers quoted alone in a sweep's notes
    ("block_h=1024 does not compile; the compiler reports size 40.25M and limit 32.00M (vmem_limit_bytes unset).",
     "scoped-vmem", 42205184, 33554432),
    # a request retold with its exact bytes in parentheses
    ("RuntimeError: CUDA error: invalid argument. The fused kernel uses 80KB (64*1024 + 16*1024 + 512 = 82,432 bytes) "
     "of dynamic shared memory, which exceeds the default 48KB limit without cudaFuncSetAttribute.",
     "shared-memory", 82432, 49152),
    # what was observed past an LDS budget
    ("The Triton GEMM overflows on gfx950 after the upgrade: it exceeds the 160 KiB LDS budget (observed 212 KiB).",
     "shared-memory", 217088, 163840),
    # a comparison opening the next sentence
    ("Staging Q and K for head dim 512 in shared memory at block size 64 is 128KB. More than what an RTX 4090 has "
     "(only 99KB per thread block).", "shared-memory", 131072, 101376),
    # a size said to fit is no request; the one marked as failed is
    ("Shared memory overflow fixed by smaller tiles:\n- Now: 24,576 bytes (within 48KB limit)\n"
     "- Before: 65,536 bytes for 128x128 tiles (FAILED)", "shared-memory", 65536, 49152),
    # a launch refused for its registers, with the count per thread
    ("The fused softmax fails at launch due to register requests: I'm getting 168 register per thread with a "
     "(512,1,1) block.", "registers", 168, None),
    # AMD's per-thread register bound by its count, under a tuple of tile extents (no request)
    ("Known failures are marked:\n- skip: (96,64,128), GPU memory fault from an OOB store\n- xfail: (256,256,128) "
     "with the scheduler on,\n  ASM backend exceeds 256 VGPR hardware limit\n", "registers", None, 256),
    # a shared-memory bound in Chinese, after the verb
    ("每个线程块需要的共享内存超过 99KB 时核函数无法启动", "shared-memory", None, 101376),
    # a total of parts, stated as one, read near a later naming of the memory
    ("The limit that matters is shared memory.\nPer block we stage dQ (64KB), K (32KB) and V (32KB). Total is 136KB. "
     "An RTX 3090 block only has 99KB, so the kernel cannot launch.", "shared-memory", 139264, 101376),
    # English words in a Chinese sentence, a sum as the request and a unit right before Chinese characters
    ("如果整个 block 使用的shared memory 空间超过上限，kernel 不会执行。我的显卡 maxSharedMemoryPerBlock = 48KB，"
     "动态+静态 = 52KB所以没有输出。", "shared-memory", 53248, 49152),
    # CUDA's launch error named in quotes, a GPU family after it
    ("Fix the \"too many resources\" errors\n\nThey were only seen on Fermi cards running the NPT integrator.",
     "registers", None, None),
])
def test_explain30(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # OpenCL's out-of-resources from the constant buffer (a validator's words)
    "Error: CL_OUT_OF_RESOURCES in clEnqueueNDRangeKernel: total constant memory size (131072) exceeds device "
    "maximum of 65536",
    # a kernel run on inputs never written, failing where its results are copied back
    "sha512-opencl: CL_OUT_OF_RESOURCES on NVIDIA came from running the kernel on uninitialized inputs; copy all "
    "inputs before enqueueing.",
    # a C++ type error on a TMEM fragment, no shortage
    "Fix TMEM accumulator build error: \"Attempting to dereference a tmem_ptr\" in the epilogue (use a register "
    "fragment instead)",
    # a size printed at error level that is no failure
    "Demote the log: '[K][ERROR] smem_size = 2048' is printed on every call. This is not an error condition; the "
    "allocation is well within GPU limits.",
    # integrated graphics borrowing system memory, in Chinese
    "显卡策略：核显共享内存超出允许的缓冲时，改用 CPU",
])
def test_explain30_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain30: what fresh-344 to 348 taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # Triton's two numbers retold after "Required ... vs", for TMEM's columns
    ("Two-CTA accumulators kept alive: OutOfResources at BLOCK_N=320 (Required 640 vs 512) on the tcgen05 tensor "
     "memory.", "tensor-memory", 640, 512),
    # a bound on a block's size written as a condition on a setting
    ("Declare known_block_size so launches with block_size > 256 no longer hit the AMDGPU default "
     "max_flat_workgroup_size check.", "threads", None, 256),
    # registers "bust" by a fixed block size
    ("Make col2im callable on low-register GPUs.\n\nThe previous fixed 1024 threads would sometimes bust the register "
     "limit.", "registers", None, None),
    # a compute capability by its number as the GPU's context
    ("fix: the reduction is not working on compute 1.3 due to too many resources", "registers", None, None),
    # a bound that is no TPU's VMEM but a TPU's default scoped limit
    ("exp 12: block=4096 hits VMEM OOM (33.5/32 MiB) on v6e; block=1024 is flat.", "scoped-vmem", 35127296,
     33554432),
    # a table's row marked as over a bound
    ("| stages | smem |\n|---|---|\n| 3 | 150 KB | ok |\n| 4 | 200 KB | — | ✗ exceeds 163 KB |\n\nFour stages cannot "
     "be built on the A100.", "shared-memory", 204800, 166912),
    # the request in parentheses after the bound it passed
    ("// d=256 with 3 stages exceeds the 99 KB SMEM limit (118 KB), so use 2 stages", "shared-memory", 120832,
     101376),
    # a GPU's per-block bound by its size alone, in parentheses
    ("Tile 256x128 needs 288 KB at 4 stages (exceeds 227 KB); 2 stages fit.", "shared-memory", 294912, 232448),
    # Korean: a total over a bound named after its size, and CUDA C++'s static arrays by their keyword
    ("// 타일 공유메모리 합계 70,000B는 CUDA 정적 __shared__ 한계 48KB를 초과한다 → 동적 공유메모리로 이식",
     "shared-memory", 70000, 49152),
    ("// head_dim=256이면 64KB 정적 __shared__ 한도를 넘길 수 있어서 동적 방식을 쓴다", "shared-memory", None, 65536),
    # Japanese: a bound after 上限は, a kernel named in Japanese
    ("// 注意! シェアードメモリの上限は32kb = float 8192個分まで\n// スレッド数=要素数でカーネルをディスパッチする",
     "shared-memory", None, 32768),
])
def test_explain30_second(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


def test_explain30_zero_sized_launch_is_no_shortage() -> None:
    # a launch refused because a dynamic size came out zero
    assert not _on_chip("[hip] Skip kernel launch when any workgroup size is zero: fixes hipErrorInvalidConfiguration "
                        "with dynamic shapes whose size is zero.")


# explain30: what fresh-349 to 352 taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # BiShengIR's L1 in the words of its UB overflow, and a request whose line was cut
    ("loc(\"kernel.mlir\":2:3): error: cbuf overflow, requires 5242880 bits while 4194304 bits available!",
     "shared-memory", 655360, 524288),
    ("CI ran the generic kernels on Ascend and failed with `ub overflow, requires 3145728 bits`, the signature the "
     "override avoids.", "shared-memory", 393216, None),
    # an Ascend core's Unified Buffer by its size, the request in parentheses after it
    ("Capped head dim at 64: three fp32 chunks plus scratch overflowed the 192KB UB at head dim 128 (~236KB) on the "
     "Ascend 910B.", "shared-memory", 241664, 196608),
    # a Tenstorrent core's L1 by tt-metal's allocator
    ("Out of Memory: Not enough space to allocate 12582912 B L1 buffer across 64 banks, where each bank needs to store "
     "196608 B", "shared-memory", 12582912, None),
    # a shader model's temporaries by count
    ("fxc /T ps_2_0 fails with \"error X4505: maximum temp register index exceeded\": ps_2_0's 12-temp-register file "
     "is too small for the lighting math.", "registers", None, 12),
    # a TPU core's scalar registers
    ("[paged-attn] Raise the page size: we only have 32 SREGs in the TensorCore, so small pages spill SREGs.",
     "registers", None, 32),
    # ptxas' spills named as the cause
    ("[Mosaic GPU] Drop the 3-tile case: it runs very slowly due to ptxas spills (~20s).", "registers", None, None),
    # a test skipped below the shared memory its config needs, in a diff
    ("     def test_mm(self):\n+    @skipIfSharedMemoryLessThan(\n+        180224,\n+        reason=\"pretuned config "
     "exceeds device shared memory limit\",\n+    )", "shared-memory", 180224, None),
])
def test_explain30_third(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


# explain30: what fresh-354 to 358 taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # a scheduler's TMEM budget line, over a sentence that names SMEM and TMEM together
    ("reduceBuffers left the cache stale, so the greedy SMEM/TMEM loops reported a phantom EXCEEDED (the LIT kernel "
     "showed \"TMEM 393216/262144 EXCEEDED\").", "tensor-memory", 393216, 262144),
    # the columns a tile overflowed (and a condition's value, BLOCK_M>=64, is no request)
    ("- BLOCK_N=128; BLOCK_M=32: BLOCK_M>=64 overflows 512-col TMEM once both dk blocks stay live.", "tensor-memory",
     None, 512),
    # a block's threads as the program computed them, over its launch bounds
    ("The kernel's maximum is 256 threads per block through __launch_bounds__, but for the 40M atom case the number "
     "of threads per block is calculated to be 320, and the code fails.", "threads", 320, 256),
    # what a table does not fit in
    ("Stock build refuses to start on the Mali GPU: \"Shared memory size too small for matrix multiplication.\" It "
     "aborts if any type doesn't fit in 16 KB.", "shared-memory", None, 16384),
])
def test_explain30_fourth(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text)[:1] == [(resource, required, limit)]


def test_explain30_zero_sized_work_group_is_no_shortage() -> None:
    assert not _on_chip("Passing -n 0 sets a work-group of size zero, and clEnqueueNDRangeKernel() returns -54 "
                        "(CL_INVALID_WORK_GROUP_SIZE).")


# explain30: what fresh-353 taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # Triton's compiled kernel's count, near the file it nears
    ("print('n_regs:', k.n_regs)\nn_regs: 253\nn_spills: 24\n\nThe kernel is using almost all 256 registers per thread "
     "and spills 24 of them.", "registers", 253, 256),
    # a bound per thread in Chinese beside CUDA's launch error
    ("实测: NT=16 全部报 \"too many resources requested for launch\" —— 一个 block 1024 线程, 每线程寄存器上限 64 个, "
     "acc[] 提进寄存器就超预算。", "registers", None, 64),
    # the block size named as the one that fails
    ("  const int maxThreads = 1024; // 256 is fine, but 512 does fail with \"too many resources requested for "
     "launch\"", "registers", 512, None),
])
def test_explain30_fifth(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


# explain31: what fresh-359 to 374 taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # an LDS overflow in a release note beside an entry that names an NCCL API (not NCCL's host segments)
    ("Resolved issues\n- Fixed ``ncclCommInitRank`` stall on single-node runs.\n- Fixed LDS overflow in the "
     "all-gather kernel on gfx942.", "shared-memory", None, None),
    # oneDNN's GPU prefix and an Intel GPU by its code name
    ("xe: matmul: fix out of registers exception for large K on BMG", "registers", None, None),
    # CUDA's 701 mistyped in a title
    ("CUDA error: Too many resoruces requested when running on a 2080", "registers", None, None),
    # an old ptxas refusing a launch bound too tight for the kernel
    ("ptxas sieve.ptx, line 0; : fatal error : (C9999) max reg limit too low", "registers", None, None),
    # nvFuser's launch check of a scheduled block
    ("RuntimeError: INTERNAL ASSERT FAILED at \"csrc/runtime/executor_params.cpp\":30. Selected invalid number of "
     "threads for cuda: 2304", "threads", 2304, None),
    # CUDA's own description of the error names the block's shared memory and threads
    ("cudaErrorInvalidConfiguration = 9: a launch that asks for more shared memory per block than the device "
     "supports gets this error, and so does one with too many threads or blocks.", "threads", None, None),
    # a graphics API's bound on a group's invocations by its camel-case name
    ("Texture passes moved to 128-thread groups: the guaranteed minimum (maxComputeWorkGroupInvocations) is 128, and "
     "bigger groups fail on some drivers.", "threads", None, 128),
    # a request and a bound in parentheses, the unit after both
    ("BLOCK_N=256 fails: the tile needs more shared memory than sm86 has (110592 of 101376 bytes).",
     "shared-memory", 110592, 101376),
    # an internal compiler error by its short name, on a Tenstorrent core's vector unit
    ("Register pressure caused an ICE in the SFPU kernel; split the polynomial in two.", "registers", None, None),
    # CUDA.jl's launch check of registers per block, over its check of the threads that comes after it
    ("ERROR: Register pressure exceeds device limit (128 regs/thread * 768 threads/block = 98304 regs/block > "
     "65536 regs/block).\nERROR: Number of threads per block exceeds kernel limit (768 > 512).", "registers", 98304,
     65536),
])
def test_explain31(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text) == [(resource, required, limit)]


def test_explain31_register_file_size() -> None:
    # an Intel kernel's register file as a profiler reports it beside its spill
    assert _first_on_chip("unitrace: the K=64 variant spills 2048 B per thread with register file size 128; the "
                          "K=32 one does not spill.") == [("registers", None, 128)]


@pytest.mark.parametrize("text", [
    # a scheduler's parameter dump: a reduction kernel's heading is no fix
    "===== Reduction Parameters ========\nPersistent Kernel\nLaunch Parameters: BlockDim.x = 64, BlockDim.y = 4, "
    "Smem Size = 0\nCompile Parameters: index_type = int, maxrregcount = 255",
    # an occupancy measured above zero: the kernel ran
    "Each thread of the GPU kernel holds 40 registers and the profiler reports occupancy is 0.625 (5 blocks per SM), "
    "so the register file is the limiter.",
    # AMX's tile registers on a CPU
    "clang -O2 -mamx-tile -mamx-int8 tiles.c\nerror: ran out of registers during register allocation",
    # nvFuser's check of a block of no threads: below every limit
    "Selected invalid number of threads for cuda: 0",
    # AMD's scratch in device memory, against what its OpenCL runtime calls local memory
    "OpenCL runtime: cut the scratch waves so the total scratch buffer size no longer exceeds the available local "
    "memory on the GPU.",
])
def test_explain31_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain31: what fresh-375 to 382 taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # Arm's Mali Offline Compiler report beside a spill
    ("Mali offline compiler on the softmax shader:\nWork registers: 58 (90% used at 50% occupancy)\nStack use: 256 "
     "bytes, the register spills that made it slow", "registers", 58, None),
    # a count in vec4 registers per thread
    ("Depthwise conv on Mali GPUs is slow from register pressure: the 4x4 tile needs (21 vec4 registers per thread), "
     "which spill.", "registers", 21, None),
    # a shader's declared extent as the request
    ("Set `local_size_x = 1024` in the Vulkan shader and it fails on Mali because this exceeds the maximum work-group "
     "invocations.", "threads", 1024, None),
    # a bound per workgroup's invocations
    ("The WebGPU adapter rejects the shader: 512 exceeded the adapter's 256-invocation cap.", "threads", 512, 256),
    # a bound after a GPU's name in parentheses
    ("SM121 (DGX Spark) has 99KB SMEM, which is insufficient for the 128-wide tiles.", "shared-memory", None, 101376),
    # Japanese: a work group's size by its English name with a Japanese noun, and a filter that does not run
    ("RX6800でwork groupサイズのエラーが出るのを修正。", "threads", None, None),
    ("Work group sizeの問題でvpp-denoiseが動作しない問題を修正。", "threads", None, None),
])
def test_explain31_second(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text)[:1] == [(resource, required, limit)]


def test_explain31_shortage_after_over_the() -> None:
    # the shortage fastened to registers ("over the 64K registers-per-block limit"), over a block's threads named
    # earlier in passing
    text = ("Reset the solver's block dim to 32: raising it to 512 drove the linesearch kernels over the 64K "
            "registers-per-block limit.")
    assert [r for r, _, _ in _first_on_chip(text)] == ["registers"]


@pytest.mark.parametrize("text", [
    # a fault an earlier kernel left, reported at the attribute call after it
    "CUDA error: an illegal memory access was encountered\n  current device: 0, in function launch_mmq at "
    "mmq.cuh:4008\n  cudaFuncSetAttribute(mul_mat_q<type, 64, 8, false>, "
    "cudaFuncAttributeMaxDynamicSharedMemorySize, shmem)\nggml-cuda.cu:110: CUDA error",
    # a build that failed on a language rule, whatever the JIT spilled on the way
    "building the prover kernels, PTX JIT spills registers and then fails: initializer not allowed for __shared__ "
    "variable",
    # a local size over the global range, no device bound
    "OpenCL error CL_INVALID_WORK_GROUP_SIZE (-54) during call: clEnqueueNDRangeKernel('moments', dims=2, "
    "globalsize=1x1x1, localsize=1x32x1)\n\nlocal size problem (local > global)",
    # OpenCL's out-of-resources at a 2D copy: the driver, not a kernel's registers
    "OpenCV Error: Gpu API call (CL_OUT_OF_RESOURCES) in openCLMemcpy2D, file cl_operations.cpp, line 214",
    # an Arm CPU's NEON accumulators in a GEMM kernel, in Chinese
    "LoopSz_TILE_8:\n    ld1 {v3..v6},[x11],#64    ; src tile 0..7\n    smmla v12,v3,v8 ... smmla v27,v7,v11\n"
    "* 累加寄存器恰好用满 v12..v27(16 个)。",
])
def test_explain31_second_look_alikes(text: str) -> None:
    assert not _on_chip(text)


# explain32: what fresh-389 to 396 taught, in words of our own
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # a register allocator's bound stated as what is left ("but only N are available"), in a test's expectation
    ("CHECK: error: Failed to allocate AGPR: kernel requires {{[0-9]+}} but only 8 are available", "registers", None,
     8),
    # CUDA's 701 retold as a "launch resource error" in a fix's message
    ("Added launch bounds to fix launch resource error for Lion.\n\n--- a/csrc/kernels.cu\n+++ b/csrc/kernels.cu\n"
     "+__launch_bounds__(1024, 1)", "registers", None, None),
    # a launch's shape by CUDA's sample names is a GPU word ("dimBlock")
    ("The total number of threads cannot exceed 512, so dimBlock.y is now 512 / ncomp.", "threads", None, 512),
    # a GPU's matrix instructions name the GPU ("mma")
    ("Fit mma schedules inside shared memory limits: shrink the schedule if promotion creates allocations which do "
     "not fit shared memory size.", "shared-memory", None, None),
    # OpenCL's qualifier of a kernel's local memory names the GPU
    ("#if (IN_SZ + WEI_SZ) * 4 > MAX_SIZE\n#error \"Local memory size should not exceed the maximum.\"\n#endif\n"
     "    __local float lcl_in[IN_SZ];", "shared-memory", None, None),
    # a block's threads as the request named after the bound (fresh-397, measured on e2a40cf)
    ("cuda/core/_launcher.pyx in cuda.core._launcher.launch()\n\nCUDAError: CUDA_ERROR_INVALID_VALUE: This indicates "
     "that one or more of the parameters passed to the API call is not within an acceptable range of values.\n\nCUDA "
     "cannot launch a block with n threads, because the maximum number of threads in a block is 1024 and we are "
     "requesting 4096 threads.", "threads", 4096, 1024),
])
def test_explain32(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text)[:1] == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # AMDGPU's resource-usage remarks that report no spill at all
    "remark: k.cpp:12:0:     VGPRs: 128 [-Rpass-analysis=kernel-resource-usage]\n"
    "remark: k.cpp:12:0:     VGPRs Spill: 0 [-Rpass-analysis=kernel-resource-usage]\n"
    "remark: k.cpp:12:0:     SGPRs Spill: 0 [-Rpass-analysis=kernel-resource-usage]",
    # the same remarks wrapped and joined again, a count of none before the next line's register count
    "remark: k.cpp:12:0: SGPRs Spill: 0 remark: k.cpp:12:0: VGPRs: 128 remark: k.cpp:12:0: LDS Size [bytes/block]: 0",
    # a Blackwell kernel that exited without releasing its tensor memory: a leak, not a shortage
    "RuntimeError: CUDA error: tensor memory not completely freed\nCUDA kernel errors might be asynchronously "
    "reported at some other API call",
    # a verifier that wants an attribute, not a smaller workgroup
    "gpu kernel: error: requires a workgroup size attribute\nworkgroup_size = [128, 1, 1]",
    # an APU's GTT pool lent to the GPU as "shared memory"
    "On the 780M APU, ROCm reports the GTT/shared-memory pool as device memory (GPU total (12/16)) and ComfyUI "
    "loads too much.",
])
def test_explain32_look_alikes(text: str) -> None:
    assert not _on_chip(text)


@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # a size a footprint went past is the bound (fresh-389, measured on 794d386)
    ("Turning on bounds checks pushes the kernel's smem footprint past 99 KB on consumer cards; halve the tile.",
     "shared-memory", None, 101376),
    # a size a config stays within, the memory named after it; "cant" for "can't"
    ("# BLOCK_K=128 keeps 4 stages within 99KB smem (BLOCK_K=256 cant fit 3 stages)", "shared-memory", None, 101376),
    # a bound in K after "should not exceed", at a sentence's end, in a kernel's own #error
    ("#if (IN_SZ + WEI_SZ) * 4 > LDS_MAX\n#error \"Local memory size should not exceed 32k.\"\n#endif\n"
     "__local float lcl_in[IN_SZ];", "shared-memory", None, 32768),
])
def test_explain32_bounds_in_comments(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text)[:1] == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # a shell's redirect to a file is no comparison, whatever work sizes an autotuner prints after it (fresh-410)
    "$ ./john --test=0 > run-1.txt\nLocal worksize (LWS) 64, Global worksize (GWS) 8192\nDevice 0: GeForce GTX 570",
    # OpenCL's failure to allocate a buffer in device memory, whatever threads the advice names
    "### CL_MEM_OBJECT_ALLOCATION_FAILURE when calling clEnqueue\nThe GPU cannot allocate the buffers your config asks "
    "for: you may run too many threads per GPU, or an intensity that is too high.",
    # an allocator's own CL_OUT_OF_RESOURCES: device memory, not a kernel's registers
    "OpenCL allocator failed with CL_OUT_OF_RESOURCES\nThe driver could not find contiguous virtual memory for the "
    "image buffer.",
])
def test_explain32_allocations_and_redirects(text: str) -> None:
    assert not _on_chip(text)


def test_explain32_quoted_message_with_sizes() -> None:
    # Triton's message quoted in prose with the sizes in parentheses right after it, and a size of a few bytes before
    # it that is part of a size, not the request ("1 byte vs 2 bytes"; fresh-409, measured on 9f2de1f)
    text = ('FP8 values take 1 byte vs 2 bytes for BF16. The BF16 tile fails with "out of resource: shared memory" '
            '(300KB > 228KB limit).')
    assert _first_on_chip(text) == [("shared-memory", 307200, 233472)]


# explain33: what fresh-415 to 422 taught, in words of our own (measured blind on c6b67d1)
@pytest.mark.parametrize(("text", "resource", "required", "limit"), [
    # a bound in K in parentheses after the memory it bounds, "max" before it
    ("Query the opt-in attribute instead of the old property, which only reports the max size of static shared "
     "memory (48k); kernels that use more than that need the dynamic opt-in.", "shared-memory", None, 49152),
    # the block size a kernel could not run at, as its fix names it
    ("Threads per block: the scan kernel cannot be scheduled in 1024-sized blocks on this device.", "threads", 1024,
     None),
    # a miner's work-group size from its command line, refused with -54
    ("clEnqueueNDRangeKernel: CL_INVALID_WORK_GROUP_SIZE (-54)\nI had set --cl-local-work 512; with 256 it starts.",
     "threads", 512, None),
    # a register cap worked out as a fraction is the cap, not the register file; a kernel's wish is its request
    ("ptxas must assume the largest block, which caps it at 65536/1024 = 64 registers per thread; the kernel wants 70 "
     "registers, so it spilled 20 bytes.", "registers", 70, 64),
    # a version's series and an architecture's check are no request and no bound (fresh-423, measured on f7956e8)
    ("/* 7.x, 8.x, 12.x */\n#elif __CUDA_ARCH__ <= 1299\n#  define GPU_KERNEL_MAX_REGISTERS 168\n#endif\n"
     "#if GPU_KERNEL_MAX_REGISTERS > GPU_THREAD_MAX_REGISTERS\n"
     "#  error \"Maximum number of registers per thread exceeded\"",
     "registers", None, None),
    # a size a config fits is the bound when a budget's noun follows it (fresh-436, measured on 9807685)
    ("Adds an sm_120 geometry with num_stages=1 that fits the 99 KB shared-memory budget of consumer Blackwell; the "
     "default geometries need 154-226 KB and fail there.", "shared-memory", None, 101376),
])
def test_explain33(text: str, resource: str, required: int | None, limit: int | None) -> None:
    assert _first_on_chip(text)[:1] == [(resource, required, limit)]


@pytest.mark.parametrize("text", [
    # OpenCL 1.2's rule that the local size divide the global one, told in other words
    "OpenCL error: CL_INVALID_WORK_GROUP_SIZE {:code -54}\nWith OpenCL 1.2 the global size has to be divisible evenly "
    "by the work-group size; 345 by 15 leaves a remainder.",
    # a launch's total over a 32-bit dispatch field: the grid's bound, not a block's
    "raise ValueError('launch needs {} total threads ({} blocks * {} threads per block), but the device takes at most "
    "{} threads ' 'per launch')",
    # a language rule about a __shared__ array's size expression, not its size
    "error: variable length array declaration cannot have static storage duration\n  __shared__ double buf[MAX_THD];\n"
    "// Maximum number of threads in a block.\n#define MAX_THD 1024",
    # a shortage asked about in one sentence, shared memory listed in the next among things checked (Ray's object store
    # failing to map its segment)
    "Could this be due to insufficient GPU memory? I have checked system memory, shared memory, and the ulimits.\n"
    "[2025-09-03 15:32:50,627 C 267234] object_store.cc:32: mmap failed",
    # a number's overflow in a kernel that uses local memory, not the memory's
    "[OpenCL] fix avg pooling overflow with fp16 when using local memory",
    # a simulator's occupancy report on every launch: what bounds blocks per core, nothing over a limit
    "GPGPU-Sim PTX: pushing kernel 'k' to stream 0, gridDim= (1024,1,1) blockDim = (1024,1,1)\n"
    "GPGPU-Sim uArch: CTA/core = 2, limited by: threads shmem regs",
])
def test_explain33_look_alikes(text: str) -> None:
    assert not _on_chip(text)

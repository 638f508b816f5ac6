"""GPU-side entries: each real corpus log lands on the entry of its family, and vendor context is not fooled.

The corpus test checks resources and numbers; this one pins the entry, because the GPU entries refine one
another (Triton -> AMD/Intel/flex/Helion -> Inductor) and a refinement that stops overlapping would silently
fall back to a less specific diagnosis with the wrong fixes.
"""

from __future__ import annotations

from typing import Any

import pytest

from conftest import load_jsonl
from tilefit.kb.repository import load_kb
from tilefit.match.matcher import match

KB = load_kb()

# Corpus URL (after github.com/) -> the one entry that must explain it. Logs whose excerpt carries no vendor
# context (intel#890, intel#1083, sglang#2384: "Hardware limit: 65536" is also a T4) stay on the generic entry.
EXPECTED = {
    "flashinfer-ai/flashinfer/issues/1697": "cuda/too-many-resources-for-launch",
    "sgl-project/sglang/issues/9945": "cuda/too-many-resources-for-launch",
    "pytorch/pytorch/issues/52002": "cuda/too-many-resources-for-launch",
    "Dao-AILab/flash-attention/issues/2750": "cuda/dynamic-smem-exceeds-optin",
    "jax-ml/jax/issues/17320": "cuda/dynamic-smem-exceeds-optin",
    "Dao-AILab/flash-attention/issues/138": "flash-attention/head-dim-smem-gate",
    "ROCm/AMDMIGraphX/pull/4510": "hip/lds-exceeds-limit",
    "pytorch/pytorch/issues/143832": "inductor/flex-attention-shared-memory",
    "NVIDIA/Fuser/issues/163": "nvfuser/shared-memory",
    "openxla/tokamax/pull/1122": "xla-gpu/triton-shared-memory-limit",
    "ByteDance-Seed/Triton-distributed/issues/5": "ptxas/too-much-shared-data",
    "jax-ml/jax/issues/3122": "ptxas/too-much-shared-data",
    "flagos-ai/FlagTree/issues/714": "triton/threads",
    "state-spaces/mamba/issues/438": "triton/shared-memory",
    "intel/intel-xpu-backend-for-triton/issues/1716": "triton/shared-memory-intel-slm",
    "triton-lang/triton/pull/8773": "triton/shared-memory",
    "intel/intel-xpu-backend-for-triton/issues/890": "triton/shared-memory",
    "triton-lang/triton/issues/384": "triton/shared-memory",
    "Yuliang-Liu/MonkeyOCR/issues/25": "triton/shared-memory",
    "intel/intel-xpu-backend-for-triton/issues/1083": "triton/shared-memory",
    "AuleTechnologies/Aule-Attention/issues/7": "triton/shared-memory",
    "sgl-project/sglang/issues/8513": "triton/shared-memory",
    "alipay/PainlessInferenceAcceleration/issues/35": "triton/shared-memory",
    "meta-pytorch/segment-anything-fast/issues/63": "triton/shared-memory",
    "pytorch/helion/issues/470": "helion/shared-memory",
    "pytorch/ao/issues/1065": "inductor/autotune-choice-skipped",
    "Physical-Intelligence/openpi/issues/654": "inductor/autotune-choice-skipped",
    "pytorch/pytorch/issues/139882": "triton/shared-memory-amd-lds",
    "sgl-project/sglang/issues/2384": "triton/shared-memory",
}

TRITON_T4 = (
    "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 81920, "
    "Hardware limit: 65536. Reducing block sizes or `num_stages` may help."
)


def _key(record: dict[str, Any]) -> str:
    return str(record["url"]).split("github.com/")[-1]


def _ids(text: str) -> set[str]:
    return {m.entry.id for m in match(text, KB)}


GPU_RECORDS = [r for r in load_jsonl("real_logs_dev.jsonl") if _key(r) in EXPECTED]


def test_every_gpu_corpus_log_is_routed() -> None:
    assert {_key(r) for r in GPU_RECORDS} == set(EXPECTED)


@pytest.mark.parametrize("record", GPU_RECORDS, ids=[_key(r) for r in GPU_RECORDS])
def test_corpus_log_resolves_to_its_family_entry(record: dict[str, Any]) -> None:
    assert _ids(record["log"]) == {EXPECTED[_key(record)]}


def test_nvidia_collect_env_lines_are_not_vendor_context() -> None:
    # PyTorch's collect_env on a CUDA box names ROCm/HIP as N/A and the host CPU's vendor.
    env = (
        "ROCM used to build PyTorch: N/A\nHIP runtime version: N/A\nMIOpen runtime version: N/A\n"
        "Model name: AMD EPYC 7763 64-Core Processor\nModel name: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz\n"
    )
    assert _ids(env + TRITON_T4) == {"triton/shared-memory"}
    # vLLM's collect_env pads keys and adds XPU.
    vllm_env = (
        "CUDA used to build PyTorch   : 12.9\nROCM used to build PyTorch   : N/A\n"
        "XPU used to build PyTorch    : N/A\nROCM Version: Could not collect\nIs XPU available: False\n"
    )
    assert _ids(vllm_env + TRITON_T4) == {"triton/shared-memory"}


@pytest.mark.parametrize(
    ("context", "entry_id"),
    [
        ("ROCM available: True\nGPU 0: AMD Instinct MI300X\n", "triton/shared-memory-amd-lds"),
        ("torch.xpu.is_available(): True\nIntel(R) Arc(TM) A770 Graphics\n", "triton/shared-memory-intel-slm"),
    ],
)
def test_vendor_context_refines_the_triton_entry(context: str, entry_id: str) -> None:
    assert _ids(context + TRITON_T4) == {entry_id}


@pytest.mark.parametrize(
    ("limit", "entry_id"),
    [("163840", "triton/shared-memory-amd-lds"), ("131072", "triton/shared-memory-intel-slm")],
)
def test_a_limit_unique_to_one_vendor_needs_no_context(limit: str, entry_id: str) -> None:
    text = f"out of resource: shared memory, Required: 196608, Hardware limit: {limit}."
    assert _ids(text) == {entry_id}


def test_no_valid_configs_is_fatal_unless_the_choice_is_ignored() -> None:
    line = (
        "No valid triton configs. OutOfResources: out of resource: shared memory, Required: 131072, "
        "Hardware limit: 101376. Reducing block sizes or `num_stages` may help.."
    )
    assert _ids(f"torch._inductor.exc.InductorError: RuntimeError: {line}") == {"inductor/no-valid-triton-configs"}
    assert _ids(f"{line} \nIgnoring this choice.") == {"inductor/autotune-choice-skipped"}

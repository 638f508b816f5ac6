"""The analytic shared-memory formula and its TTIR reader, on hand-built models: no compiler needed."""

from __future__ import annotations

from tilefit.estimate.triton_analytic import AnalyticModel, Dot, Operand, parse_dots
from tilefit.targets import get_target

PROBE = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "num_stages": 3}
A = Operand(((128, ("BLOCK_M",)), (64, ("BLOCK_K",))), 2, "pipelined")
B = Operand(((64, ("BLOCK_K",)), (128, ("BLOCK_N",))), 2, "pipelined")
MATMUL = AnalyticModel((Dot(A, B, in_loop=True),), PROBE)


def test_matmul_per_target_family() -> None:
    # The same counts the compiler gives (tests/compile checks them against `fast`).
    assert MATMUL.shared_bytes(PROBE, get_target("sm_90")) == 98304  # 3 x 32 KiB
    assert MATMUL.shared_bytes(PROBE, get_target("sm_86")) == 65536  # (3 - 1) x 32 KiB
    assert MATMUL.shared_bytes(PROBE, get_target("sm_120")) == 65536
    assert MATMUL.shared_bytes(PROBE, get_target("gfx942")) == 65536
    assert MATMUL.shared_bytes({**PROBE, "num_stages": 1}, get_target("sm_86")) == 32768


def test_dims_scale_with_their_constexprs() -> None:
    big = {**PROBE, "BLOCK_M": 256, "BLOCK_N": 256, "num_stages": 4}
    assert MATMUL.shared_bytes(big, get_target("sm_90")) == 4 * (256 * 64 + 64 * 256) * 2
    # num_stages missing: Triton's defaults, 3 on CUDA and 2 on HIP.
    default = {k: v for k, v in PROBE.items() if k != "num_stages"}
    assert MATMUL.shared_bytes(default, get_target("gfx942")) == 32768


def test_resident_and_register_operands() -> None:
    q = Operand(((128, ("BLOCK_M",)), (64, ())), 2, "resident")
    k = Operand(((64, ()), (64, ("BLOCK_N",))), 2, "pipelined")
    p = Operand(((128, ("BLOCK_M",)), (64, ("BLOCK_N",))), 2, "register")
    v = Operand(((64, ("BLOCK_N",)), (64, ())), 2, "pipelined")
    attn = AnalyticModel((Dot(q, k, True), Dot(p, v, True)), {"BLOCK_M": 128, "BLOCK_N": 64})
    cfg = {"BLOCK_M": 128, "BLOCK_N": 64, "num_stages": 3}
    assert attn.shared_bytes(cfg, get_target("sm_90")) == 16384 + 3 * (8192 + 8192)


def test_reduction_scratch_is_one_word_per_warp() -> None:
    softmax = AnalyticModel((), {"BLOCK_SIZE": 1024}, reduces=True)
    assert softmax.shared_bytes({"BLOCK_SIZE": 1024, "num_warps": 8}, get_target("sm_90")) == 32


TTIR = """
    %q = tt.load %q_ptrs : tensor<128x64x!tt.ptr<f16>>
    %acc:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (tensor<128x64xf32>) : i32 {
      %k = tt.load %k_ptrs : tensor<64x32x!tt.ptr<f16>>
      %qk = tt.dot %q, %k, %z, inputPrecision = tf32 : tensor<128x64xf16> * tensor<64x32xf16> -> tensor<128x32xf32>
      %p = arith.truncf %qk : tensor<128x32xf32> to tensor<128x32xf16>
      %v = tt.load %v_ptrs : tensor<32x64x!tt.ptr<f16>>
      %o = tt.dot %p, %v, %a, inputPrecision = tf32 : tensor<128x32xf16> * tensor<32x64xf16> -> tensor<128x64xf32>
      scf.yield %o : tensor<128x64xf32>
    } loc(#loc1)
"""


def test_parse_dots_reads_shapes_and_operand_origins() -> None:
    dots = parse_dots(TTIR)
    assert [d.in_loop for d in dots] == [True, True]
    assert dots[0].operands[0] == ((128, 64), 2, "resident")
    assert dots[0].operands[1] == ((64, 32), 2, "pipelined")
    # truncf of a dot result is computed in registers, not loaded.
    assert dots[1].operands[0][2] == "register"
    assert dots[1].operands[1] == ((32, 64), 2, "pipelined")


def test_a_single_warp_reduces_without_shared_memory() -> None:
    softmax = AnalyticModel((), {"BLOCK_SIZE": 1024}, reduces=True)
    assert softmax.shared_bytes({"BLOCK_SIZE": 1024, "num_warps": 1}, get_target("sm_90")) == 0


def test_hardware_behaviour_comes_from_the_targets_data() -> None:
    from tilefit.estimate.triton_analytic import default_stages, hopper_like
    from tilefit.targets import get_target

    assert [t for t in ("sm_80", "sm_89", "sm_90", "sm_100", "sm_103", "sm_120", "gfx942")
            if hopper_like(get_target(t))] == ["sm_90", "sm_100", "sm_103"]
    assert (default_stages(get_target("sm_90")), default_stages(get_target("gfx942"))) == (3, 2)
    assert get_target("sm_90").limit("triton_tensor_memory_columns") == 512

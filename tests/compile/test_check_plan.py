"""make_ttgir recorded as a pass plan (estimate/triton_compile.py): what `tilefit check` shares between compiles.

The byte-for-byte proof on SGLang's bundle is the slow test in test_check_sglang.py; these check the plan
itself on Triton's installed backends, and one kernel replayed through a split plan.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("triton", reason="the compile tier needs triton")

from tilefit.check import compiles as worker
from tilefit.estimate import triton_compile as tc

pytestmark = pytest.mark.compile


def _plan(target: str, **options: Any) -> tc.Plan:
    backend, parsed = worker._parsed(worker._gpu(target), {"num_warps": 4, "num_stages": 3, **options})
    return tc.ttgir_plan(backend, parsed)


@pytest.mark.parametrize("target", ["sm_80", "sm_90", "sm_120", "gfx942"])
def test_the_prefix_before_num_stages_is_shared(target: str) -> None:
    three, four = _plan(target), _plan(target, num_stages=4)
    prefix, rest = tc.split_plan(three, four)
    assert three != four and prefix == tc.split_plan(four, three)[0] and prefix + rest[2:] == three
    assert rest[:2] == (("pm",), ("debug",)) and len(prefix) > 10
    assert not any(3 in e[2] for e in prefix if e[0] == "add")  # no pass of the prefix takes num_stages
    assert ("add", "passes.ttir.add_convert_to_ttgpuir", (tc_arch(target), 4, 64 if target == "gfx942" else 32, 1)) \
        in prefix


def tc_arch(target: str) -> str:
    return "hip:gfx942" if target == "gfx942" else f"cuda:{target[3:]}"


def test_options_no_pass_reads_leave_the_plan_alone_and_others_cannot_be_recorded() -> None:
    assert _plan("sm_90", launch_pdl=True) == _plan("sm_90")
    assert _plan("sm_90", num_warps=8) != _plan("sm_90")
    with pytest.raises(tc.NotRecordable):  # maxnreg sets a module attribute before the passes
        _plan("sm_90", maxnreg=128)


def test_a_split_plan_gives_the_bytes_of_the_stage(tmp_path: Any) -> None:
    """A pipelined matmul (the Triton tutorial's loop) on sm_90 and gfx942 at num_stages 2..4: the prefix run
    once and each rest on a copy give what make_ttgir gives."""
    import triton
    import triton.language as tl

    src = tmp_path / "mm.py"
    src.write_text(_MATMUL)
    from tilefit.estimate.triton_kernel import unwrap_kernel
    from tilefit.userfile import load_module_file

    kernel = unwrap_kernel(load_module_file(src).matmul)
    assert triton and tl
    for target in ("sm_90", "gfx942"):
        gpu = worker._gpu(target)
        args = {"a": "*bf16", "b": "*bf16", "c": "*bf16", "K": "i32"}
        aligned = {(i,): [["tt.divisibility", 16]] for i in range(4)}  # what the JIT gives 16-byte aligned args
        sp3 = tc.Specialised(args, {(4,): 64, (5,): 64, (6,): 32}, aligned, {"num_warps": 4, "num_stages": 3})
        ttir = str(tc.lower(kernel, gpu, sp3, last="ttir")[0])
        compiles = []
        for stages in (2, 3, 4):
            sp = tc.Specialised(args, sp3.constexprs, aligned, {"num_warps": 4, "num_stages": stages})
            backend, options = worker._parsed(gpu, sp.options)
            other = worker._parsed(gpu, {**sp.options, "num_stages": stages + 1})[1]
            plan = tc.ttgir_plan(backend, options)
            compiles.append(worker._Compile(ttir, gpu, sp, plan, tc.split_plan(plan, tc.ttgir_plan(backend, other))[0]))
        split = worker._split(compiles)
        assert split is not None
        direct = [worker._direct(c) for c in compiles]
        assert [s.sizes for s in split] == [d.sizes for d in direct]
        assert len({d.sizes for d in direct}) == 3  # num_stages changes the bytes: the rest is really replayed


_MATMUL = '''
import triton
import triton.language as tl


@triton.jit
def matmul(a, b, c, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        y = tl.load(b + (k + rk)[:, None] * BN + rn[None, :])
        acc += tl.dot(x, y)
    tl.store(c + rm[:, None] * BN + rn[None, :], acc.to(tl.bfloat16))
'''

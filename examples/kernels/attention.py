"""Fused attention forward, flash-attention style (online softmax over K/V blocks; pointer loads).

Q stays resident; K and V tiles are pipelined over num_stages buffers, so shared memory grows with
BLOCK_N x HEAD_DIM x num_stages. Ask the compiler for the exact number:

    tilefit estimate examples/kernels/attention.py:attention_fwd --spec examples/kernels/attention.yaml
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def attention_fwd(
    q_ptr, k_ptr, v_ptr, o_ptr,
    stride_qm, stride_kn, stride_vn, stride_om,
    seq_len, sm_scale,
    HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr,
):
    start_m = tl.program_id(0)
    off_bh = tl.program_id(1).to(tl.int64) * seq_len
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q_ptrs = q_ptr + (off_bh + offs_m[:, None]) * stride_qm + offs_d[None, :]
    q = tl.load(q_ptrs, mask=offs_m[:, None] < seq_len, other=0.0)

    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # 1/ln(2): exp2 below
    hi = tl.minimum((start_m + 1) * BLOCK_M, seq_len) if CAUSAL else seq_len
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(k_ptr + (off_bh + cols[None, :]) * stride_kn + offs_d[:, None],
                    mask=cols[None, :] < seq_len, other=0.0)
        qk = tl.dot(q, k) * qk_scale
        if CAUSAL:
            qk = tl.where(offs_m[:, None] >= cols[None, :], qk, float("-inf"))
        qk = tl.where(cols[None, :] < seq_len, qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptr + (off_bh + cols[:, None]) * stride_vn + offs_d[None, :],
                    mask=cols[:, None] < seq_len, other=0.0)
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    o_ptrs = o_ptr + (off_bh + offs_m[:, None]) * stride_om + offs_d[None, :]
    tl.store(o_ptrs, acc.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < seq_len)

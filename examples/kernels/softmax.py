"""Row-wise softmax and layer norm: one program per row, the whole row in one block.

Shared memory here is reduction scratch (cross-warp max/sum), not pipelined tiles: small, but it
grows with num_warps and the row block. Ask the compiler for the exact number:

    tilefit estimate examples/kernels/softmax.py:softmax_kernel --spec examples/kernels/softmax.yaml
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK_SIZE)
    x = tl.load(in_ptr + row * in_row_stride + offs, mask=offs < n_cols, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_row_stride + offs, y.to(out_ptr.dtype.element_ty), mask=offs < n_cols)


@triton.jit
def layernorm_kernel(x_ptr, y_ptr, w_ptr, b_ptr, row_stride, n_cols, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK_SIZE)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * row_stride + offs, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    diff = tl.where(mask, x - mean, 0.0)
    rstd = 1 / tl.sqrt(tl.sum(diff * diff, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    y = diff * rstd * w + b
    tl.store(y_ptr + row * row_stride + offs, y.to(y_ptr.dtype.element_ty), mask=mask)

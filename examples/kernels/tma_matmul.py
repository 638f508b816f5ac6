"""C = A @ B with TMA descriptors (Hopper/Blackwell), host-side and device-side, as in Triton's tutorials.

Host: the caller builds `triton.tools.tensor_descriptor.TensorDescriptor.from_tensor(a, [BLOCK_M, BLOCK_K])`
and passes it; Triton types it `tensordesc<fp16[BLOCK_M, BLOCK_K]>`. Device: the kernel builds its own
descriptors with `tl.make_tensor_descriptor`, which needs a global scratch allocator at launch
(`triton.set_allocator`). Shared memory is the pipelined A and B tiles, as for pointer loads.

    tilefit estimate examples/kernels/tma_matmul.py:tma_matmul_kernel --spec examples/kernels/tma_matmul.yaml
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def tma_matmul_kernel(a_desc, b_desc, c_desc, M, N, K,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    offs_m = (pid // num_pid_n) * BLOCK_M
    offs_n = (pid % num_pid_n) * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([offs_m, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, offs_n])
        acc = tl.dot(a, b, acc)
    c_desc.store([offs_m, offs_n], acc.to(c_desc.dtype))


@triton.jit
def device_tma_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    pid = tl.program_id(axis=0)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    offs_m = (pid // num_pid_n) * BLOCK_M
    offs_n = (pid % num_pid_n) * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([offs_m, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, offs_n])
        acc = tl.dot(a, b, acc)
    c_desc.store([offs_m, offs_n], acc.to(c_ptr.dtype.element_ty))

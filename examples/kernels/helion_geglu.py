"""The seed kernel of Helion issue #470 (GEGLU MLP, fp32), written for current Helion.

`hl.register_reduction_dim` is gone: the intermediate dimension is taken at its full size (the
`[tile_t, i]` accumulators), which is exactly what overflows shared memory. With Helion's default
config (block_sizes [32, 32] on 1.5.1, or [16, 16] with num_stages=3 in the issue) the kernel needs
266240 B or 526336 B of shared memory on sm_90 (limit 232448 B) and dies at launch with
OutOfResources; `tilefit.integrations.helion.fitting_config` finds [16, 16] / num_stages=1 (132096 B).

Small problem: T=100, H=512, I=1524 (the issue's). Large: H=4096, I=11008 (the LLaMA MLP the issue
names), where no config can fit: the [tile_t, 16384] fp32 accumulators alone are 64 KiB per row.
"""

from __future__ import annotations

import math

import helion
import helion.language as hl
import torch

SMALL = {"T": 100, "H": 512, "I": 1524}
LARGE = {"T": 100, "H": 4096, "I": 11008}

# tanh form of GELU: 0.5 * a * (1 + tanh(sqrt(2 / pi) * (a + 0.044715 * a^3)))
_K_BETA = math.sqrt(2.0) * (2.0 / math.sqrt(math.pi)) * 0.5


def _geglu_body(
    x: torch.Tensor, gate_proj: torch.Tensor, up_proj: torch.Tensor, down_proj: torch.Tensor
) -> torch.Tensor:
    t, h = x.size()
    h1, i = gate_proj.size()
    i = hl.specialize(i)
    assert h == h1 and up_proj.size(1) == i and down_proj.size(0) == i
    temp = torch.empty([t, i], device=x.device, dtype=torch.float32)
    for tile_t in hl.tile(t):
        acc = hl.zeros([tile_t, i], dtype=torch.float32)
        ccc = hl.zeros([tile_t, i], dtype=torch.float32)
        for tile_h in hl.tile(h):
            x_tile = x[tile_t, tile_h]
            acc = acc + torch.matmul(x_tile, gate_proj[tile_h, :])
            ccc = ccc + torch.matmul(x_tile, up_proj[tile_h, :])
        gelu = 0.5 * acc * (1.0 + torch.tanh(_K_BETA * (acc + 0.044715 * acc * acc * acc)))
        temp[tile_t, :] = gelu * ccc
    return torch.matmul(temp, down_proj)


def make_kernel(**settings: object) -> helion.Kernel[torch.Tensor]:
    """The seed kernel with Helion settings (e.g. autotune_effort="none", autotune_config_filter=f)."""
    defaults: dict[str, object] = {
        "autotune_effort": "none",
        "ignore_warnings": [helion.exc.TensorOperationInWrapper],
    }
    return helion.kernel(**{**defaults, **settings})(_geglu_body)  # type: ignore[no-any-return]


geglu_mlp = make_kernel()


def make_args(
    T: int, H: int, I: int, device: str = "cpu", seed: int = 0  # noqa: E741
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """x [T, H], gate_proj [H, I], up_proj [H, I], down_proj [I, H], fp32, scaled to keep tanh sane."""
    g = torch.Generator().manual_seed(seed)
    scale = 1.0 / math.sqrt(H)
    x = torch.randn(T, H, generator=g)
    gate = torch.randn(H, I, generator=g) * scale
    up = torch.randn(H, I, generator=g) * scale
    down = torch.randn(I, H, generator=g) / math.sqrt(I)
    return tuple(t.to(device) for t in (x, gate, up, down))  # type: ignore[return-value]


def reference(
    x: torch.Tensor, gate_proj: torch.Tensor, up_proj: torch.Tensor, down_proj: torch.Tensor
) -> torch.Tensor:
    """The issue's LlamaMLP.forward_instances in torch."""
    a = torch.nn.functional.gelu(x @ gate_proj, approximate="tanh")
    return (a * (x @ up_proj)) @ down_proj

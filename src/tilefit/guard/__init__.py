"""Keep kernels from dying of on-chip overflows: a sandboxed compile and a launch-time fallback.

`guard(kernel)` wraps a Triton or Helion kernel; `fitting_configs(...)` is the seam any autotuner can call
to drop the configs of a space that cannot fit the device (guard/decide.py holds the one policy).
"""

from __future__ import annotations

from tilefit.guard.decide import Decision, DeviceInfo, fitting_configs, specialisation_key
from tilefit.guard.fallback import GuardedHelion, GuardedKernel, guard
from tilefit.guard.sandbox import Outcome, Sandbox, SandboxEstimator

__all__ = [
    "Decision", "DeviceInfo", "GuardedHelion", "GuardedKernel", "Outcome", "Sandbox", "SandboxEstimator",
    "fitting_configs", "guard", "specialisation_key",
]

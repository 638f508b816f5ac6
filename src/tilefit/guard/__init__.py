"""Keep kernels from dying of on-chip overflows: a sandboxed compile and a launch-time fallback."""

from __future__ import annotations

from tilefit.guard.fallback import DeviceInfo, GuardedHelion, GuardedKernel, guard
from tilefit.guard.sandbox import Outcome, Sandbox, SandboxEstimator

__all__ = ["DeviceInfo", "GuardedHelion", "GuardedKernel", "Outcome", "Sandbox", "SandboxEstimator", "guard"]

"""Size with the Triton version users deploy: a cached virtual environment per version, made on demand.

Shared memory changes between Triton versions (pipelining and layout passes move), so a check sizes
with the version the trace was recorded with, or the one named by --triton. When that is not the
installed one, `ensure` creates `<cache>/triton-envs/<version>` (python -m venv, pip install
triton==<version> pyyaml), once, and `run_in` re-runs the same tilefit command with that interpreter
(tilefit itself comes from this process's source tree through PYTHONPATH). A failed install removes the
half-made environment and says why in one line.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from tilefit.errors import InputError

ENV_MARK = "TILEFIT_PROVISIONED_TRITON"  # set in the re-run, so it never provisions again
_VERSION = re.compile(r"^\d+\.\d+(\.\d+)?([a-z0-9.+-]*)$")


def installed_triton() -> str | None:
    """The installed Triton's version, or None."""
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("triton")
    except PackageNotFoundError:
        return None


def ensure(version: str, cache_dir: Path, timeout_s: float = 1800.0) -> Path:
    """The python of a cached environment holding triton==version (created when missing)."""
    if not _VERSION.match(version):
        raise InputError(f"--triton {version!r} is not a version number (e.g. 3.6.0)")
    env = cache_dir / "triton-envs" / version
    python = env / "bin" / "python"
    if (env / ".ready").is_file() and python.is_file():
        return python
    shutil.rmtree(env, ignore_errors=True)
    try:
        _run([sys.executable, "-m", "venv", str(env)], timeout_s)
        _run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
              f"triton=={version}", "pyyaml"], timeout_s)
    except BaseException as exc:  # Ctrl-C too: never leave a half-made environment that looks usable
        shutil.rmtree(env, ignore_errors=True)
        if isinstance(exc, InputError):
            raise InputError(f"could not provision triton {version} in {env}: {exc}; to size with the installed "
                             f"triton instead, pass --triton installed") from None
        raise
    (env / ".ready").write_text(version + "\n")
    return python


def _run(cmd: Sequence[str], timeout_s: float) -> None:
    try:
        done = subprocess.run(list(cmd), capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        raise InputError(f"{cmd[0]} ran past {timeout_s:g} s") from None
    except OSError as exc:
        raise InputError(f"{cmd[0]}: {exc.strerror}") from None
    if done.returncode != 0:
        tail = [ln for ln in (done.stderr or done.stdout).splitlines() if ln.strip()][-1:] or ["no output"]
        raise InputError(f"{' '.join(cmd[2:4])} failed ({tail[0][:200]})")


def run_in(python: Path, argv: Sequence[str], version: str) -> int:
    """Run `tilefit *argv` with another interpreter; its exit code."""
    src = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, ENV_MARK: version,
           "PYTHONPATH": os.pathsep.join(filter(None, [src, os.environ.get("PYTHONPATH", "")]))}
    return subprocess.run([str(python), "-m", "tilefit", *argv], env=env).returncode

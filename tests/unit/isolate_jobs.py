"""Misbehaving jobs for tests/unit/test_isolate.py, imported by name in the isolated children."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from typing import Any


def hang_with_grandchild(marker: str) -> None:
    """Start a long-running grandchild in this process group (as triton starts ptxas), then hang."""
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", marker])
    time.sleep(120)


def abort_out_of_memory(_: Any) -> None:
    """What LLVM does when an allocation fails: print, then abort()."""
    sys.stderr.write("LLVM ERROR: out of memory\nAllocation failed\n")
    sys.stderr.flush()
    os.abort()


def allocate(mb: int) -> int:
    return len(bytearray(mb * 1024 * 1024))


def spam_stderr(mb: int) -> None:
    """Print `mb` MB to stderr, then fail (so that the outcome carries the stderr tail)."""
    chunk = "x" * (1024 * 1024 - 1) + "\n"
    for _ in range(mb):
        sys.stderr.write(chunk)
    sys.stderr.write("the last line\n")
    raise ValueError("spammed")


def unpicklable(_: Any) -> Any:
    return lambda: 1


def system_exit(_: Any) -> None:
    raise SystemExit(0)


def forge_frame(size: int) -> None:
    """Write a frame header announcing `size` bytes and some garbage on the result pipe, then exit."""
    for fd in range(3, 64):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode) and os.get_blocking(fd) and _writable(fd):
                os.write(fd, size.to_bytes(8, "big") + b"\x80\x04garbage-not-a-pickle")
        except OSError:
            continue
    os._exit(0)


def _writable(fd: int) -> bool:
    import fcntl

    return fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY

"""libtpu's own account of a kernel's scoped VMEM, read from the VMEM report a compile writes.

With `--xla_jf_dump_to=DIR` in `LIBTPU_INIT_ARGS` (read once, when libtpu starts), every successful
compile writes `<id>-TLP-00-vmem_report.html` ("VMEM Usage Breakdown"): for each HLO op of the program,
its scoped VMEM blocks with their allocations ("input window allocation for operator input 4 ... This
allocation has 2 buffering levels", "scratch operand", "internal scratch", "SPILL") and the block's
size. For a Pallas kernel that size is the scoped VMEM the kernel needs: libtpu 0.0.42.1, v5e, megablox
gmm with 512^3 tiles reports 4820992 B (1 MiB f32 accumulator + 3 x 1 MiB double-buffered windows +
626688 B of spilled vregs), and E1001 at a lower limit prints "size 4.60M". `--xla_jf_dump_llo_pass_label_regex=^$`
keeps the dump to the report and the HLO text (two files a compile; the LLO passes are not written).

A failed compile writes no report, so exact mode compiles where the kernel fits (at the limit in force,
else at physical VMEM) and reads the size there: one compile gives the size, a second confirms it
(pallas_compile.measure). Without a report (libtpu started before tilefit set the flag, or a libtpu
that does not write one) exact mode falls back to reading E1001's printed sizes.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import tempfile
from pathlib import Path

DUMP_FLAG = "--xla_jf_dump_to"
_QUIET_PASSES = "--xla_jf_dump_llo_pass_label_regex=^$"
_MARK = "const DATA ="
_dump_dir: Path | None = None


@dataclasses.dataclass(frozen=True)
class ScopedReport:
    """The scoped VMEM libtpu allocated for the program's largest Pallas kernel, with its allocations."""

    op: str
    bytes: int
    allocations: tuple[tuple[str, int], ...]  # (tag, bytes), in libtpu's order

    def spill_bytes(self) -> int:
        """Bytes of spilled vector registers (values too big for the register file)."""
        return sum(size for tag, size in self.allocations if tag == "SPILL")


def enable() -> Path | None:
    """Ask libtpu (not yet started) to write VMEM reports into a private directory; None if the user dumps.

    Appends to `LIBTPU_INIT_ARGS` so the user's own flags stay. The directory is removed when the
    process exits; each report is deleted once read (a process that goes on to run a real TPU writes two
    small files a compile there). `TILEFIT_LIBTPU_REPORT=0` turns it off: exact mode then reads E1001.
    """
    global _dump_dir
    if _dump_dir is not None:
        return _dump_dir
    current = os.environ.get("LIBTPU_INIT_ARGS", "")
    if DUMP_FLAG in current or os.environ.get("TILEFIT_LIBTPU_REPORT") == "0":
        return None  # the user dumps somewhere already (their setting stays), or asked for no reports
    path = Path(tempfile.mkdtemp(prefix="tilefit-libtpu-"))
    os.environ["LIBTPU_INIT_ARGS"] = f"{current} {DUMP_FLAG}={path} {_QUIET_PASSES}".strip()
    import atexit

    atexit.register(shutil.rmtree, path, ignore_errors=True)
    _dump_dir = path
    return path


def active() -> bool:
    """Whether tilefit asked libtpu for VMEM reports (it may still have started without them)."""
    return _dump_dir is not None


def clear() -> None:
    """Drop whatever an earlier compile left (a failed compile writes its HLO text but no report)."""
    if _dump_dir is not None and _dump_dir.is_dir():
        for f in _dump_dir.iterdir():
            f.unlink(missing_ok=True)


def take() -> ScopedReport | None:
    """The report of the compile that just finished (None when there is none); the dump is emptied."""
    if _dump_dir is None or not _dump_dir.is_dir():
        return None
    reports = sorted(_dump_dir.glob("*vmem_report.html"), key=lambda f: f.stat().st_mtime)
    try:
        return parse(reports[-1].read_text(encoding="utf-8", errors="replace")) if reports else None
    finally:
        clear()


def parse(html: str) -> ScopedReport | None:
    """The largest Pallas kernel's scoped block in a vmem_report.html (None: no kernel or no data)."""
    start = html.find(_MARK)
    if start < 0:
        return None
    at = start + len(_MARK)
    while at < len(html) and html[at].isspace():
        at += 1
    try:
        data, _ = json.JSONDecoder().raw_decode(html, at)
    except ValueError:
        return None
    ops = data.get("hlo_breakdowns") if isinstance(data, dict) else None
    if not isinstance(ops, dict):
        return None
    found = [r for name, op in ops.items() if (r := _scoped(name, op)) is not None]
    kernels = [r for r, is_pallas in found if is_pallas]
    pool = kernels or [r for r, _ in found]
    return max(pool, key=lambda r: r.bytes, default=None)


def _scoped(name: str, op: object) -> tuple[ScopedReport, bool] | None:
    if not isinstance(op, dict):
        return None
    blocks = [b for b in op.get("blocks", ()) if isinstance(b, dict) and b.get("block_type") == "SCOPED"]
    if not blocks:
        return None
    total = sum(int(b.get("block_size", 0)) for b in blocks)
    allocs = tuple((str(a.get("tag", "")), int(a.get("size", 0)))
                   for b in blocks for a in b.get("allocations", ()) if isinstance(a, dict))
    return ScopedReport(name, total, allocs), "pallas_call" in str(op.get("metadata", ""))

"""Reading what people paste: any size in bounded memory, UTF-8/UTF-16/UTF-32, ANSI colour, CR-only lines.

A source becomes an iterator of text pieces, each ending at a line break where one is near. Bytes are
decoded incrementally (a character split across two reads survives), colour codes are removed (they can sit
inside a message: "out of resource: \\x1b[1mshared memory\\x1b[0m") and every line ending becomes "\\n"
(progress bars print "\\r" alone, PowerShell and Windows "\\r\\n").
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Iterator
from typing import BinaryIO

from tilefit.errors import InputError

# Printable share below which input is called binary, measured on its first 64 KiB.
_BINARY_SHARE = 0.85
PROBE = 65536
BLOCK = 1 << 20
# CSI (colour, cursor), OSC (titles, hyperlinks) and two-character escapes.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_CR = re.compile(r"\r\n?")
# How much of a piece's end is held back when it has no line break (an escape or "\r\n" may be cut there).
_HOLD = 64


def _encoding(head: bytes) -> tuple[str, int]:
    """The codec for a log and the length of its byte-order mark."""
    for bom, codec in ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
                       (codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                       (codecs.BOM_UTF16_BE, "utf-16-be")):
        if head.startswith(bom):
            return codec, len(bom)
    sample = head[:4096]
    if len(sample) >= 8:
        even, odd = sample[0::2].count(0), sample[1::2].count(0)
        half = len(sample) // 2
        # UTF-16 without a mark: ASCII text has a NUL in every other byte.
        if odd > 0.4 * half and even < 0.05 * half:
            return "utf-16-le", 0
        if even > 0.4 * half and odd < 0.05 * half:
            return "utf-16-be", 0
    return "utf-8", 0


def _looks_binary(text: str) -> bool:
    if not text:
        return False
    if "\x00" in text[:8192]:
        return True
    printable = sum(1 for ch in text if ch.isprintable() or ch in "\n\r\t\x1b")
    return printable / len(text) < _BINARY_SHARE


def clean(text: str) -> str:
    """Remove ANSI escapes and turn every line ending into '\\n'."""
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if "\r" in text:
        text = _CR.sub("\n", text)
    return text


def _split(pending: str) -> tuple[str, str]:
    """(ready, held): ready ends at a line break where possible, so cleaning never cuts an escape."""
    cut = pending.rfind("\n")
    if cut < 0 or len(pending) - cut > BLOCK:
        cut = max(0, len(pending) - _HOLD) - 1
    if pending[cut:cut + 1] == "\r":
        cut -= 1
    return pending[: cut + 1], pending[cut + 1:]


def _limit_error(size: int | None, limit: int) -> InputError:
    has = f"has {size} bytes" if size is not None else f"is larger than {limit} bytes"
    return InputError(f"input {has}; the limit is {limit} (TILEFIT_MAX_INPUT_BYTES)")


def decode_blocks(blocks: Iterable[bytes], *, max_bytes: int) -> Iterator[str]:
    """Decode raw blocks into clean text pieces; binary, empty or oversized input raises InputError."""
    it = iter(blocks)
    head, total = b"", 0
    for block in it:
        head += block
        if len(head) >= PROBE:
            break
    codec, bom = _encoding(head)
    decoder = codecs.getincrementaldecoder(codec)(errors="replace")
    probe = decoder.decode(head[bom:])
    if _looks_binary(probe[:PROBE]):
        raise InputError("input is not text (it looks binary); pass the error log as text")
    total, seen, pending = len(head), False, probe
    if total > max_bytes:
        raise _limit_error(None, max_bytes)
    for block in it:
        total += len(block)
        if total > max_bytes:
            raise _limit_error(None, max_bytes)
        pending += decoder.decode(block)
        ready, pending = _split(pending)
        seen = seen or (not ready.isspace() and bool(ready))
        yield clean(ready)
    ready = pending + decoder.decode(b"", final=True)
    seen = seen or bool(ready.strip())
    if not seen:
        raise InputError("input is empty; pass an error log (a file, '-' for stdin, or text)")
    yield clean(ready)


def text_pieces(text: str, *, max_bytes: int) -> Iterator[str]:
    """Clean pieces of an in-memory log (a str); empty or oversized input raises InputError."""
    if len(text) > max_bytes:
        raise InputError(f"input has {len(text)} characters; the limit is {max_bytes} (TILEFIT_MAX_INPUT_BYTES)")
    if not text.strip():
        raise InputError("input is empty; pass an error log (a file, '-' for stdin, or text)")
    if text.startswith("\ufeff"):
        text = text[1:]
    start = 0
    while start < len(text):
        end = min(len(text), start + BLOCK)
        if end < len(text):
            nl = text.rfind("\n", start, end)
            end = nl + 1 if nl > start else end
        yield clean(text[start:end])
        start = end


def byte_pieces(data: bytes, *, max_bytes: int) -> Iterator[str]:
    """Clean pieces of an in-memory log (bytes)."""
    if len(data) > max_bytes:
        raise _limit_error(len(data), max_bytes)
    return decode_blocks((data[i:i + BLOCK] for i in range(0, len(data), BLOCK)), max_bytes=max_bytes)


def stream_blocks(fh: BinaryIO, *, max_bytes: int) -> Iterator[bytes]:
    """Blocks of a stream, reading at most one block past the limit (pipes, FIFOs, /dev/stdin, /dev/zero)."""
    total = 0
    while total <= max_bytes:
        block = fh.read(BLOCK)
        if not block:
            return
        total += len(block)
        yield block


def decode_input(data: bytes | str, *, max_bytes: int) -> str:
    """The whole input as clean text (for callers that want one string)."""
    pieces = text_pieces(data, max_bytes=max_bytes) if isinstance(data, str) else byte_pieces(
        data, max_bytes=max_bytes)
    return "".join(pieces)

"""What a pasted log looks like once the copying is undone: one text for every way the same error reaches us.

The knowledge base's patterns are written against the compilers' own words. People paste those words through
web pages, terminals, loggers and JSON, which change the characters between them without changing the error:

- web pages and editors: non-breaking and other Unicode spaces, zero-width characters, tabs, runs of spaces
  (aligned columns), HTML entities (`&gt;`, `&quot;`), Markdown bold around a line;
- loggers that print a multi-line message one line at a time, each with its own prefix (`[rank3]:`, a GitHub
  Actions timestamp, vLLM's `(VllmWorker rank=0 pid=12) ERROR 05-01 ...`, `> ` of a quote);
- a message kept as a string literal (an exception's repr, a JSON field): `\\n` and `\\"` instead of the
  characters.

Each of these is undone here, line by line, so a pattern sees the message as the compiler printed it. A
continuation line loses its prefix only when the line before it had one too (the first line of a run keeps
its prefix, which may name the logger: `select_algorithm.py:2100]`). Linear: a fixed number of C-level scans
per piece and one cheap test per line.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator

# Horizontal whitespace people's tools insert for a space; zero-width characters that split words unseen.
_SPACES = str.maketrans(
    {**{c: " " for c in "\t\v\f\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
                        "\u200a\u202f\u205f\u3000"},
     **{c: None for c in "\u200b\u200c\u200d\u2060\ufeff\u00ad"}}
)
_NEEDS_SPACES = re.compile("[\t\v\f\u00a0\u1680\u2000-\u200d\u202f\u205f\u2060\u3000\ufeff\u00ad]")
# Spaces at either end of a line: indentation and trailing blanks, so that a line wrapped inside a message
# leaves exactly one whitespace character ("\n") between its words.
_TRAILING = re.compile(r" +\n")
_LEADING = re.compile(r"\n +")
_CR = re.compile(r"\r\n?")
_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});")
# A message kept as a string literal: escaped line breaks and quotes.
_ESCAPED = re.compile(r'\\(?:r\\n|[nrt"\']|u[0-9a-fA-F]{4})')
# A message split into string literals that the compiler joins (Python's and C's adjacent literals): '"... with size "'
# over '"36.25M and limit 32.00M ..."' is one message, joined as the compiler joins it.
_CONCATENATED = re.compile(r"""(["'])[ ]*\n[ ]*[fFrRbBuU]{0,2}\1""")
_LITERAL_START = re.compile(r"""\n[fFrRbBuU]{0,2}["']""")
_UNESCAPE = {"\\r\\n": "\n", "\\n": "\n", "\\r": "\n", "\\t": " ", '\\"': '"', "\\'": "'"}
# One element of a logger's line prefix; a prefix is one or more of them at the start of a line (`match.window`
# extends this grammar to tell copies of one line apart from their prefixes). Not glog's header
# ("E0912 11:54:57.366 1121 select_algorithm.py:2100]"): glog writes each line as a record of its own, and the
# file it names tells which framework logged it.
PREFIX_PART = (
    r"(?:>+ ?"  # a Markdown quote
    r"|\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?:?"  # ISO time (GitHub Actions)
    r"|\d{2}[-/]\d{2}[-/ ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?:?|\d{2}:\d{2}:\d{2}(?:[.,]\d+)?:?"  # shorter times
    # [rank3]: [2025-07-29 15:06:51] [multiproc_executor.py:520] [7/0] [E]; not a tag that may name the device or
    # the library ("[gpu ]", "[CUDA]", "[TRT]"), which is context a rule may need
    r"|\[(?:rank\s*\d+|\d[\d\s:./,TZ+-]*|[\w./-]+\.\w{1,4}:\d+|\d+/\d+|[EWIDFCT]|INFO|WARN(?:ING)?|ERROR|DEBUG"
    r"|CRITICAL|FATAL|TRACE)\]:?"
    r"|\([^()\n]{0,60}\b(?:pid|rank)=?\s?\d+[^()\n]{0,60}\)"  # (VllmWorker rank=0 pid=1234) (pid=123, ip=...)
    r"|(?:ERROR|WARNING|WARN|INFO|DEBUG|CRITICAL|FATAL)\b:?"  # a level word
    r"|#\d+ \d+\.\d+"  # docker build: "#12 3.456"
    r")"
)
# docker compose's service column ("sglang-kimi-k2  |   File ..."): kept out of PREFIX_PART, since trying it at
# every word is what `match.window` would pay for on each line, and one container's copies share it anyway
_COMPOSE = r"[\w.-]{1,64} *\| "
# A comment's marker, where a message is quoted in code ("# out of resource: shared memory, Required: 140288,
# Hardware limit:" over "# 101376`"): not "#include", nor gdb's "#0 0x00007f...". Kept out of PREFIX_PART too: a line
# and its commented copy are two mentions, not one line printed twice.
_COMMENT = r"(?:#+|//+|\*)(?= )"
_PREFIX = re.compile(rf"[ ]*(?:(?:{PREFIX_PART}|{_COMPOSE}|{_COMMENT})[ ]*)+")
_PREFIX_START = frozenset(" >0123456789[(EWIDCF#/*")
# A line longer than this without a break is taken as it is, so one huge line cannot be held forever.
_MAX_PENDING = 1 << 20
_MAX_LITERAL_LINES = 64


def _unescape(m: re.Match[str]) -> str:
    s = m.group()
    return _UNESCAPE.get(s) or chr(int(s[2:], 16)).translate(_SPACES)


def _text(piece: str) -> str:
    """Spaces, entities, bold markers and string-literal escapes of one piece undone (no line work yet)."""
    if "\r" in piece:
        piece = _CR.sub("\n", piece)
    if ("\t" in piece or "\v" in piece or "\f" in piece) if piece.isascii() else _NEEDS_SPACES.search(piece):
        piece = piece.translate(_SPACES)
    if "\\" in piece and _ESCAPED.search(piece):
        piece = _ESCAPED.sub(_unescape, piece)
    if "&" in piece and _ENTITY.search(piece):
        piece = html.unescape(piece)
        # escaped twice ("&amp;gt;"): a page that showed another page's escaped HTML
        if "&" in piece and _ENTITY.search(piece):
            piece = html.unescape(piece)
        piece = piece.translate(_SPACES)
    if "**" in piece:
        piece = piece.replace("**", "")
    while "  " in piece:  # each pass halves a run of spaces (C-level, faster than a regex here)
        piece = piece.replace("  ", " ")
    if " \n" in piece:
        piece = _TRAILING.sub("\n", piece)
    if "\n " in piece:
        piece = _LEADING.sub("\n", piece)
    return piece.lstrip(" ") if piece[:1] == " " else piece


class _Lines:
    """Strips the logger prefix of continuation lines, remembering across pieces whether the last line had one."""

    def __init__(self) -> None:
        self.prefixed = False

    def __call__(self, piece: str) -> str:
        lines = piece.split("\n")
        changed = False
        # the empty string after a piece's final line break is no line (the next piece starts the next one)
        for i, line in enumerate(lines[:-1] if piece.endswith("\n") else lines):
            m = _PREFIX.match(line) if line[:1] in _PREFIX_START or "| " in line[:72] else None
            if m is None or m.end() == 0:
                self.prefixed = False
                continue
            if self.prefixed:
                lines[i] = line[m.end():]
                changed = True
            self.prefixed = True
        return "\n".join(lines) if changed else piece


def normalized(pieces: Iterable[str]) -> Iterator[str]:
    """Pieces of clean text, normalised; each yielded piece ends at a line break unless a line is huge."""
    lines = _Lines()
    pending = ""
    for piece in pieces:
        pending += piece
        cut = pending.rfind("\n")
        # a line that ends a string literal waits for the next one, which may continue it (_CONCATENATED): a message
        # split into literals is a few dozen lines at most, and a longer run is cut anyway (bounded work per piece)
        for _ in range(_MAX_LITERAL_LINES):
            if cut <= 0 or pending[cut - 1] not in "\"'":
                break
            cut = pending.rfind("\n", 0, cut)
        if cut < 0 and len(pending) < _MAX_PENDING:
            continue
        cut = len(pending) - 1 if cut < 0 else cut
        ready, pending = pending[:cut + 1], pending[cut + 1:]
        yield _joined(lines(_text(ready)))
    if pending:
        yield _joined(lines(_text(pending)))


def _joined(piece: str) -> str:
    """Adjacent string literals joined (_CONCATENATED), once each line has lost its copy's prefix."""
    # (the next literal's line starts at its quote once indentation and prefixes are gone, and log lines seldom do:
    # C-level finds rule out most pieces)
    if _LITERAL_START.search(piece) and _CONCATENATED.search(piece):
        return _CONCATENATED.sub("", piece)
    return piece


# A line of clinfo's columns, once runs of spaces are one: "Max work group size 1024", "Local memory size 49152
# (48KiB)", "Registers per block (NV) 65536", "Kernel Preferred work group size multiple 64" (no end of line)
CLINFO_COLUMN = (
    r"(?:Max(?:imum)?|Min(?:imum)?|Total|Local|Global|Preferred|Number|Device|Compute|Warp|Wavefront|Registers|Kernel"
    r"|SIMD)\b[^:=\d\n]{1,60}?[ \t]\d[\dxX \t]*(?:\(\d+\s*[KMG]i?B\))?[ \t]*"
)

# A line break that ends a paragraph or a traceback's frame line ('  File "x.py", line 172, in f'), or starts one,
# or ends one line of a dump of properties ("Wavefront/Warp size: 32" above "Max workgroup size: 128", "Total amount of
# shared memory per block: 49152 bytes" above "Maximum number of threads per block: 1024", clinfo's "Max work group
# size    1024" above "Local memory size    49152 (48KiB)"): not a wrap.
_HARD_BREAK = re.compile(
    r'\n(?=\n|[ \t]*File ")|(?<=\n)\n|^[^\n]*(?:File "|, line \d+)[^\n]*\n'
    r"|^[^\n:]{1,60}:[ \t]*\d+(?:[ \t]*[A-Za-z]{1,6})?[ \t]*\n"
    rf"|^[ \t]*{CLINFO_COLUMN}\n",
    re.MULTILINE,
)


# A JSON field's name at a line's start ('{"error": "...'): the record's label, not the message's words
_JSON_KEY = re.compile(r'[ ]*[{\[]?[ ]*"[\w ]{1,24}"[ ]*:[ ]*"?')


# How far back a line's start is looked for: a prefix is far shorter, and a longer look would make each call on a log
# of one huge line cost the line's length.
_PREFIX_REACH = 4096


def prefix_end(text: str, pos: int) -> int:
    """Where the logger prefix of the line holding text[pos] ends, or a JSON field's name that starts the line (the
    line's start where it has neither; where the line starts more than _PREFIX_REACH before pos, no prefix reaches
    pos and the position that far back is returned)."""
    lo = max(0, pos - _PREFIX_REACH)
    start = text.rfind("\n", lo, pos) + 1
    if start == 0 and lo > 0:
        return lo
    if text[start:start + 1] in _PREFIX_START or "| " in text[start:start + 72]:
        m = _PREFIX.match(text, start)
        start = start if m is None else m.end()
    key = _JSON_KEY.match(text, start)
    return start if key is None else key.end()


def reflow(text: str) -> str:
    """`text` with each line break that may be a wrap a space (same length): a sentence wrapped over lines reads as
    one line; a blank line still ends a paragraph and a traceback's frame line stays its own. Where numbers are read
    from prose ("... exceeds\\nthe limit of 512")."""
    if "\n" not in text:
        return text
    chars = list(text.replace("\n", " "))
    for m in _HARD_BREAK.finditer(text):  # every alternative ends at the break it keeps
        chars[m.end() - 1] = "\n"
    return "".join(chars)


def normalize(text: str) -> str:
    """A whole log, normalised (see the module's docstring)."""
    return "".join(normalized([text]))


__all__ = ["CLINFO_COLUMN", "normalize", "normalized", "prefix_end", "reflow"]

"""The general layer: a sentence naming an on-chip resource together with a limit or failure (data/cooccur.yaml).

Used only when no knowledge-base entry matched a log at all. The knowledge base knows wordings; this knows
vocabulary: a resource phrase (shared memory, LDS, SLM, threadgroup memory, VGPRs, threads per block, TMEM, VMEM,
...) and a failure word (exceeds, too many, out of, not enough, limit, fails, crash, ...) in one sentence, with a
GPU word near a phrase that is not GPU-only, and no look-alike word (/dev/shm, multiprocessing, NCCL, PostgreSQL,
CUDA out of memory, ...) near it. The answer is the resource's generic entry at "inferred" confidence, with the
sizes the prose states nearby. Linear: one scan per resource phrase, then bounded checks per phrase hit.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import re
from importlib import resources

from tilefit.kb.model import Entry
from tilefit.kb.repository import KnowledgeBase
from tilefit.match.normalize import CLINFO_COLUMN, prefix_end, reflow
from tilefit.yamlio import load_yaml

# A piece with more phrase hits than this is read up to this many (each hit costs a few bounded regex searches).
_MAX_HITS = 500
# How much of a long text's head and of its tail the layer reads (characters).
READ = 1 << 16


@dataclasses.dataclass(frozen=True)
class Vocabulary:
    resource: str
    entry: str
    strong: re.Pattern[str] | None
    weak: re.Pattern[str] | None
    needs: re.Pattern[str] | None
    failing: re.Pattern[str] | None
    last: bool


@dataclasses.dataclass(frozen=True)
class Rules:
    reach: int
    adjacent: re.Pattern[str] | None
    context_reach: int
    veto_reach: int
    veto_near_reach: int
    sentence_end: re.Pattern[str]
    failure: re.Pattern[str]
    context: re.Pattern[str]
    veto: tuple[re.Pattern[str], ...]
    veto_near: tuple[re.Pattern[str], ...]
    vocabulary: tuple[Vocabulary, ...]
    count_resources: frozenset[str]
    count_reach: int
    counts: tuple[re.Pattern[str], ...]
    # the one resource a count pattern reads, where it names what it counts (a work-group's size counts threads)
    count_only: tuple[str | None, ...]
    # a count of another count resource ("512 threads" beside registers): no reading of this resource's counts
    count_foreign: dict[str, re.Pattern[str]]
    # entries whose error names neither count resource (CUDA's 701): a count of either is theirs
    count_either: frozenset[str]
    device_reach: int
    device_counts: dict[str, re.Pattern[str]]


@dataclasses.dataclass(frozen=True)
class Inference:
    """One sentence read as an on-chip resource running short: the entry to report and where."""

    entry: Entry
    start: int
    end: int


def _compile(raw: object) -> re.Pattern[str] | None:
    return re.compile(str(raw).strip(), re.IGNORECASE) if raw else None


@functools.lru_cache(maxsize=1)
def rules() -> Rules:
    raw = load_yaml(resources.files("tilefit") / "data" / "cooccur.yaml")
    flags = re.IGNORECASE
    return Rules(
        reach=int(raw["reach"]),
        adjacent=re.compile("|".join(raw["adjacent"]), flags) if raw.get("adjacent") else None,
        context_reach=int(raw["context_reach"]),
        veto_reach=int(raw["veto_reach"]),
        sentence_end=re.compile(raw["sentence_end"]),
        failure=re.compile("|".join(raw["failure"]), flags),
        context=re.compile(str(raw["context"]).strip(), flags),
        veto=tuple(re.compile(v, flags) for v in raw["veto"]),
        veto_near_reach=int(raw["veto_near_reach"]),
        veto_near=tuple(re.compile(v, flags) for v in raw["veto_near"]),
        count_resources=frozenset(raw["count_resources"]),
        count_reach=int(raw["count_reach"]),
        counts=tuple(re.compile(c if isinstance(c, str) else c["pattern"], flags) for c in raw["counts"]),
        count_only=tuple(None if isinstance(c, str) else str(c["only"]) for c in raw["counts"]),
        count_foreign={k: re.compile(v, flags) for k, v in raw.get("count_foreign", {}).items()},
        count_either=frozenset(raw.get("count_either", ())),
        device_reach=int(raw["device_reach"]),
        device_counts={k: re.compile(v, flags) for k, v in raw["device_counts"].items()},
        vocabulary=tuple(
            Vocabulary(v["resource"], v["entry"], _compile(v.get("strong")), _compile(v.get("weak")),
                       _compile(v.get("needs")), _compile(v.get("failing")), bool(v.get("last")))
            for v in raw["resources"]
        ),
    )


def _sentence(text: str, start: int, end: int, r: Rules) -> tuple[int, int]:
    """The sentence around text[start:end], at most `reach` characters either side."""
    lo, hi = max(0, start - r.reach), min(len(text), end + r.reach)
    ends_before = [m.end() for m in r.sentence_end.finditer(text, lo, start)]
    after = r.sentence_end.search(text, end, hi)
    return (ends_before[-1] if ends_before else lo), (after.start() if after else hi)


class _Places:
    """Where each context and veto pattern hits in one piece of text, found once; a window asks by bisection."""

    def __init__(self, text: str) -> None:
        self.text, self.starts = text, dict[int, list[int]]()

    def near(self, patterns: tuple[re.Pattern[str], ...], start: int, end: int, reach: int) -> bool:
        lo, hi = start - reach, end + reach
        for p in patterns:
            if id(p) not in self.starts:
                self.starts[id(p)] = [m.start() for m in p.finditer(self.text)]
            hits = self.starts[id(p)]
            k = bisect.bisect_left(hits, lo)
            if k < len(hits) and hits[k] <= hi:
                return True
        return False


# "max" right before a number and the thing counted states what a device has ("H100 (228 KB shared memory per SM, max
# 1024 threads per block)" in a report's environment), not that something ran over it; a bare "max 1024" after a
# request ("2048 threads per block, max 1024") is the bound it went over
_SPEC = re.compile(r"max(?:imum)?[ \t]+\d[\d,]*[ \t]*(?:[KMG]i?B\b|bytes?\b)?[ \t]*[a-z]", re.IGNORECASE)


def _spec(text: str, failure: re.Match[str]) -> bool:
    return _SPEC.match(text, failure.start()) is not None


def _fails(text: str, start: int, end: int, r: Rules, adjacent: bool) -> bool:
    """A failure word in the phrase's sentence (other than inside the phrase itself) or, where `adjacent`, in the
    sentence right before or after it, for a GPU-only (`strong`) phrase and a shortage word only (a title naming the
    resource over the line that says it ran short; a bare "failed" there is too often another bug, and a word like
    "registers" in a neighbouring ptxas info line is not what ran short)."""
    a, b = _sentence(text, start, end, r)
    # (not a level word of a logger's prefix: "(VllmWorker rank=0 pid=1234) ERROR 05-01 12:00:00 [...] Threadgroup
    # memory breaks on small datatypes" says the line was logged as an error, not what ran short)
    if any(f.start() >= prefix_end(text, f.start()) and not _spec(text, f)
           for f in r.failure.finditer(text, a, start)):
        return True
    if any(not _spec(text, f) for f in r.failure.finditer(text, end, b)):
        return True
    # a failure phrase around the resource phrase: "uses much more registers than usual"
    if any(f.start() < start and f.end() > end for f in r.failure.finditer(text, a, b)):
        return True
    if r.adjacent is None or not adjacent:
        return False
    after = r.sentence_end.match(text, b)
    if after is not None:
        na, nb = _sentence(text, after.end(), after.end(), r)
        if r.adjacent.search(text, na, nb):
            return True
    before = [m for m in r.sentence_end.finditer(text, max(0, a - 3), a) if m.end() == a]
    if before:
        pa, pb = _sentence(text, before[0].start(), before[0].start(), r)
        return bool(r.adjacent.search(text, pa, pb))
    return False


# A Python traceback's frame line, and the frame's source line under it: code, whose names ("name, asm, shared_mem =
# _triton.code_gen.compile_ttir(...)") state no failure. Told by its form, an assignment of a call's result, since the
# log arrives without its indentation, a frame without source has the exception's own line under it, and a failing
# assert or raise on that line is the failure itself.
_FRAME = re.compile(r'[ \t]*File "[^"\n]*", line \d+')
_CODE = re.compile(r"[ \t]*(?:return[ \t]+)?[\w.]+(?:[ \t]*,[ \t]*[\w.]+)*[ \t]*=[ \t]*[\w.]+\(")


def _source_line(text: str, start: int) -> bool:
    """Whether text[start] is on the source line a traceback prints under a frame line."""
    line = text.rfind("\n", 0, start)
    if line <= 0:
        return False
    above = text.rfind("\n", 0, line) + 1
    if line - above > 1000 or _FRAME.match(text, above, line) is None:
        return False
    return _CODE.match(text, line + 1) is not None


_OPTION = re.compile(r"--?[A-Za-z]")
_ZERO = re.compile(r"\w*[ \t]*[=:][ \t]*0(?![\d.,]|[ \t]*[xX*])")
# A line of a dump of a device's properties (deviceQuery's "Total amount of shared memory per block: 49152 bytes",
# clinfo's "Max work group size        1024", a "Key = value" line) or ptxas's report of a kernel ("ptxas info    :
# Used 255 registers, 98304 bytes smem"): what the device has or a kernel uses, stated without a failure; the
# failure words of the lines around it (another property's "Maximum", a build's "error") are not about it. Not a
# setting a program was given ("max_compute_workgroup_size_x: 65535,"), which may be the cause.
_PROPERTY = re.compile(
    r"[ \t]*(?:ptxas\s+info\b[^\n]*"
    # vulkaninfo's "maxComputeWorkGroupSize: count = 3" above the three values
    r"|[A-Za-z]\w{1,60}:[ \t]*count[ \t]*=[ \t]*\d+[ \t]*"
    # (a unit after the value, not a sentence going on: "the default config, which OOMs scoped vmem at large
    # reduction dims (e.g. H=32768) and" ends a wrapped line)
    r"|[A-Za-z][^:=\n]{1,80}?(?::|=|[ \t]{2,})[ \t]*[\d(][\d.xX() \t]*"
    r"(?:(?!(?:and|or|but|so|to|of|in|on|at|for|the|with|which)\b)[A-Za-z]{1,6}\b)?[ \t]*"
    r"(?:\([^)\n]{0,40}\))?[ \t]*"
    # clinfo's columns
    rf"|{CLINFO_COLUMN})"
    # the last line of a dump pasted inside a quoted field: "Maximum number of threads per block: 1024\"}"
    r"(?:[\"'`][}\])]{0,3}[,;]?)?$",
    re.MULTILINE,
)


def _option(text: str, start: int) -> bool:
    """Whether text[start] is inside a command line's option ("-DSHARED_MEM_BYTES=98304", "--maxrregcount=128"): a
    build's setting, not a statement that something ran short."""
    token = max(text.rfind(" ", max(0, start - 200), start), text.rfind("\n", max(0, start - 200), start)) + 1
    return _OPTION.match(text, token) is not None


# Words that make a "Key: value" line a failure of its own ("Too many registers needed: 98304 (SM register file
# capacity: 65536)", "Failed to set smem for main_kernel on device 0: 1", "... cannot exceed 64, but got bdz=128"); a
# ptxas diagnostic by its code, whose words a wrap may carry to the next line ("ptxas info : (C7511) Potential
# Performance Loss: wgmma.mma_async instructions" over "are serialized due to insufficient register resources").
_LINE_FAILURE = re.compile(
    r"\b(?:exceed\w*|too\s+(?:much|many|large|big)|out\s+of|insufficient|not\s+enough|fail\w*|errors?|cannot|"
    r"can.t|unable|invalid|abort\w*|assert\w*|spill\w*|overflow\w*|(?:larger|bigger|more|greater)\s+than|"
    r"performance\s+loss)\b|[<>]|\(C\d{4}\)",
    re.IGNORECASE,
)


def property_line(text: str, start: int) -> bool:
    """Whether text[start] is on a line of a property dump or of ptxas's kernel report (_PROPERTY) that states no
    failure of its own."""
    # (bounded either side: a property line is short, and a log may be one huge line)
    lo = max(0, start - 300)
    line = text.rfind("\n", lo, start) + 1
    if line == 0 and lo > 0:
        return False
    end = text.find("\n", start, start + 301)
    end = min(len(text), start + 301) if end < 0 else end
    return (end - line <= 300 and _PROPERTY.match(text, line, end) is not None
            and _LINE_FAILURE.search(text, line, end) is None)


# A shortage fastened to the phrase itself ("use too much shared memory", "insufficient shared memory", "exceeds shared
# memory", "out-of-shared-memory", "shared memory usage exceeds ...") is the phrase's own failure: such a sentence needs
# no GPU word near it, nor another failure word (a commit title, "Skip candidate compute locations that use too much
# shared memory"); host shared memory's own words still veto it. Not "out of shared memory" (PostgreSQL's lock table),
# "run out of shared memory" (a model server's /dev/shm, a process' segments) nor "not enough" (a container's
# /dev/shm): those read host first.
_TIGHT_BEFORE = re.compile(r"\b(?:too\s+much|insufficient|exceed(?:s|ed|ing)?|out-of)[\s-]+(?:\w+\s+)?$", re.IGNORECASE)
_TIGHT_AFTER = re.compile(
    r"(?:\s+(?:usage|size|footprint|requirements?|use|allocation))?\s+(?:exceed\w*|overflow\w*|constraints?"
    r"|limitations?|limit\s+exceeded|is\s+(?:not\s+enough|insufficient|too\s+(?:small|large)))\b", re.IGNORECASE)

# A shortage right before a phrase, whichever resource: the phrase it names is what ran short ("drove the kernels
# over the 64K registers-per-block limit", after a block's 512 threads named in passing).
_SHORT_BEFORE = re.compile(
    r"\b(?:(?:runs?|ran|running)\s+out\s+of|out\s+of|insufficient|not\s+enough|too\s+(?:much|many)|over\s+the)\s+(?:\w+\s+)?$",
    re.IGNORECASE)


def _tight(text: str, m: re.Match[str], v: Vocabulary) -> bool:
    """Whether a shared-memory phrase carries its shortage in the words right before or after it."""
    if v.resource != "shared-memory":
        return False
    return (_TIGHT_BEFORE.search(text, max(0, m.start() - 40), m.start()) is not None
            or _TIGHT_AFTER.match(text, m.end(), m.end() + 60) is not None)


def _accepted(places: _Places, m: re.Match[str], kind: str, v: Vocabulary, entry: Entry, r: Rules) -> bool:
    if _source_line(places.text, m.start()) or _option(places.text, m.start()):
        return False
    # (a size of none is no shortage: "dyn_smem_bytes=0")
    if _ZERO.match(places.text, m.end()) is not None:
        return False
    # (a failing phrase is a failure of its own: "NumSpilledVGPRs: 158" in a kernel's metadata)
    if kind != "failing" and property_line(places.text, m.start()):
        return False
    tight = _tight(places.text, m, v)
    if kind != "failing" and not tight and not _fails(places.text, m.start(), m.end(), r, kind == "strong"):
        return False
    if v.resource == "threads" and block_within(places.text, m.start(), m.end()):
        return False
    if v.needs is not None and not places.near((v.needs,), m.start(), m.end(), r.context_reach):
        return False
    if kind != "strong" and not tight and not places.near((r.context,), m.start(), m.end(), r.context_reach):
        return False
    if places.near(r.veto_near, m.start(), m.end(), r.veto_near_reach):
        return False
    return not places.near(r.veto + entry.requires.none_of_regexes, m.start(), m.end(), r.veto_reach)


def _first(places: _Places, v: Vocabulary, entry: Entry, r: Rules) -> Inference | None:
    found: list[tuple[int, int]] = []
    for pattern, kind in ((v.strong, "strong"), (v.weak, "weak"), (v.failing, "failing")):
        if pattern is None:
            continue
        for k, m in enumerate(pattern.finditer(places.text)):
            if k >= _MAX_HITS:
                break
            if _accepted(places, m, kind, v, entry, r):
                found.append((m.start(), m.end()))
                break
    if not found:
        return None
    start, end = min(found)
    return Inference(entry, start, end)


def _infer_piece(text: str, kb: KnowledgeBase) -> Inference | None:
    r = rules()
    entries = {e.id: e for e in kb}
    places = _Places(text)
    for last in (False, True):
        found = [i for v in r.vocabulary if v.entry in entries and v.last == last
                 for i in [_first(places, v, entries[v.entry], r)] if i is not None]
        if found:
            # a phrase its shortage is fastened to names what ran short, over one named earlier in passing ("hoists
            # every LDS read of a stage and runs out of VGPRs"; "a large work group size can result in build failure
            # due to insufficient local memory")
            short = [i for i in found if _SHORT_BEFORE.search(text, max(0, i.start - 40), i.start) is not None]
            first = min(short or found, key=lambda i: i.start)
            # an entry that refines the first one's, named in the same sentence, is the more exact answer ("a 24.40
            # MiB reverse VMEM allocation exceeding the default v5p scoped budget of 16 MiB": scoped VMEM's, not VMEM's)
            lo, hi = _sentence(text, first.start, first.end, r)
            finer = [i for i in found if first.entry.id in i.entry.refines and lo <= i.start < hi]
            first = min(finer, key=lambda i: i.start) if finer else first
            # a launch's print with a block no GPU can run ("grid=(64,1,1), block=(2048,1,1) dyn_smem_bytes=49152")
            # failed for its block, whatever memory it names beside it
            threads = entries.get(THREADS_ENTRY)
            if (threads is not None and first.entry.resource != "threads"
                    and block_over(text, first.start, first.end) is not None):
                return Inference(threads, first.start, first.end)
            return first
    return None


def infer(text: str, kb: KnowledgeBase) -> Inference | None:
    """The earliest sentence that names an on-chip resource with a failure, or None.

    Reads the first and the last READ characters of a longer text (a title and its description, the error a run
    ends with): the cost is bounded whatever the log's size, and a long log's error lines are the knowledge base's.
    """
    if len(text) <= 2 * READ:
        return _infer_piece(text, kb)
    head = _infer_piece(text[:READ], kb)
    if head is not None:
        return head
    tail = _infer_piece(text[-READ:], kb)
    shift = len(text) - READ
    return None if tail is None else dataclasses.replace(tail, start=tail.start + shift, end=tail.end + shift)


# A link, or a source location's line number ("[multiproc_executor.py:520]", "execution.jl:120", "kernel.cu(412)",
# a traceback frame's 'File "core.py", line 1875'), a number in millions or billions ("~268M threads", an overflowed
# index's size, not a count to read as 268), a width ("the maximum number of 32-bit registers per SM"), a GPU's
# model number ("Your RTX 3090 has a limit of 1024 threads per block"): no count of threads or registers.
_NOT_COUNTS = re.compile(
    r"\bhttps?://\S+|,\s*line\s+\d+|(?<![\w.])\d+(?:\.\d+)?[MG](?![\w.])|(?<![\w.])\d+[- ]?bits?\b"
    r"|\b(?:(?i:rtx|gtx|quadro|tesla|radeon|jetson)|GT|RX|Arc)\s*[A-Z]?\d{3,4}\b"
    r"|\b[\w./-]+\.(?:py|pyx|c|cc|cpp|cxx|cu|cuh|h|hpp|jl|rs|go|java|mojo|ml)(?::\d+|\(\d+\))")


_CJK_CHARS = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
_CJK = re.compile(f"[{_CJK_CHARS}]")
_CJK_MYRIAD = re.compile(r"\d+(?:\.\d+)?\s*[万萬亿億]")
_CJK_DIGITS = re.compile(f"(?<=[{_CJK_CHARS}\uff00-\uffef])(?=\\d)|(?<=\\d)(?=[{_CJK_CHARS}\uff00-\uffef])")


# A block's extents as a triple, "(32,32,128)", "[1, 1, 128]", "{256, 256, 256}" or "1x1x2048": two on the match's
# line or the next, the request's first ("Block Dimensions (32,32,128) include one or more values that exceed the
# device limit of (1024,1024,64)", "Requested (1, 1, 128), max is (1024, 1024, 64)").
# (not inside a tuple: "(64,128)", "grid=(1,256,1)" are two counts)
_THOUSANDS = re.compile(r"(?<![\w(\[=,.])\d{1,3}(?:,\d{3})+(?![\w.,])")
_TRIPLE = re.compile(
    r"[\[({]\s*(\d{1,5})\s*,\s*(\d{1,5})\s*,\s*(\d{1,5})\s*[\])}]|(?<![\w.])(\d{1,5})x(\d{1,5})x(\d{1,5})(?![\w.])"
)
_TRIPLE_REACH = 400
# (a grid's or a global range's extents: "globalsize=1920x1088x1, localsize=32x32x1" is no request and bound)
_GRID = re.compile(r"(?:grid|global)\w*\s*[=:]?\s*$", re.IGNORECASE)


# A block's extents as a launch prints them: "blockDim=(16, 80, 1)", "block=(32, 32, 2)", "threads: [256, 8, 1]",
# "local_size=(64, 32, 1)", "workgroup size [64, 8, 1]" (ONNX Runtime Web), "threadblock is too big: (64, 32, 1) >
# 1024" (luminal), or as a product: "Too many work items per workgroup: 64 * 32 * 1 > 1024" (clvk), Mesa's "product
# of local_sizes exceeds MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB (64 * 32 * 1 > 1024)"
_BLOCK_NAMES = r"block[ _]?dim\w*|block|local_?size|local_work_size|work[-_ ]?group[-_ ]?size"
_BLOCK = re.compile(
    rf"\b(?:{_BLOCK_NAMES}|threads(?:_per_block)?|thread\s?block\s+is\s+too\s+(?:big|large))"
    r"\s*[=:]?\s*[\[({]\s*(\d{1,5})\s*,\s*(\d{1,5})\s*,\s*(\d{1,5})\s*[\])}]"
    # (OpenCV's "localsize=32x32x1")
    rf"|\b(?:{_BLOCK_NAMES})\s*[=:]\s*(\d{{1,5}})x(\d{{1,5}})x(\d{{1,5}})\b"
    r"|\bwork[- ]?items\s+(?:per|in\s+a)\s+work[- ]?group\s*:\s*(\d{1,5})\s*\*\s*(\d{1,5})\s*\*\s*(\d{1,5})\b"
    r"|\blocal_sizes\b[^\n(]{0,80}\(\s*(\d{1,5})\s*\*\s*(\d{1,5})\s*\*\s*(\d{1,5})\s*>",
    re.IGNORECASE,
)
# A launch as code writes it, the block second: "kernel<<<grid, 2048>>>", "<<<blocks, dim3(32, 64)>>>", a CuPy
# RawKernel's "k((1,), (2048,), (x,))", Numba's "kernel[blocks, 2048](x)", "threadsperblock = 2048", cuda.core's
# "LaunchConfig(grid=1, block=2048)". Read further above a match than a printed block: a traceback's first frame
# holds it, five frames above the driver's error.
_CODE_BLOCK = re.compile(
    r"<<<\s*(?:dim3\s*\([^()\n]{0,60}\)|[({][^(){}\n]{0,60}[)}]|[^<>;\n,]{1,80}),\s*(?:(?:dim3\s*)?[({]\s*(\d{1,5})"
    r"(?:\s*,\s*(\d{1,5}))?(?:\s*,\s*(\d{1,5}))?\s*[)}]|(\d{1,5}))\s*(?:,|>>>)"
    r"|(?<=\w)\(\s*\(\s*[\w.]+\s*(?:,\s*[\w.]+\s*){0,2},?\s*\)\s*,\s*"
    r"\(\s*(\d{1,5})\s*(?:,\s*(\d{1,5})\s*)?(?:,\s*(\d{1,5})\s*)?,?\s*\)\s*,\s*\("
    # (Numba's block as a number or a tuple, its stream and dynamic shared memory after it: "k[1, (1, 1, 128)](x)",
    # "k[(16, 16), 256, 0, 100000](x)")
    r"|(?<=\w)\[\s*(?:\([^()\[\]\n]{0,40}\)|[\w.()+*/ -]{1,60}?)\s*,\s*(?:\(\s*(\d{1,5})\s*(?:,\s*(\d{1,5})\s*)?"
    r"(?:,\s*(\d{1,5})\s*)?\)|(\d{1,5}))\s*(?:,[^\[\]\n]{0,40})?\]\s*\("
    r"|\bthreads_?per_?block\s*=\s*(\d{1,5})\b(?![.\w])"
    # (cuda.core's launch configuration: "launch(s, LaunchConfig(grid=1, block=2048), k, buf)")
    r"|\bLaunchConfig\((?:[^()\n]|\([^()\n]{0,40}\)){0,80}?\bblock\s*=\s*"
    r"(?:\(\s*(\d{1,5})\s*(?:,\s*(\d{1,5})\s*)?(?:,\s*(\d{1,5})\s*)?\)|(\d{1,5})\b)",
    re.IGNORECASE,
)
_CODE_REACH = 2000


# Launch blocks are indexed in buckets of a text, each scanned once when first asked for: a log with a hit every few
# lines scans its text once, not once per hit, and one with a few hits scans only the buckets around them. No launch
# form is longer than _LONGEST, so a bucket's scan reads that far past its end.
_BUCKET, _LONGEST = 1 << 13, 512


class _LaunchIndex:
    """The blocks of launches in one text (_BLOCK printed, _CODE_BLOCK as code), by bucket: each as its start, its
    end, its extents and whether it is code."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.buckets: dict[int, list[tuple[int, int, tuple[int, int, int], bool]]] = {}

    def bucket(self, k: int) -> list[tuple[int, int, tuple[int, int, int], bool]]:
        found = self.buckets.get(k)
        if found is None:
            lo = k * _BUCKET
            hi = min(len(self.text), lo + _BUCKET + _LONGEST)
            found = sorted((m.start(), m.end(), _extents(m), code)
                           for pattern, code in ((_BLOCK, False), (_CODE_BLOCK, True))
                           for m in pattern.finditer(self.text, lo, hi)
                           if m.start() < lo + _BUCKET and _launched(m))
            self.buckets[k] = found
        return found


@functools.lru_cache(maxsize=2)
def _index(text: str) -> _LaunchIndex:
    return _LaunchIndex(text)


def release() -> None:
    """Drop the launch indexes of the texts read last (a long-running process keeps no log's windows alive)."""
    _index.cache_clear()


def _blocks(text: str, start: int, end: int) -> list[tuple[int, int, int]]:
    """The extents of the blocks of launches near text[start:end], as printed (within _TRIPLE_REACH) or as code
    (within _CODE_REACH above), in order, a device's own maxima left out (_launched)."""
    index = _index(text)
    lo, hi = max(0, start - _CODE_REACH), min(len(text), end + _TRIPLE_REACH)
    return [extents for k in range(lo // _BUCKET, hi // _BUCKET + 1) for at, to, extents, code in index.bucket(k)
            if lo <= at and to <= hi and (code or at >= start - _TRIPLE_REACH)]


def _extents(m: re.Match[str]) -> tuple[int, int, int]:
    """The three extents of a _BLOCK or _CODE_BLOCK match, whichever of its forms matched (a scalar block is x
    alone)."""
    x, y, z = ([int(g) for g in m.groups() if g is not None] + [1, 1])[:3]
    return x, y, z


def _launched(m: re.Match[str]) -> bool:
    """False for a device's own maxima printed as a block ("block dim: (1024,1024,64)" in a dump of CUDA's limits,
    OpenCL's max work-item sizes 1024x1024x1024): no launch asks for that; nor for a sweep of sizes assigned as a
    list ("block = [128, 256, 512]", the block sizes a Warp benchmark tries, each a block of its own)."""
    x, y, z = _extents(m)
    sweep = x < y < z and re.search(r"=\s*\[\s*\d", m.group()) is not None
    return not (x == y == 1024 and z in (64, 1024)) and not sweep


# The most registers a thread may have (CUDA and HIP): a larger request is a block's, not a thread's.
_MAX_REGISTERS_PER_THREAD = 255
# What any CUDA or HIP block may have: 1024 threads, 64 of them in z.
BLOCK_THREADS, BLOCK_Z = 1024, 64
# The entry a launch whose printed block no GPU can run is reported with (here and by the matcher).
THREADS_ENTRY = "generic/threads-per-block"


def block_over(text: str, start: int, end: int) -> tuple[int, int] | None:
    """(threads, bound) of a block printed near text[start:end] that no GPU can launch: more than 1024 threads, or
    more than 64 in z; None where the launch's block is within them or not printed."""
    for x, y, z in _blocks(text, start, end):
        if x * y * z > BLOCK_THREADS:
            return x * y * z, BLOCK_THREADS
        if z > BLOCK_Z:
            return z, BLOCK_Z
    return None


def printed_block(text: str, start: int, end: int) -> int | None:
    """The threads of the first block printed near text[start:end] (its extents' product), or None."""
    block = next(iter(_blocks(text, start, end)), None)
    if block is None:
        return None
    x, y, z = block
    return x * y * z


_GRID_TRIPLE = re.compile(
    r"\bgrid\w*\s*[=:]?\s*[\[({]\s*\d{1,12}\s*,\s*\d{1,12}\s*,\s*\d{1,12}\s*[\])}]", re.IGNORECASE)


def block_within(text: str, start: int, end: int) -> bool:
    """Whether a launch printed near text[start:end] shows its grid and a block that any GPU can run ("grid_dims =
    (2147483648, 1, 1) block_dims = (256, 1, 1). It is larger than the limits."): what is over is the grid."""
    lo, hi = max(0, start - _TRIPLE_REACH), min(len(text), end + _TRIPLE_REACH)
    blocks = _blocks(text, start, end)
    return (bool(blocks) and _GRID_TRIPLE.search(text, lo, hi) is not None
            and all(x * y * z <= BLOCK_THREADS and z <= BLOCK_Z for x, y, z in blocks))


def per_dimension(text: str, start: int, end: int, read: tuple[int | None, int | None]) -> tuple[int, int] | None:
    """(request, bound) of the one dimension that is over, where a threads message names the extents per dimension.

    A message that states both triples exceeds one of their dimensions, not the product or the first. None where the
    line has no two triples, none of their dimensions is over (the total is: "[64, 32, 1] (2048 total invocations)
    ... total invocation limit 1024"), or the counts already read are no element of them (a stack trace's
    "CartesianIndices((10, 10, 10))" under "Number of threads in group (832) should not exceed 768").
    """
    # (bounded either side: a one-line log of megabytes is one "line")
    line_start = max(text.rfind("\n", max(0, start - _TRIPLE_REACH), start) + 1, start - _TRIPLE_REACH, 0)
    first_end = text.find("\n", end, end + _TRIPLE_REACH)
    second_end = -1 if first_end < 0 else text.find("\n", first_end + 1, end + _TRIPLE_REACH)
    stop = min(len(text), end + _TRIPLE_REACH) if second_end < 0 else second_end
    # (not a grid's extents: "grid=(64, 1, 1), block=(8, 8, 128)" prints a launch, no request and bound)
    triples = [[int(g) for g in t.groups() if g is not None] for t in _TRIPLE.finditer(text, line_start, stop)
               if _GRID.search(text, max(0, t.start() - 12), t.start()) is None][:2]
    if len(triples) < 2 or any(n is not None and n not in triples[0] + triples[1] for n in read):
        return None
    over = [(r, lim) for r, lim in zip(*triples, strict=True) if r > lim]
    return over[0] if over else None


def counts_near(text: str, resource: str, start: int, end: int,
                foreign: bool = True) -> tuple[int | None, int | None]:
    """(required, limit) counts stated near text[start:end] for a count resource (threads, registers); else None.

    The rules are read in order: a count comes from the first rule that states it, so a rule naming both counts
    ("(1024 > 768)") is not mixed with a later rule's reading of a number it already placed. A limit the prose does
    not state may come from a dump of the device's properties further away (device_counts).
    """
    r = rules()
    if resource not in r.count_resources:
        return None, None
    # a link's digits are no count ("Fix issue https://github.com/ggml-org/llama.cpp/issues/14689" after "max work
    # group size"), nor a line number of a logger's prefix: blanked, keeping positions
    near = reflow(text[max(0, start - r.count_reach): end + r.count_reach])
    window = _NOT_COUNTS.sub(lambda u: " " * len(u.group()), near)
    # (a count between Chinese or Japanese words is a number of its own: "线程数量为2048个（超过了...最大值1024个）",
    # where the characters are word characters to the regex engine and markdown's emphasis no word either)
    # (nor a number in ten-thousands: "超过500万个" is more than five million elements)
    if _CJK.search(window):
        window = _CJK_DIGITS.sub(" ", _CJK_MYRIAD.sub(lambda u: " " * len(u.group()), window.replace("**", "  ")))
    # (a count with thousands separators is one count: "131,072 > 65,536" is not 072 over 65)
    if "," in window:
        window = _THOUSANDS.sub(lambda n: n.group().replace(",", ""), window)
    # (where a count of the other resource stands: a pattern's reading of it is dropped, its other count kept, as in
    # "uses many registers (around 35), the limit will be exceeded with 1024 threads")
    foreign_pattern = r.count_foreign.get(resource) if foreign else None
    others = {u.start() for u in foreign_pattern.finditer(window)} if foreign_pattern is not None else set()
    required: int | None = None
    limit: int | None = None
    # a register file stated in K ("the 64k limit on the number of registers"): the bound unless a count per thread
    # was asked for, which pairs with a bound per thread ("84 registers per work-item ... maximum of 64")
    file: int | None = None
    for pattern, only in zip(r.counts, r.count_only, strict=True):
        if only is not None and only != resource:
            continue
        m = pattern.search(window)
        if m is None:
            continue
        groups = m.groupdict()
        scale = 1024 if groups.get("kilo") else 1  # "79872, greater than the 64k limit" of registers: 65536
        if scale > 1 and groups.get("limit") and not groups.get("required"):
            file = file or int(groups["limit"]) * scale
            continue
        if required is None and groups.get("required") and m.start("required") not in others:
            required = int(groups["required"])
        if limit is None and groups.get("limit") and m.start("limit") not in others:
            limit = int(groups["limit"]) * scale
        if required is not None and limit is not None:
            break
    if file is not None and (limit is None or required is None or required > _MAX_REGISTERS_PER_THREAD):
        limit = file
    if resource == "threads":
        over = per_dimension(text, start, end, (required, limit))
        if over:
            return over
        # a launch's printed block no GPU can run, where the prose states no request: "blockDim=(16, 80, 1)" (the
        # request only: the bound the runtime applied is the device's, 1024 on CUDA, 256 on many OpenCL devices)
        block = block_over(text, start, end) if required is None else None
        if block is not None:
            required = block[0]
    device = r.device_counts.get(resource)
    if limit is None and device is not None:
        m = device.search(text, max(0, start - r.device_reach), end + r.device_reach)
        limit = int(m.group("limit")) if m else None
    return required, limit

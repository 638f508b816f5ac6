"""match(text, kb) -> [Match]: every distinct known error in a log, once, with its count, in order of appearance.

Linear in the input: a log is read in windows (match.window) and each repeated line once; within a window every
step is a regex scan or a sort (no loop over pairs of hits), so 100,000 repeats of one error line cost one
regex hit with a count, and 100,000 distinct hits cost 100,000, never 100,000 squared comparisons.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Iterable, Sequence
from typing import Literal

from tilefit.kb.model import Entry
from tilefit.kb.repository import KnowledgeBase
from tilefit.match.cooccur import THREADS_ENTRY, block_over, per_dimension, printed_block, property_line, release
from tilefit.match.literals import Hits, view
from tilefit.match.normalize import normalize, prefix_end
from tilefit.match.tally import Tally
from tilefit.match.window import CHUNK, CONTEXT, KEYWORD_WINDOW, condense, windows
from tilefit.targets import TargetSet
from tilefit.units import parse_size

Confidence = Literal["exact", "partial", "inferred"]
CONFIDENCES: tuple[Confidence, ...] = ("exact", "partial", "inferred")

# How far around a match `requires.none_of` looks: the look-alike's own lines, not the whole traceback.
_NONE_OF_REACH = 2000
# A number with more digits than this is not a size a compiler printed (and int() of it is slow).
_MAX_DIGITS = 24
# No device allows more threads in one block (work-group) than this (GPUs: 1024; OpenCL on CPUs: up to 8192). A
# "threads" limit above it is a grid dimension's (65535) or a count of work items: a look-alike, not a block.
_MAX_BLOCK_THREADS = 8192


# Prose readings per log: reading the numbers stated around a partial or inferred match costs a few dozen bounded
# regex searches (about 2 ms), so a log of thousands of distinct such matches has the first ones read and the rest
# keep the numbers of their own words.
PROSE_READINGS = 128


@dataclasses.dataclass
class ProseBudget:
    """How many more matches of one log may have their numbers read from the prose around them."""

    left: int = PROSE_READINGS

    def take(self) -> bool:
        self.left -= 1
        return self.left >= 0


# No GPU gives a block a mebibyte of shared memory (227 KiB on H100 and B200, 160 KiB of LDS on gfx950): a limit of that
# size read from prose is a host segment's ("The container only has 64MB of shared memory"). A compiler's own words
# may state one (FlagTree, a Triton for accelerators with 2 MiB of on-chip SRAM: "out of resource: shared memory,
# Required: 2621440, Hardware limit: 2097152").
_MAX_SHARED_LIMIT = 1 << 20


# The shared memory of a block as prose states it: sizes below this are parts of a size (a field's padding, a launch's
# overhead), never what a kernel asks for or what a GPU gives a block (16 KiB at the least).
_BLOCK_SHARED = ("shared-memory", "static-shared-memory")
_MIN_SHARED = 4096


def _plausible(m: Match) -> bool:
    """False for a match whose stated limit no block has: a threads limit ("exceeds maximum number of threads
    (65535)"), or a shared-memory limit of a mebibyte or more that is not a compiler's exact words."""
    if m.limit is None:
        return True
    if m.entry.resource == "threads":
        return m.limit <= _MAX_BLOCK_THREADS
    return not (m.entry.resource in ("shared-memory", "static-shared-memory") and m.confidence != "exact"
                and m.limit >= _MAX_SHARED_LIMIT)


@dataclasses.dataclass(frozen=True)
class Match:
    """One distinct error found in a log; `start` and `end` are positions in the normalised log (match.normalize)."""

    entry: Entry
    start: int
    end: int
    text: str
    required: int | None
    limit: int | None
    approximate: bool
    count: int = 1
    confidence: Confidence = "exact"


@dataclasses.dataclass(frozen=True)
class _Candidate:
    entry: Entry
    start: int
    end: int
    groups: dict[str, str]
    named: int  # how many number groups the pattern has (to tell a cut excerpt from a numberless form)


def _spans(lower: str, keyword: str) -> list[tuple[int, int]]:
    """Merged windows around every hit of one keyword.

    Within a span only its last hit matters: each step jumps to the last hit that still extends the span
    (`rfind`), so a keyword on every line costs a search per KEYWORD_WINDOW characters, not one per hit.
    """
    spans: list[tuple[int, int]] = []
    pos = lower.find(keyword)
    while pos >= 0:
        first = last = pos
        while True:  # hits up to 2 * KEYWORD_WINDOW after the last one merge into its span
            nxt = lower.rfind(keyword, last + 1, last + 2 * KEYWORD_WINDOW + len(keyword))
            if nxt < 0:
                break
            last = nxt
        spans.append((max(0, first - KEYWORD_WINDOW), last + KEYWORD_WINDOW))
        pos = lower.find(keyword, last + 1)
    return spans


def _union(lists: Iterable[list[tuple[int, int]]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(s for spans in lists for s in spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _raw_candidates(
    text: str, spans: list[tuple[int, int]], entry: Entry, lo: int, hi: int, hits: Hits
) -> list[_Candidate]:
    found = []
    for a, b in spans:
        if b < lo or a >= hi:
            continue
        b = min(b, len(text))
        for pattern in entry.regexes:
            named = sum(1 for g in ("required", "limit")
                        if any(f"{g}{unit}" in pattern.groupindex for unit in ("", "_si", "_bits", "_per")))
            # Only where a literal every match contains occurs (match.literals); everywhere if none is known.
            where = hits.spans(pattern, a, b)
            for x, y in [(a, b)] if where is None else where:
                for m in pattern.finditer(text, x, y):
                    if lo <= m.start() < hi and not _joins_a_property(text, m) and not _in_prefix(text, m):
                        groups = {k: v for k, v in m.groupdict().items() if v is not None}
                        found.append(_Candidate(entry, m.start(), m.end(), groups, named))
    return found


def _joins_a_property(text: str, m: re.Match[str]) -> bool:
    """Whether a match read across a line break (patterns tolerate a wrapped line) joins a line of a property dump
    to a failure on a later line: deviceQuery's or clinfo's "Max work group size 1024" is what the device has, and
    the failure two lines down ("clEnqueueNDRangeKernel failed: CL_INVALID_KERNEL_ARGS") is another one. (Not a
    failure's line above the sizes it printed, "requested too much L0 scratch memory" above "reqShmemSize = 272",
    nor two such lines read together: "reqShmemSize = 272" above "maxShmemPerBlock = 0".)"""
    return "\n" in m.group() and property_line(text, m.start()) and not property_line(text, m.end() - 1)


def _in_prefix(text: str, m: re.Match[str]) -> bool:
    """Whether a match starts in its line's logger prefix or JSON key and reads on into the message: the level word
    of "(VllmWorker rank=0 pid=1234) ERROR 05-01 12:00:00 [...] Add workgroup size attribute" or the key of
    '{"error": "Add workgroup size attribute' is no failure of the work-group size."""
    return m.start() < prefix_end(text, m.start())


def _disjoint(found: list[_Candidate]) -> list[_Candidate]:
    """Where an entry's hits overlap, the hit with the most numbers wins, then the earliest; O(n log n)."""
    kept: list[_Candidate] = []
    for level in sorted({len(c.groups) for c in found}, reverse=True):
        higher, j = kept, 0
        mine: list[_Candidate] = []
        for c in sorted((c for c in found if len(c.groups) == level), key=lambda c: c.start):
            while j < len(higher) and higher[j].end <= c.start:
                j += 1
            if j < len(higher) and higher[j].start < c.end:
                continue
            if mine and mine[-1].end > c.start:
                continue
            mine.append(c)
        kept = sorted(higher + mine, key=lambda c: c.start)
    return kept


class _Near:
    """Whether some pattern hits within `reach` of each candidate, for candidates in start order.

    Searches stop at the first hit and never rescan text already searched, so a window costs at most one pass
    per pattern however many candidates ask (and far less when hits are dense).
    """

    def __init__(self, text: str, patterns: Sequence[re.Pattern[str]], reach: int, hits: Hits) -> None:
        self.text, self.reach, self.hits = text, reach, hits
        self.state = [(p, -1, 0) for p in patterns]  # (pattern, last hit start, searched up to)

    def holds(self, c: _Candidate) -> bool:
        lo, hi = max(0, c.start - self.reach), min(len(self.text), c.end + self.reach)
        found = False
        for i, (pattern, last, upto) in enumerate(self.state):
            if lo <= last <= hi:
                found = True
                break
            if self.hits.absent(pattern, max(lo, upto), hi):  # a literal every match needs is not there
                continue
            m = pattern.search(self.text, max(lo, upto), hi)
            self.state[i] = (pattern, m.start() if m else last, m.start() + 1 if m else max(upto, hi))
            if m:
                found = True
                break
        return found


def _number(groups: dict[str, str], key: str) -> tuple[int | None, bool]:
    """The size or count a pattern's group `key` holds; a group `key_si` holds one in decimal units, `key_bits` one in
    bits (Ascend's compiler: "ub overflow, requires 3145728 bits while 1572864 bits available"), and `key_per` with
    `key_times` one as a product (SYCL's "uses 87 registers per work-item for a total of 1024 work-items": the
    registers a work-group asks for)."""
    per, times = groups.get(f"{key}_per"), groups.get(f"{key}_times")
    if key not in groups and per is not None and times is not None:
        if len(per) + len(times) > _MAX_DIGITS:
            return None, True
        return int(per) * int(times), True
    bits = groups.get(f"{key}_bits") if key not in groups else None
    if bits is not None:
        if len(bits) > _MAX_DIGITS:
            return None, True
        return int(bits) // 8, int(bits) % 8 == 0
    si = key not in groups and f"{key}_si" in groups
    raw = groups.get(f"{key}_si" if si else key)
    if raw is None or len(raw) > _MAX_DIGITS:
        return None, True
    parsed = parse_size(raw, si=si)
    return (parsed[0], parsed[1]) if parsed else (None, True)


class _Vendor:
    """limit_vendor checks, memoised per (entry, limit): a repeated error asks the target table once."""

    def __init__(self, targets: TargetSet) -> None:
        self.targets, self.memo = targets, dict[tuple[str, int], bool]()

    def holds(self, c: _Candidate) -> bool:
        limit, _ = _number(c.groups, "limit")
        if limit is None:
            return False
        key = (c.entry.id, limit)
        if key not in self.memo:
            classes = self.targets.with_limit(c.entry.resource, limit)
            self.memo[key] = bool(classes) and all(t.vendor == c.entry.requires.limit_vendor for t in classes)
        return self.memo[key]


def _numbered(c: _Candidate) -> bool:
    """Whether the hit states a size or count (what makes a fallback of its resource redundant)."""
    return _number(c.groups, "required")[0] is not None or _number(c.groups, "limit")[0] is not None


def _no_context(entry: Entry, hits: Hits) -> bool:
    """True when no hit of `entry` can pass `requires.any_of`: every context pattern lacks a literal it needs."""
    req = entry.requires
    return bool(req.any_of) and req.limit_vendor is None and all(
        hits.anchors(p) == [] for p in req.any_of_regexes)


def _requirements(
    text: str, entry: Entry, cands: list[_Candidate], vendor: _Vendor, hits: Hits, per_block: bool = False
) -> list[_Candidate]:
    """The hits whose context holds. `per_block`: the entry is a launch error's per-block reading, refining its
    reading as the grid; a block the log prints over the threads any block may have (block_over) is then the cause,
    whatever the log says of the grid ("launch arguments: gridDim=(1568, 1, 1), blockDim=(16, 80, 1)")."""
    req = entry.requires
    if not cands:
        return cands
    # Context first (it drops most hits of a broad entry in a log without GPU words), then look-alikes.
    if req.any_of or req.limit_vendor is not None:
        near = _Near(text, req.any_of_regexes, CONTEXT, hits) if req.any_of else None
        # (a launch error's per-block reading needs no words of blocks where the launch shows one over the limit:
        # "kernel<<<1, 2048>>>(x);" above "invalid configuration argument")
        cands = [c for c in cands if (near is not None and near.holds(c)) or
                 (req.limit_vendor is not None and vendor.holds(c)) or
                 (per_block and block_over(text, c.start, c.end) is not None)]
    if req.none_of and cands:
        spoiler = _Near(text, req.none_of_regexes, _NONE_OF_REACH, hits)
        kept = []
        for c in cands:
            if not spoiler.holds(c):
                kept.append(c)
            elif per_block and (over := block_over(text, c.start, c.end)) is not None:
                kept.append(dataclasses.replace(
                    c, groups={**c.groups, "required": str(over[0]), "limit": str(over[1])}))
        cands = kept
    return cands


def _refine(by_entry: dict[str, list[_Candidate]]) -> list[_Candidate]:
    """Drop a hit when a more specific entry that refines its entry matched an overlapping span."""
    dropped: set[int] = set()
    starts = {eid: [c.start for c in cands] for eid, cands in by_entry.items()}
    for cands in by_entry.values():
        for c in cands:
            for rid in c.entry.refines:
                others = by_entry.get(rid, [])
                k = bisect.bisect_left(starts[rid], c.end) if others else 0
                while k > 0 and others[k - 1].end > c.start:  # disjoint per entry: ends ascend too
                    dropped.add(id(others[k - 1]))
                    k -= 1
    return sorted((c for cs in by_entry.values() for c in cs if id(c) not in dropped), key=lambda c: c.start)


def _snippet(text: str, start: int, end: int) -> str:
    return " ".join(text[start:min(end, start + 2000)].split())[:400]


def _confidence(entry: Entry, c: _Candidate, approximate: bool) -> Confidence:
    """The entry's own confidence, lowered to partial when the numbers are cut off or rounded."""
    if entry.confidence != "exact":
        return entry.confidence
    return "partial" if approximate or len(c.groups) < c.named else "exact"


def _to_match(text: str, c: _Candidate, offset: int) -> Match:
    required, exact_r = _number(c.groups, "required")
    limit, exact_l = _number(c.groups, "limit")
    approximate = not (exact_r and exact_l)
    return Match(
        entry=c.entry, start=offset + c.start, end=offset + c.end, text=_snippet(text, c.start, c.end),
        required=required, limit=limit, approximate=approximate,
        confidence=_confidence(c.entry, c, approximate),
    )


# a message's closing quote, then a parenthesis that opens with a size: the sizes a writer gave it
_QUOTED_THEN_SIZES = re.compile(r'["`\u201d\u2019]\s{0,2}\(\s*~?\d[\d,.]*\s*(?:[KMG]i?B|bytes?|B)\b')
# counts, and TPU sizes, read from the prose around an exact match that states none
_PROSE_COUNTED = frozenset({"threads", "registers", "vmem", "scoped-vmem", "tpu-smem"})


def _with_prose_numbers(text: str, m: Match, c: _Candidate, budget: ProseBudget,
                        numbered: frozenset[str] = frozenset()) -> Match:
    """A partial or inferred match takes the sizes (or thread/register counts) the prose around it states, where its
    own words gave none or only one ("the max workgroup size ... is 896 but 1024 is required"). An exact match
    that states one takes the other the same way ("Failed to set the allowed dynamic shared memory size to 168128"
    under "max shared memory per block (opt-in): 101,376 bytes"), and one that states no count of threads or
    registers takes the counts.

    Read once per distinct match of a window (numberless matches of one entry are one), within a bounded reach, for
    as many matches of a log as its budget allows.
    """
    if m.required is not None and m.limit is not None:
        return m
    # An exact wording that states no number is the whole message (its sizes, if any, are another line's, which the
    # matcher reads itself), except for a count of threads or registers, which may stand in the prose: "trying to
    # use 544 threads per team. But this throws '... requested too large team size'" (Trilinos#9278). A TPU's
    # error name without its sizes reads them from a commit's prose too ("Fix CompileTimeScopedVmemOom ... generated
    # a 53.66M VMEM scoped allocation ..., exceeding the available 51.61M"). Neither is read where another line of
    # the same error states its numbers in the program's own words (libtpu's decimal "Estimated 150.99MB exceeds
    # 134.22MB vmem capacity" under "Ran out of memory in memory space vmem").
    # The exception is a message quoted in prose with its sizes in parentheses right after it: 'BLOCK_K=128 fails with
    # "out of resource: shared memory" (426KB > 232KB limit)'.
    if (m.entry.confidence == "exact" and m.required is None and m.limit is None
            and (m.entry.resource not in _PROSE_COUNTED or m.entry.id in numbered)
            and _QUOTED_THEN_SIZES.match(text, c.end) is None):
        return m
    if not budget.take():
        return m
    # sizes, or counts of threads or registers ("the maximum threads per block (1024)"), stated next to the match
    from tilefit.match.cooccur import rules

    required, limit = _stated(text, m.entry.resource, c.start, c.end,
                              foreign=m.entry.id not in rules().count_either)
    required = m.required if m.required is not None else (required if required != m.limit else None)
    limit = m.limit if m.limit is not None else (limit if limit != m.required else None)
    if required == m.required and limit == m.limit:
        return m
    return dataclasses.replace(m, required=required, limit=limit)


def _per_dimension(text: str, m: Match, c: _Candidate, budget: ProseBudget) -> Match:
    """A threads match over two triples of extents reads the dimension that is over (cooccur.per_dimension), for as
    many distinct matches of a log as its budget of readings allows."""
    if m.entry.resource != "threads" or not budget.take():
        return m
    over = per_dimension(text, c.start, c.end, (m.required, m.limit))
    if over is None and m.entry.vendor == "nvidia" and m.limit is None:
        # CUDA's bound on any block (1024 threads, 64 in z) under a printed block over it: "block=(8, 8, 128)"
        block = block_over(text, c.start, c.end)
        over = block if block is not None and m.required in (None, block[0]) else None
    elif over is None and m.required is None and m.limit is not None:
        # a stated bound and a printed block whose threads exceed it: the block is the request ("threadblock is too
        # big: (64, 32, 1) > 1024", an OpenCL or WebGPU device's 256: "workgroup size [64, 8, 1] exceeds the maximum
        # workgroup invocations 256")
        threads = printed_block(text, c.start, c.end)
        over = (threads, m.limit) if threads is not None and threads > m.limit else None
    elif over is None and m.required is None and m.limit is None and m.confidence != "inferred":
        # a threads failure in the error's own words that states no number, over the launch it prints: the printed
        # block is the request ("CL_INVALID_WORK_GROUP_SIZE (-54) ... globalsize=1920x1088x1, localsize=32x32x1")
        threads = printed_block(text, c.start, c.end)
        if threads is not None:
            return dataclasses.replace(m, required=threads)
    return dataclasses.replace(m, required=over[0], limit=over[1]) if over else m


def _block_cause(text: str, m: Match, c: _Candidate, threads: Entry | None) -> Match:
    """A launch failure read as another on-chip resource by inference, whose print shows a block no GPU can run
    ("launch failed: CUDA_ERROR_INVALID_VALUE grid=(64,1,1), block=(2048,1,1) dyn_smem_bytes=49152"), failed for
    its block: `threads` (the general threads entry), with the block's threads as the request."""
    if threads is None or not m.entry.on_chip or m.entry.resource == "threads" or m.confidence == "exact":
        return m
    over = block_over(text, c.start, c.end)
    if over is None:
        return m
    return dataclasses.replace(m, entry=threads, required=over[0], limit=None, confidence="inferred")


def _hits(text: str, kb: KnowledgeBase, targets: TargetSet, lo: int, hi: int) -> list[_Candidate]:
    """Every hit of every entry that starts in text[lo:hi], after overlaps, requirements and refinements."""
    lower = view(text)
    spans: dict[str, list[tuple[int, int]]] = {}
    vendor, hits = _Vendor(targets), Hits(lower)
    by_entry: dict[str, list[_Candidate]] = {}
    numbered: set[str] = set()  # resources a specific entry matched with numbers (in this window)
    # Specific entries first: a fallback of a resource they matched with numbers is dropped from the result
    # (tally.summarise), so it is not searched for.
    for entry in sorted(kb, key=lambda e: e.fallback):
        if entry.fallback and entry.resource in numbered:
            continue
        for kw in entry.keywords:
            if kw not in spans:
                spans[kw] = _spans(lower, kw)
        entry_spans = _union(spans[kw] for kw in entry.keywords)
        if not entry_spans or _no_context(entry, hits):
            continue
        cands = _disjoint(_raw_candidates(text, entry_spans, entry, lo, hi, hits))
        per_block = entry.resource == "threads" and any(kb.get(r).resource == "grid" for r in entry.refines)
        cands = _requirements(text, entry, cands, vendor, hits, per_block)
        if cands:
            by_entry[entry.id] = cands
            if not entry.fallback and any(_numbered(c) for c in cands):
                numbered.add(entry.resource)
    by_entry = {e.id: by_entry[e.id] for e in kb if e.id in by_entry}  # knowledge-base order breaks ties
    return _refine(by_entry)


def match_window(
    text: str, kb: KnowledgeBase, targets: TargetSet, lo: int = 0, hi: int | None = None, offset: int = 0,
    budget: ProseBudget | None = None,
) -> list[Match]:
    """Every distinct hit that starts in text[lo:hi], with its count, reading context from all of `text`.

    `budget` is the log's, shared by its windows (a window of its own by default).
    """
    hi = len(text) if hi is None else hi
    budget = budget if budget is not None else ProseBudget()
    condensed = condense(text, lo, hi)
    if condensed is None:
        hits = _hits(text, kb, targets, lo, hi)
        placed = [(c, c.start, 1) for c in hits]
        source = text
    else:
        hits = _hits(condensed.text, kb, targets, 0, len(condensed.text))
        placed = [(c, *condensed.place(c.start)) for c in hits]
        source = condensed.text
    # Repeats of one hit become one Match with a count: a snippet is built once per distinct hit.
    firsts: dict[tuple[str, tuple[tuple[str, str], ...]], tuple[_Candidate, int]] = {}
    counts: dict[tuple[str, tuple[tuple[str, str], ...]], int] = {}
    for c, at, n in placed:
        if n == 0:
            continue  # a line this window only sees in its context; its owner counts it
        key = (c.entry.id, tuple(sorted(c.groups.items())))
        counts[key] = counts.get(key, 0) + n
        firsts.setdefault(key, (c, at))
    found = ((k, c, _to_match(source, c, offset + at - c.start)) for k, (c, at) in firsts.items())
    numbered = frozenset(c.entry.id for c, _ in firsts.values() if any(v for v in c.groups.values()))
    threads = next((e for e in kb if e.id == THREADS_ENTRY), None)
    read = ((k, c, _block_cause(source, _per_dimension(source, _with_prose_numbers(source, m, c, budget, numbered), c,
                                                       budget), c, threads)) for k, c, m in found)
    matches = (dataclasses.replace(m, count=counts[k]) for k, c, m in read)
    return [m for m in matches if _plausible(m)]


# the general layer's answer for a TPU's scoped VMEM
SCOPED_VMEM_ENTRY = "generic/scoped-vmem-mention"


def _scoped_bound(m: Match, kb: KnowledgeBase, targets: TargetSet) -> Match:
    """A VMEM answer read from words, not from XLA's own message, whose bound is no TPU's VMEM but a TPU's default
    scoped limit ("Block=2048 hits VMEM OOM (32.14/32 MiB)" on a v6e: no TPU has 32 MiB of VMEM, and v6e and tpu7x
    give a kernel 32 MiB of scoped VMEM), is the scoped limit's."""
    if (m.entry.resource != "vmem" or m.entry.confidence == "exact" or m.limit is None
            or targets.with_limit("vmem", m.limit) or not targets.with_limit("scoped-vmem", m.limit)):
        return m
    scoped = next((e for e in kb if e.id == SCOPED_VMEM_ENTRY), None)
    return m if scoped is None else dataclasses.replace(m, entry=scoped)


def match(text: str, kb: KnowledgeBase, targets: TargetSet | None = None) -> list[Match]:
    """Find every known error in `text`; each distinct (entry, numbers) once, with its count."""
    from tilefit.targets import load_targets

    targets = targets or load_targets()
    text = normalize(text)
    tally, budget = Tally(), ProseBudget()
    try:
        for window, lo, hi, offset in windows(text[i:i + CHUNK] for i in range(0, len(text), CHUNK)):
            for m in match_window(window, kb, targets, lo, hi, offset, budget):
                tally.add(m)
        return [_scoped_bound(m, kb, targets) for m in tally.result() or inferred(text, kb)]
    finally:
        release()


# How many later copies of a numberless match's words are read for the numbers the first one lacks, and how far
# after it (a thread's description, not the rest of a long log).
_PHRASE_COPIES = 4
_PHRASE_REACH = 16384
# how far either side of a match that states one number of a pair the general layer's phrases are read for the other
# (a sentence or two: each phrase read costs a search of the prose around it)
_FILL_REACH = 1500


def _stated(text: str, resource: str, start: int, end: int, fill: bool = False,
            foreign: bool = True) -> tuple[int | None, int | None]:
    """(required, limit) stated in the prose around text[start:end]: sizes for a size resource, else counts.

    A title names the resource and the description states the sizes further on, in the same words ("shared memory
    overflow on Navi" ... "a shared memory overflow ... = 131072` bytes -- exceeding the 64KB LDS limit"): later
    copies of the words are read too, a few, until one states both numbers. With `fill` (the general layer's own
    answer), a pair's missing number is read from the phrases a sentence or two either side. Without `foreign` (an
    error that names neither count resource), a count of the other one is read as well.
    """
    from tilefit.match.cooccur import counts_near
    from tilefit.match.prose import numbers_near, prose_rules

    def near(at: int, to: int | None = None) -> tuple[int | None, int | None]:
        to = at + end - start if to is None else to
        if resource in _BLOCK_SHARED:
            # no block asks for, and no GPU gives a block, a few hundred bytes: "each placeholder occupies 16 B", "~1KB
            # of launch overhead" are parts of a size, not the request or the bound; both small is a device that
            # reports none ("Requested 1152 bytes of shared memory, but max is 0 bytes")
            required, limit = numbers_near(text, at, to, resource, _MIN_SHARED)
            if required is not None and limit is not None and max(required, limit) < _MIN_SHARED:
                return required, limit
            return (required if required is None or required >= _MIN_SHARED else None,
                    limit if limit is None or limit >= _MIN_SHARED else None)
        if resource in prose_rules().resources:
            return numbers_near(text, at, to, resource)
        return counts_near(text, resource, at, to, foreign)

    required, limit = near(start)
    words, after, at = text[start:end].lower(), "", 0
    for _ in range(_PHRASE_COPIES if words else 0):
        if required is not None and limit is not None:
            break
        after = after or text[start:start + _PHRASE_REACH].lower()
        at = after.find(words, at + 1)
        if at < 0:
            break
        more_required, more_limit = near(start + at)
        if (more_required is not None) + (more_limit is not None) > (required is not None) + (limit is not None):
            required, limit = more_required, more_limit
    if required is None and limit is None:
        # the words differ where the sizes are stated: a summary's "(SMEM overflow)" over "this needs ... = 131072`
        # bytes of static SMEM ... capped at 101376 B" two paragraphs down. Later phrases naming the same resource are
        # read then, a few, only where the first stated neither size.
        for at, to in _phrases(text, resource, end, min(len(text), start + _PHRASE_REACH)):
            more_required, more_limit = near(at, to)
            if more_required is not None or more_limit is not None:
                return more_required, more_limit
        # then the first few phrases above it (within the same reach), the later first: a description states the
        # sizes with the resource's name ("cost (104448 bytes) exceeds the 101376-byte per-block opt-in limit") and its
        # failure further down in other words ("the CTA16 dispatch would exceed the per-block limit")
        for at, to in reversed(_phrases(text, resource, max(0, start - _PHRASE_REACH), start)):
            more_required, more_limit = near(at, to)
            if more_required is not None or more_limit is not None:
                return more_required, more_limit
    elif fill and (required is None or limit is None):
        # one size stated with the phrase, the other with a later one in other words: "larger than 48kb shared
        # memory usage" ... "(needs 72KB of SMEM ...)". Taken only where it is the other side of a shortage, a
        # request above its bound.
        later = _phrases(text, resource, end, min(len(text), end + _FILL_REACH))
        for at, to in later + list(reversed(_phrases(text, resource, max(0, start - _FILL_REACH), start))):
            more_required, more_limit = near(at, to)
            if required is None and more_required is not None and limit is not None and more_required > limit:
                return more_required, limit
            if limit is None and more_limit is not None and required is not None and required > more_limit:
                return required, more_limit
    return required, limit


def _phrases(text: str, resource: str, start: int, end: int) -> list[tuple[int, int]]:
    """Where the general layer's phrases of `resource` stand in text[start:end], the first few."""
    from tilefit.match.cooccur import rules

    found: list[tuple[int, int]] = []
    for v in rules().vocabulary:
        for phrase in (v.strong, v.weak) if v.resource == resource else ():
            if phrase is not None:
                hits = phrase.finditer(text, start, end)
                found += [m.span() for _, m in zip(range(_PHRASE_COPIES), hits, strict=False)]
    return sorted(found)[:_PHRASE_COPIES]


def inferred(text: str, kb: KnowledgeBase, offset: int = 0) -> list[Match]:
    """When no entry matched at all: the general layer's answer (match.cooccur), with the sizes or counts stated.

    `offset` places a window's text in the whole log, as match_window does.
    """
    from tilefit.match.cooccur import infer

    found = infer(text, kb)
    if found is None:
        return []
    required, limit = _stated(text, found.entry.resource, found.start, found.end, fill=True)
    line_start = text.rfind("\n", 0, found.start) + 1
    m = Match(entry=found.entry, start=offset + found.start, end=offset + found.end,
              text=_snippet(text, line_start, found.end + 200),
              required=required, limit=limit, approximate=True, confidence="inferred")
    return [m] if _plausible(m) else []

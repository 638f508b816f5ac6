"""Sizes stated in prose near a numberless match (rules in data/prose_numbers.yaml).

A framework's own wording, an issue title or a PR description often gives the two numbers without any error
line tilefit knows: "Exceeds maximum shared memory available. (49152 bytes) ... 75940 bytes of shared memory
needed". Only partial or inferred matches of a size resource are read this way, each once (numberless matches
of one entry collapse into one), within a bounded reach, so the cost does not grow with the log.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from importlib import resources

from tilefit.match.normalize import reflow
from tilefit.units import parse_size
from tilefit.yamlio import load_yaml


@dataclasses.dataclass(frozen=True)
class ProseRules:
    reach: int
    resources: frozenset[str]
    required: tuple[re.Pattern[str], ...]
    limit: tuple[re.Pattern[str], ...]
    tpu_resources: frozenset[str]
    tpu_required: tuple[re.Pattern[str], ...]
    tpu_limit: tuple[re.Pattern[str], ...]
    # a sum stated as such: the requirement before any other cue's
    total: tuple[re.Pattern[str], ...]
    # an argument in a traceback's source line, read further back than prose ("k(..., shared_mem=100000)" a few
    # frames above CuPy's "CUDA_ERROR_INVALID_VALUE: invalid argument")
    code_reach: int
    code_required: re.Pattern[str]


@functools.lru_cache(maxsize=1)
def prose_rules() -> ProseRules:
    raw = load_yaml(resources.files("tilefit") / "data" / "prose_numbers.yaml")
    flags = re.IGNORECASE

    # Patterns that stand alone: every other key named required_* or limit_* (which one is found first does not
    # depend on their order: _first takes the earliest number)
    def alone(side: str, tpu: bool = False) -> list[re.Pattern[str]]:
        # (a launch's shared-memory argument is a GPU's: on a TPU "bf16[1, 7168, 4096]" is an array's shape)
        return [re.compile(v, flags) for k, v in raw.items()
                if k.startswith(side + "_") and k not in (side + "_before", side + "_after")
                and not (tpu and k == "required_attribute")]

    def required(size: str, tpu: bool = False) -> tuple[re.Pattern[str], ...]:
        return (re.compile(raw["required_before"] + size + raw["not_factor"], flags),
                re.compile(size + raw["required_after"], flags), *alone("required", tpu))

    def limit(size: str) -> tuple[re.Pattern[str], ...]:
        return (re.compile(raw["limit_before"] + size + "(?!" + raw["not_limit"] + ")", flags),
                re.compile(size + raw["limit_after"], flags), *alone("limit"))

    return ProseRules(
        reach=int(raw["reach"]),
        resources=frozenset(raw["resources"]),
        required=required(raw["size"]),
        limit=limit(raw["size"]),
        tpu_resources=frozenset(raw["tpu_resources"]),
        tpu_required=required(raw["size_tpu"], tpu=True),
        tpu_limit=limit(raw["size_tpu"]),
        total=(re.compile(raw["total_before"] + raw["size"], flags),
               re.compile(raw["size"] + raw["total_after"], flags)),
        code_reach=int(raw["code_reach"]),
        code_required=re.compile(raw["required_attribute"], flags),
    )


# A size written as a product with 1024, as code states it: "LDS_BYTES <= 64 * 1024", "dynamic shared memory <= 227 *
# 1024" (a static assertion's or a check's words): read as that many KiB.
_KIB_PRODUCT = re.compile(r"(?<![\w.*])(\d{1,4})\s*\*\s*1024(?![\w.]|\s*[*x×]\s*\d)")


# a tilde before a size ("~99 KB")
_ABOUT = re.compile(r"~\s*(?=\d)")


# a size that changed: "pushed smem from 96KB to 104KB, exceeding the ~99KB limit"
_SIZE_WORDS = r"\d[\d,]*(?:\.\d+)?\s*(?:[KMG]i?B|kB|bytes?|B)"
_FROM_TO = re.compile(rf"\bfrom\s+({_SIZE_WORDS})\s+to\s+({_SIZE_WORDS})\b")


# a bound named just before a change of size ("Updated the shared memory limit for SM 8.6 ... from 102400 bytes to
# 101376 bytes"): the change corrects the bound
_BOUND_CHANGED = re.compile(
    r"\b(?:limit|cap|capacity|max(?:imum)?|budget|available)\b(?:[^.;\n]|\.(?!\s)){0,60}$", re.IGNORECASE)


def _changed(m: re.Match[str]) -> str:
    """The size a change ran into: the new one when it grew (what then overflows), the old one when it shrank (a fix
    from what overflowed); a bound's new value when the change is the bound's."""
    old, new = (parse_size(g.replace(",", "").replace(" ", "")) for g in (m.group(1), m.group(2)))
    if old is None or new is None:
        return m.group(0)
    if _BOUND_CHANGED.search(m.string, max(0, m.start() - 80), m.start()) is not None:
        return "to " + m.group(2)
    return "to " + m.group(2) if new[0] > old[0] else "from " + m.group(1)


# what joins a requirement to the bound it was compared with: "269 KiB required vs 163 KiB hardware limit"
_VERSUS = re.compile(r"[^\n\d]{0,30}?\b(?:vs\.?|versus|against)\s+(?:an?\s+|the\s+)?")


# a rounded size followed by its exact count of bytes in parentheses: "uses 72KB (256*256 + 256 + 256*32 + 32 = 74,016
# bytes)", "needs 99 KB (101376 bytes)"
_EXACT_AFTER = re.compile(
    r"\s*\((?:[^()\n]{0,100}?=\s*)?(?P<n>\d{1,3}(?:,\d{3})+|\d{4,12})\s*(?:bytes|B)\s*\)", re.IGNORECASE)


def _exact(m: re.Match[str] | None, value: int | None) -> int | None:
    """The exact byte count a size's parentheses give right after it, where it rounds to the size (within 5%)."""
    if m is None or value is None:
        return value
    after = _EXACT_AFTER.match(m.string, m.end("u") if m.groupdict().get("u") else m.end("n"))
    if after is None:
        return value
    exact = int(after.group("n").replace(",", ""))
    return exact if abs(exact - value) <= value // 20 else value


def _size(m: re.Match[str] | None) -> int | None:
    if m is None:
        return None
    # an attribute's or argument's value carries no unit: bytes
    parsed = parse_size(m.group("n").replace(",", "") + (m.groupdict().get("u") or "B"))
    return parsed[0] if parsed else None


def _cue(m: re.Match[str]) -> int:
    """How many characters of a size's match are its cue, not the size."""
    return (m.end() - m.start()) - (m.end("n") - m.start("n"))


def _first(patterns: tuple[re.Pattern[str], ...], text: str) -> re.Match[str] | None:
    found = [m for m in (p.search(text) for p in patterns) if m]
    return min(found, key=lambda m: m.start("n")) if found else None


def _first_from(patterns: tuple[re.Pattern[str], ...], text: str, floor: int) -> re.Match[str] | None:
    """The first match whose size is at least floor (a size below it is part of a size), else the first one."""
    first = _first(patterns, text)
    size = _size(first)
    if first is None or not floor or size is None or size >= floor:
        return first
    later = sorted((m for p in patterns for m in p.finditer(text)), key=lambda m: m.start("n"))
    return next((m for m in later if (v := _size(m)) is not None and v >= floor), first)


def numbers_near(text: str, start: int, end: int, resource: str | None = None,
                 floor: int = 0) -> tuple[int | None, int | None]:
    """(required, limit) stated in prose within the rules' reach of text[start:end]; None where not stated.

    For a TPU resource, sizes may carry XLA's bare units ("16.44M"). With a floor, a requirement below it is passed
    over for a later one that is not ("FP8 elements are 1 byte vs 2 bytes ... fails with 'out of resource: shared
    memory' (426KB > 232KB limit)": 426KB, not 1 byte).
    """
    rules = prose_rules()
    # (markdown's emphasis is no word: "only **99 KB** shared memory/block"; nor is a tilde an approximation's:
    # "capped at ~99 KB per block")
    window = _FROM_TO.sub(_changed, _KIB_PRODUCT.sub(
        r"\1 KiB", _ABOUT.sub("", reflow(text[max(0, start - rules.reach): end + rules.reach]).replace("**", ""))))
    tpu = resource in rules.tpu_resources
    required_m = (None if tpu else _first(rules.total, window)) or _first_from(
        rules.tpu_required if tpu else rules.required, window, floor)
    limit_m = _first(rules.tpu_limit if tpu else rules.limit, window)
    required, limit = _exact(required_m, _size(required_m)), _exact(limit_m, _size(limit_m))
    if required_m is not None:
        # the bound the requirement was compared with ("98080 exceeds 97120"), before another one stated earlier
        # ("sharedMemPerBlockOptin = 101,376 B ... dynamic smem 98080 exceeds 97120 (optin 101376 - static 4256)")
        pair = next((m for p in (rules.tpu_limit if tpu else rules.limit) if "left" in p.groupindex
                     for m in p.finditer(window) if m.start("left") == required_m.start("n")), None)
        if pair is not None:
            limit_m, limit = pair, _size(pair)
        elif limit_m is not None and limit_m.start("n") < required_m.start("n"):
            # a bound compared with the requirement right after it wins over one stated before ("exceeding MI355X's
            # 160 KiB LDS budget (observed 269 KiB required vs 163 KiB hardware limit)")
            after = required_m.end("n")
            versus = _VERSUS.match(window, after)
            if versus is not None:
                near = _first(rules.tpu_limit if tpu else rules.limit, window[versus.end():versus.end() + 40])
                if near is not None and near.start("n") == 0:
                    limit_m, limit = near, _size(near)
    if required is None and not tpu:
        # the nearest argument above, within a traceback's reach
        above = list(rules.code_required.finditer(text, max(0, start - rules.code_reach), start))
        required = _size(above[-1]) if above else None
    if required_m is not None and limit_m is not None and required_m.start("n") == limit_m.start("n"):
        # one size read both ways: the cue nearer the size decides ("Use dynamic shared memory for the >48 KiB
        # routes": ">" is nearer than "Use", a bound; "only 99 KB shared memory/block (vs 227 KB on H100)": "only"
        # is nearer than "vs", a bound), the requirement where both are as near
        if _cue(limit_m) < _cue(required_m):
            # unless another bound follows: then the size bounds the need from below ("needs shared memory larger
            # than 193kB, new SM120 hardware only has 48kB")
            later = _size(_first(rules.tpu_limit if tpu else rules.limit, window[limit_m.end():]))
            if later is not None and later != limit:
                return required, later
            # a request stated after that bound, above it, is the requirement ("required to enable larger than 48kb
            # shared memory ... (needs 72KB of SMEM ...)")
            need = _size(_first(rules.tpu_required if tpu else rules.required, window[limit_m.end():]))
            return (need if need is not None and limit is not None and need > limit else None), limit
        # the requirement; a bound stated after it is the limit ("needs 80 KB of shared memory per block, but the
        # GPU allows 64 KB")
        return required, _size(_first(rules.tpu_limit if tpu else rules.limit, window[required_m.end("n"):]))
    if required is not None and limit is not None and limit >= required:
        # a bound read first that the request does not pass is a program's own setting ("request 160KB ...
        # (`MAX_SHARED_MEMORY = 160000` ...), but the MI325X hardware only supports 64KB"): a bound the request
        # passes, stated in the same reach, is the one it ran into
        under = [m for p in (rules.tpu_limit if tpu else rules.limit) for m in p.finditer(window)
                 if (v := _size(m)) is not None and v < required]
        if under:
            return required, _size(min(under, key=lambda m: m.start("n")))
    return required, limit

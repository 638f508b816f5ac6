"""`tilefit check TRACE.jsonl`: every specialisation a trace recorded (tilefit/trace.py), sized for every target.

Each record names its kernel's file and carries the file's text; the kernel is loaded from that text with
check/source.py (the package is never imported), its source is checked against the recorded hash, and
the recorded signature, constexprs and specialisation attributes go to Triton's compiler for each target
(options derived from the recorded GPU are dropped: trace.replay_options). When the file on disk moved
or changed since recording, the result says so; when the trace lacks the text and the file changed, the
record is an error rather than a guess.

A fix for a kernel that does not fit is searched the same way as for tables: fewer stages and halved
BLOCK* constexprs, ranked by fit's performance model, sized exactly.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tilefit.check.moe import Launch, Recorded
from tilefit.check.run import Fix, describe_change
from tilefit.check.size import Job, size_jobs
from tilefit.check.source import LoadedSource, load_source
from tilefit.errors import InputError, TilefitError
from tilefit.estimate.base import Failure, Usage
from tilefit.fit.perf import DeviceModel, score
from tilefit.settings import Settings
from tilefit.targets import Target, get_target
from tilefit.trace import KernelRecord, Trace, replay_options, sha256_text

_MIN_BLOCK = 16


@dataclasses.dataclass(frozen=True)
class TraceRow:
    """One recorded specialisation on one target."""

    record: KernelRecord
    target: str
    usage: Usage
    kernel: str
    fix: Fix | None = None
    note: str = ""

    @property
    def status(self) -> str:
        return "fits" if self.usage.fits else "error" if self.usage.fits is None else "does not fit"

    def to_result(self) -> dict[str, Any]:
        """The JSON result (data/check-report.schema.json)."""
        u, rec = self.usage, self.record
        recorded = rec.sized.shared if rec.target.get("name") == self.target else None
        return {
            "source": rec.name, "path": rec.file, "line": rec.line, "device_name": str(rec.target.get("name")),
            "tuned_with": None, "m": None, "launch": "trace", "kernel": rec.fn, "target": self.target,
            "status": self.status, "config": dict(u.config), "bytes": u.bytes, "limit": u.limit,
            "over": [{"resource": o.resource, "required": o.required, "limit": o.limit} for o in u.over],
            "error": u.error, "compiler": u.compiler, "recorded_bytes": recorded, "note": self.note,
            "fix": None if self.fix is None else {"config": dict(self.fix.config), "bytes": self.fix.bytes,
                                                  "change": self.fix.change},
        }


@dataclasses.dataclass(frozen=True)
class _Loaded:
    source: LoadedSource | None
    note: str
    error: str | None


def load_record(trace: Trace, rec: KernelRecord, cache_dir: Path) -> _Loaded:
    """The record's kernel, loaded from the trace's copy of its file (or the file on disk)."""
    src = trace.source_of(rec)
    on_disk = Path(rec.file)
    disk_text = _read(on_disk)
    note = ""
    if src is None:
        if disk_text is None:
            return _Loaded(None, "", f"{rec.file}: the kernel's source moved (gone) since recording and the trace "
                                     "holds no copy of it")
        if sha256_text(disk_text) != rec.file_sha256:
            return _Loaded(None, "", f"{rec.file} changed since recording (sha256 differs) and the trace holds no "
                                     "copy of the recorded version")
        text = disk_text
    else:
        text = src.text
        if disk_text is None:
            note = f"{rec.file} moved since recording; sized the recorded copy"
        elif sha256_text(disk_text) != rec.file_sha256:
            note = f"{rec.file} changed since recording (sha256 differs); sized the recorded version"
    folder = cache_dir / "trace-sources" / rec.file_sha256[:20]
    path = folder / (on_disk.name or "kernel.py")
    try:
        if not path.is_file():
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        loaded = load_source(path, rec.fn, cache_dir)
    except (TilefitError, OSError) as exc:
        return _Loaded(None, note, f"cannot load {rec.name} from its source: {exc}")
    fn_src = _jit_src(loaded)
    if fn_src is not None and hashlib.sha256(fn_src.encode()).hexdigest() != rec.src_sha256:
        return _Loaded(None, note, f"{rec.name}: its source differs from the recorded one (src_sha256)")
    if loaded.missing:
        note = "; ".join(filter(None, [note, "needs " + ", ".join(str(m) for m in loaded.missing)]))
    return _Loaded(loaded, note, None)


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _jit_src(loaded: LoadedSource) -> str | None:
    try:
        return str(loaded.load().src)
    except TilefitError:
        return None


def _launch(rec: KernelRecord, options: Mapping[str, Any] | None = None,
            constexprs: Mapping[tuple[int, ...], Any] | None = None) -> Launch:
    consts = dict(rec.constexprs) if constexprs is None else dict(constexprs)
    recorded = Recorded(tuple(rec.signature.items()), tuple(consts.items()),
                        tuple((p, tuple(a)) for p, a in rec.attrs.items()))
    return Launch(rec.fn, {}, dict(replay_options(rec) if options is None else options), recorded=recorded)


def _unique(records: Sequence[KernelRecord]) -> list[KernelRecord]:
    """One record per specialisation (a test suite compiles the same one in many processes)."""
    seen: dict[str, KernelRecord] = {}
    for r in records:
        key = repr((r.file_sha256, r.fn, sorted(r.signature.items()), sorted(r.constexprs.items()),
                    sorted(r.attrs.items()), sorted(replay_options(r).items())))
        seen.setdefault(key, r)
    return list(seen.values())


def check_trace(trace: Trace, targets: Sequence[Target], *, fix: bool = True, settings: Settings | None = None,
                workers: int | None = None, progress: Callable[[int], None] | None = None,
                shard: tuple[int, int] = (1, 1)) -> list[TraceRow]:
    """Size every recorded specialisation for every target; a fix for each that does not fit."""
    settings = settings or Settings.from_env()
    cache = settings.cache_dir / "check"
    records = [r for i, r in enumerate(_unique(trace.records)) if i % shard[1] == shard[0] - 1]
    loaded = {id(r): load_record(trace, r, cache) for r in records}
    plan = [(r, t) for r in records for t in targets]
    ok = [(r, t) for r, t in plan if loaded[id(r)].source is not None]
    jobs = [Job(str(_src(loaded[id(r)]).module_path), r.fn, _launch(r), t.name) for r, t in ok]
    sized = dict(zip([(id(r), t.name) for r, t in ok], size_jobs(jobs, settings, workers=workers, progress=progress),
                     strict=True))
    rows = []
    for r, t in plan:
        got = loaded[id(r)]
        usage = sized.get((id(r), t.name)) or _failed(t, got.error or "not loaded")
        if got.source is not None and usage.error:
            usage = dataclasses.replace(usage, error=got.source.explain_missing(usage.error))
        rows.append(TraceRow(r, t.name, usage, r.fn, note=got.note))
    return find_fixes(rows, loaded, settings, workers) if fix else rows


def _src(loaded: _Loaded) -> LoadedSource:
    assert loaded.source is not None
    return loaded.source


def _failed(target: Target, message: str) -> Usage:
    return Usage(target=target.name, resource="shared-memory", bytes=None, limit=target.limit_for("shared-memory"),
                 mode="fast", config={}, fits=None, error=message, failure=Failure("input", message))


def _names(rec: KernelRecord) -> list[str]:
    return list(rec.signature)


def candidates(rec: KernelRecord, fewer_warps: bool = False) -> list[tuple[dict[str, Any], dict[tuple[int, ...], Any]]]:
    """(options, constexprs) near the record: fewer stages, BLOCK* constexprs halved (twice at most), and
    with `fewer_warps` (too many threads per block: 32 warps of 64 lanes on AMD) num_warps halved."""
    names = _names(rec)
    blocks = [p for p, v in rec.constexprs.items() if len(p) == 1 and p[0] < len(names)
              and "BLOCK" in names[p[0]].upper() and isinstance(v, int) and not isinstance(v, bool) and v >= 32]
    opts = replay_options(rec)
    stages = int(opts.get("num_stages", 3) or 3)
    out = []
    choices: list[list[tuple[tuple[int, ...], int]]] = [[(p, int(rec.constexprs[p]) >> h) for h in range(3)
                                                         if int(rec.constexprs[p]) >> h >= _MIN_BLOCK] for p in blocks]
    combos: list[list[tuple[tuple[int, ...], int]]] = [[]]
    for ch in choices:
        combos = [[*c, x] for c in combos for x in ch]
    warps = int(opts.get("num_warps", 4) or 4)
    warp_choices = [w for w in (warps, warps // 2, warps // 4, warps // 8) if w >= 1] if fewer_warps else [warps]
    for w in warp_choices:
        for s in range(stages, 0, -1):
            for combo in combos[:64]:
                consts = {**rec.constexprs, **dict(combo)}
                if s == stages and w == warps and consts == dict(rec.constexprs):
                    continue
                out.append(({**opts, "num_stages": s, "num_warps": w}, consts))
    return out


def _config(rec: KernelRecord, opts: Mapping[str, Any], consts: Mapping[tuple[int, ...], Any]) -> dict[str, Any]:
    names = _names(rec)
    out = {names[p[0]]: v for p, v in consts.items() if len(p) == 1 and p[0] < len(names)
           and isinstance(v, int) and not isinstance(v, bool) and "BLOCK" in names[p[0]].upper()}
    return {**out, **{k: opts[k] for k in ("num_warps", "num_stages") if k in opts}}


def _ranked(row: TraceRow) -> list[tuple[dict[str, Any], dict[tuple[int, ...], Any]]]:
    device = DeviceModel.from_target(get_target(row.target))

    def value(cand: tuple[dict[str, Any], dict[tuple[int, ...], Any]]) -> float:
        return -score(_config(row.record, *cand), None, device).value

    threads = any(o.resource == "threads" for o in row.usage.over)
    return sorted(candidates(row.record, fewer_warps=threads), key=value)


def find_fixes(rows: list[TraceRow], loaded: Mapping[int, _Loaded], settings: Settings, workers: int | None,
               batch: int = 8) -> list[TraceRow]:
    """For each row that does not fit, the best-scoring nearby config that fits (best-first, in batches)."""
    out = list(rows)
    pending = {i: _ranked(r) for i, r in enumerate(rows) if r.usage.fits is False}
    while pending:
        todo = []
        for i, cands in pending.items():
            r = rows[i]
            for opts, consts in cands[:batch]:
                todo.append((i, opts, consts, Job(str(_src(loaded[id(r.record)]).module_path), r.record.fn,
                                                  _launch(r.record, opts, consts), r.target)))
            pending[i] = cands[batch:]
        usages = size_jobs([j for *_, j in todo], settings, workers=workers)
        best: dict[int, tuple[float, Fix]] = {}
        for (i, opts, consts, _), u in zip(todo, usages, strict=True):
            if u.fits:
                r = rows[i]
                cfg = _config(r.record, opts, consts)
                value = score(cfg, u, DeviceModel.from_target(get_target(r.target))).value
                if i not in best or value > best[i][0]:
                    before = _config(r.record, replay_options(r.record), r.record.constexprs)
                    best[i] = (value, Fix(cfg, int(u.bytes or 0), describe_change(before, cfg)))
        for i, (_, fx) in best.items():
            out[i] = dataclasses.replace(rows[i], fix=fx)
        pending = {i: c for i, c in pending.items() if i not in best and c}
    return out


def read(path: str) -> Trace:
    """Read a trace for replay; a newer format is an InputError naming both versions."""
    from tilefit.trace import read_trace

    p = Path(path)
    if not p.is_file():
        raise InputError(f"{path}: no such trace file")
    limit = Settings.from_env().max_input_bytes
    size = p.stat().st_size
    if size > limit:  # read whole into memory otherwise
        raise InputError(f"{path}: {size} B is larger than TILEFIT_MAX_INPUT_BYTES ({limit} B); raise it to check "
                         "this trace")
    return read_trace(p, strict=False)

"""Benchmark instrument (not tilefit): time every Triton compile of this process through Triton's own stage hook.

Installed by the plugin_*.py benchmarks before they compile anything. Each compile becomes one JSON record:
kernel, seconds from the first stage's start to the last stage's end, the last stage reached, shared bytes
(from make_llir's metadata) and whether it was rejected (an exception left a stage: the plug-in's
OutOfResources). With PLUGIN_SPY_OUT set, the records are appended there at exit (a line per process).
A compile "cannot fit" when it was rejected or its shared bytes exceed the device's max_shared_mem.
"""

from __future__ import annotations

import atexit
import json
import os
import time
from typing import Any


def install() -> list[dict[str, Any]]:
    from triton import knobs

    records: list[dict[str, Any]] = []
    previous = knobs.runtime.add_stages_inspection_hook

    def hook(*args: Any) -> Any:
        if not args:
            return previous() if previous is not None else ("", "")
        if previous is not None:
            previous(*args)
        stages = args[1]
        rec: dict[str, Any] = {"start": None, "end": None, "last": None, "shared": None, "rejected": False}
        records.append(rec)
        for name, fn in list(stages.items()):
            stages[name] = _wrap(rec, name, fn)
        return None

    knobs.runtime.add_stages_inspection_hook = hook
    atexit.register(_dump, records)
    return records


def _wrap(rec: dict[str, Any], name: str, fn: Any) -> Any:
    def stage(src: Any, metadata: dict[str, Any]) -> Any:
        if rec["start"] is None:
            rec["start"] = time.perf_counter()
            rec["kernel"] = getattr(src, "get_entry_func_name", lambda: None)() if name == "ttir" else None
        try:
            out = fn(src, metadata)
        except BaseException as exc:
            rec["rejected"] = type(exc).__name__
            raise
        finally:
            rec["end"] = time.perf_counter()
            rec["last"] = name
        if "shared" in metadata:
            rec["shared"] = metadata["shared"]
        if metadata.get("name"):
            rec["kernel"] = metadata["name"]
        return out

    return stage


def _limit() -> int | None:
    try:
        from triton.runtime.driver import driver

        return int(driver.active.utils.get_device_properties(driver.active.get_current_device())["max_shared_mem"])
    except Exception:
        return None


def summarise(records: list[dict[str, Any]]) -> dict[str, Any]:
    limit = _limit()
    done = [r for r in records if r["start"] is not None]
    bad = [r for r in done if r["rejected"] or (limit and (r["shared"] or 0) > limit)]
    return {
        "compiles": len(done), "cannot_fit": len(bad),
        "seconds_all": round(sum(r["end"] - r["start"] for r in done), 3),
        "seconds_cannot_fit": round(sum(r["end"] - r["start"] for r in bad), 3),
        "max_shared_cannot_fit": max((r["shared"] or 0 for r in bad), default=0), "limit": limit,
    }


def _dump(records: list[dict[str, Any]]) -> None:
    path = os.environ.get("PLUGIN_SPY_OUT")
    if not path or not records:
        return
    line = {"run": os.environ.get("PLUGIN_SPY_RUN", ""), "pid": os.getpid(), **summarise(records), "records": [
        {k: (round(v, 4) if isinstance(v, float) else v) for k, v in r.items()} for r in records]}
    with open(path, "a") as fh:
        fh.write(json.dumps(line) + "\n")


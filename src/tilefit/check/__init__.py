"""`tilefit check` and `tilefit refit`: one recording or config table, sized for every GPU.

    source.py     load a @triton.jit kernel and its helpers from a source file without importing its package
    tables.py     vLLM/SGLang fused-MoE config tables: names, strict reading, atomic writing
    devices.py    device names of table files -> targets (data/check/devices.yaml)
    moe.py        how SGLang launches its fused-MoE kernel for a table entry (the launch mirror)
    size.py       many launches x targets, deduplicated, cached, TTIR reused, in worker processes or on Ray
    run.py        tables: size every entry, find the nearest fitting config (the fix)
    replay.py     traces of `tilefit record` (tilefit/trace.py): replay every specialisation for other targets
    provision.py  size with another Triton version in a cached virtual environment
    report.py     JSON (data/check-report.schema.json), text, SARIF 2.1.0, JUnit XML; shard merging

Nothing here is imported by `tilefit explain`; triton is imported inside functions.
"""

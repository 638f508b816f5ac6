"""The labelled real logs re-pasted the ways people paste them: python benchmarks/explain_repaste.py [FORM ...].

Every record of tests/data/corpus/*.jsonl that explain recognises as it is (tilefit.match.judge) is pasted again
through each form below (a web page's non-breaking spaces, a terminal's tabs, a logger's per-line prefix, a JSON
field, an email's word wrap, ...) and judged again. Prints, per form, how many recognised logs it loses and which.
The same forms and their ceilings are a test (tests/kb/test_repaste.py).
"""

from __future__ import annotations

import html
import json
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tilefit.kb.repository import load_kb
from tilefit.match.judge import recognised

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "corpus"


def _lines(prefix: str) -> Callable[[str], str]:
    return lambda t: "\n".join(prefix + line for line in t.split("\n"))


def _wrap(width: int) -> Callable[[str], str]:
    return lambda t: "\n".join(
        "\n".join(textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False)) for line in t.split("\n"))


FORMS: dict[str, Callable[[str], str]] = {
    "nbsp": lambda t: t.replace(" ", "\u00a0"),  # copied from a web page
    "tabs": lambda t: t.replace(" ", "\t"),
    "double-spaces": lambda t: t.replace(" ", "  "),
    "crlf": lambda t: t.replace("\n", "\r\n"),  # Windows
    "html-entities": html.escape,  # scraped from HTML
    "markdown-bold": lambda t: "**" + t.replace("\n", "**\n**") + "**",
    "markdown-quote": _lines("> "),
    "indented": _lines("    "),
    "torchrun-rank": _lines("[rank3]: "),
    "github-actions": _lines("2024-05-09T20:19:45.9729182Z "),
    "docker-build": _lines("#12 3.456 "),
    "vllm-logger": _lines("(VllmWorker rank=0 pid=1234) ERROR 05-01 12:00:00 [multiproc_executor.py:520] "),
    "json-field": lambda t: json.dumps({"detail": t}),  # an API's error body, with \uXXXX escapes
    "json-error": lambda t: json.dumps({"error": t}),  # a record whose field's name is a failure word
    "python-repr": lambda t: "RuntimeError(" + repr(t) + ")",
    "chinese-context": lambda t: "运行时报错如下：\n" + t + "\n请问怎么解决？",
    "wrapped-80": _wrap(80),  # an email or a commit message
    "wrapped-120": _wrap(120),
}


def records() -> list[dict[str, Any]]:
    out = []
    for path in sorted(CORPUS.glob("*.jsonl")):
        out += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in out if "resource" in r]


def lost(form: Callable[[str], str], recs: list[dict[str, Any]], kb: Any) -> list[dict[str, Any]]:
    """The records (recognised as they are) that `form` makes explain miss."""
    return [r for r in recs if not recognised({**r, "log": form(r["log"])}, kb)]


def main(argv: list[str]) -> int:
    kb = load_kb()
    recs = [r for r in records() if recognised(r, kb)]
    print(f"{len(recs)} labelled logs recognised as they are")
    for name in argv or list(FORMS):
        missed = lost(FORMS[name], recs, kb)
        print(f"{name:16} lost {len(missed)}")
        for r in missed:
            print(f"    {r['url']} ({r['resource']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

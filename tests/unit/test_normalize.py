"""tilefit.match.normalize: what copying did to a log is undone, and nothing else changes."""

from __future__ import annotations

import json
import random

import pytest

from tilefit.kb.model import spaced
from tilefit.kb.repository import load_kb
from tilefit.match.literals import view
from tilefit.match.matcher import match
from tilefit.match.normalize import normalize, normalized, prefix_end, reflow
from tilefit.match.window import condense

TRITON = ("triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 262144, Hardware limit: "
          "232448.")
KB = load_kb()


@pytest.mark.parametrize(("pasted", "expected"), [
    ("a\u00a0b\u2009c\u3000d", "a b c d"),  # web pages' spaces
    ("a\u200bb\ufeffc", "abc"),  # zero-width characters
    ("a\t\tb    c", "a b c"),  # tabs, aligned columns
    ("a\r\nb\rc", "a\nb\nc"),  # Windows, progress bars
    ("x &gt; 1 &amp;&amp; y &lt; 2 &quot;q&quot; &#39;s&#39;", "x > 1 && y < 2 \"q\" 's'"),
    ("GGML_ASSERT(max_blocks_per_sm &amp;gt; 0) failed", "GGML_ASSERT(max_blocks_per_sm > 0) failed"),  # escaped twice
    ("**OutOfResources: shared memory**", "OutOfResources: shared memory"),
    ('{"detail": "line one\\nline \\"two\\" \\u5171\\u4eab"}', '{"detail": "line one\nline "two" 共享"}'),
    ("   indented\ntrailing   \n\n  next", "indented\ntrailing\n\nnext"),
])
def test_what_copying_does_is_undone(pasted: str, expected: str) -> None:
    assert normalize(pasted) == expected


def test_a_logger_prefix_is_kept_on_the_first_line_and_dropped_from_its_continuations() -> None:
    log = "[rank3]: The observed failure was:\n[rank3]: \n[rank3]: OutOfResources:\n[rank3]:     shared memory"
    assert normalize(log) == "[rank3]: The observed failure was:\n\nOutOfResources:\nshared memory"
    gha = "2024-05-09T20:19:45.9729182Z line one\n2024-05-09T20:19:45.9730516Z   line two"
    assert normalize(gha) == "2024-05-09T20:19:45.9729182Z line one\nline two"
    vllm = ("(VllmWorker rank=0 pid=12) ERROR 05-01 12:00:00 [engine.py:161] first\n"
            "(VllmWorker rank=0 pid=12) ERROR 05-01 12:00:00 [engine.py:161] second")
    assert normalize(vllm).splitlines()[1] == "second"
    slashed = "2024/05/09 20:19:45 first\n2024/05/09 20:19:46 second"  # Go's log package, glog-less C++ loggers
    assert normalize(slashed) == "2024/05/09 20:19:45 first\nsecond"
    compose = "sglang-1  | Traceback:\nsglang-1  |   File x"
    assert normalize(compose) == "sglang-1 | Traceback:\nFile x"


def test_copies_of_a_line_are_counted_once_whatever_their_logger_prefix() -> None:
    """The window's grammar extends the normaliser's: what the normaliser strips never makes copies differ."""
    line = "out of resource: shared memory, Required: 262144, Hardware limit: 232448"
    prefixes = ["[rank3]: ", "2024/05/09 20:19:45 ", "2024-05-09T20:19:45.97Z ", "(pid=12) ", "ERROR: ", "> ",
                "I0912 11:54:57.366 1121 autotune.py:20] ", "[gpu1] ", "    ", "#12 3.456 "]
    text = "\n".join(p + line for p in prefixes * 3)
    condensed = condense(text, 0, len(text))
    assert condensed is not None
    assert condensed.text == prefixes[0] + line
    assert condensed.weight == [3 * len(prefixes)]
    # only a prefix: a tag inside a line is part of the line
    inside = "\n".join(["Error [gpu0] " + line, "Error [gpu1] " + line] * 3)
    condensed = condense(inside, 0, len(inside))
    assert condensed is not None and condensed.weight == [3, 3]


def test_glog_headers_are_records_of_their_own_and_stay() -> None:
    """glog writes each line as a record; the file it names (select_algorithm.py) tells who logged it."""
    log = ("W0306 14:40:15.990000 17 torch/_inductor/select_algorithm.py:1517] [2/0] a\n"
           "W0306 14:40:15.993000 17 torch/_inductor/select_algorithm.py:1517] [2/0] b")
    assert normalize(log) == log


def test_text_without_anything_to_undo_is_returned_as_it_is() -> None:
    text = "line one\nline two: 0x20400 bytes, 0xc000 max\n\nparagraph"
    assert normalize(text) == text


def test_pieces_cut_anywhere_give_the_same_text() -> None:
    log = "\r\n".join(["[rank0]: a\u00a0b &gt; c", '{"m": "x\\ny"}', "  **z**  ", TRITON] * 50)
    whole = normalize(log)
    rng = random.Random(7)
    for _ in range(20):
        cuts = sorted(rng.sample(range(1, len(log)), 12))
        pieces = [log[a:b] for a, b in zip([0, *cuts], [*cuts, len(log)], strict=True)]
        assert "".join(normalized(pieces)) == whole


def test_reflow_joins_wrapped_lines_not_paragraphs_and_keeps_positions() -> None:
    text = "exceeds\nthe limit of 512\n\nnext paragraph"
    assert reflow(text) == "exceeds the limit of 512\n\nnext paragraph"
    assert len(reflow(text)) == len(text)


def test_reflow_keeps_the_lines_of_a_property_dump_apart() -> None:
    """lc0#396 (fresh-58): "Warp size: 32" is no count of the "Max workgroup size" line under it."""
    text = "Wavefront/Warp size: 32\nMax workgroup size: 128\nError in convolve1: clEnqueueNDRangeKernel: -54"
    assert reflow(text) == text


def test_reflow_keeps_every_traceback_frame_line_apart() -> None:
    """A frame's "line 172" is no number of the message under it, however many frames are stacked."""
    text = ('  File "a.py", line 10, in f\n    g()\n  File "b.py", line 20, in g\n  File "c.py", line 172, in h\n'
            "Number of threads exceeds\nthe limit (1024 > 640)")
    assert reflow(text) == ('  File "a.py", line 10, in f\n    g()\n  File "b.py", line 20, in g\n'
                            '  File "c.py", line 172, in h\nNumber of threads exceeds the limit (1024 > 640)')


@pytest.mark.parametrize(("pattern", "expected"), [
    ("out of resource: shared memory", r"out\sof\sresource:\sshared\smemory"),
    ("a  ?b", r"a(?:\s+)?b"),  # a run of spaces, then a quantifier
    (r"[ _-]x y", r"(?:[ _-]|\n)x\sy"),  # a class with a space may also be a line break (a wrapped "shared-memory")
    (r"\ a b", r"\ a\sb"),  # an escaped space stays
    (r"[]a ]c d", r"(?:[]a ]|\n)c\sd"),  # "]" first in a class is a member
    (r"[]a]c d", r"[]a]c\sd"),  # a class without a space stays
    (r"x[^\n]{0,80}?y", r"x(?:[^\n]|\n(?!\n)){0,80}?y"),  # a bounded stretch of a line may cross one wrap
    (r"x[^\n]*\ny", r"x[^\n]*\ny"),  # an unbounded one keeps to its line
])
def test_spaced_patterns(pattern: str, expected: str) -> None:
    assert spaced(pattern) == expected


def test_the_view_reads_every_whitespace_as_a_space() -> None:
    assert view("Out\tOf\nResource\u00a0X") == "out of resource x"


@pytest.mark.parametrize("pasted", [
    TRITON.replace(" ", "\u00a0"),
    "\n".join("[rank0]: " + w for w in ("OutOfResources: out of resource: shared memory,", "Required: 262144,",
                                        "Hardware limit: 232448."))
    + "\n",
    json.dumps({"error": TRITON}),
    TRITON.replace("Required: 262144, Hardware", "Required: 262144,\nHardware"),
    "&gt; " + TRITON,
    # quoted in a code comment, wrapped under the comment's marker (Python's and C's)
    "        # measured on real hardware: `OutOfResources: out of resource: shared memory,\n"
    "        # Required: 262144, Hardware limit:\n        # 232448` at BLOCK_D=64\n",
    "  // OutOfResources: out of resource: shared memory, Required: 262144,\n  // Hardware limit: 232448.\n",
    # kept in a program as adjacent string literals, which the compiler joins
    'MSG = (\n    "OutOfResources: out of resource: shared memory, Required: "\n'
    '    "262144, Hardware limit: 232448."\n)',
])
def test_the_matcher_reads_the_same_error_however_it_was_pasted(pasted: str) -> None:
    found = [(m.entry.id, m.required, m.limit) for m in match(pasted, KB)]
    assert found == [("triton/shared-memory", 262144, 232448)]


def test_prefix_end_looks_back_a_bounded_way() -> None:
    """A line's prefix is found at its start; on a log of one huge line no prefix reaches a match far along it, and
    the look back is bounded (it ran once per match: a 10 MB one-line log took 46% longer before the bound)."""
    assert prefix_end("[rank3]: ERROR kernel failed", 20) == len("[rank3]: ERROR ")
    line = "[rank3]: " + "x " * 1_000_000 + "shared memory exceeded"
    at = line.index("shared memory")
    assert prefix_end(line, at) == at - 4096


def test_comment_markers_and_literals_come_off_only_where_they_wrap() -> None:
    # "#include" and gdb's frame numbers are no comment marker; a lone line keeps its marker
    assert normalize("#include <cuda.h>\n#0 0x00007f in f ()\n") == "#include <cuda.h>\n#0 0x00007f in f ()\n"
    assert normalize("# a\n# b\n") == "# a\nb\n"
    assert normalize('x = ("a "\n     "b")') == 'x = ("a b")'
    # a list of literals keeps its commas and quotes
    assert normalize('["a",\n "b"]') == '["a",\n"b"]'

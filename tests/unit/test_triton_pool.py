"""The crash-isolating worker pool behind estimate_many: results in order, deaths and timeouts as data."""

from __future__ import annotations

import os
import time

from tilefit.estimate.pool import Crash, run_isolated


def test_results_come_back_in_task_order() -> None:
    done: list[int] = []
    out = run_isolated(abs, [-3, 2, -1, 0, -7], workers=2, timeout_s=60, on_done=lambda i, _r: done.append(i))
    assert out == [3, 2, 1, 0, 7]
    assert sorted(done) == [0, 1, 2, 3, 4]


def test_a_dying_worker_is_one_result_not_an_abort() -> None:
    # os._exit(3) kills the worker the way LLVM's abort() kills a compiler: no Python exception.
    out = run_isolated(os._exit, [3], workers=1, timeout_s=60)
    assert isinstance(out[0], Crash) and "exit code 3" in out[0].message
    mixed = run_isolated(abs, [-1, -2, -3], workers=1, timeout_s=60)
    assert mixed == [1, 2, 3]


def test_a_slow_task_is_stopped_at_the_timeout_and_the_rest_still_run() -> None:
    start = time.monotonic()
    out = run_isolated(time.sleep, [30, 0], workers=1, timeout_s=2)
    assert isinstance(out[0], Crash) and "ran past 2 s" in out[0].message
    assert out[1] is None  # time.sleep(0) returns None: the second task ran in a fresh worker
    assert time.monotonic() - start < 25


def test_exceptions_in_the_task_are_reported() -> None:
    out = run_isolated(int, ["12", "twelve"], workers=2, timeout_s=60)
    assert out[0] == 12
    assert isinstance(out[1], Crash) and "ValueError" in out[1].message

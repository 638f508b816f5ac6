"""tilefit.isolate: one runner whose children's crashes, hangs and memory blow-ups are results, never orphans."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import isolate_jobs
import pytest

from tilefit.errors import CompileError, SettingsError
from tilefit.isolate import Limits, Outcome, child_stderr, run_many, run_one

HERE = Path(__file__).resolve().parent
SRC = HERE.parents[1] / "src"
NO_MEMORY_LIMIT = Limits(timeout_s=60, memory_mb=0)


def test_results_come_back_in_task_order() -> None:
    done: list[int] = []
    out = run_many(abs, [-3, 2, -1, 0, -7], limits=NO_MEMORY_LIMIT, workers=2, on_done=lambda i, _o: done.append(i))
    assert [o.value for o in out] == [3, 2, 1, 0, 7] and {o.status for o in out} == {"ok"}
    assert sorted(done) == [0, 1, 2, 3, 4]


def test_a_dead_worker_is_a_crashed_result_and_is_replaced() -> None:
    out = run_many(os._exit, [3, 0], limits=NO_MEMORY_LIMIT, workers=1)
    assert out[0].status == "crashed" and out[0].returncode == 3 and "exit code 3" in out[0].message
    assert out[1].status == "crashed"  # the replacement worker ran the second task
    assert [o.value for o in run_many(abs, [-1, -2], limits=NO_MEMORY_LIMIT)] == [1, 2]


def test_an_llvm_abort_is_out_of_memory_with_its_log() -> None:
    out = run_one(isolate_jobs.abort_out_of_memory, None, limits=Limits(60, 300))
    assert out.status == "oom" and out.returncode == -signal.SIGABRT
    assert "LLVM ERROR: out of memory" in out.stderr_tail
    assert "under the 300 MB limit" in out.message and "TILEFIT_COMPILE_MEMORY_MB" in out.message


def test_the_memory_limit_holds() -> None:
    out = run_one(isolate_jobs.allocate, 2000, limits=Limits(60, 200))
    assert out.status == "oom" and "MemoryError" in out.message
    assert run_one(isolate_jobs.allocate, 20, limits=Limits(60, 200)).value == 20 * 1024 * 1024


def test_job_failures_are_errors() -> None:
    assert run_one(int, "twelve", limits=NO_MEMORY_LIMIT).message.startswith("ValueError")
    # SystemExit(0) in a job is not a silent success; an unpicklable result is a failed job
    assert run_one(isolate_jobs.system_exit, None, limits=NO_MEMORY_LIMIT).status == "error"
    out = run_one(isolate_jobs.unpicklable, None, limits=NO_MEMORY_LIMIT)
    assert out.status == "error" and "cannot be sent back" in out.message
    with pytest.raises(CompileError, match="ValueError"):
        run_one(int, "x", limits=NO_MEMORY_LIMIT).raise_for_status()


@pytest.mark.parametrize("fresh", [False, True], ids=["worker", "per-job"])
def test_timeout_kills_the_whole_process_group(fresh: bool) -> None:
    # D5: the pool used to kill only the worker; a hung ptxas it started lived on with ppid 1.
    marker = f"tilefit-test-grandchild-{os.getpid()}-{fresh}"
    start = time.monotonic()
    out = run_many(isolate_jobs.hang_with_grandchild, [marker], limits=Limits(2, 0), fresh=fresh)
    assert out[0].status == "timeout" and "ran past 2 s" in out[0].message
    assert time.monotonic() - start < 10
    assert _wait_gone(marker), f"{marker} outlived the timeout"


def test_unreadable_results_are_crashes_not_exceptions() -> None:
    # D26: a truncated result used to raise UnpicklingError in the parent.
    truncated = run_one(isolate_jobs.forge_frame, 22, limits=NO_MEMORY_LIMIT)
    assert truncated.status == "crashed" and "unreadable result" in truncated.message
    huge = run_one(isolate_jobs.forge_frame, 1 << 40, limits=NO_MEMORY_LIMIT)
    assert huge.status == "crashed" and "the limit is" in huge.message


def test_stderr_of_a_child_is_read_from_its_tail_only() -> None:
    # D26: the parent used to read the child's whole stderr (300 MB in, 329 MB of RSS) to keep 8000 chars.
    code = (
        "import isolate_jobs; from tilefit.isolate import Limits, run_one; "
        "o = run_one(isolate_jobs.spam_stderr, 120, limits=Limits(60, 0)); "
        # VmHWM, not ru_maxrss: ru_maxrss carries over the RSS of the process that forked this one
        "hwm = next(int(ln.split()[1]) for ln in open('/proc/self/status') if ln.startswith('VmHWM')); "
        "print(o.status, len(o.stderr_tail), o.stderr_tail.splitlines()[-1], o.message, hwm // 1024, sep='|')"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(HERE)])}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    status, size, last, message, rss_mb = out.stdout.strip().split("|")
    assert (status, last, message) == ("error", "the last line", "ValueError: spammed"), out.stdout + out.stderr
    assert 0 < int(size) <= 8000
    assert int(rss_mb) < 80, f"the parent grew to {rss_mb} MB reading 120 MB of stderr"


@pytest.mark.parametrize("value", [0, -1, float("nan"), float("inf"), 1e400])
def test_one_timeout_rule(value: float) -> None:
    # D13: 0 meant "no limit" in the sandbox and "kill at once" in the pool; nan made the pool spin.
    with pytest.raises(SettingsError, match="timeout"):
        Limits(timeout_s=value, memory_mb=0)


def test_absurd_memory_limits_are_refused() -> None:
    # D20: 99999999999999999999 made the sandbox raise from preexec_fn and every pool worker die.
    with pytest.raises(SettingsError, match="MB"):
        Limits(timeout_s=10, memory_mb=99999999999999999999)
    with pytest.raises(SettingsError):
        Limits(timeout_s=10, memory_mb=-5)


def test_child_stderr_is_only_for_children() -> None:
    with pytest.raises(RuntimeError), child_stderr():
        pass
    assert Outcome("timeout").failure_kind == "timeout" and Outcome("ok").failure_kind is None


@pytest.mark.parametrize(("signum", "fresh"), [(signal.SIGINT, False), (signal.SIGTERM, True)],
                         ids=["ctrl-c-workers", "sigterm-per-job"])
def test_ctrl_c_and_sigterm_leave_no_child_and_no_temp_dir(tmp_path: Path, signum: int, fresh: bool) -> None:
    # D4: children ran in their own session with no finally to kill them: orphans, and a temp dir left.
    marker = f"tilefit-test-interrupted-{os.getpid()}-{signum}"
    code = (  # Ctrl-C raises KeyboardInterrupt even where this test runs with SIGINT ignored (a `&` job)
        "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "import sys, isolate_jobs; from tilefit.isolate import Limits, run_many; "
        f"run_many(isolate_jobs.hang_with_grandchild, [{marker!r}] * 2, limits=Limits(300, 0), workers=2, "
        f"fresh={fresh})"
    )
    env = {**os.environ, "TMPDIR": str(tmp_path), "PYTHONPATH": os.pathsep.join([str(SRC), str(HERE)])}
    parent = subprocess.Popen([sys.executable, "-c", code], env=env, stderr=subprocess.PIPE)
    try:
        assert _wait_for(marker, 2), "the jobs never started"
        assert list(tmp_path.glob("tilefit-isolate-*"))
        parent.send_signal(signum)
        parent.wait(timeout=30)
    finally:
        parent.kill()
        parent.communicate()
    assert parent.returncode in ((-signal.SIGINT, 130) if signum == signal.SIGINT else (143,))
    assert _wait_gone(marker), "a child or grandchild outlived its interrupted parent"
    assert not list(tmp_path.glob("tilefit-isolate-*")), "the temporary directory was left behind"


def test_children_of_a_killed_parent_stop_themselves() -> None:
    # SIGKILL runs no finally: each child watches its parent and kills its own process group.
    marker = f"tilefit-test-orphan-{os.getpid()}"
    code = (
        "import isolate_jobs; from tilefit.isolate import Limits, run_one; "
        f"run_one(isolate_jobs.hang_with_grandchild, {marker!r}, limits=Limits(300, 0))"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(HERE)])}
    parent = subprocess.Popen([sys.executable, "-c", code], env=env)
    try:
        assert _wait_for(marker, 1)
    finally:
        parent.kill()
        parent.wait()
    assert _wait_gone(marker)


def _pids_with(text: str) -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit() and int(pid) != os.getpid():
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if text in cmd and state != "Z" and "import isolate_jobs" not in cmd:
                found.append(int(pid))
    return found


def _wait_for(marker: str, count: int, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if len(_pids_with(marker)) >= count:
            return True
        time.sleep(0.1)
    return False


def _wait_gone(marker: str, seconds: float = 5) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _pids_with(marker):
            return True
        time.sleep(0.1)
    for pid in _pids_with(marker):  # clean up what this test started before failing
        os.kill(pid, signal.SIGKILL)
    return False


def test_a_task_that_cannot_be_pickled_is_an_error_result() -> None:
    out = run_many(abs, [-1, lambda: 0, -3], limits=NO_MEMORY_LIMIT)
    assert [o.status for o in out] == ["ok", "error", "ok"] and "cannot be sent" in out[1].message

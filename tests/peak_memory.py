"""Runs a command and measures its peak resident memory, for the tests that bound it.

A process started from a test carries the test's own memory until it execs, and the kernel
counts that in the process's peak (ru_maxrss): so the command is started from a small
interpreter of its own, which forks it, waits for it and writes its peak to a file. The peak
of wait4 also counts the children the command waited for (a runner it started); `own_only`
reads the command's own high-water mark (VmHWM) instead, every few milliseconds until it ends
(growth in its last milliseconds could be missed).
"""

import pathlib
import subprocess
import sys
import tempfile

_MEASURE = """import os, sys, time
own = sys.argv[2] == "own"
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[3], sys.argv[3:])
hwm = 0
if own:
    while True:
        try:
            for line in open(f"/proc/{pid}/status"):
                if line.startswith("VmHWM:"):
                    hwm = max(hwm, int(line.split()[1]))
        except OSError:
            pass
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            break
        time.sleep(0.005)
else:
    _, status, usage = os.wait4(pid, 0)
    hwm = usage.ru_maxrss
open(sys.argv[1], "w").write(str(hwm))
sys.exit(os.waitstatus_to_exitcode(status))
"""


def run_measured(
    command: list[str], env: dict[str, str] | None = None, own_only: bool = False
) -> tuple[subprocess.CompletedProcess[str], int]:
    """The command's result (its exit code, stdout and stderr as text) and its peak resident
    bytes."""
    with tempfile.TemporaryDirectory() as tmp:
        peak = pathlib.Path(tmp) / "peak"
        r = subprocess.run(
            [sys.executable, "-c", _MEASURE, str(peak), "own" if own_only else "all", *command],
            capture_output=True,
            text=True,
            errors="replace",
            env=env,
        )
        return r, int(peak.read_text()) * 1024 if peak.exists() else 0

"""The operator counter of the kernel trace (optrace.cpp): a RecordFunction callback, as the
engine counts operators, for about a microsecond an operator call where torch.profiler spends
several (a MiniLM batch of 8 makes some 1,300 calls). It is C++ against *this* environment's
torch, so it is compiled here, once, with the environment's C++ compiler ($CXX, else c++ or
g++ on PATH), against the headers and libraries of the torch that is imported, and cached
($PROBAUDIT_RUNNER_CACHE, else $XDG_CACHE_HOME/probaudit/runner, else
~/.cache/probaudit/runner) under a name made of the source, torch's version and location, its
C++ ABI and the compiler. Where it cannot be built or loaded, `counter()` says why and the
trace counts from torch.profiler instead (trace.py); PROBAUDIT_RUNNER_TRACE=profiler asks for
that."""

from __future__ import annotations

import ctypes
import hashlib
import os
import pathlib
import shutil
import subprocess
import tempfile

import torch

SOURCE = pathlib.Path(__file__).with_name("optrace.cpp")
_LOADED = {}


class Counter:
    """The loaded library: start, stop, and read (clearing) the counts so far."""

    def __init__(self, lib: ctypes.CDLL) -> None:
        self.lib = lib
        lib.probaudit_optrace_read.restype = ctypes.c_longlong
        lib.probaudit_optrace_read.argtypes = [ctypes.c_char_p, ctypes.c_longlong]

    def start(self) -> None:
        if self.lib.probaudit_optrace_start() != 0:
            self.read()  # one left counting: its counts are dropped

    def stop(self) -> None:
        self.lib.probaudit_optrace_stop()

    def read(self) -> dict[str, int]:
        """{name: calls} since the last read."""
        size = 1 << 16
        while True:
            buf = ctypes.create_string_buffer(size)
            n = self.lib.probaudit_optrace_read(buf, size)
            if n >= 0:
                break
            size = -n
        out = {}
        for line in buf.value.decode("utf-8", "replace").splitlines():
            name, _, calls = line.rpartition("\t")
            out[name] = int(calls)
        return out


def _cache_dir() -> pathlib.Path:
    if os.environ.get("PROBAUDIT_RUNNER_CACHE"):
        return pathlib.Path(os.environ["PROBAUDIT_RUNNER_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(base) / "probaudit" / "runner"


def _compiler() -> str:
    cxx = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++")
    if not cxx:
        raise OSError("no C++ compiler in this environment ($CXX, c++ or g++)")
    return cxx


def _build(cxx: str, target: pathlib.Path) -> None:
    root = pathlib.Path(torch.__file__).resolve().parent
    abi = int(torch.compiled_with_cxx11_abi())
    cmd = [
        cxx,
        "-O2",
        "-shared",
        "-fPIC",
        "-std=c++17",
        f"-D_GLIBCXX_USE_CXX11_ABI={abi}",
        f"-I{root / 'include'}",
        str(SOURCE),
        f"-L{root / 'lib'}",
        "-lc10",
        "-ltorch_cpu",
        f"-Wl,-rpath,{root / 'lib'}",
    ]
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=target.name + ".", dir=target.parent)
    os.close(fd)
    try:
        r = subprocess.run(cmd + ["-o", tmp], capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            last = (r.stderr.strip().splitlines() or ["no message"])[-1]
            raise OSError(f"{cxx} could not build the operator counter: {last[:300]}")
        os.replace(tmp, target)  # another runner building it at once ends with the same file
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _key(cxx: str) -> str:
    h = hashlib.sha256(SOURCE.read_bytes())
    for part in (
        torch.__version__,
        str(pathlib.Path(torch.__file__).resolve()),
        str(torch.compiled_with_cxx11_abi()),
        os.path.realpath(shutil.which(cxx) or cxx),
    ):
        h.update(b"\0" + part.encode())
    return h.hexdigest()[:16]


def counter() -> tuple[Counter | None, str | None]:
    """(Counter, None), or (None, why the trace counts from the profiler)."""
    if "result" not in _LOADED:
        _LOADED["result"] = _load()
    return _LOADED["result"]


def _load() -> tuple[Counter | None, str | None]:
    if os.environ.get("PROBAUDIT_RUNNER_TRACE") == "profiler":
        return None, "PROBAUDIT_RUNNER_TRACE=profiler"
    try:
        cxx = _compiler()
        target = _cache_dir() / f"optrace-{_key(cxx)}.so"
        if not target.exists():
            _build(cxx, target)
        return Counter(ctypes.CDLL(str(target))), None
    except (OSError, subprocess.SubprocessError, AttributeError) as e:
        return None, str(e)

"""Differences between a pinned and a current environment fingerprint, each classified: can it
move the numbers? The same reading as `probaudit check` (core/analysis/fingerprint.cpp): leaves
compared by dotted path, the same sentence for each kind of difference; the tests hold the two to
the same answers on the same locks."""

from __future__ import annotations

from typing import Any, NamedTuple


class LockDifference(NamedTuple):
    path: str  # "torch", "env.OMP_NUM_THREADS", "kernel_libraries.flash-attn"
    pinned: Any  # None when absent on that side
    current: Any
    moves_numerics: bool
    why: str


def _flatten(j: Any, prefix: str, out: dict[str, Any]) -> None:
    if prefix == "libraries" and isinstance(j, list):
        for lib in j:
            if isinstance(lib, dict) and "name" in lib:
                out["libraries." + str(lib["name"])] = lib.get("path")
        return
    if isinstance(j, dict):
        for k, v in j.items():
            _flatten(v, k if not prefix else prefix + "." + k, out)
        return
    out[prefix] = j


def _text(v: Any) -> str:
    import json

    return v if isinstance(v, str) else json.dumps(v, separators=(",", ":"))


RUNNER_WHY = {
    "transformers": "another transformers: its model code can compute differently",
    "torch_cuda": "another CUDA build, cuDNN, cuBLAS or GPU: GPU kernels can differ",
    "cudnn": "another CUDA build, cuDNN, cuBLAS or GPU: GPU kernels can differ",
    "cublas": "another CUDA build, cuDNN, cuBLAS or GPU: GPU kernels can differ",
    "gpus": "another CUDA build, cuDNN, cuBLAS or GPU: GPU kernels can differ",
    "python": "another Python",
    "env": "a numerics-relevant environment variable",
}
NAMES_ONLY = {"environment", "executable", "prefix", "packages_sha256"}
ENGINE_WHY = {
    "engine": "another build of the engine: its code can compute differently",
    "torch": "another libtorch build: kernels and their dispatch can differ",
    "cuda": "another CUDA, cuDNN, cuBLAS, GPU or driver: GPU kernels can differ",
    "cpu": "another CPU or instruction set: ATen and BLAS pick other kernels",
    "threads": "another thread count: reductions can be split differently",
    "env_vars": "a numerics-relevant environment variable",
    "kernels": "other compiled kernels",
}


def _classify(path: str, pinned: Any, current: Any) -> tuple[bool, str]:
    top = path.split(".", 1)[0]
    name = path.split(".", 1)[1] if "." in path else path
    if top in ("kernel_libraries", "packages"):
        what = "a kernel library" if top == "kernel_libraries" else "a package"
        tail = f" ({what} that can change which kernels run)"
        if current is None or current == "":
            return True, f"{name} {_text(pinned)} present in A, absent in B{tail}"
        if pinned is None or pinned == "":
            return True, f"{name} {_text(current)} present in B, absent in A{tail}"
        return True, f"{name} {_text(pinned)} in A, {_text(current)} in B"
    if top in RUNNER_WHY:
        return True, RUNNER_WHY[top]
    if top in NAMES_ONLY:
        return False, "names the environment; what differs in it is listed on its own"
    if top in ("os", "schema", "env_vars_watched"):
        return False, "does not enter the computation"
    if path == "cpu.logical_cores":
        return False, "thread counts are recorded on their own"
    if top in ENGINE_WHY:
        return True, ENGINE_WHY[top]
    if top == "kind":
        return True, (
            "another runner (the engine, the transformers runner, a server): another "
            "computation altogether"
        )
    return True, "part of the runtime"


def fingerprint_diff(pinned: dict[str, Any], current: dict[str, Any]) -> list[LockDifference]:
    a: dict[str, Any] = {}
    b: dict[str, Any] = {}
    _flatten(pinned, "", a)
    _flatten(current, "", b)
    out = []
    for path in sorted(set(a) | set(b)):
        va, vb = a.get(path), b.get(path)
        if va != vb:
            moves, why = _classify(path, va, vb)
            out.append(LockDifference(path, va, vb, moves, why))
    return out

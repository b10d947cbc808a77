"""The kernel trace of a run (DESIGN.md): the ATen operators that ran in its forwards and, on
CUDA, the device kernels, with counts; the same form as the engine's trace, which also spans a
run, and counted the same way: every operator call, nested calls of the same name too.

The operators are counted by a RecordFunction callback as the engine counts them (optrace.py:
compiled for this environment's torch on first use, about a microsecond a call), or, where that
cannot be built, from torch.profiler's raw events (`kineto_results`), leaving out what torch's
own parser leaves out; both count the same (tests/test_transformers_runner.py). The profiler
records several microseconds an operator call, so a run that counts with it runs 10-20%
slower. Device kernels always come from torch.profiler (CUPTI). One profiler spans the run,
counted and started again every `harvest` forwards so that a long run's events never pile up;
the sums are the same either way.

Where a torch does not expose the raw events, key_averages() is the fallback; it counts the
same, except that it folds a call into a caller of the same name (aten::sum() calling
aten::sum.dim_IntList counts once there)."""

from __future__ import annotations

import collections
from collections.abc import Callable
from typing import Any

import torch

# What torch's own event parser leaves out (autograd bookkeeping, the profiler's own marks);
# left out here too, so that both readings name the same ops.
_DROPPED = ("aten::is_leaf", "aten::output_nr", "aten::_version")
HARVEST = 64  # forwards per profiler


def _raw_counts(
    prof: torch.profiler.profile, device_kernels: bool
) -> dict[tuple[str, bool], int] | None:
    """{(name, is_device_kernel): calls} from the raw events, or None without them."""
    results = getattr(getattr(prof, "profiler", None), "kineto_results", None)
    if results is None or not hasattr(results, "events"):
        return None
    cuda = torch.autograd.DeviceType.CUDA
    got = collections.Counter(
        (e.name(), device_kernels and e.device_type() == cuda)
        for e in results.events()
        if not (hasattr(e, "is_hidden_event") and e.is_hidden_event())
    )
    return {
        k: n for k, n in got.items() if k[0] not in _DROPPED and not k[0].startswith("profiler::")
    }


def _averaged_counts(prof: torch.profiler.profile) -> collections.Counter:
    cuda = torch.autograd.DeviceType.CUDA
    out = collections.Counter()
    for e in prof.key_averages():
        out[(e.key, e.device_type == cuda)] += e.count
    return out


def counts(
    prof: torch.profiler.profile, raw: bool = True, device_kernels: bool = False
) -> tuple[dict[str, int], dict[str, int]]:
    """({aten op: calls}, {device kernel: launches}) of a finished profile."""
    events = _raw_counts(prof, device_kernels) if raw else None
    if events is None:
        events = _averaged_counts(prof)
    ops, kernels = {}, {}
    for (name, on_device), n in events.items():
        if on_device:
            kernels[name] = n
        elif name.startswith("aten::"):
            ops[name] = n
    return ops, kernels


def _aten(names: dict[str, int]) -> dict[str, int]:
    return {k: n for k, n in names.items() if k.startswith("aten::") and k not in _DROPPED}


class RunTrace:
    """The kernel trace of everything run from its start to `result()`; probaudit sends nothing
    but the run's forwards in between (trace_start, trace_stop)."""

    def __init__(self, device: str, harvest: int = HARVEST, ops_from: str | None = None) -> None:
        """ops_from: "native" or "profiler" (None: native where it can be built)."""
        from . import optrace

        self.cuda = str(device).startswith("cuda")
        self.native, self.why_profiler = (
            (None, "asked for") if ops_from == "profiler" else optrace.counter()
        )
        if ops_from == "native" and self.native is None:
            raise RuntimeError(f"no native operator counter: {self.why_profiler}")
        self.ops_from = "native" if self.native else "profiler"
        self.acts = [] if self.native else [torch.profiler.ProfilerActivity.CPU]
        if self.cuda:
            self.acts.append(torch.profiler.ProfilerActivity.CUDA)
        self.harvest = max(1, int(harvest))
        self.ops, self.kernels = collections.Counter(), collections.Counter()
        self.prof, self.pending = None, 0
        if self.native:
            self.native.start()

    def forward(self, fn: Callable[[], Any]) -> Any:
        """fn(), counted."""
        if self.prof is None and self.acts:
            self.prof = torch.profiler.profile(activities=self.acts)
            self.prof.start()
        try:
            return fn()  # a forward copies its results to the CPU: its kernels have ended
        finally:
            self.pending += 1
            if self.pending >= self.harvest:
                self._count()

    def _count(self) -> None:
        if self.prof is not None:
            self.prof.stop()
            ops, kernels = counts(self.prof, device_kernels=self.cuda)
            if not self.native:
                self.ops.update(ops)
            self.kernels.update(kernels)
            self.prof = None
        self.pending = 0

    def result(self) -> dict[str, Any]:
        """{"ops", "device_kernels"} of everything counted so far (a CPU run says it has no
        device kernels); counting stops."""
        self._count()
        if self.native:
            self.native.stop()
            self.ops.update(_aten(self.native.read()))
            self.native = None
        trace = {"ops": dict(self.ops), "device_kernels": dict(self.kernels)}
        if not self.cuda:
            trace["device_kernels_unavailable"] = "a CPU run has no device kernels"
        return trace

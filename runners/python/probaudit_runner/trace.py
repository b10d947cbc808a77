"""The kernel trace of a batch (DESIGN.md): the ATen operators that ran and, on CUDA, the device
kernels, with counts, from torch.profiler; the same form as the engine's trace.

The counts are read from the profiler's raw events (`kineto_results`), which costs a few
milliseconds a batch; `key_averages()` builds a Python object per event first (~0.1 s for one
MiniLM batch of 8, more than the batch's forward pass is worth). Every call counts, as in the
engine's RecordFunction observer. Where a torch does not expose the raw events, key_averages()
is the fallback; it counts the same, except that it folds a call into a caller of the same name
(aten::sum() calling aten::sum.dim_IntList counts once there)."""
import collections

import torch


# What torch's own event parser leaves out (autograd bookkeeping, the profiler's own marks);
# left out here too, so that both readings name the same ops.
_DROPPED = ("aten::is_leaf", "aten::output_nr", "aten::_version")


def _raw_counts(prof, device_kernels):
    """{(name, is_device_kernel): calls} from the raw events, or None without them."""
    results = getattr(getattr(prof, "profiler", None), "kineto_results", None)
    if results is None or not hasattr(results, "events"):
        return None
    cuda = torch.autograd.DeviceType.CUDA
    got = collections.Counter(
        (e.name(), device_kernels and e.device_type() == cuda) for e in results.events()
        if not (hasattr(e, "is_hidden_event") and e.is_hidden_event()))
    return {k: n for k, n in got.items() if k[0] not in _DROPPED and not k[0].startswith("profiler::")}


def _averaged_counts(prof):
    cuda = torch.autograd.DeviceType.CUDA
    out = collections.Counter()
    for e in prof.key_averages():
        out[(e.key, e.device_type == cuda)] += e.count
    return out


def counts(prof, raw=True, device_kernels=False):
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


def traced(fn, device):
    acts = [torch.profiler.ProfilerActivity.CPU]
    cuda = str(device).startswith("cuda")
    if cuda:
        acts.append(torch.profiler.ProfilerActivity.CUDA)
    with torch.profiler.profile(activities=acts) as prof:
        result = fn()
    ops, kernels = counts(prof, device_kernels=cuda)
    trace = {"ops": ops, "device_kernels": kernels}
    if not cuda:
        trace["device_kernels_unavailable"] = "a CPU run has no device kernels"
    return result, trace

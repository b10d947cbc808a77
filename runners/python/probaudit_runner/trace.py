"""The kernel trace of a batch (DESIGN.md): the ATen operators that ran and, on CUDA, the device
kernels, with counts, from torch.profiler; the same form as the engine's trace."""
import torch


def traced(fn, device):
    acts = [torch.profiler.ProfilerActivity.CPU]
    cuda = str(device).startswith("cuda")
    if cuda:
        acts.append(torch.profiler.ProfilerActivity.CUDA)
    with torch.profiler.profile(activities=acts) as prof:
        result = fn()
    ops, kernels = {}, {}
    for evt in prof.key_averages():
        if evt.device_type == torch.autograd.DeviceType.CUDA:
            kernels[evt.key] = kernels.get(evt.key, 0) + evt.count
        elif evt.key.startswith("aten::"):
            ops[evt.key] = ops.get(evt.key, 0) + evt.count
    trace = {"ops": ops, "device_kernels": kernels}
    if not cuda:
        trace["device_kernels_unavailable"] = "a CPU run has no device kernels"
    return result, trace

"""The environment fingerprint of a transformers environment: what the transformers runner reports
(docs/runner-protocol.md, "env") and what `probaudit_lock.check` computes at a loader's start, one
code for both, so the two agree by construction."""

from __future__ import annotations

import hashlib
import importlib.metadata as md
import os
import platform
import sys
from typing import Any

# Installed libraries that change which kernels run (present or absent, with versions).
KERNEL_LIBRARIES = [
    "flash-attn",
    "flash-linear-attention",
    "fla-core",
    "xformers",
    "triton",
    "liger-kernel",
    "kernels",
    "bitsandbytes",
    "causal-conv1d",
    "mamba-ssm",
    "deepspeed",
]
# Environment variables that can move numbers (exact names, then prefixes).
ENV_NAMES = {
    "CUBLAS_WORKSPACE_CONFIG",
    "NVIDIA_TF32_OVERRIDE",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "ATEN_CPU_CAPABILITY",
    "CUDA_VISIBLE_DEVICES",
    "PYTHONHASHSEED",
}
ENV_PREFIXES = (
    "TORCH_",
    "PYTORCH_",
    "CUDA_",
    "CUDNN_",
    "NCCL_",
    "MKL_",
    "OMP_",
    "ONEDNN_",
    "DNNL_",
    "TRANSFORMERS_",
    "FLA_",
    "XFORMERS_",
)


def _norm(name: str) -> str:
    return name.lower().replace("_", "-")


# This package itself: installed into a model's environment to check it, it is not part of what
# was pinned and computes nothing.
OWN_DISTRIBUTION = "probaudit-lock"


def packages() -> dict[str, str]:
    """Every installed distribution, {normalized name: version}, this package left out."""
    out = {}
    for d in md.distributions():
        name = d.metadata.get("Name")
        if name and _norm(name) != OWN_DISTRIBUTION:
            out[_norm(name)] = d.version
    return dict(sorted(out.items()))


# Settings under those prefixes that only say how much is logged: ProbAudit's runner sets one,
# a model's own loader does not, and neither moves a number.
ENV_LOGGING = {"TRANSFORMERS_VERBOSITY", "TRANSFORMERS_NO_ADVISORY_WARNINGS"}


def numerics_env() -> dict[str, str]:
    """The environment variables that can move numbers, as they are set in this process."""
    return {
        k: v
        for k, v in sorted(os.environ.items())
        if (k in ENV_NAMES or k.startswith(ENV_PREFIXES)) and k not in ENV_LOGGING
    }


def collect() -> dict[str, Any]:
    import torch
    import transformers

    pk = packages()
    env = numerics_env()
    fp = {
        "kind": "transformers",
        "python": platform.python_version(),
        "executable": sys.executable,
        "prefix": sys.prefix,
        "torch": torch.__version__,
        "torch_cuda": torch.version.cuda or "",
        "cudnn": str(torch.backends.cudnn.version() or "")
        if torch.backends.cudnn.is_available()
        else "",
        "cublas": pk.get("nvidia-cublas", pk.get("nvidia-cublas-cu12", "")),
        "transformers": transformers.__version__,
        "kernel_libraries": {name: pk.get(name, "") for name in KERNEL_LIBRARIES},
        "env": env,
        "cpu": {
            "machine": platform.machine(),
            "capability": torch.backends.cpu.get_cpu_capability(),
        },
        # Apart from "cpu", as the engine's: a thread count is a config axis of its own.
        "threads": {"intra_op": torch.get_num_threads()},
        "packages": pk,
        "packages_sha256": hashlib.sha256(
            "\n".join(f"{k}=={v}" for k, v in pk.items()).encode()
        ).hexdigest(),
    }
    if torch.cuda.is_available():
        fp["gpus"] = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
    return fp

#!/usr/bin/env python3
"""The GEMM paths a CPU linear can take, on SmolLM2-135M's projection shapes (576 -> 576, 192,
1536 and 1536 -> 576), at 70 rows (one item) and 560 (a batch of 8): MKL's sgemm through
F.linear (PyTorch eager, the engine's `gemm: aten`), the same on a transposed copy of the weight,
MKL's packed GEMM, and oneDNN's GEMM on a weight packed once (the engine's `gemm: onednn`). Per
call microseconds (mean of 200 after 2 warm-up calls) and whether each gives F.linear's bits; the
last column checks that oneDNN's rows do not depend on how many rows are multiplied together.

    .venv/bin/python bench/gemm_paths.py [--threads 2]
"""

import argparse
import time
from collections.abc import Callable
from typing import Any

import torch
import torch.nn.functional as F


def per_call_us(f: Callable[[], Any], reps: int = 200) -> float:
    f()
    f()
    t0 = time.perf_counter()
    for _ in range(reps):
        f()
    return (time.perf_counter() - t0) / reps * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    print(
        "| rows | K -> N | linear (MKL) | x @ W^T copy | MKL packed | oneDNN packed "
        "| oneDNN / linear | same bits: copy, MKL packed, oneDNN "
        "| oneDNN rows alone = in the batch |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for m in (70, 560):
        for k, n in ((576, 576), (576, 192), (576, 1536), (1536, 576)):
            x = torch.randn(m, k)
            w = torch.randn(n, k) * 0.05
            wt = w.t().contiguous()
            ref = F.linear(x, w)
            mkl = torch.ops.mkl._mkl_reorder_linear_weight(w, m)
            dnn = torch.ops.mkldnn._reorder_linear_weight(w, None)

            def onednn(v: torch.Tensor) -> torch.Tensor:
                return torch.ops.mkldnn._linear_pointwise(v, dnn, None, "none", [], "")

            t = [
                per_call_us(lambda: F.linear(x, w)),
                per_call_us(lambda: x @ wt),
                per_call_us(lambda: torch.ops.mkl._mkl_linear(x, mkl, w, None, m)),
                per_call_us(lambda: onednn(x)),
            ]
            same = [
                torch.equal(x @ wt, ref),
                torch.equal(torch.ops.mkl._mkl_linear(x, mkl, w, None, m), ref),
                torch.equal(onednn(x), ref),
            ]
            full = onednn(x)
            alone = all(torch.equal(onednn(x[:r]), full[:r]) for r in (7, 35, m // 2))
            print(
                f"| {m} | {k} -> {n} | {t[0]:.0f} us | {t[1]:.0f} us | {t[2]:.0f} us | "
                f"{t[3]:.0f} us | "
                f"{t[3] / t[0]:.2f} | {', '.join('yes' if s else 'no' for s in same)} | "
                f"{'yes' if alone else 'no'} |",
                flush=True,
            )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Where the transformers runner's time goes, in one process (no protocol, no ledger): the
same batches as bench/runner_vs_transformers.py through the plain loop, through the runner's
LoadedModel.forward (capture hashes) untraced, traced as a recorded run traces (one profiler
over the run, trace.RunTrace), and traced with a profiler of its own around every batch (what
runner 0.2 did); then the three row hash methods on one batch's hidden states. Alternating,
median of --reps; ratios against the plain loop. A diagnostic for #25, not a bar.

    .venv/bin/python bench/runner_costs.py [--model all-MiniLM-L6-v2|SmolLM2-135M] [--reps 7]
"""

import argparse
import json
import os
import pathlib
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "runners" / "python"))
os.environ.setdefault(
    "PROBAUDIT_ROWHASH_LIB",
    str(ROOT / "build" / "default" / "lib" / "probaudit" / "libprobaudit_rowhash.so"),
)

import runner_vs_transformers as rvt  # noqa: E402
import torch  # noqa: E402
from probaudit_runner.model import LoadedModel  # noqa: E402
from probaudit_runner.rowhash import hash_batch, native  # noqa: E402
from probaudit_runner.trace import RunTrace, counts  # noqa: E402


def timed(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="all-MiniLM-L6-v2", choices=sorted(rvt.CASES))
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--items", type=int, default=200)
    a = ap.parse_args()
    case = rvt.CASES[a.model]
    texts = [json.loads(line)["text"] for line in rvt.SENTENCES.read_text().splitlines()][: a.items]
    loop = rvt.Loop(case, texts)  # sets the threads
    m = LoadedModel(str(case["path"]), case["head"], "float32", "cpu", "math")
    rows = [r["ids"] for r in m.tokenize(texts, 0)]
    batches = [rows[i : i + rvt.BATCH] for i in range(0, len(rows), rvt.BATCH)]
    side = "left" if case["head"]["kind"] == "label_tokens" else "right"

    def untraced() -> None:
        for b in batches:
            m.forward(b, side, "longest", 0, "hashes")

    def run_traced() -> None:
        trace = RunTrace("cpu")
        for b in batches:
            trace.forward(lambda: m.forward(b, side, "longest", 0, "hashes"))
        trace.result()

    def every_batch_traced() -> None:
        for b in batches:
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as p:
                m.forward(b, side, "longest", 0, "hashes")
            counts(p)

    sides = {
        "plain transformers loop": loop.seconds,
        "runner forward, capture hashes": untraced,
        "runner forward, capture hashes, run traced": run_traced,
        "runner forward, capture hashes, every batch traced": every_batch_traced,
    }
    for fn in sides.values():
        fn()  # warm-up
    times = {k: [] for k in sides}
    for _ in range(a.reps):
        for k, fn in sides.items():
            times[k].append(timed(fn))
    base = statistics.median(times["plain transformers loop"])
    print(
        f"{a.model}: {len(batches)} batches of {rvt.BATCH}, {torch.get_num_threads()} threads, "
        f"{a.reps} alternations (ratio = loop time / this time)"
    )
    for k, v in times.items():
        print(
            f"  {k}: {statistics.median(v):.3f} s (min {min(v):.3f}, max {max(v):.3f}), "
            f"{base / statistics.median(v):.2f}x"
        )

    ids, mask, pos, start = m.batch(batches[0], side, "longest", 0)
    with torch.inference_mode():
        kw = {"position_ids": pos} if m.takes_positions else {}
        hidden = m.model(
            input_ids=ids, attention_mask=mask, output_hidden_states=True, **kw
        ).hidden_states
    lengths = [len(r) for r in batches[0]]
    methods = ["native", "numpy", "torch"] if native() is not None else ["numpy", "torch"]
    print(
        f"  row hash of batch 0 ({len(hidden)} hidden states, {ids.shape[0]} x {ids.shape[1]} "
        f"tokens), median of {a.reps}:"
    )
    for method in methods:
        t = [
            timed(lambda: hash_batch(hidden, start, lengths, torch.get_num_threads(), method))
            for _ in range(a.reps)
        ]
        print(f"    {method}: {1000 * statistics.median(t):.1f} ms")


if __name__ == "__main__":
    main()

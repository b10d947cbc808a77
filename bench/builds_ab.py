#!/usr/bin/env python3
"""Two builds of the engine against each other (a speed change, issue #28): the same `probaudit
score` runs as bench/engine_vs_transformers.py makes them (fresh process, warm-up pass, fastest of
3 passes), the builds alternating (OLD NEW OLD NEW ...); the ratio is NEW items/s over OLD, median
with min and max. bench/same_bits.sh checks that the two compute the same bits.

    .venv/bin/python bench/builds_ab.py OLD_PROBAUDIT NEW_PROBAUDIT [--model SmolLM2-135M-Instruct]
        [--kernels default|batch_invariant] [--batches 1,8] [--reps 5] [--items 32]
"""

import argparse
import os
import pathlib
import statistics
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import engine_vs_transformers as evt  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--model", default="SmolLM2-135M-Instruct", choices=list(evt.CASES))
    ap.add_argument("--kernels", default="default", choices=["default", "batch_invariant"])
    ap.add_argument("--batches", default="1,8")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--items", type=int, default=32)
    a = ap.parse_args()
    for exe in (a.old, a.new):
        if not os.access(exe, os.X_OK):
            sys.exit(f"builds_ab: {exe} is not an executable")
    case = evt.CASES[a.model]
    for batch in [int(b) for b in a.batches.split(",")]:
        old, new = [], []
        for _ in range(a.reps):
            for exe, out in ((a.old, old), (a.new, new)):
                evt.ENGINE = exe
                out.append(evt.engine_run(case, batch, 2, evt.ITEMS, a.items, 3, kernels=a.kernels))
        ratios = [n / o for n, o in zip(new, old)]
        print(
            f"{a.model}, {a.kernels} kernels, batch {batch}: old {statistics.median(old):.2f}, new "
            f"{statistics.median(new):.2f} items/s; new / old {statistics.median(ratios):.3f} "
            f"({min(ratios):.3f}-{max(ratios):.3f}, {a.reps} runs)",
            flush=True,
        )


if __name__ == "__main__":
    main()

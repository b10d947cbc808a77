#!/usr/bin/env python3
"""What recording the whole vocabulary costs (#52): a SmolLM2 label-head run (demo study E's
head and reference variant, the package's Q4_1 GGUF; batch 8, 2 threads, float32) through
`probaudit run` into a fresh ledger, once with the head's "vocabulary": true (every token's
log-probability at the decision position, stored and sealed) and once without, alternating.
The ratio is the run's items/s with the vocabulary over its items/s without (>= 0.91x: it adds
at most 10%). A second line gives the ledger's bytes per item with it and the time
`summary --variants` takes to compute KL and same top token from the stored rows.

    .venv/bin/python bench/vocabulary_bench.py [--reps 5] [--quick]
"""

import argparse
import json
import pathlib
import statistics
import subprocess
import tempfile
import time
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[1]
CLI = ROOT / "build" / "default" / "bin" / "probaudit"
MODEL = ROOT / ".cache" / "models" / "SmolLM2-135M-Instruct" / "SmolLM2-135M-Instruct.Q4_1.gguf"
DATASET = ROOT / "resources" / "demo" / "sentiment-sentences" / "yelp.jsonl"
TEMPLATE = (
    "<|im_start|>user\nIs the sentiment of this review positive? Answer Yes or No.\n"
    "Review: {text}<|im_end|>\n<|im_start|>assistant\n"
)


def study(items: int, vocabulary: bool, models: bool = False) -> dict[str, Any]:
    head: dict[str, Any] = {"kind": "label_tokens", "template": TEMPLATE, "labels": [" No", " Yes"]}
    if vocabulary:
        head["vocabulary"] = True
    s: dict[str, Any] = {
        "name": "vocabulary-bench",
        "heads": {"yes-no": head},
        "dataset": {
            "path": str(DATASET),
            "labels": ["negative", "positive"],
            "limit": items,
            "seed": 7,
        },
        "capture": "hashes",
        "configs": {"reference": {"batch_size": 8, "threads": 2}},
        "reference": "reference",
    }
    if models:  # the same file twice: a variants table to time the KL of
        s["models"] = {"a": {"path": str(MODEL)}, "b": {"path": str(MODEL)}}
        s["configs"]["b"] = {"batch_size": 8, "threads": 2, "model": "b"}
    else:
        s["model"] = {"path": str(MODEL)}
    return s


def timed_run(path: pathlib.Path, ledger: pathlib.Path) -> float:
    ledger.unlink(missing_ok=True)
    t0 = time.perf_counter()
    subprocess.run(
        [str(CLI), "run", str(path), "--all", "--ledger", str(ledger)],
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - t0


def vocabulary_overhead(reps: int, quick: bool) -> tuple[list[dict[str, Any]], list[dict]]:
    """The ratio row (with / without) and a line with the ledger's size and the KL's time."""
    n = 16 if quick else 96
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        paths = {}
        for v in (False, True):
            paths[v] = d / f"v{int(v)}.study.json"
            paths[v].write_text(json.dumps(study(n, v)))
        timed_run(paths[False], d / "warm.ledger")  # page cache, model file
        with_v, without, ratios = [], [], []
        for _ in range(reps):
            a = n / timed_run(paths[False], d / "a.ledger")
            b = n / timed_run(paths[True], d / "b.ledger")
            without.append(a)
            with_v.append(b)
            ratios.append(b / a)
        per_item = ((d / "b.ledger").stat().st_size - (d / "a.ledger").stat().st_size) / n
        variants = d / "variants.study.json"
        variants.write_text(json.dumps(study(n, True, models=True)))
        timed_run(variants, d / "variants.ledger")
        t0 = time.perf_counter()
        subprocess.run(
            [str(CLI), "summary", str(d / "variants.ledger"), "--variants", "--json"],
            check=True,
            capture_output=True,
        )
        summary = time.perf_counter() - t0
    med, lo, hi = statistics.median(ratios), min(ratios), max(ratios)
    row = {
        "what": f"SmolLM2-135M-Instruct: label head with the whole vocabulary recorded "
        f"(probaudit run, batch 8, float32, 2 threads, {n} items)",
        "peer": "the same run without",
        "ratio": med,
        "min": lo,
        "max": hi,
        "a": statistics.median(with_v),
        "b": statistics.median(without),
        "unit": "items/s",
        "bar": ">= 0.91x",
        "reps": reps,
    }
    line = {
        "what": "SmolLM2-135M-Instruct: the vocabulary in the ledger, and `summary --variants` "
        f"computing KL and same top token for one pair of {n}-item runs",
        "value": f"{per_item / 1024:.0f} KiB an item; {summary:.2f} s",
        "bar": "-",
    }
    return [row], [line]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    rows, lines = vocabulary_overhead(a.reps, a.quick)
    print(json.dumps(rows + lines, indent=1))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The transformers runner's overhead: 200 items of MiniLM (adapter head) and SmolLM2 (label
tokens) recorded by `probaudit run` through the transformers runner, against a plain
transformers loop doing the same batches in this process. Alternating A B A B, each side
timed over its batches only, both in steady state: the loop after a warm-up pass in this
process; the runner's run after a warm-up run of the same config by the same runner process (a
study runs all its configs in one runner per environment, so every config after a study's first
runs in a warm process too). The runner's time is its run's "seconds" from the run-finished
event, which starts after the model is loaded and the items tokenized. Ratio = the loop's time /
the runner's time (>= 0.95x is the bar).

The runner does what a recorded run does (capture of per-layer hashes, hashed by the engine's
row hash library; the run's kernel trace, its operators counted by a RecordFunction callback;
one ledger transaction per batch); the row "capture none" leaves out the hashes. The loop does
none of this.

    .venv/bin/python bench/runner_vs_transformers.py [--reps 5] [--quick] [--only MODEL]
"""

import argparse
import json
import pathlib
import subprocess
import sys
import tempfile
import time
from typing import Any

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
ROOT = pathlib.Path(__file__).resolve().parents[1]
BIN = ROOT / "build" / "default" / "bin" / "probaudit"
MODELS = ROOT / ".cache" / "models"
SENTENCES = ROOT / "resources" / "demo" / "sentiment-sentences" / "yelp.jsonl"
ADAPTER = ROOT / "tests" / "fixtures" / "adapters" / "all-MiniLM-L6-v2-mean.safetensors"
SMOLLM_TEMPLATE = (
    "<|im_start|>user\nIs the sentiment of this review positive? Answer Yes or "
    "No.\nReview: {text}<|im_end|>\n<|im_start|>assistant\n"
)
CASES = {
    "all-MiniLM-L6-v2": {
        "path": MODELS / "all-MiniLM-L6-v2",
        "head": {"kind": "adapter", "path": str(ADAPTER)},
    },
    "SmolLM2-135M": {
        "path": MODELS / "SmolLM2-135M-Instruct-hf",
        "head": {"kind": "label_tokens", "template": SMOLLM_TEMPLATE, "labels": ["No", "Yes"]},
    },
}
BATCH, THREADS = 8, 2
CONFIG = {"runner": "transformers", "batch_size": BATCH, "threads": THREADS}


def write_study(
    d: pathlib.Path, name: str, case: dict[str, Any], items: int, capture: str
) -> pathlib.Path:
    study = {
        "name": name,
        "model": {"path": str(case["path"])},
        "heads": {"h": case["head"]},
        "dataset": {"path": str(SENTENCES), "labels": ["negative", "positive"], "limit": items},
        "capture": capture,
        "environments": {"venv": {"python": sys.executable}},
        "configs": {"warm-up": {**CONFIG, "repeat": 1}, "hf": CONFIG},
        "reference": "warm-up",  # the reference runs first
    }
    path = d / f"{name}-{capture}.study.json"
    path.write_text(json.dumps(study))
    return path


def runner_seconds(study: pathlib.Path) -> float:
    """The "hf" run's seconds, recorded after the warm-up config in the same runner."""
    out = subprocess.run(
        [BIN, "run", study, "--all", "--again", "--events", "jsonl"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    finished = [json.loads(line) for line in out.splitlines() if '"run-finished"' in line]
    if [e.get("config") for e in finished] != ["warm-up", "hf"]:
        raise RuntimeError(f"expected the warm-up run, then hf: {finished}")
    return finished[1]["seconds"]


class Loop:
    """What a user writes: tokenizer with padding, the model, the head, batch after batch."""

    def __init__(self, case: dict[str, Any], texts: list[str]) -> None:
        from transformers import AutoModel, AutoModelForCausalLM, AutoTokenizer

        torch.set_num_threads(THREADS)
        head = case["head"]
        self.tok = AutoTokenizer.from_pretrained(str(case["path"]))
        self.causal = head["kind"] == "label_tokens"
        cls = AutoModelForCausalLM if self.causal else AutoModel
        self.model = cls.from_pretrained(
            str(case["path"]), dtype=torch.float32, attn_implementation="eager"
        ).eval()
        if self.causal:
            prompts = [head["template"].replace("{text}", t) for t in texts]
            self.ids = [
                self.tok(label, add_special_tokens=False)["input_ids"][0]
                for label in head["labels"]
            ]
            self.tok.padding_side = "left"
            if self.tok.pad_token is None:
                self.tok.pad_token = self.tok.eos_token
        else:
            from safetensors.torch import load_file

            prompts = texts
            ad = load_file(head["path"])
            self.w, self.b = ad["weight"], ad["bias"]
        self.batches = [
            self.tok(prompts[i : i + BATCH], padding=True, return_tensors="pt")
            for i in range(0, len(prompts), BATCH)
        ]

    def seconds(self) -> float:
        t0 = time.perf_counter()
        with torch.inference_mode():
            for enc in self.batches:
                if self.causal:
                    logits = self.model(**enc, logits_to_keep=1).logits[:, -1]
                    torch.softmax(logits[:, self.ids].float(), -1)
                else:
                    h = self.model(**enc).last_hidden_state
                    m = enc["attention_mask"].unsqueeze(-1).float()
                    pooled = (h * m).sum(1) / m.sum(1).clamp(min=1e-9)
                    torch.softmax(torch.nn.functional.linear(pooled, self.w, self.b), -1)
        return time.perf_counter() - t0


def runner_overhead(reps: int, quick: bool, only: str | None = None) -> list[dict[str, Any]]:
    """Rows as bench/run_all.py's ratio_row makes them (imported there)."""
    from run_all import ratio_row

    items = 40 if quick else 200
    texts = [json.loads(line)["text"] for line in SENTENCES.read_text().splitlines()]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        for name, case in CASES.items():
            if only and name != only:
                continue
            # The study's items are the dataset's first `items` (no seed): the loop reads those.
            loop = Loop(case, texts[:items])
            loop.seconds()  # warm-up
            for capture in ("hashes", "none"):
                study = write_study(d, name, case, items, capture)
                runner_seconds(study)  # records once: later runs are --again, warm caches
                ratios, a, b = [], [], []
                for _ in range(reps):
                    r = runner_seconds(study)
                    p = loop.seconds()
                    a.append(items / r)
                    b.append(items / p)
                    ratios.append(p / r)
                rows.append(
                    ratio_row(
                        f"{name}: transformers runner (capture {capture}), batch "
                        f"{BATCH}, float32, {THREADS} threads ({items} items)",
                        "plain transformers loop",
                        ratios,
                        a,
                        b,
                        bar=">= 0.95x" if capture == "hashes" else None,
                    )
                )
                print(rows[-1], flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", choices=list(CASES), help="one model")
    a = ap.parse_args()
    for r in runner_overhead(a.reps, a.quick, a.only):
        print(
            f"{r['what']}: {r['ratio']:.2f}x ({r['min']:.2f}-{r['max']:.2f}), "
            f"{r['a']:.1f} vs {r['b']:.1f} items/s, bar {r['bar']}"
        )


if __name__ == "__main__":
    main()

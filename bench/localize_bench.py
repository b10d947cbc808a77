#!/usr/bin/env python3
"""The cost of `probaudit localize`: 32 items of SmolLM2-135M-Instruct (its Yes/No answer as the
next token), the reference (one input at a time) against batches of 8 with left padding, in a
study recorded here. The 32 items are the first four batches of B's study run, so B's baseline
pass (which replays those batches) records exactly those 32 items once under B: the peer the
localisation's time is divided by, measured in the same run.

    .venv/bin/python bench/localize_bench.py     prints the localisation's figures as JSON
"""

import json
import pathlib
import subprocess
import sys
import tempfile
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[1]
CLI = ROOT / "build" / "default" / "bin" / "probaudit"
MODEL = ROOT / ".cache" / "models" / "SmolLM2-135M-Instruct-hf"
TEMPLATE = (
    "<|im_start|>user\nIs the sentiment of this review positive? Answer Yes or No.\n"
    "Review: {text}<|im_end|>\n<|im_start|>assistant\n"
)


def study(tmp: pathlib.Path) -> pathlib.Path:
    path = tmp / "localize.study.json"
    path.write_text(
        json.dumps(
            {
                "name": "bench-localize-smollm2",
                "model": {"path": str(MODEL)},
                "heads": {
                    "yes-no": {
                        "kind": "label_tokens",
                        "template": TEMPLATE,
                        "labels": ["No", "Yes"],
                    }
                },
                "dataset": {
                    "path": str(ROOT / "resources/demo/sentiment-sentences/yelp.jsonl"),
                    "limit": 32,
                },
                "capture": "hashes",
                "reference": "reference",
                "configs": {
                    "reference": {},
                    "batch-8-left": {"batch_size": 8, "padding_side": "left"},
                },
            }
        )
    )
    return path


def localize() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        s = study(pathlib.Path(tmp))
        subprocess.run([CLI, "run", s, "--all"], check=True, capture_output=True)
        lines = (ROOT / "resources/demo/sentiment-sentences/yelp.jsonl").read_text().splitlines()
        ids = ",".join(json.loads(line)["id"] for line in lines[:32])
        out = subprocess.run(
            [CLI, "localize", s, "--b", "batch-8-left", "--items", ids, "--json"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    j = json.loads(out)
    differ = [c for c in j["items"] if c["status"] != "no difference"]
    explained = [c for c in differ if c["cause_explains"] or c["set_explains"]]
    return {
        "items": len(j["items"]),
        "passes": j["passes"],
        "seconds": round(j["seconds"], 1),
        "baseline_b_seconds": round(j["baseline_b_seconds"], 2),
        "ratio": round(j["seconds"] / j["baseline_b_seconds"], 1),
        "differ": len(differ),
        "explained": len(explained),
        "causes": sorted({c["cause_class"] for c in explained if c["cause_explains"]}),
    }


if __name__ == "__main__":
    json.dump(localize(), sys.stdout, indent=1)
    print()

#!/usr/bin/env python3
"""End to end: `probaudit run STUDY --all` into a fresh ledger, timed from the outside.

Reports the wall time of the whole command (model load, tokenization, planning, forward passes,
ledger writes, sealing) and the share of it spent outside the forward pass (wall minus the sum
of the runs' forward-and-head seconds, which the engine measures per batch).

    .venv/bin/python bench/study_end_to_end.py [STUDY]
        (default STUDY: bench/studies/minilm-6-configs.study.json)
"""

import json
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
CLI = ROOT / "build" / "default" / "bin" / "probaudit"


def main() -> None:
    study = (
        pathlib.Path(sys.argv[1])
        if len(sys.argv) > 1
        else ROOT / "bench" / "studies" / "minilm-6-configs.study.json"
    )
    with tempfile.TemporaryDirectory() as tmp:
        ledger = pathlib.Path(tmp) / "e2e.ledger"
        t0 = time.perf_counter()
        out = subprocess.run(
            [str(CLI), "run", str(study), "--all", "--ledger", str(ledger), "--events", "jsonl"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        wall = time.perf_counter() - t0
        events = [json.loads(line) for line in out.splitlines() if line.strip()]
        runs = [e for e in events if e["event"] == "run-finished"]
        forward = sum(r["forward_seconds"] for r in runs)
        in_runs = sum(r["seconds"] for r in runs)
        verify = subprocess.run([str(CLI), "verify", str(ledger)], capture_output=True, text=True)
        result = {
            "study": str(study.relative_to(ROOT)) if study.is_relative_to(ROOT) else str(study),
            "runs": len(runs),
            "items_per_run": runs[0]["items_done"] if runs else 0,
            "wall_seconds": round(wall, 2),
            "forward_seconds": round(forward, 2),
            "run_loop_seconds": round(in_runs, 2),
            "outside_forward_share": round((wall - forward) / wall, 4),
            "per_config": {r["config"]: round(r["seconds"], 2) for r in runs},
            "ledger_mib": round(ledger.stat().st_size / 2**20, 1),
            "verify": verify.stdout.strip(),
        }
        print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Sweeps beyond one machine (issue bars), for bench/run_all.py or on their own:

- merge: `ledger_bench --merge-shards 20` writes 20 shard ledgers holding 100,000 items x 2
  runs (hash capture, 33 layer hashes per record) and times `probaudit merge`'s core.
- Slurm overhead: demo study A recorded once by `probaudit run --all` on this machine, then as
  a 3-shard `probaudit sweep --slurm` on a real single-node Slurm cluster on this machine
  (tests/slurm_cluster.py; needs root), from submission until `--merge` has written the
  ledger. Each task asks for 2 CPUs (-c 2), so on a 2-core machine the tasks run one after
  another on the same cores the one-node run had: the difference is the scheduler's latency,
  three engine start-ups instead of one, and the merge. Reported with the submission-to-first-
  task latency.
- Remote engine: demo study A (9 configs x 400 items) recorded by `probaudit run` here and
  by `probaudit run --engine ssh://` through a real sshd on 127.0.0.1 (tests/ssh_server.py;
  needs root), alternating 5 times after a warm-up pair; items/s over the whole command (for the
  remote one: ssh, the run, copying the ledger back and verifying it).

  .venv/bin/python bench/sweep_bench.py     (prints the rows as JSON)
"""

import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[1]
BIN = ROOT / "build" / "default" / "bin"
STUDY = ROOT / "resources" / "demo" / "studies" / "sentiment-minilm.study.json"


def run(cmd: Sequence[object], env: dict[str, str] | None = None) -> str:
    return subprocess.run(
        [str(c) for c in cmd], check=True, capture_output=True, text=True, env=env
    ).stdout


def merge_lines() -> list[dict[str, Any]]:
    r = json.loads(
        run([BIN / "ledger_bench", "--merge-shards", "20", "--items", "100000", "--runs", "2"])
    )
    assert r["merged_verify_ok"] and r["merged_items"] == 100000
    return [
        {
            "what": "merge: 20 shard ledgers, 100,000 items x 2 runs, hash capture "
            "(`probaudit merge`: every shard verified, merged, sealed)",
            "value": f"{r['merge_seconds']:.2f} s",
            "bar": "< 10 s",
        }
    ]


def demo_adapter() -> None:
    adapter = ROOT / "out" / "demo" / "minilm-amazon-adapter.safetensors"
    if not adapter.exists():
        adapter.parent.mkdir(parents=True, exist_ok=True)
        run(
            [
                BIN / "probaudit",
                "train-adapter",
                ROOT / ".cache/models/all-MiniLM-L6-v2",
                "--data",
                ROOT / "resources/demo/sentiment-sentences/amazon.jsonl",
                "--seed",
                "2015",
                "-o",
                adapter,
            ]
        )


def slurm_lines() -> list[dict[str, Any]]:
    if os.geteuid() != 0 or shutil.which("slurmctld") is None:
        return [
            {
                "what": "Slurm sweep overhead",
                "value": "not measured (needs root and slurm-wlm)",
                "bar": "report",
            }
        ]
    with tempfile.TemporaryDirectory() as tmp:
        cluster = pathlib.Path(tmp) / "cluster"
        cluster.mkdir()
        env = dict(os.environ, SLURM_CONF=str(cluster / "slurm.conf"))
        demo_adapter()
        sweep_dir = pathlib.Path(tmp) / "sweep"
        sweep = ["--dir", sweep_dir]
        try:
            run([sys.executable, ROOT / "tests" / "slurm_cluster.py", "start", cluster])
            t0 = time.perf_counter()
            run(
                [
                    BIN / "probaudit",
                    "run",
                    STUDY,
                    "--all",
                    "--ledger",
                    pathlib.Path(tmp) / "one.ledger",
                ]
            )
            one = time.perf_counter() - t0
            t1 = time.perf_counter()
            run(
                [BIN / "probaudit", "sweep", STUDY, "--slurm", "--shards", "3", "--extra", "-c 2"]
                + sweep,
                env,
            )
            first = None
            while True:
                st = run([BIN / "probaudit", "sweep", STUDY, "--status"] + sweep, env)
                rows = st.strip().split("\n")[2:-1]  # the table, less its header and summary
                if first is None and any(r.endswith(("running", "complete")) for r in rows):
                    first = time.perf_counter() - t1
                if "3 complete" in st:
                    break
                if " 0 failed" not in st:
                    raise SystemExit("sweep_bench: a shard failed:\n" + st)
                time.sleep(0.25)
            run(
                [
                    BIN / "probaudit",
                    "sweep",
                    STUDY,
                    "--merge",
                    "-o",
                    pathlib.Path(tmp) / "merged.ledger",
                ]
                + sweep,
                env,
            )
            wall = time.perf_counter() - t1
        finally:
            subprocess.run([sys.executable, ROOT / "tests" / "slurm_cluster.py", "stop", cluster])
    return [
        {
            "what": "Slurm: demo study A as a 3-shard sweep on a local single-node cluster "
            "(submit, tasks one after another with -c 2, merge) against one `probaudit run --all`",
            "value": f"{wall:.1f} s against {one:.1f} s: {wall / one:.2f}x, "
            f"{wall - one:.1f} s more (first task started {first:.1f} s after submission)",
            "bar": "report",
        }
    ]


def ssh_lines(reps: int = 5) -> list[dict[str, Any]]:
    if os.geteuid() != 0 or not os.path.exists("/usr/sbin/sshd"):
        return [
            {
                "what": "remote engine over ssh",
                "value": "not measured (needs root and openssh-server)",
                "bar": ">= 0.95x",
            }
        ]
    demo_adapter()
    configs = ["--all"]
    local_rates, remote_rates, ratios = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        server = pathlib.Path(tmp) / "sshd"
        try:
            ssh_config = run(
                [sys.executable, ROOT / "tests" / "ssh_server.py", "start", server]
            ).strip()
            for k in range(reps + 1):  # the first pair warms the page cache
                t0 = time.perf_counter()
                run(
                    [
                        BIN / "probaudit",
                        "run",
                        STUDY,
                        *configs,
                        "--ledger",
                        pathlib.Path(tmp) / f"l{k}.ledger",
                    ]
                )
                local = time.perf_counter() - t0
                t1 = time.perf_counter()
                run(
                    [
                        BIN / "probaudit",
                        "run",
                        STUDY,
                        *configs,
                        "--engine",
                        "ssh://probaudit-test",
                        "--ssh-config",
                        ssh_config,
                        "--remote-probaudit",
                        BIN / "probaudit",
                        "--remote-ledger",
                        pathlib.Path(tmp) / f"remote{k}.ledger",
                        "--ledger",
                        pathlib.Path(tmp) / f"r{k}.ledger",
                    ]
                )
                remote = time.perf_counter() - t1
                if k > 0:
                    items = 9 * 400
                    local_rates.append(items / local)
                    remote_rates.append(items / remote)
                    ratios.append(local / remote)
        finally:
            subprocess.run([sys.executable, ROOT / "tests" / "ssh_server.py", "stop", server])
    return [
        {
            "what": "remote engine: demo study A (9 configs x 400 items), `run --engine ssh://` to "
            "127.0.0.1 against `run` here (whole command, copying the ledger back included)",
            "value": f"{statistics.median(remote_rates):.1f} against "
            f"{statistics.median(local_rates):.1f} items/s: {statistics.median(ratios):.3f}x "
            f"(min {min(ratios):.3f}, max {max(ratios):.3f}, {len(ratios)} pairs)",
            "bar": ">= 0.95x",
        }
    ]


if __name__ == "__main__":
    print(json.dumps(merge_lines() + slurm_lines() + ssh_lines(), indent=2))

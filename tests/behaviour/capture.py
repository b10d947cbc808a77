#!/usr/bin/env python3
"""Record what `probaudit` prints for a fixed study, so that a change meant to keep behaviour
(a refactoring) can be checked byte for byte against committed golden files.

    capture.py PROBAUDIT OUT_DIR          record into OUT_DIR
    capture.py PROBAUDIT OUT_DIR --check GOLDEN_DIR
                                          record, then compare with GOLDEN_DIR (exit 1 on any
                                          difference, naming the file)
    capture.py PROBAUDIT OUT_DIR --study STUDY
                                          the same for another study (a demo study; its
                                          inputs must exist), recorded into a fresh ledger

The study: the tiny BERT fixture with two adapter heads (mean and cls pooling) on 64 yelp
sentences under seven configs (shape, padding, dtype, attention, batch-invariant kernels).
Recorded: `summary` (Markdown, JSON, CSV), `compare --json` of every pair of study runs (in
full for pairs with run 1, as SHA-256 for the others), `diagnose --json` and its text, and
every run's numerics digest (`runs --json`). Fields that change between two identical runs
are blanked: wall times and rates, the environment hash (it includes the engine's commit),
and the temporary folder's path.

Numbers depend on the CPU's kernels, so golden files live under the ATen CPU capability they
were recorded with (GOLDEN_DIR/<capability>/). A machine whose capability has no set fails the
check (exit 1, naming the sets there are): a missing set must be recorded, never skipped.
"""

import hashlib
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VOLATILE = {
    "started",
    "finished",
    "seconds",
    "forward_seconds",
    "items_per_second",
    "eta_seconds",
    "batch_seconds",
    "wall_seconds",
    "started_at",
    "finished_at",
    "created_at",
    "records_sha256",
    "environment",
    "env_hash",
    "environment_hash",
}


def run(cli: str, *args: str, cwd: str | None = None) -> str:
    p = subprocess.run([cli, *args], capture_output=True, text=True, cwd=cwd)
    if p.returncode != 0:
        sys.exit(f"capture: probaudit {' '.join(args)} exited {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def blank(value: Any, tmp: str) -> Any:
    if isinstance(value, dict):
        if "state" in value and "line" in value:  # the ledger's trust: its head hashes times
            return {k: (v if k == "state" else "*") for k, v in value.items()}
        return {k: ("*" if k in VOLATILE else blank(v, tmp)) for k, v in value.items()}
    if isinstance(value, list):
        return [blank(v, tmp) for v in value]
    if isinstance(value, str):
        value = value.replace(tmp, "TMP")
        return re.sub(r"\benvironment [0-9a-f]{16}\b", "environment ENV", value)
    return value


def dump(value: Any, tmp: str) -> str:
    return json.dumps(blank(value, tmp), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def study_text(tmp: str) -> str:
    fixture = f"{ROOT}/tests/fixtures"
    adapter = f"{fixture}/adapters/tiny-bert-mean.safetensors"
    return json.dumps(
        {
            "name": "behaviour",
            "model": {"path": f"{fixture}/tiny-bert"},
            "heads": {
                "mean": {"kind": "adapter", "path": adapter, "pooling": "mean"},
                "cls": {"kind": "adapter", "path": adapter, "pooling": "cls"},
            },
            "dataset": {
                "path": f"{ROOT}/resources/demo/sentiment-sentences/yelp.jsonl",
                "labels": ["negative", "positive"],
                "limit": 64,
            },
            "capture": "vectors",
            "configs": {
                "ref": {},
                "b8": {"batch_size": 8},
                "b8-left": {"batch_size": 8, "padding_side": "left"},
                "pad-64": {"pad_to": "fixed", "pad_to_n": 64},
                "bf16": {"dtype": "bfloat16"},
                "sdpa": {"attention": "sdpa"},
                "invariant-b8": {"batch_size": 8, "kernels": "batch_invariant"},
            },
            "reference": "ref",
        }
    )


def capability(cli: str) -> str:
    env = json.loads(run(cli, "env", "--json"))
    cpu = env.get("cpu", {})
    return cpu.get("aten_capability") or cpu.get("capability") or "unknown"


def capture(cli: str, out: str, study: str | None = None) -> list[str]:
    tmp = tempfile.mkdtemp(prefix="probaudit-behaviour-")
    try:
        # The cause rung is left out (its localisations are tested in test_diagnose and
        # test_localize): its step is the same on every CPU.
        diag_args = ["--sample", "16", "--cause-sample", "0"]
        if study is None:
            study = os.path.join(tmp, "b.study.json")
            with open(study, "w") as f:
                f.write(study_text(tmp))
        else:
            diag_args = ["--cause-sample", "0"]
        ledger = os.path.join(tmp, "b.ledger")
        run(cli, "run", study, "--all", "--ledger", ledger)
        files = {}
        files["summary.md"] = run(cli, "summary", ledger).replace(tmp, "TMP")
        files["summary.csv"] = run(cli, "summary", ledger, "--csv").replace(tmp, "TMP")
        for head in sorted({r["head"] for r in json.loads(run(cli, "runs", ledger, "--json"))}):
            files[f"summary-{head}.json"] = dump(
                json.loads(run(cli, "summary", ledger, "--json", "--head", head)), tmp
            )
        runs = json.loads(run(cli, "runs", ledger, "--json"))
        files["numerics.json"] = dump(
            [
                {
                    k: r.get(k)
                    for k in (
                        "run",
                        "head",
                        "config",
                        "kind",
                        "status",
                        "items_done",
                        "numerics_sha256",
                    )
                }
                for r in runs
            ],
            tmp,
        )
        ids = [r["run"] for r in runs if r.get("kind", "study") == "study"]
        digests = {}
        for a, b in itertools.combinations(ids, 2):
            text = dump(json.loads(run(cli, "compare", ledger, str(a), str(b), "--json")), tmp)
            digests[f"{a}-{b}"] = hashlib.sha256(text.encode()).hexdigest()
            if a == ids[0]:
                files[f"compare-{a}-{b}.json"] = text
        files["compare-digests.json"] = json.dumps(digests, indent=1, sort_keys=True) + "\n"
        copy = os.path.join(tmp, "c.ledger")
        shutil.copyfile(ledger, copy)
        files["diagnose.json"] = dump(
            json.loads(run(cli, "diagnose", study, "--ledger", ledger, *diag_args, "--json")), tmp
        )
        text = run(cli, "diagnose", study, "--ledger", copy, *diag_args)
        files["diagnose.txt"] = blank(text, tmp)
        os.makedirs(out, exist_ok=True)
        for name, text in files.items():
            with open(os.path.join(out, name), "w") as f:
                f.write(text)
        return sorted(files)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    if len(sys.argv) not in (3, 5) or (
        len(sys.argv) == 5 and sys.argv[3] not in ("--check", "--study")
    ):
        sys.exit(__doc__)
    cli, out = sys.argv[1], sys.argv[2]
    cap = capability(cli)
    if len(sys.argv) == 5 and sys.argv[3] == "--study":
        names = capture(cli, os.path.join(out, cap), os.path.abspath(sys.argv[4]))
        print(f"capture: {len(names)} files in {os.path.join(out, cap)}")
        return 0
    if len(sys.argv) == 3:
        names = capture(cli, os.path.join(out, cap))
        print(f"capture: {len(names)} files in {os.path.join(out, cap)}")
        return 0
    golden = os.path.join(sys.argv[4], cap)
    if not os.path.isdir(golden):
        sets = ", ".join(sorted(os.listdir(sys.argv[4]))) or "none"
        print(
            f"capture: no golden files for CPU capability {cap} in {sys.argv[4]} (it has: "
            f"{sets}); record them with tests/behaviour/capture.py from a build known to be right"
        )
        return 1
    names = capture(cli, out)
    expected = sorted(os.listdir(golden))
    bad = [
        n
        for n in sorted(set(names) | set(expected))
        if n not in names
        or n not in expected
        or open(os.path.join(out, n), "rb").read() != open(os.path.join(golden, n), "rb").read()
    ]
    for n in bad:
        print(f"capture: {n} differs from {golden}/{n} (diff -u {golden}/{n} {out}/{n})")
    print(f"capture: {len(expected) - len(bad)} of {len(expected)} golden files identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Every benchmark in one command (`./scripts/bench`): prints a Markdown table and writes it,
with the machine's description, to docs/benchmarks.md.

Speed claims are ratios against a peer measured in the same run, sides alternating
(A B A B ...) --reps times after a warm-up, reported as the median with min and max:
  - the engine against Hugging Face transformers (same venv, model, items, float32, threads,
    batch 1 and 8), for both real models (bench/engine_vs_transformers.py);
  - capture `hashes` and `vectors` against `none` (the engine against itself);
  - a SmolLM2 label-head run recording the whole vocabulary against the same run without
    (bench/vocabulary_bench.py);
  - an endpoint study's requests against the `openai` Python client with asyncio, the same
    200 requests to the same real server at concurrency 1 and 4 (bench/endpoint_vs_openai.py;
    wall times, so there the smaller ratio is the faster);
  - the transformers runner (`probaudit run` of a `runner: transformers` config) against a plain
    transformers loop doing the same batches, 200 items of each real model
    (bench/runner_vs_transformers.py).
Where no program does the same job (the ledger, the workbench), the line reports the measured
figure next to the bar the issue sets for it, and says so. Also: the end-to-end demo study A
(`probaudit run --all`) with the share of its wall time spent outside the forward pass; the
merge of 20 shard ledgers and a 3-shard Slurm sweep of demo study A on a local cluster against
the same study on one node (bench/sweep_bench.py); a 32-item `probaudit localize` on SmolLM2
against recording those items once (bench/localize_bench.py).

    .venv/bin/python bench/run_all.py [--reps 5] [--quick] [--out docs/benchmarks.md]
    .venv/bin/python bench/run_all.py --only engine   the engine rows alone (against transformers
        with each side's GEMM share, capture overhead, SmolLM2's peak memory), printed as
        Markdown, nothing written (about 25 minutes here)
    .venv/bin/python bench/run_all.py --only vocabulary   the vocabulary rows alone
"""

import argparse
import datetime
import json
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[1]
BIN = ROOT / "build" / "default" / "bin"
sys.path.insert(0, str(ROOT / "bench"))
import endpoint_vs_openai as evo  # noqa: E402
import engine_vs_transformers as evt  # noqa: E402
import localize_bench as lb  # noqa: E402
import runner_vs_transformers as rvt  # noqa: E402
import sweep_bench as swb  # noqa: E402
import vocabulary_bench as vb  # noqa: E402


def run(cmd: Sequence[object], env: dict[str, str] | None = None, **kw: Any) -> str:
    return subprocess.run(
        [str(c) for c in cmd], check=True, capture_output=True, text=True, env=env, **kw
    ).stdout


def machine() -> dict[str, Any]:
    env = json.loads(run([BIN / "probaudit", "env", "--json"]))
    cpu = env.get("cpu", {})
    torch_ = env.get("torch", {})
    return {
        "cpu": cpu.get("model", platform.processor()),
        "cores": cpu.get("logical_cores", os.cpu_count()),
        "isa": cpu.get("aten_capability", ""),
        "torch": f"{torch_.get('version', '?')} (PyPI wheel, "
        f"CUDA build {torch_.get('cuda_build', 'none')}, BLAS {torch_.get('blas', '?')})",
        "os": platform.platform(),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def ratio_row(
    what: str,
    peer: str,
    ratios: list[float],
    a: list[float] | None = None,
    b: list[float] | None = None,
    unit: str = "items/s",
    bar: str | None = None,
) -> dict[str, Any]:
    med, lo, hi = statistics.median(ratios), min(ratios), max(ratios)
    return {
        "what": what,
        "peer": peer,
        "ratio": med,
        "min": lo,
        "max": hi,
        "a": statistics.median(a) if a else None,
        "b": statistics.median(b) if b else None,
        "unit": unit,
        "bar": bar,
        "reps": len(ratios),
    }


def engine_vs_peer(reps: int, quick: bool) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The ratio rows, and per row a line with each side's share of time in GEMM and the ratio
    the engine would reach doing nothing but its GEMMs (transformers' time over the engine's GEMM
    time). Each repetition runs four processes in turn: the engine with `gemm: aten` (MKL's sgemm,
    the very calls transformers makes: the floor both share), transformers, the engine with
    `gemm: onednn` (oneDNN on packed weights), and transformers with its layers' linears on the
    same oneDNN calls: that last ratio is the engine's lead with the GEMM library taken out."""
    rows, lines = [], []
    med = statistics.median
    for name, case in evt.CASES.items():
        # MiniLM 85 items, SmolLM2 32: the whole script stays under 15 minutes on 2 cores.
        n = case["items"] // (8 if quick else 3)
        for batch in (1, 8):
            r = {k: [] for k in ("aten", "hf", "onednn", "hf_onednn")}
            g = {k: [] for k in r}
            for _ in range(reps if quick else max(reps, 7)):  # A B C D A B ...; each warms up first
                for k, fn in (
                    ("aten", lambda: evt.engine_run(case, batch, 2, evt.ITEMS, n, 2, gemm=True)),
                    ("hf", lambda: evt.hf_run(name, batch, 2, n, 2, gemm=True)),
                    (
                        "onednn",
                        lambda: evt.engine_run(
                            case, batch, 2, evt.ITEMS, n, 2, gemm=True, gemm_path="onednn"
                        ),
                    ),
                    ("hf_onednn", lambda: evt.hf_run(name, batch, 2, n, 2, gemm=True, onednn=True)),
                ):
                    speed, share = fn()
                    r[k].append(speed)
                    g[k].append(share)
            what = f"{name}: forward, batch {batch}, float32, 2 threads ({n} items)"
            bar = ">= 1.3x" if batch == 1 else ">= 1.15x"
            for eng, peer, label, row_bar in (
                ("aten", "hf", what, bar),
                ("onednn", "hf", f"{what}, gemm onednn", bar),
                (
                    "onednn",
                    "hf_onednn",
                    f"{what}, gemm onednn; transformers' linears on the same oneDNN calls",
                    "-",
                ),
            ):
                ratios = [e / h for e, h in zip(r[eng], r[peer])]
                rows.append(ratio_row(label, "transformers", ratios, r[eng], r[peer], bar=row_bar))
                print(rows[-1], flush=True)
            for eng, label in (("aten", what), ("onednn", f"{what}, gemm onednn")):
                peer = "hf" if eng == "aten" else "hf_onednn"
                ceiling = [
                    h_t / e_g
                    for h_t, e_g in zip(
                        [1 / h for h in r[peer]], [gs / e for gs, e in zip(g[eng], r[eng])]
                    )
                ]
                lines.append(
                    {
                        "what": f"{label}: share of time in GEMM (engine, transformers"
                        f"{'' if eng == 'aten' else ' on oneDNN'}); the ratio with nothing "
                        f"but the engine's GEMMs",
                        "value": f"{med(g[eng]):.0%}, {med(g[peer]):.0%}; {med(ceiling):.2f}x "
                        f"({min(ceiling):.2f}-{max(ceiling):.2f})",
                        "bar": "-",
                    }
                )
                print(lines[-1], flush=True)
    return rows, lines


def capture_overhead(reps: int, quick: bool) -> list[dict[str, Any]]:
    rows = []
    for name, case in evt.CASES.items():
        n = case["items"] // (8 if quick else 3)
        for capture in ("hashes", "vectors"):
            ratios, base, cap = [], [], []
            for _ in range(reps):
                x = evt.engine_run(case, 8, 2, evt.ITEMS, n, 2, "none")
                y = evt.engine_run(case, 8, 2, evt.ITEMS, n, 2, capture)
                base.append(x)
                cap.append(y)
                ratios.append(y / x)
            rows.append(
                ratio_row(
                    f"{name}: capture {capture}, batch 8 ({n} items)",
                    "capture none",
                    ratios,
                    cap,
                    base,
                    bar=">= 0.95x" if capture == "hashes" else ">= 0.90x",
                )
            )
            print(rows[-1], flush=True)
    return rows


def peak_memory() -> list[dict[str, Any]]:
    """The engine's peak resident memory on SmolLM2 at batch 8, every row padded to 128 tokens,
    float32 (model loading included: the process's high-water mark), with each gemm path."""
    return [peak_memory_of("aten"), peak_memory_of("onednn")]


def peak_memory_of(gemm_path: str) -> dict[str, Any]:
    case = evt.CASES["SmolLM2-135M-Instruct"]
    cfg = {
        "batch_size": 8,
        "threads": 2,
        "padding_side": "left",
        "pad_to": "fixed",
        "pad_to_n": 128,
        "max_length": 128,
        "gemm": gemm_path,
    }
    with tempfile.TemporaryFile() as err:  # a file, not a pipe: wait4 must not wait on a full pipe
        p = subprocess.Popen(
            [
                str(BIN / "probaudit"),
                "score",
                str(case["path"]),
                "--head",
                json.dumps(case["head"]),
                "--input",
                str(evt.ITEMS),
                "--limit",
                "32",
                "--config",
                json.dumps(cfg),
                "--json",
            ],
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
        _, status, usage = os.wait4(p.pid, 0)  # this child's own high-water mark
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            err.seek(0)
            raise RuntimeError(err.read().decode())
    return {
        "what": "SmolLM2-135M-Instruct: peak resident memory of `probaudit score`, batch 8, "
        f"128 tokens, float32, 32 items, gemm {gemm_path}",
        "value": f"{usage.ru_maxrss / 1024:.0f} MiB",
        "bar": "must not grow",
    }


def invariant_vs_default(reps: int, quick: bool) -> list[dict[str, Any]]:
    """The batch-invariant kernels against the default (libtorch) kernels, same engine, float32,
    2 threads, both real models. The issue's bar: at least 0.67x at batch 8."""
    rows = []
    for name, case in evt.CASES.items():
        n = case["items"] // (8 if quick else 3)
        for batch in (1, 8):
            ratios, inv, dflt = [], [], []
            for _ in range(reps):
                d = evt.engine_run(case, batch, 2, evt.ITEMS, n, 2)
                i = evt.engine_run(case, batch, 2, evt.ITEMS, n, 2, kernels="batch_invariant")
                dflt.append(d)
                inv.append(i)
                ratios.append(i / d)
            rows.append(
                ratio_row(
                    f"{name}: batch-invariant kernels, batch {batch}, float32, 2 threads "
                    f"({n} items)",
                    "default kernels",
                    ratios,
                    inv,
                    dflt,
                    bar=">= 0.67x" if batch == 8 else None,
                )
            )
            print(rows[-1], flush=True)
    return rows


def ledger_lines() -> list[dict[str, Any]]:
    r = json.loads(run([BIN / "ledger_bench", "--items", "100000", "--runs", "8"]))
    inserts = [x["records_per_second"] for x in r["runs"]]
    return [
        {
            "what": "ledger: insert item records (33 layer hashes each, one transaction per batch "
            "of 8)",
            "value": f"{statistics.median(inserts):,.0f} records/s",
            "bar": "-",
        },
        {
            "what": "ledger: read two 100,000-item runs back",
            "value": f"{r['read_two_runs_seconds']:.2f} s",
            "bar": "-",
        },
        {
            "what": "analysis: compare two 100,000-item runs (reading included)",
            "value": f"{r['compare_two_runs_seconds']:.2f} s",
            "bar": "-",
        },
        {
            "what": "ledger: verify a 100,000-item, 8-run ledger with hash capture (every link, "
            "record and table)",
            "value": f"{r['verify_seconds']:.2f} s",
            "bar": "< 5 s",
        },
    ]


def micro_lines() -> list[dict[str, Any]]:
    r = json.loads(run([BIN / "micro_bench", "--benchmark_format=json", "--benchmark_min_time=1"]))
    out = []
    for b in r["benchmarks"]:
        if b["name"] == "BM_Compare/100000":
            out.append(
                {
                    "what": "analysis: compare two 100,000-item runs in memory (Google Benchmark)",
                    "value": f"{b['real_time']:.0f} ms "
                    f"({b['items_per_second'] / 1e6:.1f} M items/s)",
                    "bar": "-",
                }
            )
        elif b["name"].startswith("BM_RowHash/") and not b.get("error_occurred"):
            out.append(
                {
                    "what": "capture hashes: the row hash of one MiniLM hidden state at batch 8 "
                    f"(8 x 40 x 384 floats), {b['label']} build (Google Benchmark)",
                    "value": f"{b['real_time']:.1f} us",
                    "bar": "-",
                }
            )
        elif b["name"].startswith("BM_KvCache/"):
            out.append(
                {
                    "what": "generation: one SmolLM2 layer's KV cache at batch 8 through a prefill "
                    f"of 40 positions and 128 decode steps, {b['label']} (Google Benchmark)",
                    "value": f"{b['real_time'] / 1000:.2f} ms",
                    "bar": "-",
                }
            )
    return out


def workbench_lines() -> list[dict[str, Any]]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PROBAUDIT_ENGINE=str(BIN / "probaudit"))
    r = json.loads(run([BIN / "workbench_bench", "--items", "100000", "--reps", "5"], env=env))
    refilter = max(v["max"] for k, v in r["refilter_ms"].items() if not k.startswith("sort"))
    sort = max(v["max"] for k, v in r["refilter_ms"].items() if k.startswith("sort"))
    o = r["open_to_dashboard_seconds"]
    return [
        {
            "what": "workbench: open a ledger with two 100,000-item runs until the dashboard shows",
            "value": f"{o['median']:.2f} s (min {o['min']:.2f}, max {o['max']:.2f})",
            "bar": "< 1 s",
        },
        {
            "what": "workbench: re-filter the 100,000-row items table (slowest filter, view "
            "repainted)",
            "value": f"{refilter:.1f} ms (max of 5)",
            "bar": "< 100 ms",
        },
        {
            "what": "workbench: re-sort the 100,000-row items table",
            "value": f"{sort:.1f} ms (max of 5)",
            "bar": "-",
        },
        {
            "what": "workbench: longest GUI-thread block while opening",
            "value": f"{r['gui_max_block_ms_while_opening']:.0f} ms",
            "bar": "< 50 ms",
        },
        {
            "what": f"workbench: longest GUI-thread block during an engine run "
            f"({r['engine_run']['items']} items, "
            f"{r['engine_run']['progress_events']} progress events)",
            "value": f"{r['engine_run']['gui_max_block_ms']:.0f} ms",
            "bar": "< 50 ms",
        },
    ]


def end_to_end() -> list[dict[str, Any]]:
    swb.demo_adapter()
    study = ROOT / "resources" / "demo" / "studies" / "sentiment-minilm.study.json"
    with tempfile.TemporaryDirectory() as tmp:
        ledger = pathlib.Path(tmp) / "e2e.ledger"
        t0 = time.perf_counter()
        out = run(
            [BIN / "probaudit", "run", study, "--all", "--ledger", ledger, "--events", "jsonl"]
        )
        wall = time.perf_counter() - t0
    runs = [json.loads(line) for line in out.splitlines() if '"run-finished"' in line]
    forward = sum(r["forward_seconds"] for r in runs)
    return [
        {
            "what": f"demo study A end to end: `probaudit run --all` ({len(runs)} configs x "
            f"{runs[0]['items_done'] if runs else 0} items)",
            "value": f"{wall:.1f} s, {100 * (wall - forward) / wall:.0f}% of it outside the "
            "forward pass",
            "bar": "< 3 min (whole demo)",
        }
    ]


def localize_lines() -> list[dict[str, Any]]:
    r = lb.localize()
    return [
        {
            "what": f"`probaudit localize` of {r['items']} items, SmolLM2-135M-Instruct Yes/No, "
            "reference vs batch 8 left-padded (bench/localize_bench.py): its time against "
            "recording those items once under B (B's baseline pass, the same run)",
            "value": f"{r['ratio']}x ({r['seconds']} s over {r['passes']} passes; B: "
            f"{r['baseline_b_seconds']} s); {r['explained']} of {r['differ']} items explained "
            f"({', '.join(r['causes']) or 'no single class'})",
            "bar": "<= 15x",
        }
    ]


def markdown(
    m: dict[str, Any], ratios: list[dict[str, Any]], lines: list[dict[str, Any]], cmd: str
) -> str:
    out = [
        "# Benchmarks",
        "",
        f"Regenerate with `{cmd}` (on the machine below about 31 minutes without the transformers "
        "runner's rows, which add about an hour: SmolLM2's 200 items take 77 s a pass). Every "
        "figure above the GPU section comes from that one run.",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, CPU kernels {m['isa']}; torch {m['torch']}; "
        f"{m['os']}; measured {m['date']}.",
        "",
        "## Against a peer (ratio = ProbAudit / peer; median, min and max over alternating runs)",
        "",
        "| what | peer | ProbAudit | peer | ratio (median) | min | max | runs | bar |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in ratios:
        a = f"{r['a']:.1f} {r['unit']}" if r["a"] is not None else "-"
        b = f"{r['b']:.1f} {r['unit']}" if r["b"] is not None else "-"
        out.append(
            f"| {r['what']} | {r['peer']} | {a} | {b} | **{r['ratio']:.2f}x** | {r['min']:.2f}x | "
            f"{r['max']:.2f}x | {r['reps']} | {r['bar'] or '-'} |"
        )
    out += [
        "",
        "## Without a peer (no other program does this job; the issue's bar beside each)",
        "",
        "| what | measured | bar |",
        "|---|---|---|",
    ]
    for row in lines:
        out.append(f"| {row['what']} | {row['value']} | {row['bar']} |")
    out += gpu_section()
    return "\n".join(out)


def gpu_section(logs: pathlib.Path = ROOT / "docs" / "gpu") -> list[str]:
    """The GPU rows from the newest log of `scripts/gpu-check.sh` kept in docs/gpu/ (this machine
    has no GPU: they are that run's figures, with its device and date, not this run's)."""
    found = sorted(logs.glob("*.log"))
    if not found:
        return [
            "",
            "GPU figures come from `scripts/gpu-check.sh` on a machine with an NVIDIA GPU; none "
            "has been recorded in docs/gpu/.",
            "",
        ]
    log = found[-1]
    text = log.read_text().splitlines()
    bench = {}  # (model, dtype, batch) -> [default, invariant, ratio, traced]
    hf = {}  # (model, dtype, batch) -> transformers it/s
    for line in text:
        f = line.split()
        if len(f) == 7 and f[1] in ("bfloat16", "float32") and f[2].isdigit():
            bench[(f[0], f[1], f[2])] = f[3:]
        elif len(f) == 6 and f[1] in ("bfloat16", "float32") and f[2].isdigit():
            hf[(f[0], f[1], f[2])] = f[3]
    out = [
        "",
        f"## GPU (from `{log.relative_to(ROOT)}`: its first line names the device and the date)",
        "",
        f"{text[0].lstrip('# ')}. Each figure is the median of 3 passes over 256 Yelp items "
        "(`build/gpu-check/bin/gpu_bench`, then `bench/gpu_transformers.py` in the same call); "
        "engine and transformers ran one after the other, not alternating.",
        "",
        "| model | dtype | batch | engine default | engine batch-invariant | invariant / default | "
        "with device-kernel trace / without | transformers | engine / transformers |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for key, (d, v, r, t) in bench.items():
        peer = hf.get(key)
        vs = f"**{float(d) / float(peer):.2f}x**" if peer else "-"
        out.append(
            f"| {key[0]} | {key[1]} | {key[2]} | {d} it/s | {v} it/s | **{r}** | {t} | "
            f"{peer + ' it/s' if peer else '-'} | {vs} |"
        )
    return out + [""]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="fewer items per run (a smoke test)")
    ap.add_argument("--out", type=pathlib.Path, default=ROOT / "docs" / "benchmarks.md")
    ap.add_argument(
        "--only",
        choices=["engine", "vocabulary"],
        help="only these rows, printed, docs/benchmarks.md untouched",
    )
    a = ap.parse_args()
    t0 = time.time()
    m = machine()
    if a.only:
        if a.only == "vocabulary":
            ratios, lines = vb.vocabulary_overhead(a.reps, a.quick)
        else:
            peer, gemm = engine_vs_peer(a.reps, a.quick)
            row_hash = [row for row in micro_lines() if row["what"].startswith("capture hashes")]
            ratios = peer + capture_overhead(a.reps, a.quick)
            lines = gemm + peak_memory() + row_hash
        print(
            "## Against a peer"
            + markdown(m, ratios, lines, "./scripts/bench")
            .split("## Against a peer", 1)[1]
            .split("## GPU")[0]
        )
        print(f"(machine: {m['cpu']}, {m['isa']}, {m['date']}; {time.time() - t0:.0f} s)")
        return
    peer, gemm = engine_vs_peer(a.reps, a.quick)
    vocabulary, vocabulary_lines = vb.vocabulary_overhead(a.reps, a.quick)
    ratios = (
        peer
        + capture_overhead(a.reps, a.quick)
        + vocabulary
        + invariant_vs_default(a.reps, a.quick)
        + evo.client_overhead(a.reps, a.quick)
        + rvt.runner_overhead(a.reps, a.quick)
    )
    lines = (
        gemm
        + vocabulary_lines
        + peak_memory()
        + ledger_lines()
        + swb.merge_lines()
        + micro_lines()
        + workbench_lines()
        + end_to_end()
        + localize_lines()
        + swb.slurm_lines()
        + swb.ssh_lines()
    )
    text = markdown(m, ratios, lines, "./scripts/bench")
    a.out.write_text(text)
    print(text)
    print(
        f"\n(written to {a.out.relative_to(ROOT) if a.out.is_relative_to(ROOT) else a.out}; "
        f"{time.time() - t0:.0f} s)"
    )


if __name__ == "__main__":
    main()

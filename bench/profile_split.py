#!/usr/bin/env python3
"""Where the engine and transformers spend their time on the same forward (issue #28): each side
runs under `perf record` (CPU samples of every thread, after its model load and warm-up pass),
and the samples are sorted into GEMM (MKL sgemm: the floor both share), thread sync (OpenMP
waits and spins), attention (SDPA's flash kernel, softmax), elementwise and norms (ATen's
vectorised loops), copies and allocation, Python, tokenizer, and the rest; once over every
thread and once over the main thread alone, whose time is the wall time (a worker's samples
include its spinning while the main thread works alone). The main thread's GEMM share is the
floor: a side doing nothing but its GEMMs would be that much faster.

    .venv/bin/python bench/profile_split.py [--model SmolLM2-135M-Instruct] [--batch 1]
        [--items 32] [--passes 6]

Needs `perf` (Debian linux-perf) and permission to use it (root here).
"""

import argparse
import collections
import json
import pathlib
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import engine_vs_transformers as evt  # noqa: E402

CATEGORIES = [  # first match wins; on "dso symbol"
    ("GEMM (MKL sgemm)", r"mkl_blas|sgemm|gemv"),
    ("thread sync (OpenMP)", r"libgomp"),
    ("attention (SDPA, softmax)", r"flash_attention|softmax|sdpa|scaled_dot"),
    (
        "elementwise and norms",
        r"VectorizedLoop|vectorized_loop|cpu_kernel|reduce|Sleef|pow_tensor|rsqrt|silu|"
        r"add_kernel|mul_kernel|binary|unary|norm",
    ),
    ("copies", r"copy|memcpy|memmove|cat_serial|cat_|index_select|embedding"),
    ("allocation", r"malloc|free|_int_|alloc|clear_page|page_fault|mmap|munmap|madvise"),
    ("Python", r"libpython|_Py|python3|Py[A-Z]"),
    ("tokenizer", r"tokeniz|onig|regex"),
    ("dispatch and the rest", r"."),
]


rest = collections.Counter()  # the biggest of "the rest", for --rest


def perf_run(
    cmd: list[str], delay_ms: int, out: str
) -> tuple[collections.Counter, collections.Counter]:
    """Samples per category: of every thread, and of the main thread alone (the lowest thread id:
    the one that runs the forward pass and waits for nobody; its time is the wall time, while a
    worker's samples include its spinning between parallel regions)."""
    subprocess.run(
        ["perf", "record", "-q", "-F", "499", "-D", str(delay_ms), "-o", out, "--", *cmd],
        check=True,
        capture_output=True,
    )
    rep = subprocess.run(
        [
            "perf",
            "report",
            "-i",
            out,
            "--no-children",
            "--sort",
            "pid,dso,symbol",
            "-n",
            "--stdio",
            "-g",
            "none",
            "--percent-limit",
            "0",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    every, by_thread = collections.Counter(), collections.defaultdict(collections.Counter)
    for line in rep.splitlines():
        m = re.match(r"\s*[\d.]+%\s+(\d+)\s+(\d+):\S*\s+(\S+)\s+\[.\]\s+(.*)", line)
        if not m:
            continue
        n, tid, dso, sym = int(m[1]), int(m[2]), m[3], m[4]
        for name, pat in CATEGORIES:
            if re.search(pat, f"{dso} {sym}"):
                every[name] += n
                by_thread[tid][name] += n
                if name == CATEGORIES[-1][0]:
                    rest[f"{dso} {sym[:90]}"] += n
                break
    return every, by_thread[min(by_thread)] if by_thread else collections.Counter()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="SmolLM2-135M-Instruct", choices=list(evt.CASES))
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--items", type=int, help="default: 32 SmolLM2, 256 MiniLM")
    ap.add_argument("--passes", type=int, default=6)
    ap.add_argument(
        "--engine-delay",
        type=int,
        help="ms before sampling starts (load, warm-up); default: 8000 SmolLM2, 3000 MiniLM",
    )
    ap.add_argument(
        "--hf-delay", type=int, help="default: 33000 SmolLM2 (dequantizing the GGUF), 8000 MiniLM"
    )
    ap.add_argument("--rest", action="store_true", help="also list the biggest symbols of the rest")
    a = ap.parse_args()
    case = evt.CASES[a.model]
    small = a.model == "all-MiniLM-L6-v2"  # loads in a second or two, runs ten times faster
    a.items = a.items or (256 if small else 32)
    a.engine_delay = a.engine_delay if a.engine_delay is not None else (3000 if small else 8000)
    a.hf_delay = a.hf_delay if a.hf_delay is not None else (8000 if small else 33000)
    cfg = {
        "batch_size": a.batch,
        "threads": 2,
        "padding_side": case["padding"],
        "attention": "sdpa",
    }
    engine = [
        str(evt.ENGINE),
        "score",
        str(case["path"]),
        "--head",
        json.dumps(case["head"]),
        "--input",
        str(evt.ITEMS),
        "--limit",
        str(a.items),
        "--config",
        json.dumps(cfg),
        "--warmup",
        str(-(-a.items // a.batch)),
        "--repeat",
        str(a.passes),
        "--json",
    ]
    hf = [
        sys.executable,
        evt.__file__,
        "--hf-worker",
        a.model,
        "--batches",
        str(a.batch),
        "--threads",
        "2",
        "--items",
        str(a.items),
        "--passes",
        str(a.passes),
    ]
    with tempfile.TemporaryDirectory() as d:
        sides = {
            "ProbAudit": perf_run(engine, a.engine_delay, f"{d}/engine.data"),
            "transformers": perf_run(hf, a.hf_delay, f"{d}/hf.data"),
        }
    for side, (c, _) in sides.items():
        # 200 samples are 0.4 s: the run ended before or soon after sampling began
        if sum(c.values()) < 200:
            sys.exit(
                f"profile_split: only {sum(c.values())} samples of {side}: its run ended before "
                f"sampling could see it; raise --items or --passes, or lower the delays"
            )
    print(
        f"{a.model}, batch {a.batch}, float32, 2 threads: share of CPU samples, of every thread "
        f"and of the main thread ("
        f"{' / '.join(f'{sum(c.values())} and {sum(m.values())}' for c, m in sides.values())} "
        f"samples)\n"
    )
    heads = [f"{side} ({which})" for side in sides for which in ("every thread", "main thread")]
    print("| where | " + " | ".join(heads) + " |\n|---|" + "---|" * len(heads))
    for name, _ in CATEGORIES:
        print(
            f"| {name} | "
            + " | ".join(
                f"{c[name] / max(1, sum(c.values())):.1%}" for pair in sides.values() for c in pair
            )
            + " |"
        )
    if a.rest:
        print(
            "\nthe rest, both sides' samples:",
            *(f"  {n:6d} {what}" for what, n in rest.most_common(15)),
            sep="\n",
        )


if __name__ == "__main__":
    main()

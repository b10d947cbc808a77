#!/usr/bin/env python3
"""Client overhead of endpoint runs: the same 200 requests sent to the same real server by
`probaudit run` (an endpoint study: completions, one token, top_logprobs 5, temperature 0) and
by the `openai` Python client with asyncio (a semaphore of the same concurrency), at
concurrency 1 and 4. Each side runs as its own process and is timed from start to exit, so
both pay their start-up; ProbAudit also asks the server for its models and sends one probe
request before the 200 (its preflight) and commits every item to a fresh ledger. The server is
llama-cpp-python's OpenAI-compatible server on the demo GGUF, started here on 127.0.0.1 and
stopped by its pid. Sides alternate (P O P O ...) after one warm-up of each.

    .venv/bin/python bench/endpoint_vs_openai.py [--reps 5] [--items 200]

As a module: client_overhead(reps, quick) gives bench/run_all.py its rows.
"""

import argparse
import json
import os
import pathlib
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Sequence
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[1]
BIN = ROOT / "build" / "default" / "bin"
PY = ROOT / ".venv" / "bin" / "python"
GGUF = ROOT / ".cache" / "models" / "SmolLM2-135M-Instruct" / "SmolLM2-135M-Instruct.Q4_1.gguf"
TEMPLATE = (
    "<|im_start|>user\nIs the sentiment of this review positive? Answer Yes or No.\n"
    "Review: {text}<|im_end|>\n<|im_start|>assistant\n"
)

# With --pin, the server computes on CPU 0 and either client runs on the others, so that a
# client's own work does not take the server's core (the two clients then differ only in what
# they add to each request's path).
PIN_SERVER, PIN_CLIENT = [], []

PEER = r"""
import asyncio, json, sys
from openai import AsyncOpenAI
base, n, prompts = sys.argv[1], int(sys.argv[2]), json.load(open(sys.argv[3]))
async def main():
    client = AsyncOpenAI(base_url=base, api_key="none", max_retries=3)
    gate = asyncio.Semaphore(n)
    async def one(p):
        async with gate:
            r = await client.completions.create(model="smollm2", prompt=p, max_tokens=1,
                                                temperature=0, logprobs=5)
            return r.choices[0].logprobs.top_logprobs[0]
    out = await asyncio.gather(*(one(p) for p in prompts))
    assert len(out) == len(prompts)
asyncio.run(main())
"""


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Server:
    """llama-cpp-python's server, stopped by its own pid."""

    def __init__(self) -> None:
        self.port = free_port()
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            PIN_SERVER
            + [
                str(PY),
                "-m",
                "llama_cpp.server",
                "--model",
                str(GGUF),
                "--model_alias",
                "smollm2",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--n_threads",
                "1",
                "--n_ctx",
                "1024",
                "--verbose",
                "false",
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.base = f"http://127.0.0.1:{self.port}/v1"
        for _ in range(240):
            try:
                urllib.request.urlopen(self.base + "/models", timeout=2)
                return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.5)
        self.stop()
        raise SystemExit("endpoint bench: the server did not start")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def items(n: int) -> list[dict[str, Any]]:
    lines = (ROOT / "resources/demo/sentiment-sentences/yelp.jsonl").read_text().splitlines()[:n]
    return [json.loads(line) for line in lines]


def timed(cmd: Sequence[object]) -> float:
    t0 = time.perf_counter()
    subprocess.run(PIN_CLIENT + [str(c) for c in cmd], check=True, capture_output=True)
    return time.perf_counter() - t0


def sent_order(ledger: pathlib.Path, prompts: list[str]) -> list[str]:
    """The prompts in the order an endpoint run sent them (its records' arrival positions)."""
    with sqlite3.connect(ledger) as db:
        rows = db.execute("SELECT item, batch FROM records ORDER BY batch").fetchall()
    assert len(rows) == len(prompts), "the warm-up run did not record every item"
    return [prompts[item] for item, _ in rows]


def client_overhead(
    reps: int = 5, quick: bool = False, n_items: int = 200, concurrencies: Sequence[int] = (1, 4)
) -> list[dict[str, Any]]:
    n = 40 if quick else n_items
    server = Server()
    rows = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            data = tmp / "items.jsonl"
            data.write_text("".join(json.dumps(i) + "\n" for i in items(n)))
            prompts = tmp / "prompts.json"
            prompts.write_text(
                json.dumps([TEMPLATE.replace("{text}", i["text"]) for i in items(n)])
            )
            peer = tmp / "peer.py"
            peer.write_text(PEER)
            study = tmp / "bench.study.json"
            study.write_text(
                json.dumps(
                    {
                        "name": "endpoint-bench",
                        "model": {"endpoint": server.base, "name": "smollm2", "top_logprobs": 5},
                        "heads": {
                            "yes-no": {
                                "kind": "label_tokens",
                                "template": TEMPLATE,
                                "labels": ["No", "Yes"],
                            }
                        },
                        "dataset": {"path": str(data), "labels": ["negative", "positive"]},
                        "configs": {"c1": {}, "c4": {"concurrency": 4}},
                        "reference": "c1",
                    }
                )
            )
            for conc in concurrencies:
                runs = [0]

                def ours() -> float:
                    runs[0] += 1
                    return timed(
                        [
                            BIN / "probaudit",
                            "run",
                            study,
                            "--config",
                            f"c{conc}",
                            "--ledger",
                            tmp / f"c{conc}-run{runs[0]}.ledger",
                        ]
                    )

                def theirs() -> float:
                    return timed([PY, peer, server.base, conc, ordered])

                ours()  # warm-up: the server's caches, the page cache
                # The peer sends the prompts in the order ProbAudit sent them (its seeded
                # arrival order, read back from the warm-up's ledger): the same sequence reaches
                # the server from both sides.
                ordered = tmp / f"prompts-c{conc}.json"
                ordered.write_text(
                    json.dumps(
                        sent_order(tmp / f"c{conc}-run1.ledger", json.loads(prompts.read_text()))
                    )
                )
                theirs()
                a, b, ratios = [], [], []
                for _ in range(reps):
                    a.append(ours())
                    b.append(theirs())
                    ratios.append(a[-1] / b[-1])
                rows.append(
                    {
                        "what": f"endpoint client: {n} requests at concurrency {conc} "
                        "(wall time, smaller is faster)",
                        "peer": "openai (Python, asyncio)",
                        "ratio": statistics.median(ratios),
                        "min": min(ratios),
                        "max": max(ratios),
                        "a": statistics.median(a),
                        "b": statistics.median(b),
                        "unit": "s",
                        "bar": "<= 1.05x",
                        "reps": reps,
                        "runs_a": a,
                        "runs_b": b,
                    }
                )
                print(rows[-1], flush=True)
    finally:
        server.stop()
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--items", type=int, default=200)
    ap.add_argument(
        "--concurrency",
        type=int,
        action="append",
        help="measure only this concurrency (repeatable; default 1 and 4)",
    )
    ap.add_argument(
        "--pin", action="store_true", help="server on CPU 0, clients on the other CPUs (taskset)"
    )
    a = ap.parse_args()
    if a.pin:
        others = f"1-{os.cpu_count() - 1}" if os.cpu_count() > 2 else "1"
        PIN_SERVER[:] = ["taskset", "-c", "0"]
        PIN_CLIENT[:] = ["taskset", "-c", others]
    for r in client_overhead(a.reps, False, a.items, tuple(a.concurrency or (1, 4))):
        print(
            f"{r['what']}: ProbAudit {r['a']:.2f} s, openai {r['b']:.2f} s, ratio "
            f"{r['ratio']:.3f}x (min {r['min']:.3f}, max {r['max']:.3f}, {r['reps']} runs)"
        )


if __name__ == "__main__":
    sys.exit(main())

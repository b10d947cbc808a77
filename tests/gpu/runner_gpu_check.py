#!/usr/bin/env python3
"""The transformers runner on a GPU, unchanged (scripts/gpu-check.sh runs this; that machine has
no Qt, so this drives `python3 -m probaudit_runner` over the protocol itself, as probaudit does).
For the tiny fixtures, tiny random models of architectures the engine does not have
(tests/tiny_models.py: Gemma 3, Phi-3, Qwen3 MoE, LFM2) and the real models where .cache/models
holds them, each check is one PASS/FAIL line:
- float32 on cuda:0 (TF32 off) gives the CPU's decision probabilities within 1e-4;
- the same forwards twice on cuda:0 are bit-identical (logits and every layer's hash);
- the layer hashes computed on the device equal the pa64 hash (the golden-tested reference) of
  the hidden states the runner returns with capture full;
- bfloat16 on cuda:0 gives finite probabilities (its distance from float32 is printed);
- a kernel trace around a cuda:0 forward counts ATen operators and names device kernels.
Exit status 0 when all pass, 1 when one fails, 77 without a CUDA device (`--device cpu` runs
every check on the CPU, to check the script itself).

    python3 tests/gpu/runner_gpu_check.py [--device cuda:0] [--items 16]
"""

import argparse
import base64
import json
import os
import pathlib
import subprocess
import sys
import tempfile
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[2]
os.environ.setdefault("TQDM_DISABLE", "1")  # transformers' progress bars, into a log
RUNNER = ROOT / "runners" / "python"
WHEELS = sorted((ROOT / ".gpu" / "stage" / "wheels").glob("*.whl"))  # gguf, pure Python
sys.path[:0] = [str(RUNNER), str(ROOT / "tests")] + [str(w) for w in WHEELS]

import numpy as np  # noqa: E402
import torch  # noqa: E402

FAILED = []


def check(ok: bool, what: str) -> None:
    print(f"{'PASS' if ok else 'FAIL'}: {what}", flush=True)
    if not ok:
        FAILED.append(what)


class Runner:
    """One `python -m probaudit_runner` process, spoken to line by line."""

    def __init__(self) -> None:
        env = dict(
            os.environ,
            PYTHONPATH=os.pathsep.join(
                [str(RUNNER)] + [str(w) for w in WHEELS] + [os.environ.get("PYTHONPATH", "")]
            ),
            HF_HUB_OFFLINE="1",
            TRANSFORMERS_OFFLINE="1",
        )
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "probaudit_runner"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        ready = json.loads(self.proc.stdout.readline())
        if ready.get("event") != "ready":
            raise SystemExit(f"the runner did not start: {ready}")
        self.ready = ready
        self.next_id = 0

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        self.proc.stdin.write(
            json.dumps({"id": self.next_id, "method": method, "params": params}) + "\n"
        )
        self.proc.stdin.flush()
        reply = json.loads(self.proc.stdout.readline())
        if reply.get("event") != "result":
            raise RuntimeError(f"{method}: {reply.get('message', reply)}")
        return reply["result"]

    def close(self) -> None:
        try:
            self.call("shutdown")
        finally:
            self.proc.wait(timeout=60)


def floats(b64: str) -> np.ndarray:
    return np.frombuffer(base64.b64decode(b64), dtype=np.float32)


def probs(records: list[dict[str, Any]]) -> np.ndarray:
    lg = np.stack([floats(r["logits"]) for r in records]).astype(np.float64)
    e = np.exp(lg - lg.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def run(
    runner: Runner,
    model: str,
    head: dict[str, Any],
    device: str,
    dtype: str,
    texts: list[str],
    capture: str = "hashes",
    batch: int = 8,
) -> list[dict[str, Any]]:
    """Records of texts in batches, left padding for label heads (as the demos), else right."""
    runner.call(
        "load",
        model=model,
        head=head,
        config={"device": device, "dtype": dtype, "attention": "sdpa", "threads": 1, "tf32": False},
    )
    rows = [i["ids"] for i in runner.call("tokenize", texts=texts, max_length=0)["items"]]
    side = "left" if head["kind"] == "label_tokens" else "right"
    out = []
    for i in range(0, len(rows), batch):
        out += runner.call(
            "forward",
            rows=rows[i : i + batch],
            padding_side=side,
            pad_to="longest",
            pad_to_n=0,
            capture=capture,
        )["records"]
    return out


def cases(tmp: str) -> list[tuple[str, str, dict[str, Any]]]:
    heads = json.loads((ROOT / "tests" / "golden" / "heads.json").read_text())

    def head(name: str) -> dict[str, Any]:
        h = dict(heads[name]["head"])
        if "path" in h:
            h["path"] = str(ROOT / h["path"])
        return h

    fixtures = ROOT / "tests" / "fixtures"
    out = [
        ("tiny-bert", str(fixtures / "tiny-bert"), head("tiny-bert")),
        ("tiny-llama", str(fixtures / "tiny-llama"), head("tiny-llama")),
    ]
    import tiny_models

    for arch in tiny_models.ARCHITECTURES:
        folder = tiny_models.make(arch, pathlib.Path(tmp) / arch, fixtures / "tiny-llama")
        out.append((f"tiny {arch}", str(folder), head("tiny-llama")))
    models = ROOT / ".cache" / "models"
    if (models / "all-MiniLM-L6-v2").is_dir():
        out.append(("all-MiniLM-L6-v2", str(models / "all-MiniLM-L6-v2"), head("all-MiniLM-L6-v2")))
    gguf = models / "SmolLM2-135M-Instruct" / "SmolLM2-135M-Instruct.Q4_1.gguf"
    if gguf.is_file():
        out.append(("SmolLM2-135M-Instruct", str(gguf), head("SmolLM2-135M-Instruct")))
    return out


def check_model(
    runner: Runner, name: str, model: str, head: dict[str, Any], device: str, texts: list[str]
) -> None:
    from probaudit_runner.rowhash import hash_rows

    cpu = run(runner, model, head, "cpu", "float32", texts)
    dev = run(runner, model, head, device, "float32", texts, capture="full")
    dp = float(np.abs(probs(cpu) - probs(dev)).max())
    check(dp <= 1e-4, f"{name}: float32 on {device} vs the CPU, max |dp| {dp:.2e} (bar 1e-4)")
    again = run(runner, model, head, device, "float32", texts, capture="full")
    same = all(
        a["logits"] == b["logits"] and a["hashes"] == b["hashes"] for a, b in zip(dev, again)
    )
    check(same, f"{name}: the same forwards twice on {device} are bit-identical")
    mism = 0
    for rec in dev:
        full = floats(rec["full"]).reshape(len(rec["hashes"]), -1)
        want = hash_rows(torch.from_numpy(full.copy()))
        mism += sum(f"{w:016x}" != h for w, h in zip(want, rec["hashes"]))
    check(
        mism == 0,
        f"{name}: hashes on {device} are the pa64 hash of the returned hidden states "
        f"({mism} of {sum(len(r['hashes']) for r in dev)} differ)",
    )
    bf = probs(run(runner, model, head, device, "bfloat16", texts))
    check(
        bool(np.isfinite(bf).all()),
        f"{name}: bfloat16 on {device}, max |dp| vs float32 "
        f"{float(np.abs(bf - probs(dev)).max()):.2e}",
    )


def check_trace(
    runner: Runner, name: str, model: str, head: dict[str, Any], device: str, texts: list[str]
) -> None:
    runner.call(
        "load",
        model=model,
        head=head,
        config={"device": device, "dtype": "float32", "attention": "sdpa"},
    )
    rows = [i["ids"] for i in runner.call("tokenize", texts=texts[:4], max_length=0)["items"]]
    started = runner.call("trace_start")
    runner.call(
        "forward", rows=rows, padding_side="left", pad_to="longest", pad_to_n=0, capture="hashes"
    )
    stopped = runner.call("trace_stop")
    trace = stopped["trace"]
    kernels = trace.get("device_kernels", {})
    print(
        f"  trace on {device}: operators counted by {started['ops_from']}, "
        f"{len(trace['ops'])} kinds of operator, {len(kernels)} device kernels, e.g."
    )
    for k, n in sorted(kernels.items(), key=lambda kv: -kv[1])[:6]:
        print(f"    {n:5d}  {k[:110]}")
    check(
        trace["ops"].get("aten::mm", 0)
        + trace["ops"].get("aten::addmm", 0)
        + trace["ops"].get("aten::bmm", 0)
        > 0,
        f"{name}: the trace on {device} counts the matrix products",
    )
    if device.startswith("cuda"):
        check(
            len(kernels) > 0 and "device_kernels_unavailable" not in trace,
            f"{name}: the trace on {device} names device kernels",
        )


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--items", type=int, default=16)
    a = ap.parse_args()
    if a.device.startswith("cuda") and not torch.cuda.is_available():
        print("SKIP: no CUDA device")
        return 77
    items = ROOT / "resources" / "demo" / "sentiment-sentences" / "yelp.jsonl"
    texts = [json.loads(line)["text"] for line in items.read_text().splitlines()[: a.items]]
    runner = Runner()
    print(
        f"runner {runner.ready['runner_version']} (protocol {runner.ready['protocol']}), torch "
        f"{runner.ready['torch']}, transformers {runner.ready['transformers']}, row hash "
        f"{runner.ready['row_hash']}"
    )
    try:
        with tempfile.TemporaryDirectory() as tmp:
            all_cases = cases(tmp)
            for name, model, head in all_cases:
                try:
                    check_model(runner, name, model, head, a.device, texts)
                except RuntimeError as e:
                    check(False, f"{name}: {e}")
            name, model, head = next(c for c in all_cases if c[0] == "tiny-llama")
            check_trace(runner, name, model, head, a.device, texts)
    finally:
        runner.close()
    print(f"runner GPU check: {len(FAILED)} failed" if FAILED else "runner GPU check: all passed")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Forward throughput of the ProbAudit engine against Hugging Face transformers, in one run on
one machine: same model, same items, float32, same thread count, batch sizes 1 and 8, each
side's own default attention path (engine: libtorch SDPA, which we select; transformers:
its default, SDPA). Times include tokenization and the decision head, not model loading; both
sides are measured in steady state: the engine first runs the whole item set once, untimed, in
its process, as transformers runs its warm-up pass in its own.

Both sides run the same way: a fresh process per measurement that loads the model, runs the
whole item set once untimed, then times --passes passes and keeps the fastest (on a shared
machine interference only slows a pass down; the fastest pass is the steady state, as timeit
does it). The sides alternate (A B A B ...); the ratio is engine items/s over transformers
items/s, reported as the median with min and max over the repetitions.

    .venv/bin/python bench/engine_vs_transformers.py [--reps 5] [--items 64] [--threads 2]
    [--capture]   also measure the engine's capture overhead (none vs hashes vs vectors)
"""

import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import time
from typing import Any

import torch

ROOT = pathlib.Path(__file__).resolve().parents[1]
ENGINE = ROOT / "build" / "default" / "bin" / "probaudit"
MODELS = ROOT / ".cache" / "models"
ITEMS = ROOT / "resources" / "demo" / "sentiment-sentences" / "yelp.jsonl"
sys.path.insert(0, str(ROOT / "tests" / "golden"))
from make_golden import SMOLLM_TEMPLATE  # noqa: E402

MINILM_ADAPTER = ROOT / "tests" / "fixtures" / "adapters" / "all-MiniLM-L6-v2-mean.safetensors"
CASES = {
    "all-MiniLM-L6-v2": {
        "path": MODELS / "all-MiniLM-L6-v2",
        "head": {"kind": "adapter", "path": str(MINILM_ADAPTER)},
        "padding": "right",
        "items": 256,
    },
    "SmolLM2-135M-Instruct": {
        "path": MODELS / "SmolLM2-135M-Instruct" / "SmolLM2-135M-Instruct.Q4_1.gguf",
        "head": {"kind": "label_tokens", "template": SMOLLM_TEMPLATE, "labels": ["No", "Yes"]},
        "padding": "left",
        "items": 96,
    },
}


GEMMS = ("aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::mv", "aten::addmv")


def engine_run(
    case: dict[str, Any],
    batch: int,
    threads: int,
    items_file: pathlib.Path | str,
    n: int,
    passes: int,
    capture: str = "none",
    attention: str = "sdpa",
    kernels: str = "default",
    gemm: bool = False,
    gemm_path: str = "aten",
) -> float | tuple[float, float]:
    """Items/s of the fastest pass; with gemm, (items/s, GEMM share): one more pass measures the
    time inside the matrix multiplies, over the fastest pass's time. gemm_path: the config's
    `gemm` (aten: MKL's sgemm as PyTorch eager; onednn: oneDNN on packed weights)."""
    cfg = {
        "batch_size": batch,
        "threads": threads,
        "padding_side": case["padding"],
        "attention": attention,
        "kernels": kernels,
    }
    if gemm_path != "aten":
        cfg["gemm"] = gemm_path
    out = subprocess.run(
        [
            str(ENGINE),
            "score",
            str(case["path"]),
            "--head",
            json.dumps(case["head"]),
            "--input",
            str(items_file),
            "--limit",
            str(n),
            "--config",
            json.dumps(cfg),
            "--capture",
            capture,
            "--warmup",
            str(-(-n // batch)),
            "--repeat",
            str(passes),
            "--json",
            *(["--gemm-time"] if gemm else []),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    r = json.loads(out.stdout)
    if gemm:
        return r["items"] / r["seconds"], r["gemm"]["gemm_seconds"] / r["seconds"]
    return r["items"] / r["seconds"]


def onednn_linears(model: torch.nn.Module) -> None:
    """Every nn.Linear of the model's layers computed as the engine's `gemm: onednn` computes it:
    oneDNN's GEMM on the weight packed once (torch.ops.mkldnn, what inductor's freezing uses on
    CPUs). The LM head and BERT's pooler, which the engine leaves to ATen, stay as they are. For
    the row that compares the engine with transformers on the same GEMMs."""
    for name, mod in model.named_modules():
        if (
            not isinstance(mod, torch.nn.Linear)
            or name == "lm_head"
            or name.endswith("pooler.dense")
        ):
            continue
        packed = torch.ops.mkldnn._reorder_linear_weight(mod.weight.detach(), None)
        mod.forward = (
            lambda p, b: lambda x: torch.ops.mkldnn._linear_pointwise(x, p, b, "none", [], "")
        )(packed, mod.bias)


class HfSide:
    def __init__(
        self,
        name: str,
        case: dict[str, Any],
        threads: int,
        device: str | torch.device = "cpu",
        dtype: torch.dtype = torch.float32,
    ) -> None:
        from safetensors.torch import load_file
        from transformers import AutoModel, AutoModelForCausalLM, AutoTokenizer

        torch.set_num_threads(threads)
        self.name = name
        self.case = case
        self.device = device
        path = case["path"]
        if path.suffix == ".gguf":
            self.tok = AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)
            self.model = (
                AutoModelForCausalLM.from_pretrained(
                    str(path.parent), gguf_file=path.name, dtype=dtype
                )
                .to(device)
                .eval()
            )
            self.tok.padding_side = "left"
            if self.tok.pad_token is None:
                self.tok.pad_token = self.tok.eos_token
            self.label_ids = [
                self.tok(label, add_special_tokens=False)["input_ids"][0]
                for label in case["head"]["labels"]
            ]
        else:
            self.tok = AutoTokenizer.from_pretrained(str(path))
            self.model = AutoModel.from_pretrained(str(path), dtype=dtype).to(device).eval()
            ad = load_file(str(MINILM_ADAPTER), device=str(device))
            self.w, self.b = ad["weight"], ad["bias"]

    def run(self, texts: list[str], batch: int) -> float:
        """Items/s of one pass; each batch's probabilities reach the host (as the engine's do)."""
        t0 = time.perf_counter()
        with torch.inference_mode():
            for i in range(0, len(texts), batch):
                chunk = texts[i : i + batch]
                if hasattr(self, "label_ids"):
                    chunk = [self.case["head"]["template"].replace("{text}", t) for t in chunk]
                    enc = self.tok(chunk, return_tensors="pt", padding=True).to(self.device)
                    logits = self.model(**enc, logits_to_keep=1).logits[:, -1]
                    torch.softmax(logits[:, self.label_ids].float(), -1).cpu()
                else:
                    enc = self.tok(chunk, return_tensors="pt", padding=True).to(self.device)
                    h = self.model(**enc).last_hidden_state
                    m = enc["attention_mask"].unsqueeze(-1).float()
                    pooled = (h * m).sum(1) / m.sum(1).clamp(min=1e-9)
                    torch.softmax(pooled @ self.w.T + self.b, -1).cpu()
        return len(texts) / (time.perf_counter() - t0)


def hf_run(
    name: str,
    batch: int,
    threads: int,
    n: int,
    passes: int,
    gemm: bool = False,
    onednn: bool = False,
) -> float | tuple[float, float]:
    """The transformers side in its own fresh process, like the engine side (and with gemm, as
    engine_run, its GEMM share: the profiler's time inside the same matrix multiplies). With
    onednn, its layers' linears run as the engine's `gemm: onednn` (onednn_linears)."""
    out = subprocess.run(
        [
            sys.executable,
            __file__,
            "--hf-worker",
            name,
            "--batches",
            str(batch),
            "--threads",
            str(threads),
            "--items",
            str(n),
            "--passes",
            str(passes),
            *(["--gemm"] if gemm else []),
            *(["--hf-onednn"] if onednn else []),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    r = json.loads(out.stdout.strip().splitlines()[-1])
    return (r["items_s"], r["gemm_share"]) if gemm else r["items_s"]


def hf_worker(a: argparse.Namespace) -> None:
    name = a.hf_worker
    case = CASES[name]
    batch = int(a.batches)
    texts = [json.loads(line)["text"] for line in ITEMS.read_text().splitlines()[: a.items]]
    hf = HfSide(name, case, a.threads)
    if a.hf_onednn:
        onednn_linears(hf.model)
    hf.run(texts, batch)  # warm-up pass
    best = max(hf.run(texts, batch) for _ in range(a.passes))
    out = {"items_s": best}
    if a.gemm:
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
            hf.run(texts, batch)
        gemm_us = sum(
            e.cpu_time_total
            for e in prof.key_averages()
            if e.key in GEMMS + ("mkldnn::_linear_pointwise",)
        )
        out["gemm_share"] = gemm_us * 1e-6 / (len(texts) / best)
    print(json.dumps(out))


def summary(ratios: list[float]) -> tuple[float, float, float]:
    return statistics.median(ratios), min(ratios), max(ratios)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--batches", default="1,8", help="batch sizes, comma-separated")
    ap.add_argument(
        "--items", type=int, default=0, help="items per run (default: 256 MiniLM, 96 SmolLM2)"
    )
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument(
        "--passes", type=int, default=3, help="timed passes per process; the fastest counts"
    )
    ap.add_argument("--capture", action="store_true")
    ap.add_argument("--json", type=pathlib.Path)
    ap.add_argument("--only", help="run only this model")
    ap.add_argument("--gemm", action="store_true", help="also each side's share of time in GEMM")
    ap.add_argument("--hf-worker", help=argparse.SUPPRESS)
    ap.add_argument("--hf-onednn", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.hf_worker:
        hf_worker(a)
        return
    rows = []
    for name, case in CASES.items():
        if a.only and name != a.only:
            continue
        n = a.items or case["items"]
        a_items = n
        for batch in [int(x) for x in a.batches.split(",")]:
            ratios, eng, ref, eng_gemm, ref_gemm = [], [], [], [], []
            for _ in range(a.reps):
                e = engine_run(case, batch, a.threads, ITEMS, a_items, a.passes, gemm=a.gemm)
                h = hf_run(name, batch, a.threads, a_items, a.passes, gemm=a.gemm)
                if a.gemm:
                    (e, eg), (h, hg) = e, h
                    eng_gemm.append(eg)
                    ref_gemm.append(hg)
                eng.append(e)
                ref.append(h)
                ratios.append(e / h)
            med, lo, hi = summary(ratios)
            rows.append(
                {
                    "what": f"{name} forward, batch {batch}",
                    "engine_items_s": statistics.median(eng),
                    "peer": "transformers",
                    "peer_items_s": statistics.median(ref),
                    "ratio_median": med,
                    "ratio_min": lo,
                    "ratio_max": hi,
                }
            )
            gemm = ""
            if a.gemm:
                rows[-1].update(
                    engine_gemm_share=statistics.median(eng_gemm),
                    peer_gemm_share=statistics.median(ref_gemm),
                )
                gemm = (
                    f" GEMM share: engine {statistics.median(eng_gemm):.0%}, transformers "
                    f"{statistics.median(ref_gemm):.0%} |"
                )
            print(
                f"| {name} | batch {batch} | engine {statistics.median(eng):.1f} items/s | "
                f"transformers {statistics.median(ref):.1f} items/s | "
                f"{med:.2f}x ({lo:.2f}-{hi:.2f}) |{gemm}",
                flush=True,
            )
        if a.capture:
            for capture in ("hashes", "vectors"):
                ratios = []
                for _ in range(a.reps):
                    base = engine_run(case, 8, a.threads, ITEMS, a_items, a.passes, "none")
                    cap = engine_run(case, 8, a.threads, ITEMS, a_items, a.passes, capture)
                    ratios.append(cap / base)
                med, lo, hi = summary(ratios)
                rows.append(
                    {
                        "what": f"{name} capture {capture} vs none, batch 8",
                        "ratio_median": med,
                        "ratio_min": lo,
                        "ratio_max": hi,
                    }
                )
                print(
                    f"| {name} | capture {capture} vs none | "
                    f"throughput {med:.3f}x ({lo:.3f}-{hi:.3f}) |",
                    flush=True,
                )
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()

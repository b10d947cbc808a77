#!/usr/bin/env python3
"""The exact reference (dtype float64, issue #50): the engine's float64 decision probabilities
against transformers' float64 on both demo models, through `probaudit predict --json`, whose
classes carry the float64 probability ("probability_float64") next to the float32 one the
ledger keeps.

  - all-MiniLM-L6-v2 with an adapter (mean pooling, as demo A) against transformers' float64
    as it is: within 1e-12 per probability.
  - SmolLM2-135M-Instruct (GGUF Q4_1, as demo B) with label tokens and with an adapter (last
    token pooling, as demo B) against transformers' float64 with its three float32 steps
    computed in float64: LlamaRMSNorm's statistics, the rotary tables and eager attention's
    softmax. transformers computes those in float32 whatever the model's dtype, so its stock
    float64 is not exact there; the engine's float64 is float64 throughout. Within 1e-12 against
    the lifted one; the stock one is measured and printed, and must differ (by more than 1e-12:
    the negative side, the lift is what the comparison rests on) but stay within 1e-5.
  - float32 is not float64: two of the inputs in float32 differ from the exact values by more
    than 1e-9 (else the comparison above could not tell them apart).
  - float64 where it cannot run (CUDA, the batch-invariant kernels, gemm onednn) is one
    sentence and exit 1.

    .venv/bin/python tests/test_exact_reference.py PROBAUDIT
"""

import contextlib
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest
from collections.abc import Iterator
from typing import Any

PROBAUDIT = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else "build/default/bin/probaudit"
HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
MODELS = ROOT / ".cache" / "models"
MINILM = MODELS / "all-MiniLM-L6-v2"
SMOLLM = MODELS / "SmolLM2-135M-Instruct" / "SmolLM2-135M-Instruct.Q4_1.gguf"
MINILM_ADAPTER = HERE / "fixtures" / "adapters" / "all-MiniLM-L6-v2-mean.safetensors"
SENTENCES = ROOT / "resources" / "demo" / "sentiment-sentences" / "yelp.jsonl"
TEMPLATE = (
    "<|im_start|>user\nIs the sentiment of this review positive? Answer Yes or "
    "No.\nReview: {text}<|im_end|>\n<|im_start|>assistant\n"
)
EXACT = 1e-12
sys.path.insert(0, str(ROOT / "runners" / "python"))


def texts(n: int) -> list[str]:
    lines = SENTENCES.read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["text"] for line in lines[:n]]


def engine_probs(model: pathlib.Path, head: dict[str, Any], text: str, dtype: str) -> list[float]:
    """The engine's probabilities of one input: float64 ones in a float64 run."""
    out = subprocess.run(
        [
            PROBAUDIT,
            "predict",
            str(model),
            "--head",
            json.dumps(head),
            "--text",
            text,
            "--config",
            json.dumps({"dtype": dtype}),
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    key = "probability_float64" if dtype == "float64" else "probability"
    return [c[key] for c in json.loads(out.stdout)["classes"]]


def reference_probs(model: Any, text: str) -> list[float]:
    """transformers' float64 probabilities of one input, laid out and read as the engine
    does (the transformers runner's own batch and head code)."""
    import torch

    ids = model.tokenize([text], 0)[0]["ids"]
    input_ids, mask, pos, start = model.batch([ids], "right", "longest", 0)
    last = torch.tensor([len(ids) - 1])
    kw = {"input_ids": input_ids, "attention_mask": mask}
    if model.takes_positions:
        kw["position_ids"] = pos
    with torch.inference_mode():
        logits = model._logits(model.model(**kw), mask, start, last, None)  # noqa: SLF001
    assert logits.dtype == torch.float64, logits.dtype
    return torch.softmax(logits[0], -1).tolist()


@contextlib.contextmanager
def llama_in_float64() -> Iterator[None]:
    """transformers' llama with its float32 steps computed in the model's dtype (float64)."""
    import torch
    from transformers.models.llama import modeling_llama as ml

    F = torch.nn.functional
    softmax, norm, rotary = F.softmax, ml.LlamaRMSNorm.forward, ml.LlamaRotaryEmbedding.forward

    def softmax64(
        x: torch.Tensor,
        dim: int | None = None,
        _stacklevel: int = 3,
        dtype: torch.dtype | None = None,
    ) -> torch.Tensor:
        if x.dtype == torch.float64 and dtype == torch.float32:
            dtype = torch.float64
        return softmax(x, dim=dim, dtype=dtype)

    def norm64(self: Any, h: torch.Tensor) -> torch.Tensor:
        if h.dtype != torch.float64:
            return norm(self, h)
        variance = h.pow(2).mean(-1, keepdim=True)
        return self.weight * (h * torch.rsqrt(variance + self.variance_epsilon))

    def rotary64(self: Any, x: torch.Tensor, position_ids: torch.Tensor) -> Any:
        if x.dtype != torch.float64:
            return rotary(self, x, position_ids)
        cfg = self.config
        base = cfg.rope_parameters["rope_theta"]
        dim = getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads
        inv = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).to(torch.float64) / dim))
        freqs = position_ids[..., None].to(torch.float64) * inv
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos() * self.attention_scaling, emb.sin() * self.attention_scaling

    F.softmax, ml.LlamaRMSNorm.forward, ml.LlamaRotaryEmbedding.forward = (
        softmax64,
        norm64,
        rotary64,
    )
    try:
        yield
    finally:
        F.softmax, ml.LlamaRMSNorm.forward, ml.LlamaRotaryEmbedding.forward = (
            softmax,
            norm,
            rotary,
        )


def largest_gap(a: list[list[float]], b: list[list[float]]) -> float:
    return max(abs(x - y) for ra, rb in zip(a, b) for x, y in zip(ra, rb))


class ExactReference(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        for p in (PROBAUDIT, MINILM, SMOLLM, MINILM_ADAPTER):
            if not os.path.exists(p):
                raise unittest.SkipTest(f"{p} missing (./scripts/setup fetches the models)")
        cls.tmp = tempfile.TemporaryDirectory()
        cls.inputs = texts(4)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def loaded(self, path: pathlib.Path, head: dict[str, Any]) -> Any:
        from probaudit_runner.model import LoadedModel

        return LoadedModel(str(path), head, "float64", "cpu", "math")

    def smollm_adapter(self) -> dict[str, Any]:
        """A random adapter on SmolLM2's last token (demo B's kind of head)."""
        import torch
        from safetensors.torch import save_file

        path = pathlib.Path(self.tmp.name) / "smollm2-last.safetensors"
        g = torch.Generator().manual_seed(50)
        save_file(
            {"weight": torch.randn(2, 576, generator=g) * 0.05, "bias": torch.zeros(2)},
            str(path),
            metadata={"pooling": "last", "template": TEMPLATE},
        )
        return {"kind": "adapter", "path": str(path), "template": TEMPLATE}

    def check(self, path: pathlib.Path, head: dict[str, Any], lift: bool) -> None:
        exact = [engine_probs(path, head, t, "float64") for t in self.inputs]
        model = self.loaded(path, head)
        stock = [reference_probs(model, t) for t in self.inputs]
        with llama_in_float64() if lift else contextlib.nullcontext():
            lifted = [reference_probs(model, t) for t in self.inputs]
        gap, stock_gap = largest_gap(exact, lifted), largest_gap(exact, stock)
        print(
            f"{path.name} {head['kind']}: |engine float64 - transformers float64| "
            f"{'(float32 steps lifted) ' if lift else ''}{gap:.3g}; "
            f"stock transformers float64 {stock_gap:.3g}",
            file=sys.stderr,
        )
        self.assertLessEqual(gap, EXACT)
        if lift:
            self.assertGreater(stock_gap, EXACT)
            self.assertLessEqual(stock_gap, 1e-5)
        single = [engine_probs(path, head, t, "float32") for t in self.inputs[:2]]
        self.assertGreater(largest_gap(exact[:2], single), 1e-9)

    def test_minilm_adapter(self) -> None:
        self.check(MINILM, {"kind": "adapter", "path": str(MINILM_ADAPTER)}, lift=False)

    def test_smollm2_label_tokens(self) -> None:
        head = {"kind": "label_tokens", "template": TEMPLATE, "labels": [" No", " Yes"]}
        self.check(SMOLLM, head, lift=True)

    def test_smollm2_adapter(self) -> None:
        self.check(SMOLLM, self.smollm_adapter(), lift=True)

    def test_float64_where_it_cannot_run(self) -> None:
        head = json.dumps({"kind": "adapter", "path": str(MINILM_ADAPTER)})
        for extra in ({"device": "cuda:0"}, {"kernels": "batch_invariant"}, {"gemm": "onednn"}):
            config = json.dumps({"dtype": "float64", **extra})
            r = subprocess.run(
                [
                    PROBAUDIT,
                    "predict",
                    str(MINILM),
                    "--head",
                    head,
                    "--text",
                    "x",
                    "--config",
                    config,
                ],
                capture_output=True,
                text=True,
            )
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("float64 (the exact reference) runs on the CPU", r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""Reference greedy generations for the engine's generation test (run in .venv):
transformers' generate(do_sample=False) one prompt at a time (concurrency 1), float32, eager
attention for the fixtures and the model's default (SDPA) for SmolLM2, writing the new token ids
of every prompt to tests/golden/generation.json.

    .venv/bin/python tests/golden/make_generation_golden.py
"""

import json
import pathlib
from typing import TYPE_CHECKING

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

if TYPE_CHECKING:
    from transformers import PreTrainedModel, PreTrainedTokenizerBase

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
TEMPLATE_TINY = "Review: {text} Verdict:"
TEMPLATE_SMOL = (
    "<|im_start|>user\nList the words that carry the sentiment of this sentence, one per line.\n"
    "Sentence: {text}<|im_end|>\n<|im_start|>assistant\n"
)


def run(
    model: "PreTrainedModel", tok: "PreTrainedTokenizerBase", prompts: list[str], max_new: int
) -> list[list[int]]:
    out = []
    for p in prompts:
        enc = tok(p, return_tensors="pt")
        with torch.inference_mode():
            g = model.generate(
                **enc,
                do_sample=False,
                max_new_tokens=max_new,
                num_beams=1,
                pad_token_id=tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id,
            )
        out.append(g[0, enc["input_ids"].shape[1] :].tolist())
    return out


def main() -> None:
    torch.manual_seed(0)
    texts = json.loads((GOLDEN / "forward_inputs.json").read_text())
    result = {}
    for name in ("tiny-llama", "tiny-qwen3"):
        path = ROOT / "tests" / "fixtures" / name
        tok = AutoTokenizer.from_pretrained(str(path))
        model = AutoModelForCausalLM.from_pretrained(
            str(path), dtype=torch.float32, attn_implementation="eager"
        ).eval()
        prompts = [TEMPLATE_TINY.replace("{text}", t) for t in texts[:8]]
        result[name] = {
            "prompts": prompts,
            "max_new_tokens": 12,
            "tokens": run(model, tok, prompts, 12),
        }
    smol = ROOT / ".cache" / "models" / "SmolLM2-135M-Instruct"
    gguf = "SmolLM2-135M-Instruct.Q4_1.gguf"
    tok = AutoTokenizer.from_pretrained(str(smol), gguf_file=gguf)
    model = AutoModelForCausalLM.from_pretrained(
        str(smol), gguf_file=gguf, dtype=torch.float32
    ).eval()
    prompts = [TEMPLATE_SMOL.replace("{text}", t) for t in texts[:16]]
    result["SmolLM2-135M-Instruct"] = {
        "prompts": prompts,
        "max_new_tokens": 24,
        "tokens": run(model, tok, prompts, 24),
    }
    (GOLDEN / "generation.json").write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n")
    for k, v in result.items():
        print(k, [len(t) for t in v["tokens"]])


if __name__ == "__main__":
    main()

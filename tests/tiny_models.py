"""Tiny random models of architectures the engine does not have, made from transformers configs
(no download): Gemma 3 (sliding-window and global layers), Phi-3, Qwen3 MoE (mixture of
experts), LFM2 (a hybrid of short convolutions and attention), Mamba (a state-space model whose
hidden states have no embeddings entry), GPT-NeoX and OLMo2. Each is saved as a Hugging
Face folder with the SmolLM2 tokenizer, so label words are single tokens.

    python tests/tiny_models.py OUT_DIR TOKENIZER_DIR [NAME ...]
"""

import pathlib
import sys

COMMON = {
    "hidden_size": 64,
    "intermediate_size": 128,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "max_position_embeddings": 512,
    "tie_word_embeddings": True,
}

ARCHITECTURES = {
    "gemma3": (
        "gemma3_text",
        {
            "num_hidden_layers": 4,
            "head_dim": 16,
            "sliding_window": 4,
            "layer_types": [
                "sliding_attention",
                "sliding_attention",
                "sliding_attention",
                "full_attention",
            ],
        },
    ),
    "phi3": ("phi3", {"num_hidden_layers": 2}),
    "qwen3_moe": (
        "qwen3_moe",
        {
            "num_hidden_layers": 2,
            "head_dim": 16,
            "num_experts": 4,
            "num_experts_per_tok": 2,
            "moe_intermediate_size": 32,
            "decoder_sparse_step": 1,
        },
    ),
    "mamba": ("mamba", {"num_hidden_layers": 3, "state_size": 8, "expand": 2}),
    "gpt_neox": ("gpt_neox", {"num_hidden_layers": 3}),
    "olmo2": ("olmo2", {"num_hidden_layers": 3}),
    "lfm2": (
        "lfm2",
        {
            "num_hidden_layers": 4,
            "block_ff_dim": 128,
            "layer_types": ["conv", "full_attention", "conv", "full_attention"],
        },
    ),
}


def make(
    name: str, out: str | pathlib.Path, tokenizer_dir: str | pathlib.Path, seed: int = 5
) -> pathlib.Path:
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    model_type, extra = ARCHITECTURES[name]
    tok = AutoTokenizer.from_pretrained(str(tokenizer_dir))
    cfg = AutoConfig.for_model(
        model_type,
        vocab_size=len(tok),
        bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id,
        pad_token_id=tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id,
        **COMMON,
        **extra,
    )
    torch.manual_seed(seed)
    model = AutoModelForCausalLM.from_config(cfg, dtype=torch.float32)
    out = pathlib.Path(out)
    model.save_pretrained(str(out))
    tok.save_pretrained(str(out))
    return out


if __name__ == "__main__":
    out, tokdir, *names = sys.argv[1:]
    for n in names or ARCHITECTURES:
        print(make(n, pathlib.Path(out) / n, tokdir))

#!/usr/bin/env python3
"""Golden data from the reference implementation (Hugging Face transformers, tokenizers,
safetensors, gguf-py), for ProbAudit's engine tests. Test-only: runs in the repo's .venv.

    .venv/bin/python tests/golden/make_golden.py fixtures   # tiny random checkpoints
    .venv/bin/python tests/golden/make_golden.py weights    # per-tensor digests (fixtures)
    .venv/bin/python tests/golden/make_golden.py tokens     # reference token ids, corpus.py
    .venv/bin/python tests/golden/make_golden.py forward    # reference forward passes (fixtures)
    .venv/bin/python tests/golden/make_golden.py forward-real  # same for the demo models
    .venv/bin/python tests/golden/make_golden.py heads      # reference decision probabilities
    .venv/bin/python tests/golden/make_golden.py gguf       # GGUF fixture, one tensor a type
    .venv/bin/python tests/golden/make_golden.py weights-real  # same for the demo models

Everything is seeded: rerunning with the pinned versions (scripts/deps.txt) gives the same
files, with one exception: the tokenizers library's WordPiece trainer iterates a hash map, so
tiny-bert's tokenizer.json comes out with another id order each time. The committed fixture is
the reference; after `fixtures`, run `tokens` and `weights` again so the golden data follows
whatever fixtures are committed. The tiny checkpoints are saved by transformers itself
(save_pretrained), with tokenizers trained by the tokenizers library on the demo sentences, each
under 2 MB.
"""

import hashlib
import json
import pathlib
import sys
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

if TYPE_CHECKING:
    from tokenizers import Tokenizer

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
GOLDEN = ROOT / "tests" / "golden"
MODELS = ROOT / ".cache" / "models"
SENTENCES = ROOT / "resources" / "demo" / "sentiment-sentences"

GPT2_SPLIT = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
QWEN2_SPLIT = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
    r"""|\s*[\r\n]+|\s+(?!\S)|\s+"""
)


def training_text() -> list[str]:
    lines = []
    for name in ("amazon.jsonl", "yelp.jsonl"):
        for line in (SENTENCES / name).read_text().splitlines():
            lines.append(json.loads(line)["text"])
    # A few non-English lines so that the byte-level vocabularies learn multi-byte merges.
    lines += [
        "Größe, Straße, Übergrößen und Ärger",
        "café, crème brûlée, naïve façade",
        "안녕하세요 세계",
        "日本語のテキスト",
        "中文文本测试",
        "مرحبا بالعالم",
    ]
    return lines


LLAMA3_SPLIT = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"""
    r"""| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)


def bpe_tokenizer(
    split_regex: str, vocab_size: int, specials: list[str], ignore_merges: bool = False
) -> "Tokenizer":
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE(byte_fallback=False, ignore_merges=ignore_merges))
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(split_regex), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=specials,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(training_text(), trainer)
    return tok


def wordpiece_tokenizer(vocab_size: int) -> "Tokenizer":
    from tokenizers import (
        Tokenizer,
        decoders,
        models,
        normalizers,
        pre_tokenizers,
        processors,
        trainers,
    )

    tok = Tokenizer(models.WordPiece(unk_token="[UNK]", max_input_chars_per_word=100))
    tok.normalizer = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True
    )
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    trainer = trainers.WordPieceTrainer(
        vocab_size=vocab_size, special_tokens=specials, show_progress=False
    )
    tok.train_from_iterator(training_text(), trainer)
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", cls), ("[SEP]", sep)],
    )
    return tok


def save_tokenizer(tok: "Tokenizer", folder: pathlib.Path, **special: str) -> None:
    from transformers import PreTrainedTokenizerFast

    fast = PreTrainedTokenizerFast(tokenizer_object=tok, **special)
    fast.save_pretrained(folder)


def make_fixtures() -> None:
    from transformers import (
        BertConfig,
        BertModel,
        LlamaConfig,
        LlamaForCausalLM,
        Qwen3Config,
        Qwen3ForCausalLM,
    )

    torch.manual_seed(1234)
    # llama: GQA, llama3 rope scaling, untied embeddings; fp32, sharded (index + 2+ files).
    llama_tok = bpe_tokenizer(GPT2_SPLIT, 512, ["<|endoftext|>"])
    cfg = LlamaConfig(
        vocab_size=llama_tok.get_vocab_size(),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=256,
        rms_norm_eps=1e-5,
        tie_word_embeddings=False,
        bos_token_id=0,
        eos_token_id=0,
        rope_parameters={
            "rope_type": "llama3",
            "rope_theta": 10000.0,
            "factor": 8.0,
            "low_freq_factor": 1.0,
            "high_freq_factor": 4.0,
            "original_max_position_embeddings": 64,
        },
    )
    model = LlamaForCausalLM(cfg).eval()
    out = FIXTURES / "tiny-llama"
    model.save_pretrained(out, max_shard_size="200KB")
    save_tokenizer(llama_tok, out, eos_token="<|endoftext|>", bos_token="<|endoftext|>")

    # qwen3: qk-norm, explicit head_dim != hidden/heads, tied embeddings; bfloat16.
    qwen_tok = bpe_tokenizer(QWEN2_SPLIT, 600, ["<|endoftext|>", "<|im_start|>", "<|im_end|>"])
    cfg = Qwen3Config(
        vocab_size=qwen_tok.get_vocab_size(),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        head_dim=32,
        max_position_embeddings=256,
        rms_norm_eps=1e-6,
        tie_word_embeddings=True,
        attention_bias=False,
        rope_parameters={"rope_type": "default", "rope_theta": 1000000.0},
    )
    model = Qwen3ForCausalLM(cfg).to(torch.bfloat16).eval()
    out = FIXTURES / "tiny-qwen3"
    model.save_pretrained(out)
    save_tokenizer(qwen_tok, out, eos_token="<|im_end|>", pad_token="<|endoftext|>")

    # bert: absolute positions, token types, post-LN, GELU; float16.
    bert_tok = wordpiece_tokenizer(1000)
    cfg = BertConfig(
        vocab_size=bert_tok.get_vocab_size(),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        max_position_embeddings=128,
        type_vocab_size=2,
        layer_norm_eps=1e-12,
        hidden_act="gelu",
    )
    model = BertModel(cfg).to(torch.float16).eval()
    out = FIXTURES / "tiny-bert"
    model.save_pretrained(out)
    save_tokenizer(
        bert_tok,
        out,
        unk_token="[UNK]",
        sep_token="[SEP]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        mask_token="[MASK]",
    )

    # A Llama 3 style tokenizer alone (no model): Llama 3's split regex (digits in runs of up
    # to three) and ignore_merges, with a BOS template like Llama 3's.
    from tokenizers import processors

    l3 = bpe_tokenizer(
        LLAMA3_SPLIT, 700, ["<|begin_of_text|>", "<|end_of_text|>"], ignore_merges=True
    )
    bos = l3.token_to_id("<|begin_of_text|>")
    l3.post_processor = processors.TemplateProcessing(
        single="<|begin_of_text|> $A",
        pair="<|begin_of_text|> $A <|begin_of_text|> $B:1",
        special_tokens=[("<|begin_of_text|>", bos)],
    )
    out = FIXTURES / "tok-llama3"
    out.mkdir(parents=True, exist_ok=True)
    save_tokenizer(l3, out, bos_token="<|begin_of_text|>", eos_token="<|end_of_text|>")

    for d in sorted(FIXTURES.iterdir()):
        size = sum(f.stat().st_size for f in d.rglob("*") if f.is_file())
        assert size < 2 * 1024 * 1024, (d, size)
        print(f"{d.relative_to(ROOT)}: {size / 1024:.0f} KiB")


def tensor_digest(t: torch.Tensor) -> dict[str, Any]:
    a = t.detach().to(torch.float32).contiguous().numpy()
    return {"shape": list(a.shape), "sha256": hashlib.sha256(a.tobytes()).hexdigest()}


def hf_state_dict(folder: pathlib.Path) -> dict[str, torch.Tensor]:
    from transformers import AutoConfig, AutoModel, AutoModelForCausalLM

    cfg = AutoConfig.from_pretrained(folder)
    cls = AutoModel if cfg.model_type == "bert" else AutoModelForCausalLM
    model = cls.from_pretrained(folder, dtype=torch.float32)
    # Every tensor as stored (tied weights appear once, under their stored name).
    from safetensors import safe_open

    stored = {}
    for f in pathlib.Path(folder).glob("*.safetensors"):
        with safe_open(str(f), "pt") as s:
            for k in s.keys():
                stored[k] = s.get_tensor(k)
    sd = model.state_dict()
    prefix = model.base_model_prefix + "."
    out = {}
    for name, raw in stored.items():
        key = (
            name
            if name in sd
            else (name[len(prefix) :] if name.startswith(prefix) else prefix + name)
        )
        # Tensors the model does not use (e.g. a stored position_ids buffer) are compared with
        # the file's content as the safetensors library reads it.
        out[name] = sd[key] if key in sd else raw
    return out


def make_weight_digests(folders: list[pathlib.Path], out_name: str) -> None:
    result = {}
    for folder in folders:
        sd = hf_state_dict(folder)
        result[folder.name] = {k: tensor_digest(v) for k, v in sorted(sd.items())}
        print(f"{folder.name}: {len(sd)} tensors")
    (GOLDEN / out_name).write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")


def gguf_state_dict(path: pathlib.Path) -> dict[str, torch.Tensor]:
    """The tensors transformers builds from a GGUF file, with HF names and fp32 values."""
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(
        str(path.parent), gguf_file=path.name, dtype=torch.float32
    )
    return dict(model.state_dict())


def make_gguf_fixture() -> None:
    """A small GGUF v3 file with one tensor of each type the engine dequantizes, written and
    quantized by gguf-py (the reference llama.cpp's Python package), plus the digests of what
    gguf-py's dequantize returns for each: the function transformers uses to load GGUF."""
    import gguf
    from gguf import GGMLQuantizationType as Q

    rng = np.random.default_rng(7)
    out = FIXTURES / "tiny-gguf"
    out.mkdir(parents=True, exist_ok=True)
    path = out / "types.gguf"
    w = gguf.GGUFWriter(str(path), arch="llama")
    w.add_string("probaudit.fixture", "one tensor per dequantized type")
    values = {}
    for qtype in (Q.F32, Q.F16, Q.BF16, Q.Q8_0, Q.Q4_0, Q.Q4_1):
        x = (rng.standard_normal((6, 64)) * 0.5).astype(np.float32)
        x[0, :3] = [0.0, -0.0, 1e-6]  # zero, negative zero, a subnormal in half precision
        data = gguf.quants.quantize(x, qtype)
        name = f"t_{qtype.name.lower()}"
        w.add_tensor(name, data, raw_dtype=None if qtype in (Q.F32, Q.F16) else qtype)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    r = gguf.GGUFReader(str(path))
    for t in r.tensors:
        deq = gguf.quants.dequantize(t.data, t.tensor_type).astype(np.float32)
        shape = [int(d) for d in reversed(t.shape)]
        deq = np.ascontiguousarray(deq.reshape(shape))
        values[t.name] = {
            "type": t.tensor_type.name,
            "shape": shape,
            "sha256": hashlib.sha256(deq.tobytes()).hexdigest(),
        }
    (GOLDEN / "gguf_types.json").write_text(json.dumps(values, indent=1, sort_keys=True) + "\n")
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size} bytes, {len(values)} tensors")


TOKENIZERS = {
    "tiny-llama": lambda: (FIXTURES / "tiny-llama", {}),
    "tiny-qwen3": lambda: (FIXTURES / "tiny-qwen3", {}),
    "tiny-bert": lambda: (FIXTURES / "tiny-bert", {}),
    "tok-llama3": lambda: (FIXTURES / "tok-llama3", {}),
    "all-MiniLM-L6-v2": lambda: (MODELS / "all-MiniLM-L6-v2", {}),
    "SmolLM2-135M-Instruct": lambda: (
        MODELS / "SmolLM2-135M-Instruct",
        {"gguf_file": "SmolLM2-135M-Instruct.Q4_1.gguf"},
    ),
}


def make_tokens() -> None:
    """Reference token ids (transformers' AutoTokenizer, add_special_tokens=True, no truncation)
    for every corpus string and tokenizer, and truncated ids (max_length 8) for a sample."""
    from transformers import AutoTokenizer

    sys.path.insert(0, str(GOLDEN))
    from corpus import corpus

    strings = corpus()
    (GOLDEN / "tokenizer_corpus.json").write_text(
        json.dumps(strings, ensure_ascii=False, indent=0) + "\n"
    )
    result = {}
    for name, where in TOKENIZERS.items():
        folder, kwargs = where()
        tok = AutoTokenizer.from_pretrained(str(folder), **kwargs)
        ids = [tok(s, add_special_tokens=True)["input_ids"] for s in strings]
        truncated = [
            tok(s, add_special_tokens=True, truncation=True, max_length=8)["input_ids"]
            for s in strings[:60]
        ]
        result[name] = {"ids": ids, "truncated_8": truncated}
        print(f"{name}: {len(ids)} strings, {sum(map(len, ids))} tokens")
    (GOLDEN / "tokens.json").write_text(json.dumps(result, separators=(",", ":")) + "\n")


FORWARD_MODELS = {
    # name: (loader kwargs, full per-token capture?)
    "tiny-llama": (lambda: (FIXTURES / "tiny-llama", {}), True),
    "tiny-qwen3": (lambda: (FIXTURES / "tiny-qwen3", {}), True),
    "tiny-bert": (lambda: (FIXTURES / "tiny-bert", {}), True),
    "all-MiniLM-L6-v2": (lambda: (MODELS / "all-MiniLM-L6-v2", {}), False),
    "SmolLM2-135M-Instruct": (
        lambda: (
            MODELS / "SmolLM2-135M-Instruct",
            {"gguf_file": "SmolLM2-135M-Instruct.Q4_1.gguf"},
        ),
        False,
    ),
}


def forward_inputs() -> list[str]:
    """32 inputs: demo sentences of varied length plus multilingual and punctuation-heavy ones."""
    sys.path.insert(0, str(GOLDEN))
    from corpus import sentences

    pool = sentences(40)
    picked = pool[:12] + pool[40:52]
    picked += [
        "Größe, Straße, Übergrößen!",
        "안녕하세요, 세계!",
        "日本語のテキストです。",
        "don't stop believing",
        "3.14159 and 1,000,000",
        "a",
        "Wow... Loved this place.",
        "The food was great but the service was slow, rude and expensive." * 2,
    ]
    assert len(picked) == 32
    return picked


def make_forward(names: list[str]) -> None:
    """Reference forward passes (float32, eager attention) for the forward-pass tests: every
    layer's hidden states (hidden_states[0] = embeddings, [i] = after layer i; for the llama
    family the last entry is after the final norm, as transformers returns them), logits, and
    the BERT pooler output; unbatched, and in batches of 8 with right and with left padding.
    Padding follows generate(): attention_mask marks real tokens and position_ids count them
    (cumsum(mask) - 1, pads at 0), so that a padded item means the same as an unpadded one.
    Fixtures keep every token; the real models keep summaries (first/last/mean rows and 64
    selected logits) so the files stay small."""
    from safetensors.torch import save_file
    from transformers import AutoModel, AutoModelForCausalLM, AutoTokenizer

    texts = forward_inputs()
    (GOLDEN / "forward_inputs.json").write_text(
        json.dumps(texts, ensure_ascii=False, indent=0) + "\n"
    )
    for name in names:
        where, full = FORWARD_MODELS[name]
        folder, kwargs = where()
        tok = AutoTokenizer.from_pretrained(str(folder), **kwargs)
        is_bert = (folder / "config.json").exists() and json.loads(
            (folder / "config.json").read_text()
        )["model_type"] == "bert"
        cls = AutoModel if is_bert else AutoModelForCausalLM
        model = cls.from_pretrained(
            str(folder), dtype=torch.float32, attn_implementation="eager", **kwargs
        ).eval()
        ids = [tok(t, add_special_tokens=True)["input_ids"] for t in texts]
        out = {}
        sel = None
        if not is_bert and not full:
            vocab = model.config.vocab_size
            sel = torch.tensor(
                sorted(
                    {tok.convert_tokens_to_ids(t) for t in ("ĠYes", "ĠNo", "Yes", "No")}
                    | set(range(0, vocab, vocab // 60))
                ),
                dtype=torch.int64,
            )[:64]
            out["logit_ids"] = sel
        for i, seq in enumerate(ids):
            out[f"ids.{i}"] = torch.tensor(seq, dtype=torch.int64)

        def record(
            mode: str,
            i: int,
            hidden: list[torch.Tensor],
            logits: torch.Tensor | None,
            pooler: torch.Tensor | None,
            n: int,
        ) -> None:
            # hidden: tuple of [T, H] (real tokens only), logits [T, V] or None
            last = len(hidden) - 1
            for layer, h in enumerate(hidden):
                if full:
                    out[f"{mode}.{i}.h{layer}"] = h.contiguous()
                    continue
                # Real models: every layer unbatched, three layers batched; the decision rows
                # (BERT: [CLS] and the mean over real tokens; llama: the last real token).
                if mode != "single" and layer not in (0, last // 2, last):
                    continue
                if is_bert:
                    out[f"{mode}.{i}.h{layer}.first"] = h[0].contiguous()
                    out[f"{mode}.{i}.h{layer}.mean"] = h.mean(0).contiguous()
                else:
                    out[f"{mode}.{i}.h{layer}.last"] = h[n - 1].contiguous()
            if logits is not None:
                # The decision position (last real token): all logits for fixtures, 64 for real
                # models.
                out[f"{mode}.{i}.logits"] = (
                    logits[n - 1].contiguous() if full else logits[n - 1, sel].contiguous()
                )
            if pooler is not None:
                out[f"{mode}.{i}.pooler"] = pooler.contiguous()

        with torch.inference_mode():
            for i, seq in enumerate(ids):
                x = torch.tensor([seq])
                r = model(input_ids=x, output_hidden_states=True)
                record(
                    "single",
                    i,
                    [h[0] for h in r.hidden_states],
                    None if is_bert else r.logits[0],
                    r.pooler_output[0] if is_bert else None,
                    len(seq),
                )
            for side in ("right", "left"):
                for b in range(0, len(ids), 8):
                    group = ids[b : b + 8]
                    L = max(map(len, group))
                    pad = tok.pad_token_id if tok.pad_token_id is not None else 0
                    inp = torch.full((len(group), L), pad, dtype=torch.int64)
                    mask = torch.zeros((len(group), L), dtype=torch.int64)
                    for j, seq in enumerate(group):
                        o = 0 if side == "right" else L - len(seq)
                        inp[j, o : o + len(seq)] = torch.tensor(seq)
                        mask[j, o : o + len(seq)] = 1
                    pos = (mask.cumsum(-1) - 1).clamp(min=0) * mask
                    r = model(
                        input_ids=inp,
                        attention_mask=mask,
                        position_ids=pos,
                        output_hidden_states=True,
                    )
                    for j, seq in enumerate(group):
                        o = 0 if side == "right" else L - len(seq)
                        sl = slice(o, o + len(seq))
                        record(
                            f"batch8_{side}",
                            b + j,
                            [h[j, sl] for h in r.hidden_states],
                            None if is_bert else r.logits[j, sl],
                            r.pooler_output[j] if is_bert else None,
                            len(seq),
                        )
        path = GOLDEN / f"forward_{name}.safetensors"
        save_file(out, str(path))
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size / 1e6:.1f} MB, {len(out)} tensors")


SMOLLM_TEMPLATE = (
    "<|im_start|>user\nIs the sentiment of this review positive? Answer Yes or No.\n"
    "Review: {text}<|im_end|>\n<|im_start|>assistant\n"
)


def make_heads() -> None:
    """Reference decision probabilities for the head tests (float32, eager attention):
    an adapter (seeded random weights, mean pooling) on all-MiniLM-L6-v2 and on tiny-bert, and
    label tokens "No"/"Yes" on SmolLM2 and " a"/" b" on tiny-llama, for the 32 forward inputs."""
    from safetensors.torch import save_file
    from transformers import AutoModel, AutoModelForCausalLM, AutoTokenizer

    texts = forward_inputs()
    adapters = FIXTURES / "adapters"
    adapters.mkdir(exist_ok=True)
    result = {}
    for name, folder, hidden in (
        ("all-MiniLM-L6-v2", MODELS / "all-MiniLM-L6-v2", 384),
        ("tiny-bert", FIXTURES / "tiny-bert", 64),
    ):
        g = torch.Generator().manual_seed(11)
        w = (torch.randn(2, hidden, generator=g) * 0.5).contiguous()
        b = torch.tensor([0.1, -0.1])
        path = adapters / f"{name}-mean.safetensors"
        save_file(
            {"weight": w, "bias": b},
            str(path),
            metadata={"pooling": "mean", "labels": json.dumps(["negative", "positive"])},
        )
        tok = AutoTokenizer.from_pretrained(str(folder))
        model = AutoModel.from_pretrained(
            str(folder), dtype=torch.float32, attn_implementation="eager"
        ).eval()
        probs = []
        with torch.inference_mode():
            for t in texts:
                x = torch.tensor([tok(t)["input_ids"]])
                h = model(input_ids=x).last_hidden_state[0]
                pooled = h.mean(0)
                probs.append(torch.softmax(pooled @ w.T + b, -1).tolist())
        result[name] = {
            "head": {"kind": "adapter", "path": str(path.relative_to(ROOT))},
            "probs": probs,
        }
        print(name, "adapter done")
    for name, folder, kwargs, template, labels in (
        (
            "SmolLM2-135M-Instruct",
            MODELS / "SmolLM2-135M-Instruct",
            {"gguf_file": "SmolLM2-135M-Instruct.Q4_1.gguf"},
            SMOLLM_TEMPLATE,
            ["No", "Yes"],
        ),
        ("tiny-llama", FIXTURES / "tiny-llama", {}, "Review: {text} Verdict:", [" a", " b"]),
    ):
        tok = AutoTokenizer.from_pretrained(str(folder), **kwargs)
        ids = [tok(label, add_special_tokens=False)["input_ids"] for label in labels]
        assert all(len(i) == 1 for i in ids), ids
        model = AutoModelForCausalLM.from_pretrained(
            str(folder), dtype=torch.float32, attn_implementation="eager", **kwargs
        ).eval()
        probs = []
        with torch.inference_mode():
            for t in texts:
                x = torch.tensor([tok(template.replace("{text}", t))["input_ids"]])
                logits = model(input_ids=x).logits[0, -1]
                probs.append(torch.softmax(logits[[i[0] for i in ids]], -1).tolist())
        result[name] = {
            "head": {"kind": "label_tokens", "template": template, "labels": labels},
            "probs": probs,
        }
        print(name, "label tokens done")
    (GOLDEN / "heads.json").write_text(json.dumps(result, indent=1) + "\n")


def main(what: str) -> None:
    if what == "fixtures":
        make_fixtures()
    elif what == "weights":
        make_weight_digests(
            sorted(d for d in FIXTURES.iterdir() if d.is_dir()), "weights_fixtures.json"
        )
    elif what == "tokens":
        make_tokens()
    elif what == "forward":
        make_forward([n for n in FORWARD_MODELS if n.startswith("tiny-")])
    elif what == "forward-real":
        make_forward([n for n in FORWARD_MODELS if not n.startswith("tiny-")])
    elif what == "heads":
        make_heads()
    elif what == "gguf":
        make_gguf_fixture()
    elif what == "weights-real":
        result = {}
        minilm = MODELS / "all-MiniLM-L6-v2"
        result["all-MiniLM-L6-v2"] = {
            k: tensor_digest(v) for k, v in sorted(hf_state_dict(minilm).items())
        }
        gguf = MODELS / "SmolLM2-135M-Instruct" / "SmolLM2-135M-Instruct.Q4_1.gguf"
        result["SmolLM2-135M-Instruct"] = {
            k: tensor_digest(torch.as_tensor(v)) for k, v in sorted(gguf_state_dict(gguf).items())
        }
        (GOLDEN / "weights_real.json").write_text(
            json.dumps(result, indent=1, sort_keys=True) + "\n"
        )
        print({k: len(v) for k, v in result.items()})
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "")

#!/usr/bin/env python3
"""Set-up step: the demo GGUF (SmolLM2-135M-Instruct, Q4_1) as a Hugging Face folder, for
`transformers serve` in the endpoint tests (it cannot serve this GGUF itself: the file's config
names no architecture). transformers reads the GGUF and dequantises it; its quantised model is
not saved as it is: the dequantised state dict goes to model.safetensors (float32) beside a
config.json that names LlamaForCausalLM and the tokenizer's files.

    .venv/bin/python scripts/convert_smollm2.py CACHE_DIR

Idempotent: a stamp holds the GGUF's SHA-256 and the transformers version it was made with.
"""

import json
import pathlib
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from fetch_models import sha256  # noqa: E402  (the same digest as the models' check)

NAME = "SmolLM2-135M-Instruct"
GGUF = f"{NAME}.Q4_1.gguf"


def main(cache: str | pathlib.Path) -> None:
    import torch
    import transformers
    from safetensors.torch import save_file

    src = pathlib.Path(cache) / "models" / NAME
    out = pathlib.Path(cache) / "models" / f"{NAME}-hf"
    stamp_text = f"{sha256(src / GGUF)} transformers {transformers.__version__}\n"
    stamp = out / ".probaudit-stamp"
    if stamp.exists() and stamp.read_text() == stamp_text and (out / "model.safetensors").exists():
        print(f"setup: model {out.name}: present (converted from {GGUF})")
        return
    if out.exists():
        shutil.rmtree(out)
    tmp = out.with_name(out.name + ".partial")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    model = transformers.AutoModelForCausalLM.from_pretrained(
        str(src), gguf_file=GGUF, torch_dtype=torch.float32
    )
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(src), gguf_file=GGUF)
    # Tied embeddings are one tensor: safetensors keeps it once, under the input embedding.
    state = {
        k: v.contiguous()
        for k, v in model.state_dict().items()
        if not (model.config.tie_word_embeddings and k == "lm_head.weight")
    }
    save_file(state, str(tmp / "model.safetensors"), metadata={"format": "pt"})
    config = model.config
    config.architectures = ["LlamaForCausalLM"]
    config.torch_dtype = "float32"
    config.save_pretrained(str(tmp))
    model.generation_config.save_pretrained(str(tmp))
    tokenizer.save_pretrained(str(tmp))
    # The chat template, if the GGUF had one, is in tokenizer_config.json; check it reads back.
    check = transformers.AutoModelForCausalLM.from_pretrained(str(tmp))
    ids = tokenizer("Review: great phone", return_tensors="pt").input_ids
    with torch.no_grad():
        a = model(ids).logits[0, -1]
        b = check(ids).logits[0, -1]
    if not torch.equal(a, b):
        shutil.rmtree(tmp)
        sys.exit(
            f"setup: error: the converted {NAME} does not reproduce the GGUF's logits "
            f"(max difference {float((a - b).abs().max())})"
        )
    tmp.rename(out)
    stamp.write_text(stamp_text)
    print(
        f"setup: model {out.name}: converted from {GGUF} "
        f"({sum(v.numel() for v in state.values()) / 1e6:.1f}M parameters, float32; "
        f"the same last-token logits as the GGUF)"
    )
    json.loads((out / "config.json").read_text())  # written whole


if __name__ == "__main__":
    main(sys.argv[1])

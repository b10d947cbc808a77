#!/usr/bin/env python3
"""Demo E's model variants: the demo's SmolLM2-135M-Instruct GGUF (the Q4_1 file its package
ships) written again as the builds people serve, by llama.cpp's own quantiser (llama-cpp-python's
`llama_model_quantize`, what `llama-quantize` runs), reproducibly.

    .venv/bin/python scripts/make_variants.py MODEL_DIR

writes MODEL_DIR/variants/SmolLM2-135M-Instruct.{Q8_0,Q4_K_M,Q2_K}.gguf. The source is already
quantised (Q4_1), so each variant is a requantisation of it: Q8_0 keeps almost every value,
Q4_K_M and Q2_K lose more. SmolLM2's rows are 576 wide, not a multiple of 256, so most of its
tensors cannot hold a K-quant: llama.cpp falls back to Q5_0/Q8_0 (Q4_K_M) or Q4_0 (Q2_K) for
them, and the K-quants end up in the 1,536-wide down projections (its log says which).

Idempotent: a stamp holds the source's SHA-256, the llama-cpp-python version and each variant's
SHA-256; a variant whose digest differs from the stamp's is written again.
"""

import ctypes
import hashlib
import json
import pathlib
import sys

SOURCE = "SmolLM2-135M-Instruct.Q4_1.gguf"
# name -> llama_ftype (llama.h): MOSTLY_Q8_0 = 7, MOSTLY_Q4_K_M = 15, MOSTLY_Q2_K = 10
VARIANTS = {"Q8_0": 7, "Q4_K_M": 15, "Q2_K": 10}


def sha256(path: pathlib.Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def quantise(src: pathlib.Path, dst: pathlib.Path, ftype: int) -> None:
    import llama_cpp

    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = ftype
    params.allow_requantize = True  # the source is Q4_1 already
    params.nthread = 2
    tmp = dst.with_suffix(".partial")
    rc = llama_cpp.llama_model_quantize(str(src).encode(), str(tmp).encode(), ctypes.byref(params))
    if rc != 0:
        tmp.unlink(missing_ok=True)
        sys.exit(f"make_variants: llama.cpp could not write {dst.name} (code {rc})")
    tmp.rename(dst)


def main(model_dir: str) -> None:
    import llama_cpp

    folder = pathlib.Path(model_dir)
    src = folder / SOURCE
    if not src.is_file():
        sys.exit(f"make_variants: {src}: no such file (run ./scripts/setup)")
    out = folder / "variants"
    out.mkdir(exist_ok=True)
    stamp_path = out / "stamp.json"
    stamp = json.loads(stamp_path.read_text()) if stamp_path.is_file() else {}
    want = {"source_sha256": sha256(src), "llama_cpp_python": llama_cpp.__version__}
    digests = stamp.get("variants", {}) if all(stamp.get(k) == v for k, v in want.items()) else {}
    for name, ftype in VARIANTS.items():
        dst = out / f"SmolLM2-135M-Instruct.{name}.gguf"
        if dst.is_file() and digests.get(name) == sha256(dst):
            continue
        print(f"make_variants: writing {dst.name} from {SOURCE}", flush=True)
        quantise(src, dst, ftype)
        digests[name] = sha256(dst)
    stamp_path.write_text(json.dumps({**want, "variants": digests}, indent=1) + "\n")
    for name in VARIANTS:
        print(f"{name}: {digests[name]}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make_variants.py MODEL_DIR")
    main(sys.argv[1])

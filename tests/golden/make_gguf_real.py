#!/usr/bin/env python3
"""A GGUF fixture of real weights in every quantisation type llama.cpp writes for common releases,
and the digests of what the reference (the `gguf` package's dequantize, the function
transformers loads GGUF with) makes of each. Test-only: runs in the repo's .venv.

    .venv/bin/python tests/golden/make_gguf_real.py

The weights are five rows of all-MiniLM-L6-v2's first feed-forward output projection
(`encoder.layer.0.output.dense.weight`, 1,536 columns: six K-quant super-blocks a row), the
model's own float32 values as its release ships them, plus one row of zeros (a block whose scale
is zero). They are quantised by llama.cpp itself (`ggml_quantize_chunk` from the libggml that
llama-cpp-python builds, the function `llama-quantize` calls), so the bytes are what a
Q4_K_M or Q2_K release holds, not what a re-implementation would write.

Writes tests/fixtures/tiny-gguf/real_types.gguf and tests/golden/gguf_real_types.json.
"""

import ctypes
import hashlib
import json
import pathlib

import gguf
import llama_cpp
import numpy as np
from gguf import GGMLQuantizationType as Q
from safetensors.numpy import load_file

ROOT = pathlib.Path(__file__).resolve().parents[2]
MODEL = ROOT / ".cache" / "models" / "all-MiniLM-L6-v2" / "model.safetensors"
OUT = ROOT / "tests" / "fixtures" / "tiny-gguf" / "real_types.gguf"
GOLDEN = ROOT / "tests" / "golden" / "gguf_real_types.json"
TENSOR = "encoder.layer.0.output.dense.weight"

# Every type issue #52 lists, in ggml's numbering.
TYPES = [Q.F16, Q.BF16, Q.Q8_0, Q.Q4_0, Q.Q4_1, Q.Q5_0, Q.Q5_1]
TYPES += [Q.Q2_K, Q.Q3_K, Q.Q4_K, Q.Q5_K, Q.Q6_K]


def ggml() -> ctypes.CDLL:
    """llama.cpp's ggml base library, with the signature of its quantiser."""
    lib = ctypes.CDLL(str(pathlib.Path(llama_cpp.__file__).parent / "lib" / "libggml-base.so"))
    lib.ggml_quantize_chunk.restype = ctypes.c_size_t
    lib.ggml_quantize_chunk.argtypes = [
        ctypes.c_int,
        ctypes.c_void_p,
        ctypes.c_void_p,
        ctypes.c_int64,
        ctypes.c_int64,
        ctypes.c_int64,
        ctypes.c_void_p,
    ]
    return lib


def quantise(lib: ctypes.CDLL, rows: np.ndarray, qtype: Q) -> np.ndarray:
    """The bytes llama.cpp writes for `rows` in `qtype`, shaped (rows, bytes per row)."""
    block, size = gguf.GGML_QUANT_SIZES[qtype]
    n_rows, n_cols = rows.shape
    out = np.zeros((n_rows, n_cols // block * size), dtype=np.uint8)
    src = np.ascontiguousarray(rows, dtype=np.float32)
    written = lib.ggml_quantize_chunk(
        int(qtype), src.ctypes.data, out.ctypes.data, 0, n_rows, n_cols, None
    )
    assert written == out.nbytes, (qtype.name, written, out.nbytes)
    return out


def main() -> None:
    weight = load_file(str(MODEL))[TENSOR]
    assert weight.shape == (384, 1536) and weight.dtype == np.float32, weight.shape
    rows = np.concatenate([weight[:5], np.zeros((1, 1536), dtype=np.float32)])
    lib = ggml()
    w = gguf.GGUFWriter(str(OUT), arch="bert")
    w.add_string("probaudit.fixture", f"{TENSOR} rows 0-4 and a zero row, quantised by ggml")
    w.add_string("probaudit.quantiser", f"llama-cpp-python {llama_cpp.__version__}")
    for qtype in TYPES:
        w.add_tensor(f"t_{qtype.name.lower()}", quantise(lib, rows, qtype), raw_dtype=qtype)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    golden = {}
    for t in gguf.GGUFReader(str(OUT)).tensors:
        shape = [int(d) for d in reversed(t.shape)]
        deq = gguf.quants.dequantize(t.data, t.tensor_type).astype(np.float32).reshape(shape)
        err = float(np.abs(deq - rows).max())
        golden[t.name] = {
            "type": t.tensor_type.name,
            "shape": shape,
            "sha256": hashlib.sha256(np.ascontiguousarray(deq).tobytes()).hexdigest(),
            "max_abs_error": err,
        }
    GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
    print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size} bytes, {len(golden)} tensors")


if __name__ == "__main__":
    main()

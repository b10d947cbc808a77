#!/usr/bin/env python3
"""The transformers side of the GPU benchmark (scripts/gpu-check.sh runs it after gpu_bench): the
same two real models, items, heads and padding as bench/gpu_bench.cpp, on cuda:0 in bfloat16
and float32 at batch 1, 8 and 32, with transformers' default attention (SDPA). Times include
tokenization and the head, each batch's probabilities reach the host; a warm-up pass first, then
the median of --reps passes. With --engine FILE (gpu_bench's printed table) it adds the ratio
engine default-kernel items/s over transformers items/s for each row.

    python3 bench/gpu_transformers.py [--reps 3] [--items 256] [--engine build/gpu-bench.txt]
    [--device cpu]   to check the script itself on a machine without a GPU

The machine that runs the GPU check may lack the `gguf` package that transformers needs to read
the SmolLM2 GGUF: wheels in .gpu/stage/wheels (scripts/gpu-check.sh --pack puts gguf there) are
imported from directly (gguf is pure Python).
"""

import argparse
import json
import os
import pathlib
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
os.environ.setdefault("TQDM_DISABLE", "1")  # transformers' GGUF conversion bar, into a log
for wheel in sorted((ROOT / ".gpu" / "stage" / "wheels").glob("*.whl")):
    sys.path.append(str(wheel))

import torch  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from engine_vs_transformers import CASES, ITEMS, HfSide  # noqa: E402

DTYPES = {"bfloat16": torch.bfloat16, "float32": torch.float32}


def engine_table(path: pathlib.Path | None) -> dict[tuple[str, str, int], float]:
    """{(model, dtype, batch): default it/s} from gpu_bench's table."""
    rows = {}
    if path and path.exists():
        for line in path.read_text().splitlines():
            f = line.split()
            if len(f) >= 5 and f[1] in DTYPES and f[2].isdigit():
                rows[(f[0], f[1], int(f[2]))] = float(f[3])
    return rows


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--items", type=int, default=256)
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--batches", default="1,8,32")
    ap.add_argument("--engine", type=pathlib.Path, help="gpu_bench's output, for the ratio column")
    a = ap.parse_args()
    if a.device.startswith("cuda") and not torch.cuda.is_available():
        print("SKIP: no CUDA device")
        return 0
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    engine = engine_table(a.engine)
    import transformers

    where = torch.cuda.get_device_name(0) if a.device.startswith("cuda") else a.device
    print(f"transformers {transformers.__version__}, torch {torch.__version__} on {where}")
    texts = [json.loads(line)["text"] for line in ITEMS.read_text().splitlines()[: a.items]]
    print(
        f"{'model':<24} {'dtype':<9} {'batch':>5} {'transformers it/s':>18} "
        f"{'engine it/s':>12} {'engine/hf':>9}"
    )
    status = 0
    for name, case in CASES.items():
        for dname, dtype in DTYPES.items():
            try:
                hf = HfSide(name, case, torch.get_num_threads(), a.device, dtype)
            except Exception as e:  # noqa: BLE001 - report and go on with the other rows
                print(
                    f"{name:<24} {dname:<9} transformers could not load it: {type(e).__name__}: {e}"
                )
                status = 1
                continue
            for batch in [int(b) for b in a.batches.split(",")]:
                hf.run(texts, batch)  # warm-up
                ips = statistics.median(hf.run(texts, batch) for _ in range(a.reps))
                eng = engine.get((name, dname, batch))
                ratio = f"{eng / ips:8.2f}x" if eng else f"{'-':>9}"
                print(
                    f"{name:<24} {dname:<9} {batch:>5} {ips:>18.1f} {eng or 0:>12.1f} {ratio}",
                    flush=True,
                )
            del hf
            if a.device.startswith("cuda"):
                torch.cuda.empty_cache()
    return status


if __name__ == "__main__":
    sys.exit(main())

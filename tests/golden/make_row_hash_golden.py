#!/usr/bin/env python3
"""Independent Python implementation of the pa64 row hash (kernels/row_hash.h), used to make
tests/golden/row_hash.json. Regenerate with:  python3 tests/golden/make_row_hash_golden.py

The byte patterns are the ones tests/test_row_hash.cpp builds: byte k of case n is
(k * 37 + 11 * n) mod 256."""

import json
import pathlib
import struct

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix64(x: int) -> int:
    z = (x + GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def pa64(data: bytes) -> int:
    padded = data + b"\0" * (-len(data) % 4)
    acc = 0
    for i in range(len(padded) // 4):
        (w,) = struct.unpack_from("<I", padded, 4 * i)
        acc = (acc + mix64((i << 32) | w)) & MASK
    return mix64(acc ^ ((len(data) * GOLDEN) & MASK))


def pattern(n: int, length: int) -> bytes:
    return bytes((k * 37 + 11 * n) % 256 for k in range(length))


LENGTHS = [0, 1, 2, 3, 4, 5, 7, 8, 64, 1535, 1536, 1537, 4096]
cases = [
    {"case": n, "bytes": L, "hash": f"{pa64(pattern(n, L)):016x}"} for n, L in enumerate(LENGTHS)
]
out = pathlib.Path(__file__).with_name("row_hash.json")
out.write_text(json.dumps({"algorithm": "pa64 v1", "cases": cases}, indent=1) + "\n")
print(f"wrote {out} ({len(cases)} cases)")

"""The "pa64" row hash (kernels/row_hash.h), the very bits the engine computes.

The bytes are read as little-endian 32-bit words w_i (a trailing partial word zero-padded);
term_i = mix((i << 32) | w_i); hash = mix((sum term_i mod 2^64) ^ (nbytes * golden)), mix being
the splitmix64 finalizer. Computed in torch int64, whose addition and multiplication wrap
modulo 2^64 exactly as uint64 does; right shifts are made logical with a mask."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import torch

if TYPE_CHECKING:
    import ctypes

    import numpy as np

GOLDEN = 0x9E3779B97F4A7C15
M1 = 0xBF58476D1CE4E5B9
M2 = 0x94D049BB133111EB
MASK64 = (1 << 64) - 1


def _signed(v: int) -> int:
    v &= MASK64
    return v - (1 << 64) if v >= (1 << 63) else v


def _shr(z: torch.Tensor, n: int) -> torch.Tensor:
    return (z >> n) & ((1 << (64 - n)) - 1)


def _mix_tensor(x: torch.Tensor) -> torch.Tensor:
    z = x + _signed(GOLDEN)
    z = (z ^ _shr(z, 30)) * _signed(M1)
    z = (z ^ _shr(z, 27)) * _signed(M2)
    return z ^ _shr(z, 31)


def mix_int(x: int) -> int:
    z = (x + GOLDEN) & MASK64
    z = ((z ^ (z >> 30)) * M1) & MASK64
    z = ((z ^ (z >> 27)) * M2) & MASK64
    return z ^ (z >> 31)


def hash_rows(t: torch.Tensor) -> list[int]:
    """pa64 of each row of a 2-D tensor's bytes ([rows, n] -> list of ints), on its device."""
    t = t.contiguous()
    rows = t.shape[0]
    b = t.view(torch.uint8).reshape(rows, -1)
    nbytes = b.shape[1]
    pad = (-nbytes) % 4
    if pad:
        b = torch.cat([b, torch.zeros(rows, pad, dtype=torch.uint8, device=b.device)], 1)
    w = b.view(torch.int32).to(torch.int64) & 0xFFFFFFFF
    idx = torch.arange(w.shape[1], dtype=torch.int64, device=w.device) << 32
    sums = _mix_tensor(idx | w).sum(1).tolist()
    tail = (nbytes * GOLDEN) & MASK64
    return [mix_int((s & MASK64) ^ tail) for s in sums]


_NATIVE = []


def native() -> ctypes.CDLL | None:
    """The row hash library that probaudit points the runner to ($PROBAUDIT_ROWHASH_LIB,
    kernels/row_hash_c.cpp, loaded with ctypes), or None: then numpy hashes."""
    if not _NATIVE:
        import ctypes
        import os

        lib, path = None, os.environ.get("PROBAUDIT_ROWHASH_LIB", "")
        if path:
            try:
                lib = ctypes.CDLL(path)
                if lib.probaudit_rowhash_abi() != 1:
                    lib = None
                else:
                    p64 = ctypes.POINTER(ctypes.c_uint64)
                    lib.probaudit_pa64_spans.argtypes = [
                        p64,
                        ctypes.POINTER(ctypes.c_int64),
                        ctypes.c_int64,
                        p64,
                    ]
                    lib.probaudit_pa64_spans.restype = ctypes.c_int
            except (OSError, AttributeError):
                lib = None
        _NATIVE.append(lib)
    return _NATIVE[0]


def _hash_batch_native(
    lib: ctypes.CDLL, hidden: Sequence[torch.Tensor], start: list[int], lengths: list[int]
) -> list[list[int]]:
    """The rows' real tokens are contiguous bytes of each [B, L, H] layer: one call hashes them
    all (layers x rows ranges) where they lie."""
    import ctypes

    layers = [h.contiguous() for h in hidden]  # kept alive until the call returns
    B, L, H = layers[0].shape
    es = layers[0].element_size()
    starts, nbytes = [], []
    for r, (s, n) in enumerate(zip(start, lengths)):
        for h in layers:
            starts.append(h.data_ptr() + (r * L + s) * H * es)
            nbytes.append(n * H * es)
    n = len(starts)
    c_starts = (ctypes.c_uint64 * n)(*starts)
    c_nbytes = (ctypes.c_int64 * n)(*nbytes)
    out = (ctypes.c_uint64 * n)()
    if lib.probaudit_pa64_spans(c_starts, c_nbytes, n, out) != 0:
        raise ValueError("the row hash library refused the spans")
    per = len(layers)
    return [list(out[r * per : (r + 1) * per]) for r in range(B)]


def _words(h: torch.Tensor) -> torch.Tensor | None:
    """A [B, L, H] hidden state as little-endian 32-bit words [B, L, W], or None where a token's
    bytes do not end on a word boundary (the word index would then cross tokens)."""
    h = h.contiguous()
    if (h.shape[-1] * h.element_size()) % 4:
        return None
    return h.view(torch.int32)


def _layer_sums_numpy(words: np.ndarray, idx: np.ndarray, valid: np.ndarray) -> list[int]:
    """sum_i mix((i << 32) | w_i) over each row's real tokens, for one layer, in numpy uint64
    (logical shifts, wrapping multiplies, single-threaded and without torch's int64 emulation)."""
    import numpy as np

    z = np.add(idx, words.view(np.uint32))
    t = np.empty_like(z)
    with np.errstate(over="ignore"):
        for shift, mul in ((30, M1), (27, M2), (31, None)):
            np.right_shift(z, np.uint64(shift), out=t)
            z ^= t
            if mul is not None:
                z *= np.uint64(mul)
    per_token = z.sum(2, dtype=np.uint64)
    per_token *= valid
    return per_token.sum(1, dtype=np.uint64).tolist()


def _layer_sums_torch(words: torch.Tensor, idx: torch.Tensor, valid: torch.Tensor) -> list[int]:
    """The same sums in torch int64 (wrapping as uint64; shifts made logical by a mask), on the
    tensor's device: what a CUDA run uses."""
    z = words.to(torch.int64).bitwise_and_(0xFFFFFFFF).add_(idx)
    t = torch.empty_like(z)
    for shift, mul in ((30, M1), (27, M2), (31, None)):
        torch.bitwise_right_shift(z, shift, out=t)
        z.bitwise_xor_(t.bitwise_and_((1 << (64 - shift)) - 1))
        if mul is not None:
            z.mul_(_signed(mul))
    return (z.sum(2) * valid).sum(1).tolist()


def hash_batch(
    hidden: Sequence[torch.Tensor],
    start: list[int],
    lengths: list[int],
    threads: int = 1,
    method: str | None = None,
) -> list[list[int]]:
    """pa64 of each row's real tokens in each hidden state: hidden is a sequence of [B, L, H]
    tensors (one per layer), row r's real tokens at [start[r], start[r] + lengths[r]).
    Returns [B][layers] ints, equal to hash_rows of each row's [T, H] slice. method: "native"
    (the row hash library, native()), "numpy" (on `threads` threads) or "torch" (on the
    tensors' device); None chooses native, else numpy, on the CPU and torch elsewhere. In numpy
    and torch the word index of an element is its offset from the row's first real token and
    pads are summed as zero; a hidden size whose tokens do not end on a word boundary is hashed
    row by row (hash_rows)."""
    on_cpu = hidden[0].device.type == "cpu"
    if method is None:
        method = ("native" if native() is not None else "numpy") if on_cpu else "torch"
    if method == "native":
        if not on_cpu or native() is None:
            raise ValueError("the row hash library hashes CPU tensors, and only where it is loaded")
        return _hash_batch_native(native(), hidden, start, lengths)
    words = [_words(h) for h in hidden]
    if any(w is None for w in words):
        return _hash_batch_rows(hidden, start, lengths)
    B, L, _ = hidden[0].shape
    W = words[0].shape[-1]
    tok = torch.arange(L)[None, :] - torch.tensor(start)[:, None]
    valid = (tok >= 0) & (tok < torch.tensor(lengths)[:, None])
    idx = (tok.clamp_min(0)[:, :, None] * W + torch.arange(W)[None, None, :]) << 32
    idx = idx + _signed(GOLDEN)
    if method == "numpy":
        sums = _numpy_sums(words, idx, valid, threads)
    else:
        device = words[0].device
        idx, valid = idx.to(device), valid.to(device, torch.int64)
        sums = [_layer_sums_torch(w, idx, valid) for w in words]
    es = hidden[0].element_size() * hidden[0].shape[-1]
    return [
        [
            mix_int((layer_sums[r] & MASK64) ^ ((lengths[r] * es * GOLDEN) & MASK64))
            for layer_sums in sums
        ]
        for r in range(B)
    ]


def _numpy_sums(
    words: list[torch.Tensor], idx: torch.Tensor, valid: torch.Tensor, threads: int
) -> list[list[int]]:
    import numpy as np

    idx_np, valid_np = idx.numpy().view(np.uint64), valid.numpy().astype(np.uint64)
    # Torch is done here, on this thread: the pool's threads see numpy arrays only (a profiler
    # would not see their operators, the native counter would).
    words = [w.cpu().numpy() for w in words]

    def layer(w: np.ndarray) -> list[int]:
        return _layer_sums_numpy(w, idx_np, valid_np)

    if threads > 1 and len(words) > 1:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(min(threads, len(words))) as pool:
            return list(pool.map(layer, words))
    return [layer(w) for w in words]


def _hash_batch_rows(
    hidden: Sequence[torch.Tensor], start: list[int], lengths: list[int]
) -> list[list[int]]:
    layers = torch.stack(list(hidden))
    out = []
    for r, (s, n) in enumerate(zip(start, lengths)):
        real = layers[:, r, s : s + n, :]
        out.append(hash_rows(real.reshape(real.shape[0], -1)))
    return out


def hash_bytes_reference(data: bytes) -> int:
    """The same hash in plain Python integers (the tests' second opinion)."""
    nbytes = len(data)
    data = bytes(data) + b"\0" * ((-nbytes) % 4)
    total = 0
    for i in range(len(data) // 4):
        word = int.from_bytes(data[4 * i : 4 * i + 4], "little")
        total = (total + mix_int((i << 32) | word)) & MASK64
    return mix_int(total ^ ((nbytes * GOLDEN) & MASK64))

"""The "pa64" row hash (kernels/row_hash.h), the very bits the engine computes.

The bytes are read as little-endian 32-bit words w_i (a trailing partial word zero-padded);
term_i = mix((i << 32) | w_i); hash = mix((sum term_i mod 2^64) ^ (nbytes * golden)), mix being
the splitmix64 finalizer. Computed in torch int64, whose addition and multiplication wrap
modulo 2^64 exactly as uint64 does; right shifts are made logical with a mask."""
import torch

GOLDEN = 0x9E3779B97F4A7C15
M1 = 0xBF58476D1CE4E5B9
M2 = 0x94D049BB133111EB
MASK64 = (1 << 64) - 1


def _signed(v):
    v &= MASK64
    return v - (1 << 64) if v >= (1 << 63) else v


def _shr(z, n):
    return (z >> n) & ((1 << (64 - n)) - 1)


def _mix_tensor(x):
    z = x + _signed(GOLDEN)
    z = (z ^ _shr(z, 30)) * _signed(M1)
    z = (z ^ _shr(z, 27)) * _signed(M2)
    return z ^ _shr(z, 31)


def mix_int(x):
    z = (x + GOLDEN) & MASK64
    z = ((z ^ (z >> 30)) * M1) & MASK64
    z = ((z ^ (z >> 27)) * M2) & MASK64
    return z ^ (z >> 31)


def hash_rows(t):
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


def hash_bytes_reference(data):
    """The same hash in plain Python integers (the tests' second opinion)."""
    nbytes = len(data)
    data = bytes(data) + b"\0" * ((-nbytes) % 4)
    total = 0
    for i in range(len(data) // 4):
        word = int.from_bytes(data[4 * i:4 * i + 4], "little")
        total = (total + mix_int((i << 32) | word)) & MASK64
    return mix_int(total ^ ((nbytes * GOLDEN) & MASK64))

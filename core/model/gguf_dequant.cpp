// Dequantization of ggml's block formats to float32, bit for bit as the reference (the `gguf`
// package's numpy dequantize, which transformers loads GGUF with) computes it: the same float32
// operations in the same order, each rounded on its own. This file is compiled with
// -ffp-contract=off (core/CMakeLists.txt): a fused multiply-add would round once where the
// reference rounds twice (d*q - m, d*q + m).
#include "core/common/error.h"
#include "core/model/gguf.h"

#include <cstring>

namespace probaudit::model {

namespace {

constexpr int kQK = 256; // elements of a K-quant super-block

std::uint16_t u16(const std::uint8_t* p) {
    return std::uint16_t(p[0] | (p[1] << 8));
}

std::uint32_t u32(const std::uint8_t* p) {
    return std::uint32_t(p[0]) | (std::uint32_t(p[1]) << 8) | (std::uint32_t(p[2]) << 16) |
           (std::uint32_t(p[3]) << 24);
}

// Q8_0 (34 bytes): f16 d, int8 q[32]; x = q * d.
void q8_0(const std::uint8_t* b, float* y) {
    const float d = halfToFloat(u16(b));
    for (int j = 0; j < 32; ++j) {
        y[j] = float(static_cast<std::int8_t>(b[2 + j])) * d;
    }
}

// Q4_0 (18 bytes): f16 d, 16 bytes; low nibbles are elements 0..15, high 16..31; x = d (q - 8).
void q4_0(const std::uint8_t* b, float* y) {
    const float d = halfToFloat(u16(b));
    for (int j = 0; j < 16; ++j) {
        y[j] = d * float(int(b[2 + j] & 0x0F) - 8);
        y[j + 16] = d * float(int(b[2 + j] >> 4) - 8);
    }
}

// Q4_1 (20 bytes): f16 d, f16 m, 16 bytes; x = d q + m.
void q4_1(const std::uint8_t* b, float* y) {
    const float d = halfToFloat(u16(b));
    const float m = halfToFloat(u16(b + 2));
    for (int j = 0; j < 16; ++j) {
        y[j] = d * float(b[4 + j] & 0x0F) + m;
        y[j + 16] = d * float(b[4 + j] >> 4) + m;
    }
}

// The five-bit value of element j of a Q5 block: its nibble, and bit j of qh as the fifth bit.
int q5Value(const std::uint8_t* qs, std::uint32_t qh, int j) {
    const int low = j < 16 ? (qs[j] & 0x0F) : (qs[j - 16] >> 4);
    return low | int((qh >> j) & 1u) << 4;
}

// Q5_0 (22 bytes): f16 d, u32 qh, 16 bytes; x = d (q - 16).
void q5_0(const std::uint8_t* b, float* y) {
    const float d = halfToFloat(u16(b));
    const std::uint32_t qh = u32(b + 2);
    for (int j = 0; j < 32; ++j) {
        y[j] = d * float(q5Value(b + 6, qh, j) - 16);
    }
}

// Q5_1 (24 bytes): f16 d, f16 m, u32 qh, 16 bytes; x = d q + m.
void q5_1(const std::uint8_t* b, float* y) {
    const float d = halfToFloat(u16(b));
    const float m = halfToFloat(u16(b + 2));
    const std::uint32_t qh = u32(b + 4);
    for (int j = 0; j < 32; ++j) {
        y[j] = d * float(q5Value(b + 8, qh, j)) + m;
    }
}

// Q2_K (84 bytes): scales[16] (low nibble scale, high nibble min), qs[64], f16 d, f16 dmin.
// Element e: half h = e/128 of qs, shift s = (e%128)/32; group e/16; x = (d sc) q - (dmin m).
void q2_k(const std::uint8_t* b, float* y) {
    const std::uint8_t* scales = b;
    const std::uint8_t* qs = b + 16;
    const float d = halfToFloat(u16(b + 80));
    const float dmin = halfToFloat(u16(b + 82));
    for (int e = 0; e < kQK; ++e) {
        const int h = e / 128, s = (e % 128) / 32, j = e % 32;
        const float dl = d * float(scales[e / 16] & 0x0F);
        const float ml = dmin * float(scales[e / 16] >> 4);
        const int q = (qs[h * 32 + j] >> (2 * s)) & 3;
        y[e] = dl * float(q) - ml;
    }
}

// The sixteen six-bit signed scales of a Q3_K block: low nibbles from bytes 0..7, high two
// bits from bytes 8..11, minus 32.
void q3kScales(const std::uint8_t* packed, int out[16]) {
    for (int i = 0; i < 16; ++i) {
        const int low = i < 8 ? (packed[i] & 0x0F) : (packed[i - 8] >> 4);
        const int high = (packed[8 + i % 4] >> (2 * (i / 4))) & 3;
        out[i] = (low | high << 4) - 32;
    }
}

// Q3_K (110 bytes): hmask[32], qs[64], scales[12], f16 d. Element e: two low bits as Q2_K, the
// third bit (e/32) of hmask[e%32] set means no offset, clear means -4; x = (d sc) q.
void q3_k(const std::uint8_t* b, float* y) {
    const std::uint8_t* hmask = b;
    const std::uint8_t* qs = b + 32;
    int sc[16];
    q3kScales(b + 96, sc);
    const float d = halfToFloat(u16(b + 108));
    for (int e = 0; e < kQK; ++e) {
        const int h = e / 128, s = (e % 128) / 32, j = e % 32;
        const int low = (qs[h * 32 + j] >> (2 * s)) & 3;
        const int high = (hmask[j] >> (e / 32)) & 1;
        y[e] = (d * float(sc[e / 16])) * float(low - (high ? 0 : 4));
    }
}

// The eight six-bit scales and mins of a Q4_K/Q5_K block (12 packed bytes).
void kScaleMin(const std::uint8_t* p, int sc[8], int mn[8]) {
    for (int j = 0; j < 4; ++j) {
        sc[j] = p[j] & 0x3F;
        mn[j] = p[4 + j] & 0x3F;
        sc[4 + j] = (p[8 + j] & 0x0F) | ((p[j] >> 2) & 0x30);
        mn[4 + j] = (p[8 + j] >> 4) | ((p[4 + j] >> 2) & 0x30);
    }
}

// Q4_K (144 bytes): f16 d, f16 dmin, scales[12], qs[128]. Sub-block t (32 elements) reads
// nibble t%2 of qs[(t/2)*32 + j]; x = (d sc) q - (dmin m).
void q4_k(const std::uint8_t* b, float* y) {
    const float d = halfToFloat(u16(b));
    const float dmin = halfToFloat(u16(b + 2));
    int sc[8], mn[8];
    kScaleMin(b + 4, sc, mn);
    const std::uint8_t* qs = b + 16;
    for (int t = 0; t < 8; ++t) {
        const float dl = d * float(sc[t]);
        const float ml = dmin * float(mn[t]);
        for (int j = 0; j < 32; ++j) {
            const int q = (qs[(t / 2) * 32 + j] >> (4 * (t % 2))) & 0x0F;
            y[t * 32 + j] = dl * float(q) - ml;
        }
    }
}

// Q5_K (176 bytes): f16 d, f16 dmin, scales[12], qh[32], qs[128]; as Q4_K with bit t of
// qh[j] as the fifth bit of sub-block t.
void q5_k(const std::uint8_t* b, float* y) {
    const float d = halfToFloat(u16(b));
    const float dmin = halfToFloat(u16(b + 2));
    int sc[8], mn[8];
    kScaleMin(b + 4, sc, mn);
    const std::uint8_t* qh = b + 16;
    const std::uint8_t* qs = b + 48;
    for (int t = 0; t < 8; ++t) {
        const float dl = d * float(sc[t]);
        const float ml = dmin * float(mn[t]);
        for (int j = 0; j < 32; ++j) {
            const int low = (qs[(t / 2) * 32 + j] >> (4 * (t % 2))) & 0x0F;
            const int q = low | ((qh[j] >> t) & 1) << 4;
            y[t * 32 + j] = dl * float(q) - ml;
        }
    }
}

// Q6_K (210 bytes): ql[128], qh[64], int8 scales[16], f16 d. Element e: half h = e/128; its
// low nibble from ql[h*64 + e%64] (nibble (e%128)/64), its two high bits from qh[h*32 + e%32]
// (pair (e%128)/32); x = (d sc) (q - 32).
void q6_k(const std::uint8_t* b, float* y) {
    const std::uint8_t* ql = b;
    const std::uint8_t* qh = b + 128;
    const auto* scales = reinterpret_cast<const std::int8_t*>(b + 192);
    const float d = halfToFloat(u16(b + 208));
    for (int e = 0; e < kQK; ++e) {
        const int h = e / 128, r = e % 128;
        const int low = (ql[h * 64 + r % 64] >> (4 * (r / 64))) & 0x0F;
        const int high = (qh[h * 32 + r % 32] >> (2 * (r / 32))) & 3;
        y[e] = (d * float(scales[e / 16])) * float((low | high << 4) - 32);
    }
}

using BlockFn = void (*)(const std::uint8_t*, float*);

struct BlockFormat {
    BlockFn fn;
    int elements;
    int bytes;
};

// The block formats dequantized here; F32, F16 and BF16 are element formats.
const BlockFormat* blockFormat(GgmlType t) {
    static const BlockFormat kQ8_0{q8_0, 32, 34}, kQ4_0{q4_0, 32, 18}, kQ4_1{q4_1, 32, 20},
        kQ5_0{q5_0, 32, 22}, kQ5_1{q5_1, 32, 24}, kQ2K{q2_k, kQK, 84}, kQ3K{q3_k, kQK, 110},
        kQ4K{q4_k, kQK, 144}, kQ5K{q5_k, kQK, 176}, kQ6K{q6_k, kQK, 210};
    switch (t) {
    case GgmlType::Q8_0:
        return &kQ8_0;
    case GgmlType::Q4_0:
        return &kQ4_0;
    case GgmlType::Q4_1:
        return &kQ4_1;
    case GgmlType::Q5_0:
        return &kQ5_0;
    case GgmlType::Q5_1:
        return &kQ5_1;
    case GgmlType::Q2_K:
        return &kQ2K;
    case GgmlType::Q3_K:
        return &kQ3K;
    case GgmlType::Q4_K:
        return &kQ4K;
    case GgmlType::Q5_K:
        return &kQ5K;
    case GgmlType::Q6_K:
        return &kQ6K;
    default:
        return nullptr;
    }
}

} // namespace

bool ggmlCanDequantize(GgmlType t) {
    return t == GgmlType::F32 || t == GgmlType::F16 || t == GgmlType::BF16 ||
           blockFormat(t) != nullptr;
}

const char* ggmlDequantizableTypes() {
    return "F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K";
}

float halfToFloat(std::uint16_t h) {
    const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
    std::uint32_t exp = (h >> 10) & 0x1Fu;
    std::uint32_t mant = h & 0x3FFu;
    std::uint32_t bits;
    if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else { // subnormal: normalize
            exp = 127 - 15 + 1;
            while ((mant & 0x400u) == 0) {
                mant <<= 1;
                --exp;
            }
            mant &= 0x3FFu;
            bits = sign | (exp << 23) | (mant << 13);
        }
    } else if (exp == 0x1F) {
        bits = sign | 0x7F800000u | (mant << 13);
    } else {
        bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

float bf16ToFloat(std::uint16_t b) {
    const std::uint32_t bits = std::uint32_t(b) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

void dequantizeRow(GgmlType type, const std::uint8_t* src, float* dst, std::int64_t count) {
    switch (type) {
    case GgmlType::F32:
        std::memcpy(dst, src, std::size_t(count) * 4);
        return;
    case GgmlType::F16:
        for (std::int64_t i = 0; i < count; ++i) {
            dst[i] = halfToFloat(u16(src + 2 * i));
        }
        return;
    case GgmlType::BF16:
        for (std::int64_t i = 0; i < count; ++i) {
            dst[i] = bf16ToFloat(u16(src + 2 * i));
        }
        return;
    default:
        break;
    }
    const BlockFormat* f = blockFormat(type);
    if (f == nullptr) {
        throw Error(std::string("dequantization of ") + ggmlTypeName(type) + " is not supported");
    }
    for (std::int64_t b = 0; b < count / f->elements; ++b) {
        f->fn(src + b * f->bytes, dst + b * f->elements);
    }
}

} // namespace probaudit::model

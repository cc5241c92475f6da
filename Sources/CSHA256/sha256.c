// SHA-256 (FIPS 180-4) for the report id's content hash of stdin, the short tags that tell
// webhook channels apart, and HMAC-SHA256 (built in Swift on top of this). Two block
// functions: a portable one, and one with the x86 SHA extensions ("SHA-NI") chosen at run
// time by cpuid, for the bulk case (every byte of stdin).
//
// The SHA-NI block function follows Jeffrey Walton's public-domain sha256-x86.c
// (https://github.com/noloader/SHA-Intrinsics, itself after Intel's code and Sean Gulley's
// for miTLS), its 16 groups of four rounds written as one loop that the compiler unrolls.
#include "csha256.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define UA_SHA256_X86 1
#endif

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static inline uint32_t load_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

/// The portable block function: `blocks` blocks of 64 bytes at `data`.
static void blocks_portable(uint32_t state[8], const uint8_t *data, size_t blocks) {
    uint32_t w[64];
    while (blocks-- > 0) {
        for (int t = 0; t < 16; t++) w[t] = load_be32(data + 4 * t);
        for (int t = 16; t < 64; t++) {
            uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
            uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int t = 0; t < 64; t++) {
            uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
            uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
        state[4] += e;
        state[5] += f;
        state[6] += g;
        state[7] += h;
        data += 64;
    }
}

#ifdef UA_SHA256_X86
/// The SHA-NI block function (see the top of the file). The state is kept as ABEF and CDGH,
/// the order sha256rnds2 wants; each group of four rounds adds its constants to four message
/// words, and the schedule for later groups is made with sha256msg1 and sha256msg2.
__attribute__((target("sha,sse4.1"))) static void blocks_shani(uint32_t state[8], const uint8_t *data,
                                                               size_t blocks) {
    const __m128i mask = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i tmp = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i state1 = _mm_loadu_si128((const __m128i *)&state[4]);
    tmp = _mm_shuffle_epi32(tmp, 0xB1);           // CDAB
    state1 = _mm_shuffle_epi32(state1, 0x1B);     // EFGH
    __m128i state0 = _mm_alignr_epi8(tmp, state1, 8); // ABEF
    state1 = _mm_blend_epi16(state1, tmp, 0xF0);  // CDGH

    while (blocks-- > 0) {
        const __m128i abef = state0, cdgh = state1;
        __m128i w[4];
        // Unrolled as in the reference (the loop's tests and indices fold away): about 2.1 GB/s
        // here, as libcrypto's assembly; the rolled loop managed 1.5.
#pragma clang loop unroll(full)
        for (int i = 0; i < 16; i++) {
            if (i < 4) w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * i)), mask);
            __m128i msg = _mm_add_epi32(w[i & 3], _mm_loadu_si128((const __m128i *)&K[4 * i]));
            state1 = _mm_sha256rnds2_epu32(state1, state0, msg);
            if (i >= 3 && i <= 14) {
                // The words of group i + 1, in the slot of group i - 3 (msg1 already applied).
                __m128i next = _mm_add_epi32(w[(i + 1) & 3], _mm_alignr_epi8(w[i & 3], w[(i - 1) & 3], 4));
                w[(i + 1) & 3] = _mm_sha256msg2_epu32(next, w[i & 3]);
            }
            msg = _mm_shuffle_epi32(msg, 0x0E);
            state0 = _mm_sha256rnds2_epu32(state0, state1, msg);
            if (i >= 1 && i <= 12) w[(i - 1) & 3] = _mm_sha256msg1_epu32(w[(i - 1) & 3], w[i & 3]);
        }
        state0 = _mm_add_epi32(state0, abef);
        state1 = _mm_add_epi32(state1, cdgh);
        data += 64;
    }

    tmp = _mm_shuffle_epi32(state0, 0x1B);        // FEBA
    state1 = _mm_shuffle_epi32(state1, 0xB1);     // DCHG
    state0 = _mm_blend_epi16(tmp, state1, 0xF0);  // DCBA
    state1 = _mm_alignr_epi8(state1, tmp, 8);     // ABEF
    _mm_storeu_si128((__m128i *)&state[0], state0);
    _mm_storeu_si128((__m128i *)&state[4], state1);
}
#endif

int ua_sha256_shani_available(void) {
#ifdef UA_SHA256_X86
    // 0 unknown, 1 no, 2 yes; a race only computes the same answer twice.
    static int known = 0;
    int seen = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (seen == 0) {
        unsigned a, b, c, d;
        int sse = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSSE3) && (c & bit_SSE4_1);
        int sha = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
        seen = sse && sha ? 2 : 1;
        __atomic_store_n(&known, seen, __ATOMIC_RELAXED);
    }
    return seen == 2;
#else
    return 0;
#endif
}

static void process(ua_sha256_ctx *ctx, const uint8_t *data, size_t blocks) {
#ifdef UA_SHA256_X86
    if (ctx->path == UA_SHA256_SHANI) {
        blocks_shani(ctx->state, data, blocks);
        return;
    }
#endif
    blocks_portable(ctx->state, data, blocks);
}

int ua_sha256_init_path(ua_sha256_ctx *ctx, int path) {
    static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(ctx->state, initial, sizeof initial);
    ctx->count = 0;
    int ok = path != UA_SHA256_SHANI || ua_sha256_shani_available();
    ctx->path = path == UA_SHA256_SHANI && ok ? UA_SHA256_SHANI : UA_SHA256_PORTABLE;
    return ok;
}

void ua_sha256_init(ua_sha256_ctx *ctx) {
    ua_sha256_init_path(ctx, ua_sha256_shani_available() ? UA_SHA256_SHANI : UA_SHA256_PORTABLE);
}

void ua_sha256_update(ua_sha256_ctx *ctx, const void *bytes, size_t count) {
    const uint8_t *p = bytes;
    size_t used = (size_t)(ctx->count & 63);
    ctx->count += count;
    if (used > 0) {
        size_t take = 64 - used < count ? 64 - used : count;
        memcpy(ctx->buffer + used, p, take);
        p += take;
        count -= take;
        if (used + take < 64) return;
        process(ctx, ctx->buffer, 1);
    }
    if (count >= 64) {
        process(ctx, p, count / 64);
        p += count & ~(size_t)63;
        count &= 63;
    }
    if (count > 0) memcpy(ctx->buffer, p, count);
}

void ua_sha256_final(ua_sha256_ctx *ctx, uint8_t digest[32]) {
    uint64_t bits = ctx->count * 8;
    size_t used = (size_t)(ctx->count & 63);
    ctx->buffer[used++] = 0x80;
    if (used > 56) {
        memset(ctx->buffer + used, 0, 64 - used);
        process(ctx, ctx->buffer, 1);
        used = 0;
    }
    memset(ctx->buffer + used, 0, 56 - used);
    for (int i = 0; i < 8; i++) ctx->buffer[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
    process(ctx, ctx->buffer, 1);
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t)(ctx->state[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(ctx->state[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(ctx->state[i] >> 8);
        digest[4 * i + 3] = (uint8_t)ctx->state[i];
    }
    ua_sha256_init_path(ctx, ctx->path);
}

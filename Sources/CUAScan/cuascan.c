// The byte-scanning core of uaaudit's tokenizer, vectorised with SSE2 only (part of x86-64
// itself, so the binary runs on any amd64; no -march flags). Other architectures get the
// same results from the plain loops. Swift keeps the scalar reference (LineTokenizer) and the
// tests compare the two on every sample and fuzz input.
#include "cuascan.h"

#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// The general copy of cut_by_quotes cannot be unrolled (its format is not a constant): say so
// once here rather than in every build.
#pragma clang diagnostic ignored "-Wpass-failed"

// The built-in formats' literals as constants: ``cut_by_quotes`` compiled for each of them does
// no work to read the format (about a third less time per line for `ua_log` than the same code
// reading it from memory). ``ua_specialised_format`` picks one only when a compiled format's
// literals are these, byte for byte.
#define W1(a) ((uint64_t)(uint8_t)(a))
#define W2(a, b) (W1(a) | W1(b) << 8)
#define W3(a, b, c) (W2(a, b) | W1(c) << 16)
#define W5(a, b, c, d, e) (W3(a, b, c) | W1(d) << 24 | W1(e) << 32)
#define W6(a, b, c, d, e, f) (W5(a, b, c, d, e) | W1(f) << 40)
#define W7(a, b, c, d, e, f, g) (W6(a, b, c, d, e, f) | W1(g) << 48)
#define MASK(n) ((1ull << (8 * (n))) - 1)

/// `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"`,
/// the fields up to the user agent, shared by `combined` and `ua_log`.
#define COMBINED_HEAD                                                            \
    {W3(' ', '-', ' '), MASK(3), 3, 0, ' ', UA_ANY, -1, 0},                      \
    {W2(' ', '['), MASK(2), 2, 3, ' ', UA_ANY, -1, 0},                           \
    {W3(']', ' ', '"'), MASK(3), 3, 5, ']', UA_ANY, 2, 0},                       \
    {W2('"', ' '), MASK(2), 2, 8, '"', UA_ANY, 0, 1},                            \
    {W1(' '), MASK(1), 1, 10, ' ', UA_STATUS, -1, 2},                            \
    {W2(' ', '"'), MASK(2), 2, 11, ' ', UA_DIGITS, 1, 2},                        \
    {W3('"', ' ', '"'), MASK(3), 3, 13, '"', UA_ANY, 0, 3}

static const uint8_t COMBINED_LITERALS[] = " - " " [" "] \"" "\" " " " " \"" "\" \"" "\"" "\0\0\0\0\0\0\0";
static const ua_literal COMBINED[8] = {COMBINED_HEAD, {W1('"'), MASK(1), 1, 16, '"', UA_ANY, 0, 5}};

static const uint8_t UA_LOG_LITERALS[] = " - " " [" "] \"" "\" " " " " \"" "\" \"" "\" rt=" " uct=\"" "\" uht=\""
                                         "\" urt=\"" "\"" "\0\0\0\0\0\0\0";
static const ua_literal UA_LOG[12] = {
    COMBINED_HEAD,
    {W5('"', ' ', 'r', 't', '='), MASK(5), 5, 16, '"', UA_ANY, 0, 5},
    {W6(' ', 'u', 'c', 't', '=', '"'), MASK(6), 6, 21, ' ', UA_DECIMAL, 5, 6},
    {W7('"', ' ', 'u', 'h', 't', '=', '"'), MASK(7), 7, 27, '"', UA_ANY, 0, 7},
    {W7('"', ' ', 'u', 'r', 't', '=', '"'), MASK(7), 7, 34, '"', UA_ANY, 0, 9},
    {W1('"'), MASK(1), 1, 41, '"', UA_ANY, 0, 11},
};

static int same_format(long head_count, long field_count, long format_quotes, const uint8_t *literals,
                       const ua_literal *fields, long want_fields, long want_quotes, const uint8_t *want_literals,
                       const ua_literal *want) {
    if (head_count != 0 || field_count != want_fields || format_quotes != want_quotes) return 0;
    for (long k = 0; k < want_fields; k++) {
        const ua_literal *a = fields + k, *b = want + k;
        if (a->word != b->word || a->mask != b->mask || a->count != b->count || a->start != b->start ||
            a->first != b->first || a->check != b->check || a->quote_offset != b->quote_offset ||
            (a->quote_offset >= 0 && a->quote_index != b->quote_index) ||
            memcmp(literals + a->start, want_literals + b->start, (size_t)a->count) != 0) {
            return 0;
        }
    }
    return 1;
}

long ua_specialised_format(long head_count, long field_count, long format_quotes, const uint8_t *literals,
                           const ua_literal *fields) {
    if (same_format(head_count, field_count, format_quotes, literals, fields, 12, 12, UA_LOG_LITERALS, UA_LOG)) {
        return UA_FORMAT_UA_LOG;
    }
    if (same_format(head_count, field_count, format_quotes, literals, fields, 8, 6, COMBINED_LITERALS, COMBINED)) {
        return UA_FORMAT_COMBINED;
    }
    return UA_FORMAT_ANY;
}

#define FN(name) name##_sse2
#define TARGET
#define UA_WIDE 0
#include "cut.h"
#undef FN
#undef TARGET
#undef UA_WIDE

#if defined(__x86_64__) && defined(__clang__)
#include <immintrin.h>
#define FN(name) name##_wide
// Every feature named here must be asked for by ua_wide_available: an instruction the
// processor lacks can run as another one (LZCNT as BSR) and give wrong cuts, not a crash.
#define TARGET __attribute__((target("avx2,bmi,bmi2,popcnt")))
#define UA_WIDE 1
#include "cut.h"
#undef FN
#undef TARGET
#undef UA_WIDE
#define UA_HAS_WIDE 1
#else
#define UA_HAS_WIDE 0
#endif

long ua_wide_available(void) {
#if UA_HAS_WIDE
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt") &&
           __builtin_cpu_supports("bmi");
#else
    return 0;
#endif
}

int ua_cut_fields_fast(const uint8_t *line, long length, long head_count, long field_count, long format_quotes,
                       long specialised, const uint8_t *literals, const ua_literal *fields, long *starts, long *ends) {
#if UA_HAS_WIDE
    if (specialised & UA_FORMAT_WIDE) {
        return cut_fast_wide(line, length, head_count, field_count, format_quotes, specialised, literals, fields,
                             starts, ends);
    }
#endif
    return cut_fast_sse2(line, length, head_count, field_count, format_quotes, specialised, literals, fields, starts,
                         ends);
}

int ua_cut_line_fast(const uint8_t *p, long available, const ua_cut_format *format, long *length) {
    return cut_line_sse2(p, available, format, length);
}

int ua_cut_line_fast_wide(const uint8_t *p, long available, const ua_cut_format *format, long *length) {
#if UA_HAS_WIDE
    return cut_line_wide(p, available, format, length);
#else
    return cut_line_sse2(p, available, format, length);
#endif
}

long ua_find2(const uint8_t *line, long from, long end, uint8_t a, uint8_t b) {
    return find2_sse2(line, from, end, a, b);
}

static inline uint64_t mum(uint64_t a, uint64_t b) {
    const __uint128_t r = (__uint128_t)a * b;
    return (uint64_t)r ^ (uint64_t)(r >> 64);
}

/// The hash's three constants, drawn when the process starts. With constants anyone knows, keys
/// can be made that collide whatever the seed: a word equal to the constant it is xored with
/// zeroes a step's product (and with the factors folded back in, a word one off from it makes
/// the product 1), and the state after a step can be computed, so a next word equal to it
/// erases every byte before. Thousands of printable UAs could share a hash and make every cache
/// lookup walk all of them. No result depends on a table's hash values (entries are listed in
/// the order they came), so a secret per process costs nothing but the draw.
static uint64_t hash_secret[3] = {0xa0761d6478bd642full, 0xe7037ed1a0b428dbull, 0x8ebc6af09c88c6e3ull};

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

#if UA_HAS_WIDE
/// The AES rounds' keys of ``hash_aes``, drawn with the other secrets; used only where the
/// processor has AES-NI (``hash_aes_available``).
static __m128i aes_keys[4];
static int hash_aes_available;
#endif

__attribute__((constructor)) static void ua_hash_draw_secret(void) {
    uint64_t state = 0;
    if (getrandom(&state, sizeof state, GRND_NONBLOCK) != (ssize_t)sizeof state) {
        // No entropy yet (early boot: never wait for it) or none at all: the time, the process
        // id and where the stack and this code are (randomised by the loader) still make the
        // constants unknown in advance.
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        state = (uint64_t)t.tv_nsec ^ ((uint64_t)t.tv_sec << 30) ^ ((uint64_t)getpid() << 48) ^
                (uint64_t)(uintptr_t)&t ^ (uint64_t)(uintptr_t)&ua_hash_draw_secret;
    }
    for (int i = 0; i < 3; i++) {
        // Odd, with about half the bits set, like wyhash's own secrets: a good multiplier.
        uint64_t c;
        do c = splitmix64(&state) | 1; while (__builtin_popcountll(c) < 28 || __builtin_popcountll(c) > 36);
        hash_secret[i] = c;
    }
#if UA_HAS_WIDE
    for (int i = 0; i < 4; i++) {
        const uint64_t low = splitmix64(&state), high = splitmix64(&state);
        aes_keys[i] = _mm_set_epi64x((long long)high, (long long)low);
    }
    __builtin_cpu_init();
    hash_aes_available = __builtin_cpu_supports("aes");
#endif
}

#if UA_HAS_WIDE
#define AES_TARGET __attribute__((target("aes")))

static inline AES_TARGET __m128i aes_load(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)p); }

/// Two AES rounds of `lane` with the block at `p` mixed in: after two rounds every bit of the
/// block reaches every byte of the lane, through the S-box and keys nobody outside knows.
static inline AES_TARGET __m128i aes_step(__m128i lane, const uint8_t *p, __m128i k0, __m128i k1) {
    return _mm_aesenc_si128(_mm_aesenc_si128(_mm_xor_si128(lane, aes_load(p)), k0), k1);
}

/// ``ua_hash64`` of a key of more than 16 bytes with AES-NI: four lanes of 16 bytes, 64 bytes
/// a step, two rounds a block (about half the instructions of the multiplies' version for a
/// UA). The last blocks are read ending at the key's end (overlapping the ones before, as
/// ``ua_hash64`` does), the length and seed start the lanes, and three rounds fold them at the
/// end. Its values differ from ``ua_hash64``'s other path; no table mixes the two (a process
/// uses one or the other for every key of more than 16 bytes).
static AES_TARGET uint64_t hash_aes(const uint8_t *p, long count, uint64_t seed) {
    const __m128i k0 = aes_keys[0], k1 = aes_keys[1], k2 = aes_keys[2], k3 = aes_keys[3];
    const __m128i start = _mm_set_epi64x((long long)seed, (long long)count);
    __m128i a = _mm_xor_si128(start, k0), b = _mm_xor_si128(start, k1);
    __m128i c = _mm_xor_si128(start, k2), d = _mm_xor_si128(start, k3);
    if (count <= 64) {
        a = aes_step(a, p, k0, k1);
        b = aes_step(b, p + count - 16, k1, k2);
        if (count > 32) {
            c = aes_step(c, p + 16, k2, k3);
            d = aes_step(d, p + count - 32, k3, k0);
        }
    } else {
        long i = 0;
        for (; i + 64 < count; i += 64) {
            a = aes_step(a, p + i, k0, k1);
            b = aes_step(b, p + i + 16, k1, k2);
            c = aes_step(c, p + i + 32, k2, k3);
            d = aes_step(d, p + i + 48, k3, k0);
        }
        const uint8_t *last = p + count - 64;
        a = aes_step(a, last, k0, k1);
        b = aes_step(b, last + 16, k1, k2);
        c = aes_step(c, last + 32, k2, k3);
        d = aes_step(d, last + 48, k3, k0);
    }
    __m128i x = _mm_aesenc_si128(_mm_xor_si128(a, c), b);
    x = _mm_aesenc_si128(_mm_xor_si128(x, d), k2);
    x = _mm_aesenc_si128(x, k3);
    return (uint64_t)_mm_cvtsi128_si64(x) ^ (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x));
}
#endif

uint64_t ua_hash64(const uint8_t *p, long count, uint64_t seed) {
#if UA_HAS_WIDE
    if (count > 16 && hash_aes_available) return hash_aes(p, count, seed);
#endif
    const uint64_t s0 = hash_secret[0], s1 = hash_secret[1], s2 = hash_secret[2];
    const uint64_t n = (uint64_t)count;
    uint64_t h = seed ^ mum(seed ^ s0, s1) ^ n;
    uint64_t a, b;
    if (n <= 16) {
        if (n >= 8) {
            a = load64_sse2(p);
            b = load64_sse2(p + n - 8);
        } else if (n >= 4) {
            uint32_t x, y;
            memcpy(&x, p, 4);
            memcpy(&y, p + n - 4, 4);
            a = x;
            b = y;
        } else if (n > 0) {
            a = ((uint64_t)p[0] << 16) | ((uint64_t)p[n >> 1] << 8) | p[n - 1];
            b = 0;
        } else {
            a = b = 0;
        }
    } else {
        long i = 0;
        uint64_t h2 = h ^ s2;
        while (i + 32 < count) {
            h = mum(load64_sse2(p + i) ^ s1, load64_sse2(p + i + 8) ^ h);
            h2 = mum(load64_sse2(p + i + 16) ^ s2, load64_sse2(p + i + 24) ^ h2);
            i += 32;
        }
        h = mum(h ^ s1, h2 ^ s0);
        if (i + 16 < count) {
            h = mum(load64_sse2(p + i) ^ s1, load64_sse2(p + i + 8) ^ h);
            i += 16;
        }
        a = load64_sse2(p + count - 16);
        b = load64_sse2(p + count - 8);
    }
    return mum(s1 ^ n, mum(a ^ s1, b ^ h));
}


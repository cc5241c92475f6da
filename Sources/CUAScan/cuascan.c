// The byte-scanning core of uaaudit's tokenizer, vectorised with SSE2 only (part of x86-64
// itself, so the binary runs on any amd64; no -march flags). Other architectures get the
// same results from the plain loops. Swift keeps the scalar reference (LineTokenizer) and the
// tests compare the two on every sample and fuzz input.
#include "cuascan.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline long find2(const uint8_t *p, long from, long end, uint8_t a, uint8_t b) {
    long i = from;
#if defined(__SSE2__)
    const __m128i va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b);
    for (; i + 16 <= end; i += 16) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(p + i));
        const int m = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)));
        if (m) return i + __builtin_ctz((unsigned)m);
    }
#endif
    for (; i < end; i++) {
        if (p[i] == a || p[i] == b) return i;
    }
    return -1;
}

long ua_find2(const uint8_t *line, long from, long end, uint8_t a, uint8_t b) {
    return find2(line, from, end, a, b);
}

static inline uint64_t load64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/// `p[0 ..< n] == literal[0 ..< n]`; `end` is the end of the line. A literal of up to 8 bytes
/// is compared as one word when the line has 8 bytes there (literals are padded to 8 bytes).
static inline int same(const uint8_t *p, const uint8_t *end, const uint8_t *literal, long n) {
    if (n <= 8 && end - p >= 8) {
        const uint64_t mask = n == 8 ? ~0ull : (1ull << (8 * n)) - 1;
        return ((load64(p) ^ load64(literal)) & mask) == 0;
    }
    for (long i = 0; i < n; i++) {
        if (p[i] != literal[i]) return 0;
    }
    return 1;
}

static inline long find1(const uint8_t *p, long from, long end, uint8_t a) {
    long i = from;
#if defined(__SSE2__)
    const __m128i va = _mm_set1_epi8((char)a);
    for (; i + 16 <= end; i += 16) {
        const int m = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i)), va));
        if (m) return i + __builtin_ctz((unsigned)m);
    }
#endif
    for (; i < end; i++) {
        if (p[i] == a) return i;
    }
    return -1;
}

/// The literal of `f` at `p` (the line ends at `end`): one masked word compare when it fits.
static inline int same_literal(const uint8_t *p, const uint8_t *end, const uint8_t *literals, const ua_literal *f) {
    if (f->count <= 8 && end - p >= 8) return ((load64(p) ^ f->word) & f->mask) == 0;
    return same(p, end, literals + f->start, f->count);
}

static inline int valid(const uint8_t *p, long count, uint8_t check) {
    switch (check) {
    case UA_STATUS:
        return count == 3 && (uint8_t)(p[0] - '0') < 10 && (uint8_t)(p[1] - '0') < 10 && (uint8_t)(p[2] - '0') < 10;
    case UA_DIGITS:
        if (count == 0) return 0;
        for (long i = 0; i < count; i++) {
            if ((uint8_t)(p[i] - '0') >= 10) return 0;
        }
        return 1;
    case UA_DECIMAL: {
        if (count == 0) return 0;
        int dots = 0;
        for (long i = 0; i < count; i++) {
            if (p[i] == '.') dots++;
            else if ((uint8_t)(p[i] - '0') >= 10) return 0;
        }
        return dots <= 1;
    }
    default:
        return 1;
    }
}

/// `p[0 ..< count]` holds what a status (3 digits), digits (1 or more) or decimal (digits and at
/// most one dot, not empty) field may hold: eight bytes checked at once when the line has eight
/// bytes there (the SWAR "byte below 10" test on `byte ^ '0'`), else ``valid``.
static inline __attribute__((always_inline)) int valid_words(const uint8_t *p, const uint8_t *end, long count, uint8_t check) {
    if (check == UA_ANY) return 1;
    if (count == 0 || count > 8 || end - p < 8) return valid(p, count, check);
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull, lows = 0x7f7f7f7f7f7f7f7full;
    const uint64_t in_use = (count == 8 ? ~0ull : (1ull << (8 * count)) - 1) & highs;
    const uint64_t t = load64(p) ^ (0x30 * ones);
    // A byte's high bit: set when it is not '0'...'9' (its low seven bits plus 0x76 reach 0x80
    // from 10 on, without a carry into the next byte; a byte with the high bit set is not one).
    const uint64_t other = (t | ((t & lows) + 0x76 * ones)) & in_use;
    switch (check) {
    case UA_STATUS:
        return count == 3 && other == 0;
    case UA_DIGITS:
        return other == 0;
    default: {
        const uint64_t d = load64(p) ^ (0x2e * ones);
        const uint64_t dots = ~(((d & lows) + lows) | d) & in_use;  // exactly the '.' bytes
        return (other & ~dots) == 0 && (dots & (dots - 1)) == 0;
    }
    }
}

int ua_cut_fields_fast(const uint8_t *line, long length, long head_count, long field_count,
                       const uint8_t *literals, const ua_literal *fields, long *starts, long *ends) {
    const uint8_t *end = line + length;
    long position = head_count;
    for (long k = 0; k < field_count; k++) {
        const ua_literal *f = fields + k;
        const long n = f->count;
        starts[k] = position;
        if (n == 0 || k == field_count - 1) {
            const long cut = length - n;
            if (cut < position || !same_literal(line + cut, end, literals, f)) return 0;
            const long quote = find1(line, position, length, '"');
            if (n > 0 && f->first == '"') {
                if (quote != cut) return 0;
            } else if (quote >= 0 && quote < cut) {
                return 0;
            }
            ends[k] = cut;
            return valid_words(line + position, end, cut - position, f->check);
        }
        long cut;
        if (f->first == '"') {
            cut = find1(line, position, length, '"');
            if (cut < 0 || cut + n > length || !same_literal(line + cut, end, literals, f)) return 0;
        } else {
            const long last = length - n;
            long from = position;
            for (;;) {
                cut = find2(line, from, length, f->first, '"');
                if (cut < 0 || line[cut] == '"' || cut > last) return 0;
                if (n == 1 || same_literal(line + cut, end, literals, f)) break;
                from = cut + 1;
            }
        }
        ends[k] = cut;
        if (f->check != UA_ANY && !valid_words(line + position, end, cut - position, f->check)) return 0;
        position = cut + n;
    }
    return 0;
}

static inline uint64_t mum(uint64_t a, uint64_t b) {
    const __uint128_t r = (__uint128_t)a * b;
    return (uint64_t)r ^ (uint64_t)(r >> 64);
}

uint64_t ua_hash64(const uint8_t *p, long count, uint64_t seed) {
    const uint64_t s0 = 0xa0761d6478bd642full, s1 = 0xe7037ed1a0b428dbull, s2 = 0x8ebc6af09c88c6e3ull;
    const uint64_t n = (uint64_t)count;
    uint64_t h = seed ^ mum(seed ^ s0, s1) ^ n;
    uint64_t a, b;
    if (n <= 16) {
        if (n >= 8) {
            a = load64(p);
            b = load64(p + n - 8);
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
            h = mum(load64(p + i) ^ s1, load64(p + i + 8) ^ h);
            h2 = mum(load64(p + i + 16) ^ s2, load64(p + i + 24) ^ h2);
            i += 32;
        }
        h = mum(h ^ s1, h2 ^ s0);
        if (i + 16 < count) {
            h = mum(load64(p + i) ^ s1, load64(p + i + 8) ^ h);
            i += 16;
        }
        a = load64(p + count - 16);
        b = load64(p + count - 8);
    }
    return mum(s1 ^ n, mum(a ^ s1, b ^ h));
}

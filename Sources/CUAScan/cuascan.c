// The byte-scanning core of uaaudit's tokenizer, vectorised with SSE2 only (part of x86-64
// itself, so the binary runs on any amd64; no -march flags). Other architectures get the
// same results from the plain loops. Swift keeps the scalar reference (LineTokenizer) and the
// tests compare the two on every sample and fuzz input.
#include "cuascan.h"

#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// The general copy of cut_by_quotes cannot be unrolled (its format is not a constant): say so
// once here rather than in every build.
#pragma clang diagnostic ignored "-Wpass-failed"

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

/// The first-occurrence cut by a search per field, each from where the last one ended: the
/// path for lines too long for ``cut_by_quotes``'s positions and formats with many quotes.
static int cut_by_search(const uint8_t *line, long length, long head_count, long field_count,
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

/// Most quotes a format may hold for ``cut_by_quotes`` (`ua_log` has 12).
#define UA_MAX_QUOTES 48

/// Appends the positions of the set bits of `m` (plus `base`) to `out[n...]`: eight written
/// whatever their number (no branch on the data; `out` has room for them), then the rest.
static inline long flatten(uint64_t m, long base, int32_t *out, long n) {
    const long count = __builtin_popcountll(m);
    for (int j = 0; j < 8; j++) {
        out[n + j] = (int32_t)(base + __builtin_ctzll(m | (1ull << 63)));
        m &= m - 1;
    }
    for (long k = n + 8; m != 0 && k < UA_MAX_QUOTES + 8; k++) {
        out[k] = (int32_t)(base + __builtin_ctzll(m));
        m &= m - 1;
    }
    return n + count;
}

/// How many `"` the line holds, their positions in `out` (room for UA_MAX_QUOTES + 8): all of
/// them when there are at most UA_MAX_QUOTES (then the count is exact; above it, it may stop
/// early with any count above UA_MAX_QUOTES).
static inline long index_quotes(const uint8_t *line, long length, int32_t *out) {
    long n = 0, i = 0;
#if defined(__SSE2__)
    const __m128i vq = _mm_set1_epi8('"');
    for (; i + 64 <= length; i += 64) {
        if (n > UA_MAX_QUOTES) return n;
        const uint64_t m0 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(line + i)), vq));
        const uint64_t m1 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(line + i + 16)), vq));
        const uint64_t m2 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(line + i + 32)), vq));
        const uint64_t m3 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(line + i + 48)), vq));
        n = flatten(m0 | m1 << 16 | m2 << 32 | m3 << 48, i, out, n);
    }
    if (n > UA_MAX_QUOTES) return n;
    // The last 0 to 63 bytes: whole 16-byte blocks, then one load that ends at the line's end
    // (shifted so that only the bytes not yet seen count).
    uint64_t m = 0;
    const long base = i;
    for (; i + 16 <= length; i += 16) {
        m |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(line + i)), vq)) << (i - base);
    }
    if (i < length) {
        if (length >= 16) {
            const uint32_t t = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(line + length - 16)), vq));
            m |= (uint64_t)(t >> (16 - (length - i))) << (i - base);
        } else {
            for (long j = i; j < length; j++) m |= (uint64_t)(line[j] == '"') << (j - base);
        }
    }
    return flatten(m, base, out, n);
#else
    for (; i < length; i++) {
        if (line[i] == '"') {
            if (n < UA_MAX_QUOTES + 8) out[n] = (int32_t)i;
            n++;
        }
    }
    return n;
#endif
}

/// The first-occurrence cut from the line's quotes, without a search per quoted field.
///
/// In a line that cuts, no value holds a `"` (a quoted field ends at its first quote, and any
/// other field's literal must come before one), so the line's quotes are exactly the format's,
/// in order: there are `format_quotes` of them, and a literal with a quote starts
/// `quote_offset` bytes before the line's quote number `quote_index`. A line with another
/// number of quotes does not cut; the literals with a quote are placed with no search, and only
/// those without one (`" - "`, `" ["` and the space after `$status` in `ua_log`) are searched
/// for, from where their field starts. Conversely, when every literal matches where it is
/// placed, in order and without overlap, the format's quotes are all the line has, so no value
/// holds one and each place is the first that ``cut_by_search`` would find: the two give the
/// same cuts. The fields' ends then do not wait on one another, as searches that each start
/// where the last one stopped do.
static inline __attribute__((always_inline)) int cut_by_quotes(const uint8_t *line, long length, long head_count,
                                                               long field_count, const uint8_t *literals,
                                                               const ua_literal *fields, long *starts, long *ends,
                                                               const int32_t *quotes) {
    const uint8_t *end = line + length;
    long position = head_count;
    // Unrolled where the format is a constant (the built-in ones); the general copy stays a loop.
#pragma clang loop unroll(full)
    for (long k = 0; k < field_count; k++) {
        const ua_literal *f = fields + k;
        const long n = f->count;
        starts[k] = position;
        if (n == 0 || k == field_count - 1) {
            const long cut = length - n;
            if (cut < position || !same_literal(line + cut, end, literals, f)) return 0;
            ends[k] = cut;
            return valid_words(line + position, end, cut - position, f->check);
        }
        long cut;
        if (f->quote_offset >= 0) {
            cut = (long)quotes[f->quote_index] - f->quote_offset;
            if (cut < position || cut + n > length || !same_literal(line + cut, end, literals, f)) return 0;
        } else {
            const long last = length - n;
            long from = position;
            for (;;) {
                cut = find1(line, from, last + 1, f->first);
                if (cut < 0) return 0;
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

int ua_cut_fields_fast(const uint8_t *line, long length, long head_count, long field_count, long format_quotes,
                       long specialised, const uint8_t *literals, const ua_literal *fields, long *starts, long *ends) {
    if (length > INT32_MAX || format_quotes > UA_MAX_QUOTES) {
        return cut_by_search(line, length, head_count, field_count, literals, fields, starts, ends);
    }
    int32_t quotes[UA_MAX_QUOTES + 8];
    if (index_quotes(line, length, quotes) != format_quotes) return 0;
    switch (specialised) {
    case UA_FORMAT_UA_LOG:
        return cut_by_quotes(line, length, 0, 12, UA_LOG_LITERALS, UA_LOG, starts, ends, quotes);
    case UA_FORMAT_COMBINED:
        return cut_by_quotes(line, length, 0, 8, COMBINED_LITERALS, COMBINED, starts, ends, quotes);
    default:
        return cut_by_quotes(line, length, head_count, field_count, literals, fields, starts, ends, quotes);
    }
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


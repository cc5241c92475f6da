// The cut of ``ua_cut_fields_fast``, included twice by cuascan.c: for every amd64 (SSE2) and,
// with FN naming it `*_wide` and TARGET enabling AVX2, BMI1/2 and POPCNT, for the processors that
// have them (chosen at run time: the binary still runs on any amd64). The same source, so the
// same cuts; the tests run both against the scalar reference. No include guard, on purpose.

static inline TARGET long FN(find2)(const uint8_t *p, long from, long end, uint8_t a, uint8_t b) {
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

static inline TARGET uint64_t FN(load64)(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/// `p[0 ..< n] == literal[0 ..< n]`; `end` is the end of the line. A literal of up to 8 bytes
/// is compared as one word when the line has 8 bytes there (literals are padded to 8 bytes).
static inline TARGET int FN(same)(const uint8_t *p, const uint8_t *end, const uint8_t *literal, long n) {
    if (n <= 8 && end - p >= 8) {
        const uint64_t mask = n == 8 ? ~0ull : (1ull << (8 * n)) - 1;
        return ((FN(load64)(p) ^ FN(load64)(literal)) & mask) == 0;
    }
    for (long i = 0; i < n; i++) {
        if (p[i] != literal[i]) return 0;
    }
    return 1;
}

static inline TARGET long FN(find1)(const uint8_t *p, long from, long end, uint8_t a) {
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
/// `slack` (a constant where it is inlined) says that 8 bytes past the line's end may be read:
/// the word is then read wherever the literal is, and the mask keeps only the literal's bytes.
static inline __attribute__((always_inline)) TARGET int FN(same_literal)(const uint8_t *p, const uint8_t *end, const uint8_t *literals,
                                                              const ua_literal *f, int slack) {
    if (f->count <= 8 && (slack || end - p >= 8)) return ((FN(load64)(p) ^ f->word) & f->mask) == 0;
    return FN(same)(p, end, literals + f->start, f->count);
}

static inline TARGET int FN(valid)(const uint8_t *p, long count, uint8_t check) {
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
/// bytes there (the SWAR "byte below 10" test on `byte ^ '0'`), else ``valid``. With `slack`
/// (8 bytes past the line's end readable) the word is read wherever the field is.
static inline __attribute__((always_inline)) TARGET int FN(valid_words)(const uint8_t *p, const uint8_t *end, long count,
                                                              uint8_t check, int slack) {
    if (check == UA_ANY) return 1;
    if (count == 0 || count > 8 || (!slack && end - p < 8)) return FN(valid)(p, count, check);
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull, lows = 0x7f7f7f7f7f7f7f7full;
    const uint64_t in_use = (count == 8 ? ~0ull : (1ull << (8 * count)) - 1) & highs;
    const uint64_t t = FN(load64)(p) ^ (0x30 * ones);
    // A byte's high bit: set when it is not '0'...'9' (its low seven bits plus 0x76 reach 0x80
    // from 10 on, without a carry into the next byte; a byte with the high bit set is not one).
    const uint64_t other = (t | ((t & lows) + 0x76 * ones)) & in_use;
    switch (check) {
    case UA_STATUS:
        return count == 3 && other == 0;
    case UA_DIGITS:
        return other == 0;
    default: {
        const uint64_t d = FN(load64)(p) ^ (0x2e * ones);
        const uint64_t dots = ~(((d & lows) + lows) | d) & in_use;  // exactly the '.' bytes
        return (other & ~dots) == 0 && (dots & (dots - 1)) == 0;
    }
    }
}

/// The first-occurrence cut by a search per field, each from where the last one ended: the
/// path for lines too long for ``cut_by_quotes``'s positions and formats with many quotes.
static TARGET int FN(cut_by_search)(const uint8_t *line, long length, long head_count, long field_count,
                         const uint8_t *literals, const ua_literal *fields, long *starts, long *ends) {
    const uint8_t *end = line + length;
    long position = head_count;
    for (long k = 0; k < field_count; k++) {
        const ua_literal *f = fields + k;
        const long n = f->count;
        starts[k] = position;
        if (n == 0 || k == field_count - 1) {
            const long cut = length - n;
            if (cut < position || !FN(same_literal)(line + cut, end, literals, f, 0)) return 0;
            const long quote = FN(find1)(line, position, length, '"');
            if (n > 0 && f->first == '"') {
                if (quote != cut) return 0;
            } else if (quote >= 0 && quote < cut) {
                return 0;
            }
            ends[k] = cut;
            return FN(valid_words)(line + position, end, cut - position, f->check, 0);
        }
        long cut;
        if (f->first == '"') {
            cut = FN(find1)(line, position, length, '"');
            if (cut < 0 || cut + n > length || !FN(same_literal)(line + cut, end, literals, f, 0)) return 0;
        } else {
            const long last = length - n;
            long from = position;
            for (;;) {
                cut = FN(find2)(line, from, length, f->first, '"');
                if (cut < 0 || line[cut] == '"' || cut > last) return 0;
                if (n == 1 || FN(same_literal)(line + cut, end, literals, f, 0)) break;
                from = cut + 1;
            }
        }
        ends[k] = cut;
        if (f->check != UA_ANY && !FN(valid_words)(line + position, end, cut - position, f->check, 0)) return 0;
        position = cut + n;
    }
    return 0;
}

/// Most quotes a format may hold for ``cut_by_quotes`` (`ua_log` has 12).
#define UA_MAX_QUOTES 48

/// The index of the lowest set bit of `m`, any value from 63 up when there is none (the slots
/// ``flatten`` writes past the last bit are never read): BMI1's TZCNT gives 64 for 0 where
/// BSF, which the plain build has, needs a bit set.
static inline TARGET long FN(lowest)(uint64_t m) {
#if UA_WIDE
    return (long)_tzcnt_u64(m);
#else
    return __builtin_ctzll(m | (1ull << 63));
#endif
}

/// Appends the positions of the set bits of `m` (plus `base`) to `out[n...]`: four written
/// whatever their number, four more when there are more than four, then the rest (`out` has
/// room for eight past `n`). A 64-byte block of a log line seldom holds more than four quotes,
/// and the blocks that do (the `uct="…" uht="…" urt="…"` tail) do so on every line, so the one
/// branch on the data is predicted; eight unconditional writes cost twice the instructions.
static inline TARGET long FN(flatten)(uint64_t m, long base, int32_t *out, long n) {
    const long count = __builtin_popcountll(m);
    for (int j = 0; j < 4; j++) {
        out[n + j] = (int32_t)(base + FN(lowest)(m));
        m &= m - 1;
    }
    if (count > 4) {
        for (int j = 4; j < 8; j++) {
            out[n + j] = (int32_t)(base + FN(lowest)(m));
            m &= m - 1;
        }
        for (long k = n + 8; m != 0 && k < UA_MAX_QUOTES + 8; k++) {
            out[k] = (int32_t)(base + __builtin_ctzll(m));
            m &= m - 1;
        }
    }
    return n + count;
}

/// How many `"` the line holds, their positions in `out` (room for UA_MAX_QUOTES + 8): all of
/// them when there are at most UA_MAX_QUOTES (then the count is exact; above it, it may stop
/// early with any count above UA_MAX_QUOTES).
static inline TARGET long FN(index_quotes)(const uint8_t *line, long length, int32_t *out) {
    long n = 0, i = 0;
#if defined(__SSE2__)
    const __m128i vq = _mm_set1_epi8('"');
#if UA_WIDE
    const __m256i wq = _mm256_set1_epi8('"');
    for (; i + 64 <= length; i += 64) {
        if (n > UA_MAX_QUOTES) return n;
        const uint64_t low = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(line + i)), wq));
        const uint64_t high = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(line + i + 32)), wq));
        n = FN(flatten)(low | high << 32, i, out, n);
    }
#endif
    for (; i + 64 <= length; i += 64) {
        if (n > UA_MAX_QUOTES) return n;
        const uint64_t m0 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(line + i)), vq));
        const uint64_t m1 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(line + i + 16)), vq));
        const uint64_t m2 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(line + i + 32)), vq));
        const uint64_t m3 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(line + i + 48)), vq));
        n = FN(flatten)(m0 | m1 << 16 | m2 << 32 | m3 << 48, i, out, n);
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
    return FN(flatten)(m, base, out, n);
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

/// ``index_quotes`` for a line whose end is not known yet: sweeps `p[0 ..< available]` a 64-byte
/// block at a time for `"` and `\n` together and stops at the block with the first `\n`,
/// whose offset (the line's length) goes to `*length`. Returns how many quotes come before it,
/// their positions in `out` as ``index_quotes`` gives them; or -1 when no `\n` is in the whole
/// 64-byte blocks of `available` or more than UA_MAX_QUOTES quotes come before the last block
/// (the caller then finds the line's end itself). Bytes after the `\n` are read, not used.
static inline TARGET long FN(index_line)(const uint8_t *p, long available, int32_t *out, long *length) {
#if defined(__SSE2__)
    long n = 0;
    for (long i = 0; i + 64 <= available; i += 64) {
        if (n > UA_MAX_QUOTES) return -1;
#if UA_WIDE
        const __m256i wq = _mm256_set1_epi8('"'), wn = _mm256_set1_epi8('\n');
        const __m256i a = _mm256_loadu_si256((const __m256i *)(p + i));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(p + i + 32));
        const uint64_t q = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, wq)) |
                           (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, wq)) << 32;
        const uint64_t nl = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, wn)) |
                            (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, wn)) << 32;
#else
        const __m128i vq = _mm_set1_epi8('"'), vn = _mm_set1_epi8('\n');
        uint64_t q = 0, nl = 0;
        for (int j = 0; j < 4; j++) {
            const __m128i x = _mm_loadu_si128((const __m128i *)(p + i + 16 * j));
            q |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, vq)) << (16 * j);
            nl |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, vn)) << (16 * j);
        }
#endif
        if (nl != 0) {
            *length = i + __builtin_ctzll(nl);
            // Only the quotes before the newline: those after it are the next line's.
            return FN(flatten)(q & ((nl & (0 - nl)) - 1), i, out, n);
        }
        n = FN(flatten)(q, i, out, n);
    }
#else
    (void)p, (void)available, (void)out, (void)length;
#endif
    return -1;
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
static inline __attribute__((always_inline)) TARGET int FN(cut_by_quotes)(const uint8_t *line, long length, long head_count,
                                                               long field_count, const uint8_t *literals,
                                                               const ua_literal *fields, long *starts, long *ends,
                                                               const int32_t *quotes, int slack) {
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
            if (cut < position || !FN(same_literal)(line + cut, end, literals, f, slack)) return 0;
            ends[k] = cut;
            return FN(valid_words)(line + position, end, cut - position, f->check, slack);
        }
        long cut;
        if (f->quote_offset >= 0) {
            cut = (long)quotes[f->quote_index] - f->quote_offset;
            if (cut < position || cut + n > length || !FN(same_literal)(line + cut, end, literals, f, slack)) return 0;
        } else {
            const long last = length - n;
            long from = position;
            for (;;) {
                cut = FN(find1)(line, from, last + 1, f->first);
                if (cut < 0) return 0;
                if (n == 1 || FN(same_literal)(line + cut, end, literals, f, slack)) break;
                from = cut + 1;
            }
        }
        ends[k] = cut;
        if (f->check != UA_ANY && !FN(valid_words)(line + position, end, cut - position, f->check, slack)) return 0;
        position = cut + n;
    }
    return 0;
}


/// ``cut_by_quotes`` with the line's quotes found, by the code compiled for the format when it
/// is a built-in one.
static inline __attribute__((always_inline)) TARGET int FN(cut_placed)(const uint8_t *line, long length, long head_count,
                                                            long field_count, long specialised,
                                                            const uint8_t *literals, const ua_literal *fields,
                                                            long *starts, long *ends, const int32_t *quotes, int slack) {
    switch (specialised & ~UA_FORMAT_WIDE) {
    case UA_FORMAT_UA_LOG:
        return FN(cut_by_quotes)(line, length, 0, 12, UA_LOG_LITERALS, UA_LOG, starts, ends, quotes, slack);
    case UA_FORMAT_COMBINED:
        return FN(cut_by_quotes)(line, length, 0, 8, COMBINED_LITERALS, COMBINED, starts, ends, quotes, slack);
    default:
        return FN(cut_by_quotes)(line, length, head_count, field_count, literals, fields, starts, ends, quotes, slack);
    }
}

static TARGET int FN(cut_fast)(const uint8_t *line, long length, long head_count, long field_count, long format_quotes,
                                long specialised, const uint8_t *literals, const ua_literal *fields, long *starts,
                                long *ends) {
    if (length > INT32_MAX || format_quotes > UA_MAX_QUOTES) {
        return FN(cut_by_search)(line, length, head_count, field_count, literals, fields, starts, ends);
    }
    int32_t quotes[UA_MAX_QUOTES + 8];
    if (FN(index_quotes)(line, length, quotes) != format_quotes) return 0;
    return FN(cut_placed)(line, length, head_count, field_count, specialised, literals, fields, starts, ends, quotes, 0);
}

/// ``cut_fast`` for the line at `p`, whose end (its `\n`, within `available` bytes) is found in
/// the same sweep as its quotes (``index_line``): sets `*length` and returns 1 or 0 as
/// ``cut_fast`` does for `p[0 ..< *length]`; or returns -1 when the sweep did not find the end.
static TARGET int FN(cut_line)(const uint8_t *p, long available, const ua_cut_format *f, long *length) {
    if (available > INT32_MAX || f->format_quotes > UA_MAX_QUOTES) return -1;
    int32_t quotes[UA_MAX_QUOTES + 8];
    // The sweep stops 8 bytes short of `available`, so a line it finds has 8 readable bytes past
    // its end (its `\n` and what follows): the cut then reads whole words without checking for
    // the line's end first (its masks keep only the line's bytes).
    const long n = FN(index_line)(p, available - 8, quotes, length);
    if (n < 0) return -1;
    if (n != f->format_quotes) return 0;
    return FN(cut_placed)(p, *length, f->head_count, f->field_count, f->specialised, f->literals, f->fields,
                          f->starts, f->ends, quotes, 1);
}

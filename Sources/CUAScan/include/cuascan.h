#ifndef CUASCAN_H
#define CUASCAN_H

#include <stdint.h>

/// One field's literal, prepared once per format for ``ua_cut_fields_fast``: its first byte,
/// its length, and up to 8 of its bytes as a little-endian word with a mask of those in use.
typedef struct {
    uint64_t word;
    uint64_t mask;
    long count;
    long start;
    uint8_t first;
    /// What the field's value must be: UA_ANY, UA_STATUS (3 digits), UA_DIGITS (1 or more),
    /// UA_DECIMAL (digits and at most one dot, not empty); time fields are checked by Swift.
    uint8_t check;
    /// Where the literal's first `"` is (-1: it has none), and how many `"` the format's head and
    /// earlier literals hold (which of the line's quotes is that one).
    int32_t quote_offset;
    int32_t quote_index;
} ua_literal;

enum { UA_ANY = 0, UA_STATUS = 1, UA_DIGITS = 2, UA_DECIMAL = 3 };

/// The first-occurrence cut of a line into the fields of a compiled log format whose values
/// hold no unescaped `"` (nginx's `escape=default`): what LineTokenizer's scalar fast path
/// computes, with SSE2 (which every amd64 has) finding the bytes.
///
/// Field k starts where the previous literal ended (`head_count` for the first) and ends at
/// the first place its following literal (`fields[k]`, bytes at `literals + fields[k].start`)
/// can go before any `"` (a literal that starts with `"` goes at the field's first quote); the
/// last field (or one followed by no literal) runs to the literal that ends the line. Writes
/// `starts[k]` and `ends[k]` for every field and returns 1, or returns 0 when the line does not
/// cut this way or a status, digit or decimal field does not hold what nginx writes there (then
/// nothing is promised about starts and ends). Time fields are left to the caller. `literals`
/// must have 8 readable bytes past its last literal. `format_quotes` is how many `"` the head
/// and the literals hold together (the head itself is compared by the caller).
///
/// `specialised` is what ``ua_specialised_format`` said of the format: a built-in format is cut
/// by code compiled for its literals (the same cuts).
int ua_cut_fields_fast(const uint8_t *line, long length, long head_count, long field_count, long format_quotes,
                       long specialised, const uint8_t *literals, const ua_literal *fields, long *starts, long *ends);

/// A compiled format as ``ua_cut_line_fast`` takes it: ``ua_cut_fields_fast``'s arguments after
/// the line, in one place, so that the call per line passes four.
typedef struct {
    long head_count;
    long field_count;
    long format_quotes;
    long specialised;
    const uint8_t *literals;
    const ua_literal *fields;
    long *starts;
    long *ends;
} ua_cut_format;

/// ``ua_cut_fields_fast`` for the line at `p` whose end is not known yet: its `\n` is looked for
/// within `p[0 ..< available]` in the same sweep as its quotes. Sets `*length` to the line's
/// length (the `\n`'s offset) and returns what ``ua_cut_fields_fast`` returns for
/// `p[0 ..< *length]`; or returns -1 (`*length` unset) when the sweep did not find the end: no
/// `\n` in the whole 64-byte blocks of `available - 8` (a line it finds has 8 readable bytes
/// after its end, which the cut reads words into), a line with many quotes, or a processor
/// without SSE2. Bytes after the `\n` may be read, so `available` must count only readable ones.
/// `_wide` runs the AVX2 build: only where ``ua_wide_available`` says so.
int ua_cut_line_fast(const uint8_t *p, long available, const ua_cut_format *format, long *length);
int ua_cut_line_fast_wide(const uint8_t *p, long available, const ua_cut_format *format, long *length);

enum { UA_FORMAT_ANY = 0, UA_FORMAT_UA_LOG = 1, UA_FORMAT_COMBINED = 2, UA_FORMAT_WIDE = 0x100 };

/// 1 when this processor has AVX2, BMI1/2 and POPCNT: `specialised | UA_FORMAT_WIDE` then runs
/// the same cut compiled for them (the binary itself needs only SSE2).
long ua_wide_available(void);

/// Which built-in format (`ua_log`, `combined`) a compiled format is, byte for byte, or
/// UA_FORMAT_ANY.
long ua_specialised_format(long head_count, long field_count, long format_quotes, const uint8_t *literals,
                           const ua_literal *fields);

/// The index of the first byte equal to `a` or `b` in `line[from ..< end]`, or -1.
long ua_find2(const uint8_t *line, long from, long end, uint8_t a, uint8_t b);

/// A 64-bit hash of `bytes[0 ..< count]` with `seed`: 16 bytes per step, two 64x64->128-bit
/// multiplies folded (the wyhash family's "mum" mix), with constants drawn when the process
/// starts. Not cryptographic; well spread; its values differ from one process to the next.
uint64_t ua_hash64(const uint8_t *bytes, long count, uint64_t seed);

/// Asks the CPU to bring the cache line at `address` in (a hint: no fault, no effect on results).
static inline void ua_prefetch(const void *address) { __builtin_prefetch(address, 1, 3); }

#endif

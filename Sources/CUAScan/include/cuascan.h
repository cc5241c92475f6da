#ifndef CUASCAN_H
#define CUASCAN_H

#include <stdint.h>

/// The first-occurrence cut of a line into the fields of a compiled log format whose values
/// hold no unescaped `"` (nginx's `escape=default`): what LineTokenizer's scalar fast path
/// computes, with SSE2 (which every amd64 has) finding the bytes.
///
/// Field k starts where the previous literal ended (`head_count` for the first) and ends at
/// the first place its following literal `literals[literal_start[k] ..< + literal_count[k]]`
/// can go before any `"` (a literal that starts with `"` goes at the field's first quote); the
/// last field (or one followed by no literal) runs to the literal that ends the line. Writes
/// `starts[k]` and `ends[k]` for every field and returns 1, or returns 0 when the line does not
/// cut this way (then nothing is promised about starts and ends). Typed fields are not checked.
/// `literals` must have 8 readable bytes past its last literal.
int ua_cut_fields(const uint8_t *line, long length, long head_count, long field_count,
                  const uint8_t *literals, const long *literal_start, const long *literal_count,
                  long *starts, long *ends);

/// The index of the first byte equal to `a` or `b` in `line[from ..< end]`, or -1.
long ua_find2(const uint8_t *line, long from, long end, uint8_t a, uint8_t b);

/// A 64-bit hash of `bytes[0 ..< count]` with `seed`: 16 bytes per step, two 64x64->128-bit
/// multiplies folded (the wyhash family's "mum" mix). Not cryptographic; well spread.
uint64_t ua_hash64(const uint8_t *bytes, long count, uint64_t seed);

#endif

#ifndef CSHA256_H
#define CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// SHA-256 (FIPS 180-4) in progress: the chaining state, the bytes taken so far, and the
/// tail of fewer than 64 bytes that does not yet make a block.
typedef struct {
    uint32_t state[8];
    uint64_t count;
    uint8_t buffer[64];
    /// Which block function runs: UA_SHA256_PORTABLE or UA_SHA256_SHANI.
    int path;
} ua_sha256_ctx;

enum { UA_SHA256_PORTABLE = 0, UA_SHA256_SHANI = 1 };

/// 1 when this CPU has the SHA extensions and SSE4.1 (and SSSE3), so the SHA-NI path can run.
int ua_sha256_shani_available(void);

/// Starts a hash on the fastest path this CPU has.
void ua_sha256_init(ua_sha256_ctx *ctx);

/// Starts a hash on the given path (for the tests, which compare the two); returns 0 and
/// leaves `ctx` on the portable path when SHA-NI is asked for and the CPU lacks it.
int ua_sha256_init_path(ua_sha256_ctx *ctx, int path);

/// Adds `count` bytes (any number, in pieces of any size).
void ua_sha256_update(ua_sha256_ctx *ctx, const void *bytes, size_t count);

/// Pads, writes the 32-byte digest to `digest`, and leaves `ctx` to be started again.
void ua_sha256_final(ua_sha256_ctx *ctx, uint8_t digest[32]);

#endif

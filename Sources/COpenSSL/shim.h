#ifndef UAAUDIT_COPENSSL_SHIM_H
#define UAAUDIT_COPENSSL_SHIM_H
/* OpenSSL 3: libcrypto's one-shot digest and HMAC calls uaaudit signs webhooks with, and
   libssl's TLS client for https:// webhooks. */
#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <openssl/err.h>

/* Macros in ssl.h, which Swift cannot call. */
static inline long uaaudit_ssl_set_sni(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}
static inline uint64_t uaaudit_ssl_op_ignore_unexpected_eof(void) {
    return SSL_OP_IGNORE_UNEXPECTED_EOF;
}
static inline long uaaudit_ssl_ctx_min_tls12(SSL_CTX *ctx) {
    return SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
}
#endif

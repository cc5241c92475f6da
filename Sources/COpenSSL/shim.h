#ifndef UAAUDIT_COPENSSL_SHIM_H
#define UAAUDIT_COPENSSL_SHIM_H
/* OpenSSL 3's libcrypto: the one-shot digest and HMAC calls uaaudit signs webhooks with and
   hashes stdin with. (TLS is libcurl's: see CCurl.) */
#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif

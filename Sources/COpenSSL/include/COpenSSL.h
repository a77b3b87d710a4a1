/*
 * COpenSSL: what UNTerm's APNs endpoint needs of OpenSSL 3 (TLS with ALPN, certificates, ES256),
 * through libssl.so.3 and libcrypto.so.3 opened with dlopen on first use, so a session that
 * never listens for APNs never loads them and the build needs no OpenSSL headers. Plain C types
 * only; UNTermAPNs is the one Swift module that calls these. Nothing here prints.
 *
 * copenssl_abi.h declares OpenSSL's own functions (called as cossl_<name>); this header adds
 * the loader and the three things Swift cannot do with plain calls: a C callback, a variadic
 * function and a struct OpenSSL expects the caller to allocate. Call cossl_load_error() first:
 * every other function assumes it returned NULL.
 */
#ifndef COPENSSL_H
#define COPENSSL_H

#include "copenssl_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Why OpenSSL 3 could not be opened (libssl.so.3 and libcrypto.so.3, on first use), or NULL
 * when it is.
 */
const char *cossl_load_error(void);

/** The version OpenSSL reports ("OpenSSL 3.0.19 …"), or NULL when it cannot be opened. */
const char *cossl_version(void);

/**
 * Makes `ctx` choose ALPN "h2" and nothing else: a client that offers "h2" gets it, one that
 * offers only other protocols gets the handshake refused with the no_application_protocol
 * alert, and one that offers no ALPN at all never reaches the callback (no protocol).
 */
void cossl_select_h2_only(SSL_CTX *ctx);

/** A new EC key on P-256 (EVP_PKEY_Q_keygen), or NULL with the reason on OpenSSL's queue. */
EVP_PKEY *cossl_generate_p256_key(void);

/**
 * Adds the extension `name` = `value`, in openssl.cnf's syntax (e.g. "basicConstraints",
 * "critical,CA:TRUE"), to `cert`, which `issuer` signs (`cert` itself when self-signed; its
 * public key must be set). 1 on success, 0 with the reason on OpenSSL's queue.
 */
int cossl_add_extension(X509 *cert, X509 *issuer, const char *name, const char *value);

#ifdef __cplusplus
}
#endif

#endif

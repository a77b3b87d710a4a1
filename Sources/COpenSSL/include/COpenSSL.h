/*
 * COpenSSL: what UNTerm's APNs endpoint needs of OpenSSL 3 (TLS with ALPN, certificates, ES256),
 * through libssl.so.3 and libcrypto.so.3 opened with dlopen on first use, so a session that
 * never listens for APNs never loads them and the build needs no OpenSSL headers. Plain C types
 * only; UNTermAPNs is the one Swift module that calls these. Nothing here prints.
 */
#ifndef COPENSSL_H
#define COPENSSL_H

#include <stddef.h>
#include <stdint.h>

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

#ifdef __cplusplus
}
#endif

#endif

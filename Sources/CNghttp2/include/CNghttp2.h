/*
 * CNghttp2: HTTP/2 framing, HPACK and flow control for UNTerm's APNs endpoint, from nghttp2
 * (libnghttp2.so.14, Debian: libnghttp2-14) opened with dlopen on first use, so a session that
 * never listens for APNs never loads it and the build needs no nghttp2 headers. Plain C types
 * only; UNTermAPNs is the one Swift module that calls these. Nothing here prints.
 */
#ifndef CNGHTTP2_H
#define CNGHTTP2_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Why nghttp2 could not be opened (libnghttp2.so.14, on first use), or NULL when it is. */
const char *cnh2_load_error(void);

/** The version nghttp2 reports ("1.52.0"), or NULL when it cannot be opened. */
const char *cnh2_version(void);

#ifdef __cplusplus
}
#endif

#endif

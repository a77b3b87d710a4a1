/*
 * CNghttp2: HTTP/2 framing, HPACK and flow control for UNTerm's APNs endpoint, from nghttp2
 * (libnghttp2.so.14, Debian: libnghttp2-14) opened with dlopen on first use, so a session that
 * never listens for APNs never loads it and the build needs no nghttp2 headers (cnghttp2.c
 * declares what it calls, as nghttp2 1.x's ABI defines it). Plain C types only; UNTermAPNs is
 * the one Swift module that calls these. Nothing here prints.
 *
 * A server connection is bytes in, bytes out: cnh2_server_receive feeds what the socket read,
 * cnh2_server_output gives what to send. nghttp2's callbacks stay in C: they collect each
 * finished request (headers and body copied into one event) into a queue that Swift drains
 * with cnh2_server_next_event, so no Swift closure crosses into nghttp2.
 *
 * What a connection holds is bounded: a request's header list is at most max_header_list
 * bytes (name + value + 32 each, as RFC 9113 counts them; past it the stream is reset), and its
 * body at most max_body + 1 bytes (past it the request is handed over at once, marked
 * truncated, and the rest of the body is discarded as it arrives).
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

/** HTTP/2 error codes (RFC 9113 §7) the endpoint sends. */
enum {
  CNH2_NO_ERROR = 0x0,
  CNH2_PROTOCOL_ERROR = 0x1,
  CNH2_INTERNAL_ERROR = 0x2,
  CNH2_REFUSED_STREAM = 0x7,
  CNH2_ENHANCE_YOUR_CALM = 0xb,
};

/** What an event is. */
enum {
  /** A request ended (END_STREAM), or its body passed max_body (truncated = 1). */
  CNH2_EVENT_REQUEST = 1,
  /** A request's header list passed max_header_list; the stream was reset. */
  CNH2_EVENT_HEADERS_TOO_LARGE = 2,
  /** The client reset a stream before it was answered. */
  CNH2_EVENT_STREAM_RESET = 3,
  /** The client sent GOAWAY. */
  CNH2_EVENT_GOAWAY = 4,
};

/** One thing that happened on the connection. Free with cnh2_event_free. */
typedef struct cnh2_event {
  int kind;
  int32_t stream_id;
  /** RST_STREAM's or GOAWAY's error code. */
  uint32_t code;
  /** The body passed max_body: body holds its first max_body + 1 bytes. */
  int truncated;
  /** The headers, pseudo-headers first as sent: for each, a 4-byte little-endian name length,
   * the name, a 4-byte little-endian value length, the value. */
  uint8_t *headers;
  size_t headers_length;
  uint8_t *body;
  size_t body_length;
} cnh2_event;

typedef struct cnh2_server cnh2_server;

/** A server connection's limits. */
typedef struct cnh2_limits {
  /** The most streams open at once that nghttp2 allows (past it a stream is refused). */
  uint32_t max_concurrent_streams;
  /**
   * What the first SETTINGS frame tells the client instead, where it is lower (0: the same).
   * APNs tells a token connection 1 until a token is valid; streams a client opened before it
   * read that are still served, as RFC 9113 §5.1.2 binds a client only to a limit it has seen.
   */
  uint32_t initial_advertised_streams;
  uint32_t max_header_list;
  size_t max_body;
} cnh2_limits;

/**
 * A new server connection that has queued its SETTINGS (MAX_CONCURRENT_STREAMS,
 * MAX_HEADER_LIST_SIZE). NULL when nghttp2 cannot be opened or is out of memory.
 */
cnh2_server *cnh2_server_new(const cnh2_limits *limits);
void cnh2_server_free(cnh2_server *server);

/**
 * Feeds bytes the client sent. 0 when all were taken; otherwise nghttp2's negative error code
 * (a bad preface, a protocol violation): the connection is finished, send what
 * cnh2_server_output still gives (nghttp2 has queued a GOAWAY where it can) and close.
 */
int cnh2_server_receive(cnh2_server *server, const uint8_t *bytes, size_t length);

/**
 * The next bytes to send, valid until the next call on the server; 0 when there are none now.
 * A negative value is nghttp2's error code.
 */
long cnh2_server_output(cnh2_server *server, const uint8_t **bytes);

/** The next event, or NULL. The caller frees it with cnh2_event_free. */
cnh2_event *cnh2_server_next_event(cnh2_server *server);
void cnh2_event_free(cnh2_event *event);

/**
 * Answers a stream: `count` headers (names lower-case) after :status, then `body` (copied) if
 * any. A stream that is gone (reset, closed, already answered) is not answered: returns 0.
 * Returns 1 when the answer was queued, a negative nghttp2 error otherwise. The answer to a
 * truncated request is followed by RST_STREAM(NO_ERROR) once it is sent (RFC 9113 §8.1), so
 * the client stops sending its body.
 */
int cnh2_server_respond(cnh2_server *server, int32_t stream_id, int status, const char *const *names,
                        const char *const *values, size_t count, const uint8_t *body, size_t body_length);

/** Changes the advertised MAX_CONCURRENT_STREAMS (a new SETTINGS frame). */
int cnh2_server_set_max_streams(cnh2_server *server, uint32_t streams);

/**
 * Queues GOAWAY with the last stream the server processed, `code`, and `debug` as its debug
 * data; nghttp2 then takes no new streams.
 */
int cnh2_server_goaway(cnh2_server *server, uint32_t code, const uint8_t *debug, size_t debug_length);

/** Whether nghttp2 still wants to read (0 after a GOAWAY both ways, or a fatal error). */
int cnh2_server_wants_read(cnh2_server *server);
/** Whether nghttp2 has something to send. */
int cnh2_server_wants_write(cnh2_server *server);
/** Streams open now. */
size_t cnh2_server_open_streams(cnh2_server *server);

/** nghttp2's words for an error code. */
const char *cnh2_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif

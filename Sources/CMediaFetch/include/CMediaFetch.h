/*
 * CMediaFetch: one HTTP(S) download streamed to a file, through libcurl loaded with dlopen on
 * first use, so a program that never downloads never loads libcurl and its libraries.
 *
 * The body goes straight to a file descriptor as it arrives (memory holds one network buffer,
 * never the body). A judge callback sees the final response's status, Content-Type and
 * Content-Length when the headers are in, and the first body bytes when they arrive, and says
 * how many body bytes may come (or stops the download). The transfer ends at its deadline, or
 * within 50 ms of mfetch_cancel from any thread. Only http and https are followed, redirects
 * included. Nothing is written to stdout or stderr.
 */
#ifndef CMEDIAFETCH_H
#define CMEDIAFETCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** How a download ended. */
enum {
  MFETCH_OK = 0,
  /** libcurl cannot be loaded (message says why). */
  MFETCH_UNAVAILABLE = 1,
  /** The judge stopped it (a status, a type or a declared size it refuses). */
  MFETCH_REFUSED = 2,
  /** The body passed the judge's limit; nothing past the limit was written. */
  MFETCH_TOO_LARGE = 3,
  /** The deadline passed. */
  MFETCH_TIMEOUT = 4,
  /** mfetch_cancel was called. */
  MFETCH_CANCELLED = 5,
  /** The network, the server or the URL failed (message from libcurl). */
  MFETCH_FAILED = 6,
  /** The file could not be written. */
  MFETCH_WRITE_FAILED = 7,
};

/** What is known of the response when the judge is asked. */
typedef struct mfetch_response {
  /** The final response's HTTP status. */
  long status;
  /** The declared body length, or -1 when the server gave none. */
  int64_t content_length;
  /** The Content-Type header's value, or NULL. */
  const char *content_type;
  /** The first body bytes (up to 64; none when the headers just arrived). */
  const uint8_t *head;
  size_t head_length;
  /** 1 when the body has ended (head is all of it). */
  int complete;
} mfetch_response;

/** Returns the most body bytes to accept (0 or more), or a negative number to stop now. */
typedef int64_t (*mfetch_judge)(void *context, const mfetch_response *response);

/** One download. */
typedef struct mfetch_request {
  /** An http or https URL. */
  const char *url;
  /** Where the body is written (an open file). */
  int fd;
  /** Milliseconds for the whole transfer, connecting included (at least 1). */
  uint32_t timeout_ms;
  mfetch_judge judge;
  void *judge_context;
} mfetch_request;

/** How it ended. */
typedef struct mfetch_result {
  /** One of MFETCH_*. */
  int outcome;
  /** The final HTTP status (0 when none arrived). */
  long status;
  /** Body bytes written to the file. */
  int64_t bytes;
  /** The limit in force when it ended (-1 when none was set). */
  int64_t limit;
  /** The largest piece of body held in memory at once, in bytes. */
  size_t largest_chunk;
  /** The Content-Type of the final response ("" when none). */
  char content_type[128];
  /** A short reason for MFETCH_UNAVAILABLE and MFETCH_FAILED. */
  char message[256];
} mfetch_result;

typedef struct mfetch_transfer mfetch_transfer;

/** A transfer that can be run once; NULL when out of memory. */
mfetch_transfer *mfetch_create(void);

/** Runs the download on this thread until it ends; returns result->outcome. */
int mfetch_run(mfetch_transfer *transfer, const mfetch_request *request, mfetch_result *result);

/** Stops a running (or not yet started) transfer; safe from any thread, any number of times. */
void mfetch_cancel(mfetch_transfer *transfer);

/** Frees a transfer that is not running. */
void mfetch_destroy(mfetch_transfer *transfer);

#ifdef __cplusplus
}
#endif

#endif

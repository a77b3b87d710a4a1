/* One download through libcurl, loaded with dlopen the first time it is needed.
 *
 * The functions come from libcurl.so.4 (Debian: libcurl4) by dlsym; their types and the option
 * numbers, which libcurl keeps stable, are declared in cmf_curl_abi.h, so the build needs no
 * libcurl headers. The transfer runs on the multi interface so the loop can look at the deadline and at
 * a cancel flag between waits of at most 50 ms. */
#define _GNU_SOURCE
#include "CMediaFetch.h"

#include "cmf_curl_abi.h"
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

/* ---- libcurl, loaded once ------------------------------------------------------------------ */

static struct {
  void *handle;
  char error[200];
  CURLcode (*global_init)(long);
  CURL *(*easy_init)(void);
  CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
  CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
  void (*easy_cleanup)(CURL *);
  const char *(*easy_strerror)(CURLcode);
  CURLM *(*multi_init)(void);
  CURLMcode (*multi_add_handle)(CURLM *, CURL *);
  CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
  CURLMcode (*multi_perform)(CURLM *, int *);
  CURLMcode (*multi_wait)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
  CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *); /* 7.66 */
  CURLMcode (*multi_wakeup)(CURLM *);                                              /* 7.68 */
  CURLMsg *(*multi_info_read)(CURLM *, int *);
  CURLMcode (*multi_cleanup)(CURLM *);
} curl;

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;

static void load_curl(void) {
  void *handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char *why = dlerror();
    snprintf(curl.error, sizeof curl.error,
             "downloads need libcurl (Debian: libcurl4), which cannot be loaded: %s",
             why != NULL ? why : "not found");
    return;
  }
#define LOAD(field, name)                                                                       \
  do {                                                                                          \
    *(void **)(&curl.field) = dlsym(handle, name);                                              \
  } while (0)
  LOAD(global_init, "curl_global_init");
  LOAD(easy_init, "curl_easy_init");
  LOAD(easy_setopt, "curl_easy_setopt");
  LOAD(easy_getinfo, "curl_easy_getinfo");
  LOAD(easy_cleanup, "curl_easy_cleanup");
  LOAD(easy_strerror, "curl_easy_strerror");
  LOAD(multi_init, "curl_multi_init");
  LOAD(multi_add_handle, "curl_multi_add_handle");
  LOAD(multi_remove_handle, "curl_multi_remove_handle");
  LOAD(multi_perform, "curl_multi_perform");
  LOAD(multi_wait, "curl_multi_wait");
  LOAD(multi_poll, "curl_multi_poll");
  LOAD(multi_wakeup, "curl_multi_wakeup");
  LOAD(multi_info_read, "curl_multi_info_read");
  LOAD(multi_cleanup, "curl_multi_cleanup");
#undef LOAD
  if (curl.global_init == NULL || curl.easy_init == NULL || curl.easy_setopt == NULL ||
      curl.easy_getinfo == NULL || curl.easy_cleanup == NULL || curl.easy_strerror == NULL ||
      curl.multi_init == NULL || curl.multi_add_handle == NULL || curl.multi_remove_handle == NULL ||
      curl.multi_perform == NULL || curl.multi_wait == NULL || curl.multi_info_read == NULL ||
      curl.multi_cleanup == NULL) {
    snprintf(curl.error, sizeof curl.error, "the libcurl found lacks functions downloads need");
    dlclose(handle);
    return;
  }
  if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    snprintf(curl.error, sizeof curl.error, "libcurl could not start");
    dlclose(handle);
    return;
  }
  curl.handle = handle;
}

/* ---- One transfer ------------------------------------------------------------------------ */

struct mfetch_transfer {
  int cancelled; /* read and written with __atomic builtins */
  CURLM *multi;  /* while running, for the wake-up; guarded by lock */
  pthread_mutex_t lock;
};

typedef struct run_state {
  const mfetch_request *request;
  mfetch_result *result;
  mfetch_transfer *transfer;
  CURL *easy;
  char content_type[128];
  int has_location; /* the current response names a Location (a redirect to follow) */
  int headers_judged;
  int head_judged;
  uint8_t head[64];
  size_t head_length;
  int64_t limit;
  int stop; /* an MFETCH_* outcome decided by a callback, or 0 */
  int write_error;
} run_state;

static uint64_t now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000u + (uint64_t)now.tv_nsec / 1000000u;
}

static int is_cancelled(mfetch_transfer *transfer) {
  return __atomic_load_n(&transfer->cancelled, __ATOMIC_ACQUIRE);
}

/* Asks the judge; a negative answer stops the transfer. */
static int judge(run_state *state, int with_head, int complete) {
  mfetch_response response;
  memset(&response, 0, sizeof response);
  long status = 0;
  curl.easy_getinfo(state->easy, CURLINFO_RESPONSE_CODE, &status);
  curl_off_t length = -1;
  curl.easy_getinfo(state->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
  response.status = status;
  response.content_length = length;
  response.content_type = state->content_type[0] != '\0' ? state->content_type : NULL;
  if (with_head) {
    response.head = state->head;
    response.head_length = state->head_length;
  }
  response.complete = complete;
  int64_t limit = state->request->judge(state->request->judge_context, &response);
  if (limit < 0) {
    state->stop = MFETCH_REFUSED;
    return 0;
  }
  state->limit = limit;
  return 1;
}

static size_t on_header(char *data, size_t size, size_t count, void *user) {
  run_state *state = user;
  size_t length = size * count;
  if (is_cancelled(state->transfer)) {
    state->stop = MFETCH_CANCELLED;
    return 0;
  }
  if (length >= 5 && memcmp(data, "HTTP/", 5) == 0) {
    /* A new response (after a redirect or a 100 Continue): its own headers count. */
    state->content_type[0] = '\0';
    state->has_location = 0;
    return length;
  }
  if (length >= 9 && strncasecmp(data, "Location:", 9) == 0) {
    state->has_location = 1;
    return length;
  }
  if (length >= 13 && strncasecmp(data, "Content-Type:", 13) == 0) {
    const char *value = data + 13;
    size_t rest = length - 13;
    while (rest > 0 && (*value == ' ' || *value == '\t')) value++, rest--;
    while (rest > 0 && (value[rest - 1] == '\r' || value[rest - 1] == '\n' || value[rest - 1] == ' '))
      rest--;
    if (rest >= sizeof state->content_type) rest = sizeof state->content_type - 1;
    memcpy(state->content_type, value, rest);
    state->content_type[rest] = '\0';
    return length;
  }
  if (length <= 2 && (data[0] == '\r' || data[0] == '\n')) {
    /* The end of a response's headers: judge the final one. */
    long status = 0;
    curl.easy_getinfo(state->easy, CURLINFO_RESPONSE_CODE, &status);
    if (status < 200 || (status >= 300 && status < 400 && state->has_location)) return length;
    state->headers_judged = 1;
    if (!judge(state, 0, 0)) return 0;
  }
  return length;
}

static size_t on_write(char *data, size_t size, size_t count, void *user) {
  run_state *state = user;
  size_t length = size * count;
  if (is_cancelled(state->transfer)) {
    state->stop = MFETCH_CANCELLED;
    return 0;
  }
  if (!state->headers_judged) {
    state->headers_judged = 1;
    if (!judge(state, 0, 0)) return 0;
  }
  if (length > state->result->largest_chunk) state->result->largest_chunk = length;
  if (!state->head_judged) {
    size_t take = sizeof state->head - state->head_length;
    if (take > length) take = length;
    memcpy(state->head + state->head_length, data, take);
    state->head_length += take;
    if (state->head_length == sizeof state->head) {
      state->head_judged = 1;
      if (!judge(state, 1, 0)) return 0;
    }
  }
  if (state->limit >= 0 && state->result->bytes + (int64_t)length > state->limit) {
    state->stop = MFETCH_TOO_LARGE;
    return 0;
  }
  size_t written = 0;
  while (written < length) {
    ssize_t n = write(state->request->fd, data + written, length - written);
    if (n > 0) {
      written += (size_t)n;
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      state->write_error = n < 0 ? errno : ENOSPC;
      state->stop = MFETCH_WRITE_FAILED;
      return 0;
    }
  }
  state->result->bytes += (int64_t)length;
  return length;
}

mfetch_transfer *mfetch_create(void) {
  mfetch_transfer *transfer = calloc(1, sizeof *transfer);
  if (transfer == NULL) return NULL;
  pthread_mutex_init(&transfer->lock, NULL);
  return transfer;
}

void mfetch_destroy(mfetch_transfer *transfer) {
  if (transfer == NULL) return;
  pthread_mutex_destroy(&transfer->lock);
  free(transfer);
}

void mfetch_cancel(mfetch_transfer *transfer) {
  if (transfer == NULL) return;
  __atomic_store_n(&transfer->cancelled, 1, __ATOMIC_RELEASE);
  pthread_mutex_lock(&transfer->lock);
  if (transfer->multi != NULL && curl.multi_wakeup != NULL) curl.multi_wakeup(transfer->multi);
  pthread_mutex_unlock(&transfer->lock);
}

static void set_message(mfetch_result *result, const char *text) {
  snprintf(result->message, sizeof result->message, "%s", text);
}

int mfetch_run(mfetch_transfer *transfer, const mfetch_request *request, mfetch_result *result) {
  memset(result, 0, sizeof *result);
  result->limit = -1;
  if (transfer == NULL || request == NULL || request->url == NULL || request->judge == NULL) {
    result->outcome = MFETCH_FAILED;
    set_message(result, "no request");
    return result->outcome;
  }
  pthread_once(&curl_once, load_curl);
  if (curl.handle == NULL) {
    result->outcome = MFETCH_UNAVAILABLE;
    set_message(result, curl.error);
    return result->outcome;
  }
  uint32_t timeout = request->timeout_ms == 0 ? 1 : request->timeout_ms;
  uint64_t deadline = now_ms() + timeout;
  run_state state;
  memset(&state, 0, sizeof state);
  state.request = request;
  state.result = result;
  state.transfer = transfer;
  state.limit = -1;
  char error_buffer[CURL_ERROR_SIZE] = "";

  CURLM *multi = curl.multi_init();
  CURL *easy = curl.easy_init();
  if (multi == NULL || easy == NULL) {
    if (easy != NULL) curl.easy_cleanup(easy);
    if (multi != NULL) curl.multi_cleanup(multi);
    result->outcome = MFETCH_FAILED;
    set_message(result, "libcurl could not start a transfer");
    return result->outcome;
  }
  state.easy = easy;
  curl.easy_setopt(easy, CURLOPT_URL, request->url);
  curl.easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl.easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 1L);
  curl.easy_setopt(easy, CURLOPT_MAXREDIRS, 5L);
  /* Only http and https, for the URL and every redirect: never file:, ftp: or others. */
  if (curl.easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https") != CURLE_OK ||
      curl.easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") != CURLE_OK) {
    /* libcurl before 7.85: the same with the older bit masks (options 181 and 182). */
    curl.easy_setopt(easy, (CURLoption)(CURLOPTTYPE_LONG + 181), (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    curl.easy_setopt(easy, (CURLoption)(CURLOPTTYPE_LONG + 182), (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
  }
  curl.easy_setopt(easy, CURLOPT_TIMEOUT_MS, (long)timeout);
  curl.easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, (long)timeout);
  curl.easy_setopt(easy, CURLOPT_USERAGENT, "UNTerm");
  curl.easy_setopt(easy, CURLOPT_ERRORBUFFER, error_buffer);
  curl.easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header);
  curl.easy_setopt(easy, CURLOPT_HEADERDATA, &state);
  curl.easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_write);
  curl.easy_setopt(easy, CURLOPT_WRITEDATA, &state);
  curl.multi_add_handle(multi, easy);
  pthread_mutex_lock(&transfer->lock);
  transfer->multi = multi;
  pthread_mutex_unlock(&transfer->lock);

  CURLcode code = CURLE_OK;
  int done = 0;
  for (;;) {
    int running = 0;
    CURLMcode multi_code = curl.multi_perform(multi, &running);
    CURLMsg *message;
    int queued;
    while ((message = curl.multi_info_read(multi, &queued)) != NULL) {
      if (message->msg == CURLMSG_DONE) {
        code = message->data.result;
        done = 1;
      }
    }
    if (done || state.stop != 0) break;
    if (multi_code != CURLM_OK) {
      code = CURLE_FAILED_INIT;
      snprintf(error_buffer, sizeof error_buffer, "libcurl's transfer loop failed (%d)", (int)multi_code);
      break;
    }
    if (is_cancelled(transfer)) {
      state.stop = MFETCH_CANCELLED;
      break;
    }
    uint64_t now = now_ms();
    if (now >= deadline) {
      state.stop = MFETCH_TIMEOUT;
      break;
    }
    int wait = (int)(deadline - now < 50 ? deadline - now : 50);
    if (curl.multi_poll != NULL) {
      curl.multi_poll(multi, NULL, 0, wait, NULL);
    } else {
      curl.multi_wait(multi, NULL, 0, wait, NULL);
    }
  }
  pthread_mutex_lock(&transfer->lock);
  transfer->multi = NULL;
  pthread_mutex_unlock(&transfer->lock);

  long status = 0;
  curl.easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
  result->status = status;
  if (state.stop == 0 && done && code == CURLE_OK) {
    if (!state.headers_judged) {
      state.headers_judged = 1;
      judge(&state, 0, 0);
    }
    if (state.stop == 0 && !state.head_judged) {
      state.head_judged = 1;
      judge(&state, 1, 1);
    }
    if (state.stop == 0 && state.limit >= 0 && result->bytes > state.limit) state.stop = MFETCH_TOO_LARGE;
  }
  if (state.stop != 0) {
    result->outcome = state.stop;
    if (state.stop == MFETCH_WRITE_FAILED) set_message(result, strerror(state.write_error));
  } else if (done && code == CURLE_OK) {
    result->outcome = MFETCH_OK;
  } else if (code == CURLE_OPERATION_TIMEDOUT) {
    result->outcome = MFETCH_TIMEOUT;
  } else {
    result->outcome = MFETCH_FAILED;
    set_message(result, error_buffer[0] != '\0' ? error_buffer : curl.easy_strerror(code));
  }
  result->limit = state.limit;
  snprintf(result->content_type, sizeof result->content_type, "%s", state.content_type);
  curl.multi_remove_handle(multi, easy);
  curl.easy_cleanup(easy);
  curl.multi_cleanup(multi);
  return result->outcome;
}

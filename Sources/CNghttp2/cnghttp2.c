#include "CNghttp2.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* ---- nghttp2 1.x's ABI, as lib/includes/nghttp2/nghttp2.h declares it ---- */

typedef struct nghttp2_session nghttp2_session;
typedef struct nghttp2_session_callbacks nghttp2_session_callbacks;
typedef struct nghttp2_option nghttp2_option;

typedef struct {
  int age;
  int version_num;
  const char *version_str;
  const char *proto_str;
} nh_info;

typedef struct {
  uint8_t *name;
  uint8_t *value;
  size_t namelen;
  size_t valuelen;
  uint8_t flags;
} nh_nv;

typedef struct {
  size_t length;
  int32_t stream_id;
  uint8_t type;
  uint8_t flags;
  uint8_t reserved;
} nh_frame_hd;

typedef struct {
  int32_t stream_id;
  int32_t weight;
  uint8_t exclusive;
} nh_priority_spec;

typedef struct {
  nh_frame_hd hd;
  size_t padlen;
  nh_priority_spec pri_spec;
  nh_nv *nva;
  size_t nvlen;
  int cat;
} nh_headers;

typedef struct {
  nh_frame_hd hd;
  int32_t last_stream_id;
  uint32_t error_code;
} nh_goaway;

/* nghttp2_frame is a union of the frames, each starting with its nh_frame_hd. */
typedef union {
  nh_frame_hd hd;
  nh_headers headers;
  nh_goaway goaway;
} nh_frame;

typedef union {
  int fd;
  void *ptr;
} nh_data_source;

typedef ssize_t (*nh_read_callback)(nghttp2_session *, int32_t, uint8_t *, size_t, uint32_t *, nh_data_source *,
                                    void *);
typedef struct {
  nh_data_source source;
  nh_read_callback read_callback;
} nh_data_provider;

typedef struct {
  int32_t settings_id;
  uint32_t value;
} nh_settings_entry;

enum {
  NH_DATA = 0,
  NH_HEADERS = 1,
  NH_GOAWAY = 7,
  NH_FLAG_END_STREAM = 1,
  NH_HCAT_REQUEST = 0,
  NH_DATA_FLAG_EOF = 1,
  NH_SETTINGS_MAX_CONCURRENT_STREAMS = 3,
  NH_SETTINGS_MAX_HEADER_LIST_SIZE = 6,
  NH_ERR_TEMPORAL_CALLBACK_FAILURE = -521,
  NH_ERR_CALLBACK_FAILURE = -902,
  NH_ERR_NOMEM = -901,
};

typedef int (*nh_frame_cb)(nghttp2_session *, const nh_frame *, void *);
typedef int (*nh_header_cb)(nghttp2_session *, const nh_frame *, const uint8_t *, size_t, const uint8_t *, size_t,
                            uint8_t, void *);
typedef int (*nh_data_cb)(nghttp2_session *, uint8_t, int32_t, const uint8_t *, size_t, void *);
typedef int (*nh_close_cb)(nghttp2_session *, int32_t, uint32_t, void *);

#define NH_FUNCTIONS(X)                                                                                              \
  X(nh_info *, nghttp2_version, (int))                                                                               \
  X(int, nghttp2_session_callbacks_new, (nghttp2_session_callbacks **))                                              \
  X(void, nghttp2_session_callbacks_del, (nghttp2_session_callbacks *))                                              \
  X(void, nghttp2_session_callbacks_set_on_begin_headers_callback, (nghttp2_session_callbacks *, nh_frame_cb))       \
  X(void, nghttp2_session_callbacks_set_on_header_callback, (nghttp2_session_callbacks *, nh_header_cb))             \
  X(void, nghttp2_session_callbacks_set_on_data_chunk_recv_callback, (nghttp2_session_callbacks *, nh_data_cb))      \
  X(void, nghttp2_session_callbacks_set_on_frame_recv_callback, (nghttp2_session_callbacks *, nh_frame_cb))          \
  X(void, nghttp2_session_callbacks_set_on_frame_send_callback, (nghttp2_session_callbacks *, nh_frame_cb))          \
  X(void, nghttp2_session_callbacks_set_on_stream_close_callback, (nghttp2_session_callbacks *, nh_close_cb))        \
  X(int, nghttp2_option_new, (nghttp2_option **))                                                                    \
  X(void, nghttp2_option_del, (nghttp2_option *))                                                                    \
  X(void, nghttp2_option_set_max_deflate_dynamic_table_size, (nghttp2_option *, size_t))                             \
  X(int, nghttp2_session_server_new2,                                                                                \
    (nghttp2_session **, const nghttp2_session_callbacks *, void *, const nghttp2_option *))                        \
  X(void, nghttp2_session_del, (nghttp2_session *))                                                                  \
  X(ssize_t, nghttp2_session_mem_recv, (nghttp2_session *, const uint8_t *, size_t))                                 \
  X(ssize_t, nghttp2_session_mem_send, (nghttp2_session *, const uint8_t **))                                        \
  X(int, nghttp2_submit_settings, (nghttp2_session *, uint8_t, const nh_settings_entry *, size_t))                   \
  X(int, nghttp2_submit_response, (nghttp2_session *, int32_t, const nh_nv *, size_t, const nh_data_provider *))     \
  X(int, nghttp2_submit_rst_stream, (nghttp2_session *, uint8_t, int32_t, uint32_t))                                 \
  X(int, nghttp2_submit_goaway, (nghttp2_session *, uint8_t, int32_t, uint32_t, const uint8_t *, size_t))            \
  X(int, nghttp2_session_terminate_session, (nghttp2_session *, uint32_t))                                           \
  X(int32_t, nghttp2_session_get_last_proc_stream_id, (nghttp2_session *))                                           \
  X(void *, nghttp2_session_get_stream_user_data, (nghttp2_session *, int32_t))                                      \
  X(int, nghttp2_session_set_stream_user_data, (nghttp2_session *, int32_t, void *))                                 \
  X(int, nghttp2_session_want_read, (nghttp2_session *))                                                             \
  X(int, nghttp2_session_want_write, (nghttp2_session *))                                                            \
  X(const char *, nghttp2_strerror, (int))

#define DECLARE(ret, name, args) static ret(*p_##name) args;
NH_FUNCTIONS(DECLARE)
#undef DECLARE

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static void *library;
static char load_error[256];

static void load(void) {
  library = dlopen("libnghttp2.so.14", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    snprintf(load_error, sizeof load_error, "cannot open libnghttp2.so.14 (Debian: libnghttp2-14): %s", dlerror());
    return;
  }
#define RESOLVE(ret, name, args)                                                                                     \
  p_##name = (ret(*) args)dlsym(library, #name);                                                                     \
  if (!p_##name) {                                                                                                   \
    snprintf(load_error, sizeof load_error, "libnghttp2.so.14 has no %s (nghttp2 1.52 or newer is needed)", #name); \
    return;                                                                                                          \
  }
  NH_FUNCTIONS(RESOLVE)
#undef RESOLVE
}

const char *cnh2_load_error(void) {
  pthread_once(&load_once, load);
  return load_error[0] ? load_error : NULL;
}

const char *cnh2_version(void) {
  if (cnh2_load_error()) return NULL;
  nh_info *info = p_nghttp2_version(0);
  return info ? info->version_str : NULL;
}

const char *cnh2_strerror(int code) { return cnh2_load_error() ? "nghttp2 is not loaded" : p_nghttp2_strerror(code); }

/* ---- The server connection ---- */

typedef struct buffer {
  uint8_t *bytes;
  size_t length, capacity;
} buffer;

/* Appends, growing by doubling; 0 when out of memory. */
static int buffer_append(buffer *b, const void *bytes, size_t length) {
  if (b->length + length > b->capacity) {
    size_t capacity = b->capacity ? b->capacity : 256;
    while (capacity < b->length + length) capacity *= 2;
    uint8_t *grown = realloc(b->bytes, capacity);
    if (!grown) return 0;
    b->bytes = grown;
    b->capacity = capacity;
  }
  memcpy(b->bytes + b->length, bytes, length);
  b->length += length;
  return 1;
}

typedef struct stream {
  int32_t id;
  buffer headers;
  size_t header_list_size;
  buffer body;
  int delivered, truncated, too_large, answered, remote_closed, reset_after_answer;
  uint8_t *answer;
  size_t answer_length, answer_sent;
  /* Every open stream is on the server's list, so freeing the server frees them: nghttp2's
   * session_del does not call on_stream_close. */
  struct stream *previous, *next;
} stream;

typedef struct event_node {
  cnh2_event event;
  struct event_node *next;
} event_node;

struct cnh2_server {
  nghttp2_session *session;
  cnh2_limits limits;
  event_node *first, *last;
  stream *streams;
  size_t open_streams;
  int failed;
  /* The first output, holding the first SETTINGS frame, with its advertised stream limit. */
  int first_output_sent;
  uint8_t *first_output;
};

static void push_event(cnh2_server *server, int kind, int32_t stream_id, uint32_t code, stream *s) {
  event_node *node = calloc(1, sizeof *node);
  if (!node) return;
  node->event.kind = kind;
  node->event.stream_id = stream_id;
  node->event.code = code;
  if (s) {
    /* The request's bytes move to the event: the stream keeps only its bookkeeping. */
    node->event.truncated = s->truncated;
    node->event.headers = s->headers.bytes;
    node->event.headers_length = s->headers.length;
    node->event.body = s->body.bytes;
    node->event.body_length = s->body.length;
    s->headers = (buffer){0};
    s->body = (buffer){0};
  }
  if (server->last) server->last->next = node;
  else server->first = node;
  server->last = node;
}

static void free_stream(stream *s) {
  free(s->headers.bytes);
  free(s->body.bytes);
  free(s->answer);
  free(s);
}

static void unlink_stream(cnh2_server *server, stream *s) {
  if (s->previous) s->previous->next = s->next;
  else server->streams = s->next;
  if (s->next) s->next->previous = s->previous;
  server->open_streams--;
}

static stream *find(cnh2_server *server, int32_t id) {
  return id > 0 ? p_nghttp2_session_get_stream_user_data(server->session, id) : NULL;
}

static int on_begin_headers(nghttp2_session *session, const nh_frame *frame, void *user) {
  cnh2_server *server = user;
  if (frame->hd.type != NH_HEADERS || frame->headers.cat != NH_HCAT_REQUEST) return 0;
  stream *s = calloc(1, sizeof *s);
  if (!s) return NH_ERR_TEMPORAL_CALLBACK_FAILURE;
  s->id = frame->hd.stream_id;
  if (p_nghttp2_session_set_stream_user_data(session, s->id, s) != 0) {
    free(s);
    return NH_ERR_TEMPORAL_CALLBACK_FAILURE;
  }
  s->next = server->streams;
  if (s->next) s->next->previous = s;
  server->streams = s;
  server->open_streams++;
  return 0;
}

static int on_header(nghttp2_session *session, const nh_frame *frame, const uint8_t *name, size_t namelen,
                     const uint8_t *value, size_t valuelen, uint8_t flags, void *user) {
  (void)session;
  (void)flags;
  cnh2_server *server = user;
  stream *s = find(server, frame->hd.stream_id);
  /* Trailers and streams already refused are not kept. */
  if (!s || frame->headers.cat != NH_HCAT_REQUEST || s->too_large) return 0;
  s->header_list_size += namelen + valuelen + 32;
  if (s->header_list_size > server->limits.max_header_list) {
    s->too_large = 1;
    s->delivered = 1;
    push_event(server, CNH2_EVENT_HEADERS_TOO_LARGE, s->id, 0, NULL);
    return NH_ERR_TEMPORAL_CALLBACK_FAILURE; /* nghttp2 resets the stream */
  }
  uint32_t lengths[2] = {(uint32_t)namelen, (uint32_t)valuelen};
  uint8_t prefix[4];
  for (int i = 0; i < 2; i++) {
    for (int b = 0; b < 4; b++) prefix[b] = (uint8_t)(lengths[i] >> (8 * b));
    if (!buffer_append(&s->headers, prefix, 4) || !buffer_append(&s->headers, i ? value : name, lengths[i]))
      return NH_ERR_TEMPORAL_CALLBACK_FAILURE;
  }
  return 0;
}

static int on_data_chunk(nghttp2_session *session, uint8_t flags, int32_t stream_id, const uint8_t *data, size_t len,
                         void *user) {
  (void)session;
  (void)flags;
  cnh2_server *server = user;
  stream *s = find(server, stream_id);
  if (!s || s->delivered) return 0; /* discarded as it arrives */
  size_t room = server->limits.max_body + 1 - s->body.length;
  size_t take = len < room ? len : room;
  if (!buffer_append(&s->body, data, take)) return NH_ERR_TEMPORAL_CALLBACK_FAILURE;
  if (s->body.length > server->limits.max_body) {
    s->truncated = 1;
    s->delivered = 1;
    push_event(server, CNH2_EVENT_REQUEST, s->id, 0, s);
  }
  return 0;
}

static int on_frame_recv(nghttp2_session *session, const nh_frame *frame, void *user) {
  (void)session;
  cnh2_server *server = user;
  if (frame->hd.type == NH_GOAWAY) {
    push_event(server, CNH2_EVENT_GOAWAY, 0, frame->goaway.error_code, NULL);
    return 0;
  }
  if ((frame->hd.type != NH_HEADERS && frame->hd.type != NH_DATA) || !(frame->hd.flags & NH_FLAG_END_STREAM))
    return 0;
  stream *s = find(server, frame->hd.stream_id);
  if (!s) return 0;
  s->remote_closed = 1;
  if (!s->delivered) {
    s->delivered = 1;
    push_event(server, CNH2_EVENT_REQUEST, s->id, 0, s);
  }
  return 0;
}

static int on_frame_send(nghttp2_session *session, const nh_frame *frame, void *user) {
  cnh2_server *server = user;
  if ((frame->hd.type != NH_HEADERS && frame->hd.type != NH_DATA) || !(frame->hd.flags & NH_FLAG_END_STREAM))
    return 0;
  stream *s = find(server, frame->hd.stream_id);
  if (s && s->reset_after_answer && !s->remote_closed)
    p_nghttp2_submit_rst_stream(session, 0, s->id, CNH2_NO_ERROR);
  return 0;
}

static int on_stream_close(nghttp2_session *session, int32_t stream_id, uint32_t error_code, void *user) {
  cnh2_server *server = user;
  stream *s = find(server, stream_id);
  if (!s) return 0;
  if (error_code != 0 && !s->answered && !s->too_large)
    push_event(server, CNH2_EVENT_STREAM_RESET, stream_id, error_code, NULL);
  p_nghttp2_session_set_stream_user_data(session, stream_id, NULL);
  unlink_stream(server, s);
  free_stream(s);
  return 0;
}

static ssize_t read_answer(nghttp2_session *session, int32_t stream_id, uint8_t *buf, size_t length,
                           uint32_t *data_flags, nh_data_source *source, void *user) {
  (void)session;
  (void)stream_id;
  (void)user;
  stream *s = source->ptr;
  size_t left = s->answer_length - s->answer_sent;
  size_t n = left < length ? left : length;
  memcpy(buf, s->answer + s->answer_sent, n);
  s->answer_sent += n;
  if (s->answer_sent == s->answer_length) *data_flags |= NH_DATA_FLAG_EOF;
  return (ssize_t)n;
}

static int submit_settings(cnh2_server *server) {
  nh_settings_entry settings[2] = {
      {NH_SETTINGS_MAX_CONCURRENT_STREAMS, server->limits.max_concurrent_streams},
      {NH_SETTINGS_MAX_HEADER_LIST_SIZE, server->limits.max_header_list},
  };
  return p_nghttp2_submit_settings(server->session, 0, settings, 2);
}

cnh2_server *cnh2_server_new(const cnh2_limits *limits) {
  if (cnh2_load_error()) return NULL;
  cnh2_server *server = calloc(1, sizeof *server);
  if (!server) return NULL;
  server->limits = *limits;
  nghttp2_session_callbacks *callbacks = NULL;
  nghttp2_option *option = NULL;
  if (p_nghttp2_session_callbacks_new(&callbacks) != 0 || p_nghttp2_option_new(&option) != 0) goto fail;
  p_nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, on_begin_headers);
  p_nghttp2_session_callbacks_set_on_header_callback(callbacks, on_header);
  p_nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, on_data_chunk);
  p_nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, on_frame_recv);
  p_nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, on_frame_send);
  p_nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, on_stream_close);
  /* APNs's answers are a few headers: a small encoder table is plenty. */
  p_nghttp2_option_set_max_deflate_dynamic_table_size(option, 4096);
  if (p_nghttp2_session_server_new2(&server->session, callbacks, server, option) != 0) goto fail;
  p_nghttp2_session_callbacks_del(callbacks);
  p_nghttp2_option_del(option);
  if (submit_settings(server) != 0) {
    cnh2_server_free(server);
    return NULL;
  }
  return server;
fail:
  if (callbacks) p_nghttp2_session_callbacks_del(callbacks);
  if (option) p_nghttp2_option_del(option);
  free(server);
  return NULL;
}

void cnh2_server_free(cnh2_server *server) {
  if (!server) return;
  if (server->session) p_nghttp2_session_del(server->session);
  server->session = NULL;
  free(server->first_output);
  while (server->streams) {
    stream *s = server->streams;
    unlink_stream(server, s);
    free_stream(s);
  }
  cnh2_event *event;
  while ((event = cnh2_server_next_event(server))) cnh2_event_free(event);
  free(server);
}

int cnh2_server_receive(cnh2_server *server, const uint8_t *bytes, size_t length) {
  if (server->failed) return NH_ERR_CALLBACK_FAILURE;
  ssize_t taken = p_nghttp2_session_mem_recv(server->session, bytes, length);
  if (taken >= 0) return 0;
  server->failed = 1;
  /* Tell the client why, where nghttp2 has not already: GOAWAY(PROTOCOL_ERROR). */
  p_nghttp2_session_terminate_session(server->session, CNH2_PROTOCOL_ERROR);
  return (int)taken;
}

/* Writes the advertised MAX_CONCURRENT_STREAMS into a copy of the first output, which starts
 * with the server's SETTINGS frame (9-byte header, then 6-byte entries): nghttp2 keeps enforcing
 * the higher limit, the client reads the lower one. Anything unexpected is sent unchanged. */
static const uint8_t *advertise_initial_streams(cnh2_server *server, const uint8_t *bytes, size_t length) {
  uint32_t advertised = server->limits.initial_advertised_streams;
  if (advertised == 0 || advertised >= server->limits.max_concurrent_streams || length < 9) return bytes;
  size_t frame_length = (size_t)bytes[0] << 16 | (size_t)bytes[1] << 8 | bytes[2];
  int settings = bytes[3] == 0x4 && bytes[4] == 0 && (bytes[5] | bytes[6] | bytes[7] | bytes[8]) == 0;
  if (!settings || frame_length % 6 != 0 || 9 + frame_length > length) return bytes;
  server->first_output = malloc(length);
  if (!server->first_output) return bytes;
  memcpy(server->first_output, bytes, length);
  for (size_t at = 9; at < 9 + frame_length; at += 6) {
    uint8_t *entry = server->first_output + at;
    if ((entry[0] << 8 | entry[1]) != NH_SETTINGS_MAX_CONCURRENT_STREAMS) continue;
    entry[2] = (uint8_t)(advertised >> 24);
    entry[3] = (uint8_t)(advertised >> 16);
    entry[4] = (uint8_t)(advertised >> 8);
    entry[5] = (uint8_t)advertised;
  }
  return server->first_output;
}

long cnh2_server_output(cnh2_server *server, const uint8_t **bytes) {
  ssize_t length = p_nghttp2_session_mem_send(server->session, bytes);
  if (length > 0 && !server->first_output_sent) {
    server->first_output_sent = 1;
    *bytes = advertise_initial_streams(server, *bytes, (size_t)length);
  }
  return (long)length;
}

cnh2_event *cnh2_server_next_event(cnh2_server *server) {
  event_node *node = server->first;
  if (!node) return NULL;
  server->first = node->next;
  if (!server->first) server->last = NULL;
  return &node->event;
}

void cnh2_event_free(cnh2_event *event) {
  if (!event) return;
  free(event->headers);
  free(event->body);
  free((event_node *)event); /* the event is the node's first member */
}

int cnh2_server_respond(cnh2_server *server, int32_t stream_id, int status, const char *const *names,
                        const char *const *values, size_t count, const uint8_t *body, size_t body_length) {
  stream *s = find(server, stream_id);
  if (!s || s->answered || s->too_large) return 0;
  if (count > 64) return NH_ERR_CALLBACK_FAILURE;
  char status_text[8];
  snprintf(status_text, sizeof status_text, "%d", status);
  nh_nv nva[65];
  nva[0] = (nh_nv){(uint8_t *)":status", (uint8_t *)status_text, 7, strlen(status_text), 0};
  for (size_t i = 0; i < count; i++)
    nva[i + 1] = (nh_nv){(uint8_t *)names[i], (uint8_t *)values[i], strlen(names[i]), strlen(values[i]), 0};
  nh_data_provider provider;
  const nh_data_provider *data = NULL;
  if (body_length > 0) {
    s->answer = malloc(body_length);
    if (!s->answer) return NH_ERR_NOMEM;
    memcpy(s->answer, body, body_length);
    s->answer_length = body_length;
    provider.source.ptr = s;
    provider.read_callback = read_answer;
    data = &provider;
  }
  int rv = p_nghttp2_submit_response(server->session, stream_id, nva, count + 1, data);
  if (rv != 0) return rv;
  s->answered = 1;
  s->reset_after_answer = s->truncated;
  return 1;
}

int cnh2_server_set_max_streams(cnh2_server *server, uint32_t streams) {
  server->limits.max_concurrent_streams = streams;
  return submit_settings(server);
}

int cnh2_server_goaway(cnh2_server *server, uint32_t code, const uint8_t *debug, size_t debug_length) {
  int32_t last = p_nghttp2_session_get_last_proc_stream_id(server->session);
  return p_nghttp2_submit_goaway(server->session, 0, last, code, debug, debug_length);
}

int cnh2_server_wants_read(cnh2_server *server) { return p_nghttp2_session_want_read(server->session); }
int cnh2_server_wants_write(cnh2_server *server) { return p_nghttp2_session_want_write(server->session); }
size_t cnh2_server_open_streams(cnh2_server *server) { return server->open_streams; }

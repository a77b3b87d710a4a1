/* PNG without libpng, for speed: chunks are read here, the image data is inflated by our own
 * inflate (cmd_inflate.c) into a window (or, on a second thread, a ring) the rows are
 * unfiltered from in place, rows are unfiltered with AVX2 (sixteen Paeth rows at once) or SSE2
 * (four) where the machine and the pixel layout allow it, and each row goes to the sink in the
 * form it was stored in (8-bit gray, gray + alpha, RGB or RGBA need no conversion at all). libpng unfilters Paeth rows one byte at a time and copies every row
 * twice, which took three times as long as inflating.
 *
 * An Adam7-interlaced picture stores a reduced copy first (pass 1 is every 8th pixel both ways,
 * passes 1 to 3 every 4th, and so on): only the passes that give the sink the pixels it needs
 * are inflated, and the sink sees them as a picture of that reduced size, as a JPEG's DCT scale
 * is seen.
 *
 * What this file does not read returns CMD_FALLBACK before any row reached the sink, and libpng
 * decodes the file as before: a header or chunk order libpng would refuse or warn about, a CRC
 * error before the image data, a tRNS colour key on gray or RGB pictures. Every chunk's CRC up
 * to the end of the image data is checked; ancillary chunks are skipped unread, as libpng was
 * told to; zlib's Adler-32 of the pixel data is neither computed nor checked (as libpng was
 * told: PNG_IGNORE_ADLER32). Errors use libpng's words, so they read the same either way. */
#include "cmd_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define CHUNK(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))

enum {
  CHUNK_IHDR = CHUNK('I', 'H', 'D', 'R'),
  CHUNK_PLTE = CHUNK('P', 'L', 'T', 'E'),
  CHUNK_TRNS = CHUNK('t', 'R', 'N', 'S'),
  CHUNK_IDAT = CHUNK('I', 'D', 'A', 'T'),
  CHUNK_IEND = CHUNK('I', 'E', 'N', 'D'),
  /* Bytes after a row buffer that the SSE2 loads may read. */
  ROW_PADDING = 16,
  /* Row buffers: the row above and up to sixteen rows unfiltered together. */
  LINES = 17,
};

/* Adam7: where each pass starts and its steps, columns then rows. */
static const uint8_t pass_x0[7] = {0, 4, 0, 2, 0, 1, 0};
static const uint8_t pass_dx[7] = {8, 8, 4, 4, 2, 2, 1};
static const uint8_t pass_y0[7] = {0, 0, 4, 0, 2, 0, 1};
static const uint8_t pass_dy[7] = {8, 8, 8, 4, 4, 2, 2};
/* The grid passes 1 … p fill together: every grid_x-th column of every grid_y-th row. */
static const uint8_t grid_x[7] = {8, 4, 4, 2, 2, 1, 1};
static const uint8_t grid_y[7] = {8, 8, 4, 4, 2, 2, 1};

typedef struct png_fast {
  cmd_source *source;
  char *err;
  size_t errlen;
  uint32_t width, height;
  int depth, color, interlaced;
  uint32_t samples;   /* samples per pixel as stored */
  uint32_t bpp;       /* bytes per pixel for filtering (at least 1) */
  uint32_t channels;  /* channels of the rows handed to the sink */
  uint8_t palette[256][4];
  uint32_t palette_size;
  int has_palette, has_trns;
  /* The image data: the inflater reads it through fill_idat, which walks the IDAT chunks. */
  cmd_inflate *inflater;
  uint32_t idat_left; /* bytes of the current IDAT not yet read */
  uint32_t crc;       /* CRC of the current IDAT so far */
  int idat_over;      /* the IDAT chunks ended (a chunk of another type follows) */
  uint32_t after_length, after_type; /* that chunk's header */
  /* An error met while reading ahead for the inflater (a CRC, the file's end): reported once
   * the inflater needs what it stopped, or when the file is read to its end. */
  int feed_status;
  char feed_message[64];
  uint8_t *rows;      /* the row buffers and an expansion row, each padded */
  /* Row buffers: line[0] is the row above (unfiltered), line[1 ...] rows read but not yet
   * unfiltered (up to sixteen, to unfilter Paeth rows together). */
  uint8_t *line[LINES];
  /* The unfiltering loops used (LOOPS_*), and whether the image data's CRCs are folded with
   * carry-less multiplies (crc_update). */
  int loops;
  int fast_crc;
  uint8_t *expanded;
  /* Rows inflated on a second thread (a large picture read whole), or NULL. */
  struct png_pipe *pipe;
} png_fast;

static uint32_t be32(const uint8_t *p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static int fail(png_fast *f, int status, const char *message) {
  cmd_set_error(f->err, f->errlen, "PNG: %s", message);
  return status;
}

/* Whether a chunk's name is four ASCII letters. */
static int chunk_name_valid(uint32_t type) {
  for (int i = 0; i < 4; i++) {
    uint8_t letter = (uint8_t)((type >> (24 - 8 * i)) & 0xDF);
    if (letter < 'A' || letter > 'Z') return 0;
  }
  return 1;
}

/* A chunk header; 0 when the file ends first. */
static int read_header(png_fast *f, uint32_t *length, uint32_t *type) {
  uint8_t header[8];
  if (cmd_source_read(f->source, header, 8) != 8) return 0;
  *length = be32(header);
  *type = be32(header + 4);
  return 1;
}

/* A small chunk's body and CRC; 1 when both were read and the CRC matches. */
static int read_body(png_fast *f, uint32_t type, uint8_t *body, uint32_t length) {
  uint8_t type_bytes[4] = {(uint8_t)(type >> 24), (uint8_t)(type >> 16), (uint8_t)(type >> 8), (uint8_t)type};
  uint8_t crc_bytes[4];
  if (cmd_source_read(f->source, body, length) != length || cmd_source_read(f->source, crc_bytes, 4) != 4)
    return 0;
  uint32_t crc = (uint32_t)crc32(0, type_bytes, 4);
  crc = (uint32_t)crc32(crc, body, length);
  return crc == be32(crc_bytes);
}

/* IHDR and the chunks up to the first IDAT; CMD_OK at the start of the image data, or
 * CMD_FALLBACK for anything libpng should judge. */
static int read_chunks(png_fast *f) {
  uint8_t signature[8], body[13];
  uint32_t length, type;
  if (cmd_source_read(f->source, signature, 8) != 8 || !read_header(f, &length, &type) || length != 13 ||
      type != CHUNK_IHDR || !read_body(f, type, body, 13))
    return CMD_FALLBACK;
  f->width = be32(body);
  f->height = be32(body + 4);
  f->depth = body[8];
  f->color = body[9];
  f->interlaced = body[12];
  if (body[10] != 0 || body[11] != 0 || body[12] > 1) return CMD_FALLBACK;
  int d = f->depth;
  switch (f->color) {
  case 0: f->samples = 1; if (d != 1 && d != 2 && d != 4 && d != 8 && d != 16) return CMD_FALLBACK; break;
  case 2: f->samples = 3; if (d != 8 && d != 16) return CMD_FALLBACK; break;
  case 3: f->samples = 1; if (d != 1 && d != 2 && d != 4 && d != 8) return CMD_FALLBACK; break;
  case 4: f->samples = 2; if (d != 8 && d != 16) return CMD_FALLBACK; break;
  case 6: f->samples = 4; if (d != 8 && d != 16) return CMD_FALLBACK; break;
  default: return CMD_FALLBACK;
  }
  f->bpp = (f->samples * (uint32_t)d + 7) / 8;
  for (;;) {
    if (!read_header(f, &length, &type) || length > 0x7FFFFFFFu) return CMD_FALLBACK;
    if (type == CHUNK_IDAT) {
      f->idat_left = length;
      uint8_t type_bytes[4] = {'I', 'D', 'A', 'T'};
      f->crc = (uint32_t)crc32(0, type_bytes, 4);
      break;
    }
    if (type == CHUNK_PLTE) {
      /* libpng takes a PLTE on gray pictures as an error and on colour ones as a hint. */
      if (f->color != 3 || f->has_palette || f->has_trns || length == 0 || length % 3 != 0 ||
          length / 3 > (1u << d))
        return CMD_FALLBACK;
      uint8_t entries[768];
      if (!read_body(f, type, entries, length)) return CMD_FALLBACK;
      f->palette_size = length / 3;
      for (uint32_t i = 0; i < 256; i++) {
        /* Indexes past the palette are black, as libpng's zero-filled palette makes them. */
        int in = i < f->palette_size;
        f->palette[i][0] = in ? entries[3 * i] : 0;
        f->palette[i][1] = in ? entries[3 * i + 1] : 0;
        f->palette[i][2] = in ? entries[3 * i + 2] : 0;
        f->palette[i][3] = 255;
      }
      f->has_palette = 1;
      continue;
    }
    if (type == CHUNK_TRNS) {
      /* A colour key on a gray or RGB picture is left to libpng. */
      if (f->color != 3 || !f->has_palette || f->has_trns || length == 0 || length > f->palette_size)
        return CMD_FALLBACK;
      uint8_t alpha[256];
      if (!read_body(f, type, alpha, length)) return CMD_FALLBACK;
      for (uint32_t i = 0; i < length; i++) f->palette[i][3] = alpha[i];
      f->has_trns = 1;
      continue;
    }
    /* Any other critical chunk (IEND here included), or a name that is not four letters, is
     * libpng's to refuse. */
    if (!(type & 0x20000000u) || !chunk_name_valid(type)) return CMD_FALLBACK;
    if (cmd_source_skip(f->source, (size_t)length + 4) != (size_t)length + 4) return CMD_FALLBACK;
  }
  if (f->color == 3 && !f->has_palette) return CMD_FALLBACK;
  f->channels = f->color == 3 ? (f->has_trns ? 4 : 3) : f->samples;
  return CMD_OK;
}

/* ---- CRCs ------------------------------------------------------------------------------ */

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define HAVE_PCLMUL_CRC 1
#include <immintrin.h>

/*
 * zlib's crc32 of at least 64 bytes by folding with carry-less multiplies (PCLMULQDQ), Intel's
 * method ("Fast CRC computation for generic polynomials using PCLMULQDQ"): four 16-byte lanes
 * folded 64 bytes ahead, then into one, 16 bytes at a time, then reduced to 32 bits (a Barrett
 * reduction); the last bytes (fewer than 16) go to zlib. About a tenth of zlib's instructions
 * a byte: the image data's CRCs were 2 % of a large PNG's decode.
 */
__attribute__((target("pclmul,sse4.1"))) static uint32_t crc32_folded(uint32_t crc, const uint8_t *p,
                                                                    size_t length) {
  /* x^(4·128±32) and x^(128±32) mod P (bit-reflected), x^64 mod P, P and floor(x^64 / P). */
  const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
  const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
  const __m128i k5 = _mm_set_epi64x(0, 0x0163cd6124);
  const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);
  const __m128i low32 = _mm_set_epi32(0, 0, 0, -1);
#define CRC_LOAD(q) _mm_loadu_si128((const __m128i *)(const void *)(q))
#define CRC_FOLD(x, k) _mm_xor_si128(_mm_clmulepi64_si128((x), (k), 0x00), _mm_clmulepi64_si128((x), (k), 0x11))
  __m128i x0 = _mm_xor_si128(CRC_LOAD(p), _mm_cvtsi32_si128((int)~crc));
  __m128i x1 = CRC_LOAD(p + 16), x2 = CRC_LOAD(p + 32), x3 = CRC_LOAD(p + 48);
  p += 64;
  length -= 64;
  while (length >= 64) {
    x0 = _mm_xor_si128(CRC_FOLD(x0, k1k2), CRC_LOAD(p));
    x1 = _mm_xor_si128(CRC_FOLD(x1, k1k2), CRC_LOAD(p + 16));
    x2 = _mm_xor_si128(CRC_FOLD(x2, k1k2), CRC_LOAD(p + 32));
    x3 = _mm_xor_si128(CRC_FOLD(x3, k1k2), CRC_LOAD(p + 48));
    p += 64;
    length -= 64;
  }
  __m128i x = _mm_xor_si128(CRC_FOLD(x0, k3k4), x1);
  x = _mm_xor_si128(CRC_FOLD(x, k3k4), x2);
  x = _mm_xor_si128(CRC_FOLD(x, k3k4), x3);
  while (length >= 16) {
    x = _mm_xor_si128(CRC_FOLD(x, k3k4), CRC_LOAD(p));
    p += 16;
    length -= 16;
  }
#undef CRC_LOAD
#undef CRC_FOLD
  /* 128 bits to 64, to 32, then the remainder by Barrett reduction. */
  x = _mm_xor_si128(_mm_srli_si128(x, 8), _mm_clmulepi64_si128(k3k4, x, 0x01));
  x = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x, low32), k5, 0x00), _mm_srli_si128(x, 4));
  __m128i t = _mm_clmulepi64_si128(_mm_and_si128(x, low32), poly, 0x10);
  t = _mm_clmulepi64_si128(_mm_and_si128(t, low32), poly, 0x00);
  uint32_t reg = (uint32_t)_mm_extract_epi32(_mm_xor_si128(t, x), 1);
  return (uint32_t)crc32(~reg, p, (uInt)length);
}

static int have_pclmul(void) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
}
#endif

/* crc32(crc, p, length), folded where the decode may. */
static uint32_t crc_update(const png_fast *f, uint32_t crc, const uint8_t *p, size_t length) {
#ifdef HAVE_PCLMUL_CRC
  if (f->fast_crc && length >= 64) return crc32_folded(crc, p, length);
#else
  (void)f;
#endif
  return (uint32_t)crc32(crc, p, (uInt)length);
}

static void feed_fail(png_fast *f, int status, const char *message) {
  f->feed_status = status;
  snprintf(f->feed_message, sizeof f->feed_message, "%s", message);
}

/* Moves to the next IDAT chunk once the current one is used up, checking the finished one's
 * CRC. 1: image data follows; 0: it ended (idat_over) or an error was recorded. */
static int next_idat(png_fast *f) {
  cmd_source *s = f->source;
  while (f->idat_left == 0) {
    if (f->idat_over || f->feed_status != CMD_OK) return 0;
    uint8_t crc_bytes[4];
    if (cmd_source_read(s, crc_bytes, 4) != 4) {
      feed_fail(f, CMD_ERR_TRUNCATED, "read beyond end of data");
      return 0;
    }
    if (be32(crc_bytes) != f->crc) {
      feed_fail(f, CMD_ERR_CORRUPT, "IDAT: CRC error");
      return 0;
    }
    uint32_t length, type;
    if (!read_header(f, &length, &type)) {
      feed_fail(f, CMD_ERR_TRUNCATED, "read beyond end of data");
      return 0;
    }
    if (type != CHUNK_IDAT) {
      f->idat_over = 1;
      f->after_length = length;
      f->after_type = type;
      return 0;
    }
    if (length > 0x7FFFFFFFu) {
      feed_fail(f, CMD_ERR_CORRUPT, "PNG unsigned integer out of range");
      return 0;
    }
    uint8_t type_bytes[4] = {'I', 'D', 'A', 'T'};
    f->crc = (uint32_t)crc32(0, type_bytes, 4);
    f->idat_left = length;
  }
  return f->feed_status == CMD_OK;
}

/* The inflater's input: the IDAT chunks' data, copied out of the source (CRCs checked). */
static size_t fill_idat(void *context, uint8_t *into, size_t capacity) {
  png_fast *f = context;
  cmd_source *s = f->source;
  size_t given = 0;
  while (given < capacity && next_idat(f)) {
    if (s->available == 0 && cmd_source_fill(s) == 0) {
      feed_fail(f, CMD_ERR_TRUNCATED, "read beyond end of data");
      break;
    }
    size_t take = s->available < f->idat_left ? s->available : f->idat_left;
    if (take > capacity - given) take = capacity - given;
    memcpy(into + given, s->next, take);
    f->crc = crc_update(f, f->crc, s->next, take);
    s->next += take;
    s->available -= take;
    f->idat_left -= (uint32_t)take;
    given += take;
  }
  return given;
}

/* Why the inflater stopped, in libpng's words where it has them. */
static int inflate_failure(png_fast *f, int status, char *message, size_t length) {
  if (status == CMD_ERR_TRUNCATED && f->feed_status != CMD_OK) {
    /* It stopped where reading ahead had met an error: that error is the cause. */
    snprintf(message, length, "%s", f->feed_message);
    return f->feed_status;
  }
  if (status == CMD_ERR_CORRUPT) {
    snprintf(message, length, "IDAT: %s", cmd_inflate_message(f->inflater));
  } else {
    snprintf(message, length, "%s", status == CMD_ERR_NO_MEMORY ? "out of memory" : cmd_inflate_message(f->inflater));
  }
  return status;
}

/* ---- Rows on a second thread ------------------------------------------------------------- */

/*
 * Large image data (not interlaced) inflates on a second thread while this one unfilters and reduces
 * (each about half the work), so the wall time is about the longer of the two. The inflating
 * thread writes rows straight into batches of a ring that this thread unfilters from in place
 * (nothing is copied on the way): the batches lie one after the other behind 32 KiB of history,
 * so the output stays contiguous and the inflater's matches reach back into the batches before;
 * only when it wraps to the first batch does the last 32 KiB of output move to the history
 * before it. The inflating thread waits when the ring is full, stops at its next batch once
 * told to, and keeps a time budget on its own CPU clock as this thread does. Whatever happens
 * it is joined before the decoder returns or reads on past the image data.
 */
enum {
  PIPE_BATCH_ROWS = 16,
  /* A batch holds at least this many bytes (more rows when rows are short), so the inflater's
   * fast loop has room and hand-overs stay few. */
  PIPE_BATCH_BYTES = 64 * 1024,
  PIPE_BATCH_LARGEST = 512 * 1024,
  PIPE_BATCHES = 4,
  PIPE_HISTORY = 32768,
  /* Image data below this is inflated on the decoding thread: a thread costs more than it saves. */
  PIPE_MIN_BYTES = 1 << 20,
};

typedef struct png_pipe {
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t changed;
  uint8_t *area;                    /* the history, then PIPE_BATCHES batches, then padding */
  size_t stride;                    /* a row as inflated: its filter byte and bytes */
  uint32_t batch_rows;              /* rows a batch */
  uint32_t rows;                    /* rows to inflate */
  uint32_t budget_ms;
  /* Under the lock: */
  uint32_t rows_in[PIPE_BATCHES];   /* rows in each batch handed over */
  uint64_t filled, emptied;         /* batches handed over, and given back */
  int stop;                         /* the reader needs no more rows */
  int ended;                        /* the inflating thread is done: status says how */
  int status;
  char message[160];
  /* The reader's own: the batch it holds and the next row in it. */
  int holding;
  uint32_t at;
} png_pipe;

static uint8_t *pipe_batch(const png_pipe *p, uint64_t batch) {
  return p->area + PIPE_HISTORY + (size_t)(batch % PIPE_BATCHES) * p->batch_rows * p->stride;
}

static void *pipe_inflate(void *context) {
  png_fast *f = context;
  png_pipe *p = f->pipe;
  uint64_t deadline = cmd_deadline(p->budget_ms);
  uint32_t done = 0;
  int status = CMD_OK;
  char message[160] = "";
  while (done < p->rows && status == CMD_OK) {
    pthread_mutex_lock(&p->lock);
    while (!p->stop && p->filled - p->emptied == PIPE_BATCHES) pthread_cond_wait(&p->changed, &p->lock);
    int stop = p->stop;
    uint64_t batch = p->filled;
    pthread_mutex_unlock(&p->lock);
    if (stop) break;
    if (batch > 0 && batch % PIPE_BATCHES == 0) {
      /* Back at the first batch: the last 32 KiB of output become the history before it (only
       * this thread reads the history; the reader may still be reading the batches it comes
       * from, which both only read). */
      size_t ring = (size_t)PIPE_BATCHES * p->batch_rows * p->stride;
      memmove(p->area, p->area + ring, PIPE_HISTORY);
    }
    uint32_t count = p->batch_rows < p->rows - done ? p->batch_rows : p->rows - done;
    size_t written = 0;
    status = cmd_inflate_into(f->inflater, pipe_batch(p, batch), (size_t)count * p->stride, &written);
    if (status != CMD_OK) {
      /* The whole rows before the failure still go over (the reader meets them first). */
      status = inflate_failure(f, status, message, sizeof message);
      count = (uint32_t)(written / p->stride);
    }
    done += count;
    if (status == CMD_OK && cmd_past(deadline)) {
      status = CMD_ERR_TIMEOUT;
      snprintf(message, sizeof message, "PNG decoding ran out of time");
    }
    pthread_mutex_lock(&p->lock);
    if (count > 0) {
      p->rows_in[batch % PIPE_BATCHES] = count;
      p->filled++;
    }
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->lock);
  }
  pthread_mutex_lock(&p->lock);
  p->status = status;
  memcpy(p->message, message, sizeof message);
  p->ended = 1;
  pthread_cond_broadcast(&p->changed);
  pthread_mutex_unlock(&p->lock);
  return NULL;
}

/* Starts the inflating thread for `rows` rows of `stride` bytes; 0 when it could not (the
 * decoding thread then inflates them itself). */
static int pipe_start(png_fast *f, uint32_t rows, size_t stride, uint32_t budget_ms) {
  png_pipe *p = calloc(1, sizeof *p);
  if (p == NULL) return 0;
  /* Whole groups of sixteen rows (the most unfiltered together) in a batch: two groups while
   * that stays under PIPE_BATCH_LARGEST bytes, more when rows are short. */
  size_t batch_rows = PIPE_BATCH_ROWS;
  if (2 * batch_rows * stride <= PIPE_BATCH_LARGEST) batch_rows *= 2;
  if (batch_rows * stride < PIPE_BATCH_BYTES) batch_rows = ((PIPE_BATCH_BYTES / stride + 1) + 15) / 16 * 16;
  p->batch_rows = (uint32_t)batch_rows;
  p->area = malloc(PIPE_HISTORY + (size_t)PIPE_BATCHES * batch_rows * stride + ROW_PADDING);
  p->stride = stride;
  p->rows = rows;
  p->budget_ms = budget_ms;
  if (p->area == NULL || pthread_mutex_init(&p->lock, NULL) != 0) {
    free(p->area);
    free(p);
    return 0;
  }
  if (pthread_cond_init(&p->changed, NULL) != 0) {
    pthread_mutex_destroy(&p->lock);
    free(p->area);
    free(p);
    return 0;
  }
  f->pipe = p;
  if (pthread_create(&p->thread, NULL, pipe_inflate, f) != 0) {
    f->pipe = NULL;
    pthread_cond_destroy(&p->changed);
    pthread_mutex_destroy(&p->lock);
    free(p->area);
    free(p);
    return 0;
  }
  return 1;
}

/* Tells the inflating thread to stop, waits for it and frees the ring (safe without one). */
static void pipe_end(png_fast *f) {
  png_pipe *p = f->pipe;
  if (p == NULL) return;
  pthread_mutex_lock(&p->lock);
  p->stop = 1;
  pthread_cond_broadcast(&p->changed);
  pthread_mutex_unlock(&p->lock);
  pthread_join(p->thread, NULL);
  pthread_cond_destroy(&p->changed);
  pthread_mutex_destroy(&p->lock);
  free(p->area);
  free(p);
  f->pipe = NULL;
}

/* ---- Rows as inflated -------------------------------------------------------------------- */

/*
 * `count` rows as inflated (a filter byte, then the row), from the first not yet unfiltered, at
 * *raw until rows_done. For count 1 an error is the decode's (with its message); for more it
 * only says they are not at hand together (the caller then takes fewer).
 */
static int raw_rows(png_fast *f, uint32_t count, size_t stride, const uint8_t **raw) {
  png_pipe *p = f->pipe;
  if (p == NULL) {
    int status = cmd_inflate_need(f->inflater, count * stride, raw);
    if (status == CMD_OK || count > 1) return status;
    char message[160];
    status = inflate_failure(f, status, message, sizeof message);
    return fail(f, status, message);
  }
  if (!p->holding) {
    if (count > 1) return CMD_ERR_TRUNCATED;
    pthread_mutex_lock(&p->lock);
    while (p->filled == p->emptied && !p->ended) pthread_cond_wait(&p->changed, &p->lock);
    int have = p->filled != p->emptied;
    int status = p->status;
    char message[160];
    memcpy(message, p->message, sizeof message);
    pthread_mutex_unlock(&p->lock);
    if (!have) {
      /* Ended without handing over this row: an error (it inflates every row otherwise). */
      if (status == CMD_OK) status = CMD_ERR_TRUNCATED, snprintf(message, sizeof message, "Not enough image data");
      return fail(f, status, message);
    }
    p->holding = 1;
    p->at = 0;
  }
  uint64_t batch = p->emptied;
  if (p->at + count > p->rows_in[batch % PIPE_BATCHES]) return CMD_ERR_TRUNCATED;
  *raw = pipe_batch(p, batch) + (size_t)p->at * stride;
  return CMD_OK;
}

/* The rows from raw_rows are unfiltered: a batch used up goes back to the inflating thread. */
static void rows_done(png_fast *f, uint32_t count, size_t stride) {
  png_pipe *p = f->pipe;
  if (p == NULL) {
    cmd_inflate_take(f->inflater, count * stride);
    return;
  }
  p->at += count;
  if (p->at == p->rows_in[p->emptied % PIPE_BATCHES]) {
    pthread_mutex_lock(&p->lock);
    p->emptied++;
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->lock);
    p->holding = 0;
  }
}

/* ---- Unfiltering ------------------------------------------------------------------------- */

/* Every filter reads the row as inflated (`raw`, in the inflater's window, which must stay as
 * it is: later matches copy from it) and writes the unfiltered row to `row`, its own buffer,
 * beside the row above (`prev`, unfiltered). Rows are padded, so a pixel of 3 bytes may be
 * loaded and stored as 4: the extra byte stored is the next pixel's, written again after. A
 * raw row's last pixel is loaded exactly (its next byte may be in the batch the inflating
 * thread is writing); inside a run of rows the byte after a row is the next row's. */

static inline uint8_t paeth(int a, int b, int c) {
  int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
  return (uint8_t)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

#ifdef __SSE2__
/* Pixels of 3 or 4 bytes in 16-bit lanes, one at a time (each depends on the one before). */
static inline __attribute__((always_inline)) __m128i load_pixel(const uint8_t *p) {
  int32_t value;
  memcpy(&value, p, 4);
  return _mm_unpacklo_epi8(_mm_cvtsi32_si128(value), _mm_setzero_si128());
}

/* A row's last pixel: its bytes only (the row may end where another thread writes). */
static inline __attribute__((always_inline)) __m128i load_last_pixel(const uint8_t *p, uint32_t bpp) {
  int32_t value = 0;
  memcpy(&value, p, bpp);
  return _mm_unpacklo_epi8(_mm_cvtsi32_si128(value), _mm_setzero_si128());
}

static inline __attribute__((always_inline)) void store_pixel(uint8_t *p, __m128i pixel) {
  int32_t value = _mm_cvtsi128_si32(_mm_packus_epi16(pixel, pixel));
  memcpy(p, &value, 4);
}

/* One Paeth step on pixels in 16-bit lanes: d plus the one of a (left), b (above) and c
 * (above left) nearest to a + b - c, ties going to a, then b. */
static inline __attribute__((always_inline)) __m128i paeth_step(__m128i a, __m128i b, __m128i c, __m128i d) {
  const __m128i zero = _mm_setzero_si128();
  __m128i pa = _mm_sub_epi16(b, c), pb = _mm_sub_epi16(a, c);
  __m128i pc = _mm_add_epi16(pa, pb);
  pa = _mm_max_epi16(pa, _mm_sub_epi16(zero, pa));
  pb = _mm_max_epi16(pb, _mm_sub_epi16(zero, pb));
  pc = _mm_max_epi16(pc, _mm_sub_epi16(zero, pc));
  __m128i smallest = _mm_min_epi16(pc, _mm_min_epi16(pa, pb));
  __m128i use_a = _mm_cmpeq_epi16(smallest, pa), use_b = _mm_cmpeq_epi16(smallest, pb);
  __m128i b_or_c = _mm_or_si128(_mm_and_si128(use_b, b), _mm_andnot_si128(use_b, c));
  __m128i nearest = _mm_or_si128(_mm_and_si128(use_a, a), _mm_andnot_si128(use_a, b_or_c));
  return _mm_and_si128(_mm_add_epi16(d, nearest), _mm_set1_epi16(0xFF));
}

static inline __attribute__((always_inline)) void paeth_sse2(uint8_t *row, const uint8_t *raw, const uint8_t *prev,
                                                             size_t length, uint32_t bpp) {
  __m128i a = _mm_setzero_si128(), c = _mm_setzero_si128();
  for (size_t i = 0; i + bpp <= length; i += bpp) {
    __m128i b = load_pixel(prev + i);
    a = paeth_step(a, b, c, i + 2 * bpp <= length ? load_pixel(raw + i) : load_last_pixel(raw + i, bpp));
    store_pixel(row + i, a);
    c = b;
  }
}

/*
 * Two Paeth rows at once, `first` above `second`. Each pixel waits for the one to its left, so
 * one row is a chain of dependent steps; the second row needs only the first row's pixels up
 * to its own column, so it runs one pixel behind the first in the upper lanes of the same
 * registers, and each step finishes a pixel of both rows.
 */
typedef struct paeth_pair {
  uint8_t *first, *second;
  const uint8_t *raw_first, *raw_second;
  __m128i a, c; /* a = [A(i), B(i-1)], c = [prev(i), A(i-1)] */
} paeth_pair;

/* The first row's pixel 0 (nothing to its left), alone: a = [A0, 0], c = [prev0, 0]. `above`
 * is the pixel above it (in the low lanes). */
static inline __attribute__((always_inline)) void pair_start(paeth_pair *p, __m128i above) {
  p->c = _mm_move_epi64(above);
  p->a = paeth_step(_mm_setzero_si128(), p->c, _mm_setzero_si128(), load_pixel(p->raw_first));
  store_pixel(p->first, p->a);
}

/* Step i (i + 1 < pixels): A(i + 1) and B(i), given the pixel above A(i + 1) in the low lanes.
 * Returns [A(i + 1), B(i)]. */
static inline __attribute__((always_inline)) __m128i pair_step(paeth_pair *p, size_t i, __m128i above, uint32_t bpp) {
  __m128i b = _mm_unpacklo_epi64(above, p->a);
  __m128i d = _mm_unpacklo_epi64(load_pixel(p->raw_first + (i + 1) * bpp), load_pixel(p->raw_second + i * bpp));
  __m128i next = paeth_step(p->a, b, p->c, d);
  store_pixel(p->first + (i + 1) * bpp, next);
  store_pixel(p->second + i * bpp, _mm_srli_si128(next, 8));
  p->a = next;
  p->c = b;
  return next;
}

/* The second row's last pixel, alone (in the low lanes of the result). */
static inline __attribute__((always_inline)) __m128i pair_end(paeth_pair *p, size_t n, uint32_t bpp) {
  __m128i last = paeth_step(_mm_srli_si128(p->a, 8), p->a, _mm_srli_si128(p->c, 8),
                            load_last_pixel(p->raw_second + (n - 1) * bpp, bpp));
  store_pixel(p->second + (n - 1) * bpp, last);
  return last;
}

static inline __attribute__((always_inline)) void paeth_pair_sse2(uint8_t *const rows[2], const uint8_t *const raw[2],
                                                                  const uint8_t *prev, size_t length, uint32_t bpp) {
  size_t n = length / bpp;
  if (n == 0) return;
  paeth_pair p = {rows[0], rows[1], raw[0], raw[1], _mm_setzero_si128(), _mm_setzero_si128()};
  pair_start(&p, load_pixel(prev));
  for (size_t i = 0; i + 1 < n; i++) pair_step(&p, i, load_pixel(prev + (i + 1) * bpp), bpp);
  pair_end(&p, n, bpp);
}

/*
 * Four Paeth rows as one wavefront, a pixel of each row in a 4-byte lane of one register, row
 * j in lane j running j pixels behind row 0: at step t lane j finishes row j's pixel t - j,
 * whose left neighbour is the lane's last result, whose upper one the last result of the lane
 * before (row j - 1's pixel t - j) and whose upper left the lane before's upper one of the last
 * step. One step finishes four pixels with 8-bit lanes: the distances are taken saturating
 * (|b - c|, |a - c|, and |a + b - 2c| as their sum or difference by the signs), which decide
 * the same as exact ones: a sum that saturates is larger than both others.
 */
static inline __attribute__((always_inline)) __m128i paeth8(__m128i a, __m128i b, __m128i c) {
  const __m128i zero = _mm_setzero_si128();
  __m128i bc = _mm_subs_epu8(b, c), cb = _mm_subs_epu8(c, b);
  __m128i ac = _mm_subs_epu8(a, c), ca = _mm_subs_epu8(c, a);
  __m128i pa = _mm_or_si128(bc, cb), pb = _mm_or_si128(ac, ca);
  __m128i differ = _mm_xor_si128(_mm_cmpeq_epi8(cb, zero), _mm_cmpeq_epi8(ca, zero));
  __m128i sum = _mm_adds_epu8(pa, pb);
  __m128i diff = _mm_or_si128(_mm_subs_epu8(pa, pb), _mm_subs_epu8(pb, pa));
  __m128i pc = _mm_or_si128(_mm_and_si128(differ, diff), _mm_andnot_si128(differ, sum));
  __m128i smallest = _mm_min_epu8(pc, _mm_min_epu8(pa, pb));
  __m128i use_a = _mm_cmpeq_epi8(smallest, pa), use_b = _mm_cmpeq_epi8(smallest, pb);
  __m128i b_or_c = _mm_or_si128(_mm_and_si128(use_b, b), _mm_andnot_si128(use_b, c));
  return _mm_or_si128(_mm_and_si128(use_a, a), _mm_andnot_si128(use_a, b_or_c));
}

/* A pixel (4 bytes, the last one past a 3-byte pixel) into the low lane, and back. */
static inline __attribute__((always_inline)) __m128i load32(const uint8_t *p) {
  int32_t v;
  memcpy(&v, p, 4);
  return _mm_cvtsi32_si128(v);
}
static inline __attribute__((always_inline)) void store32(uint8_t *p, __m128i v) {
  int32_t x = _mm_cvtsi128_si32(v);
  memcpy(p, &x, 4);
}

/* Four Paeth rows, rows[0] below prev. */
static inline __attribute__((always_inline)) void paeth_wave_sse2(uint8_t *const rows[4], const uint8_t *const raw[4],
                                                                  const uint8_t *prev, size_t length, uint32_t bpp) {
  size_t n = length / bpp;
  __m128i a = _mm_setzero_si128(), b_before = _mm_setzero_si128();
  /* Steps where a lane is outside its row (the first three and the last three): such a lane
   * reads and keeps 0, as the pixels left of a row's first and above-left of it are. */
  for (size_t t = 0; t < n + 3; t = t == 2 && n > 3 ? n : t + 1) {
    __m128i above = t < n ? load32(prev + t * bpp) : _mm_setzero_si128();
    __m128i b = _mm_or_si128(_mm_slli_si128(a, 4), above);
    uint8_t lanes[16] = {0};
    for (size_t j = 0; j < 4; j++)
      if (t >= j && t - j < n) memcpy(lanes + 4 * j, raw[j] + (t - j) * bpp, bpp);
    a = _mm_add_epi8(paeth8(a, b, b_before), _mm_loadu_si128((const __m128i *)(const void *)lanes));
    _mm_storeu_si128((__m128i *)(void *)lanes, a);
    for (size_t j = 0; j < 4; j++) {
      if (t >= j && t - j < n) {
        memcpy(rows[j] + (t - j) * bpp, lanes + 4 * j, bpp);
      } else {
        memset(lanes + 4 * j, 0, 4);
      }
    }
    a = _mm_loadu_si128((const __m128i *)(const void *)lanes);
    b_before = b;
    if (t == 2 && n > 3) {
      /* Every lane inside its row: steps 3 … n - 1, row j at offset (t - j) · bpp. */
      const uint8_t *r0 = raw[0], *r1 = raw[1] - bpp, *r2 = raw[2] - 2 * bpp, *r3 = raw[3] - 3 * bpp;
      uint8_t *w0 = rows[0], *w1 = rows[1] - bpp, *w2 = rows[2] - 2 * bpp, *w3 = rows[3] - 3 * bpp;
      for (size_t o = 3 * bpp; o < n * bpp; o += bpp) {
        b = _mm_or_si128(_mm_slli_si128(a, 4), load32(prev + o));
        __m128i d = _mm_unpacklo_epi64(_mm_unpacklo_epi32(load32(r0 + o), load32(r1 + o)),
                                       _mm_unpacklo_epi32(load32(r2 + o), load32(r3 + o)));
        a = _mm_add_epi8(paeth8(a, b, b_before), d);
        store32(w0 + o, a);
        store32(w1 + o, _mm_srli_si128(a, 4));
        store32(w2 + o, _mm_srli_si128(a, 8));
        store32(w3 + o, _mm_srli_si128(a, 12));
        b_before = b;
      }
    }
  }
}

static inline __attribute__((always_inline)) void average_sse2(uint8_t *row, const uint8_t *raw, const uint8_t *prev,
                                                               size_t length, uint32_t bpp) {
  __m128i a = _mm_setzero_si128();
  for (size_t i = 0; i + bpp <= length; i += bpp) {
    __m128i b = load_pixel(prev + i);
    __m128i d = i + 2 * bpp <= length ? load_pixel(raw + i) : load_last_pixel(raw + i, bpp);
    d = _mm_and_si128(_mm_add_epi16(d, _mm_srli_epi16(_mm_add_epi16(a, b), 1)), _mm_set1_epi16(0xFF));
    store_pixel(row + i, d);
    a = d;
  }
}
#endif

/*
 * Loops that use AVX2, on machines that have it (chosen at run time: the build targets plain
 * x86-64). The wavefront of eight Paeth rows: lane j of a 32-byte register is row j's pixel
 * t - j at step t, as in paeth_wave_sse2; the lanes move up by one across the register's two
 * halves with one permute (the pixel above lane 0 is blended in), and the choices are made as
 * in paeth8, with blends for the selections.
 */
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define HAVE_AVX2_LOOPS 1
#include <immintrin.h>
#define AVX2_INLINE static inline __attribute__((always_inline, target("avx2")))

AVX2_INLINE __m256i paeth8_avx2(__m256i a, __m256i b, __m256i c) {
  const __m256i zero = _mm256_setzero_si256();
  __m256i bc = _mm256_subs_epu8(b, c), cb = _mm256_subs_epu8(c, b);
  __m256i ac = _mm256_subs_epu8(a, c), ca = _mm256_subs_epu8(c, a);
  __m256i pa = _mm256_or_si256(bc, cb), pb = _mm256_or_si256(ac, ca);
  __m256i differ = _mm256_xor_si256(_mm256_cmpeq_epi8(cb, zero), _mm256_cmpeq_epi8(ca, zero));
  __m256i sum = _mm256_adds_epu8(pa, pb);
  __m256i diff = _mm256_or_si256(_mm256_subs_epu8(pa, pb), _mm256_subs_epu8(pb, pa));
  __m256i pc = _mm256_blendv_epi8(sum, diff, differ);
  __m256i smallest = _mm256_min_epu8(pc, _mm256_min_epu8(pa, pb));
  __m256i b_or_c = _mm256_blendv_epi8(c, b, _mm256_cmpeq_epi8(smallest, pb));
  return _mm256_blendv_epi8(b_or_c, a, _mm256_cmpeq_epi8(smallest, pa));
}

AVX2_INLINE int32_t load_i32(const uint8_t *p) {
  int32_t v;
  memcpy(&v, p, 4);
  return v;
}

AVX2_INLINE void store_i32(uint8_t *p, int32_t v) { memcpy(p, &v, 4); }

/* A pixel of each of eight rows at offset o (4 bytes each) into the eight lanes, and back. */
AVX2_INLINE __m256i gather8(const uint8_t *const r[8], size_t o) {
  __m128i low = _mm_cvtsi32_si128(load_i32(r[0] + o));
  low = _mm_insert_epi32(low, load_i32(r[1] + o), 1);
  low = _mm_insert_epi32(low, load_i32(r[2] + o), 2);
  low = _mm_insert_epi32(low, load_i32(r[3] + o), 3);
  __m128i high = _mm_cvtsi32_si128(load_i32(r[4] + o));
  high = _mm_insert_epi32(high, load_i32(r[5] + o), 1);
  high = _mm_insert_epi32(high, load_i32(r[6] + o), 2);
  high = _mm_insert_epi32(high, load_i32(r[7] + o), 3);
  return _mm256_inserti128_si256(_mm256_castsi128_si256(low), high, 1);
}

AVX2_INLINE void scatter8(uint8_t *const w[8], size_t o, __m256i v) {
  __m128i low = _mm256_castsi256_si128(v), high = _mm256_extracti128_si256(v, 1);
  store_i32(w[0] + o, _mm_cvtsi128_si32(low));
  store_i32(w[1] + o, _mm_extract_epi32(low, 1));
  store_i32(w[2] + o, _mm_extract_epi32(low, 2));
  store_i32(w[3] + o, _mm_extract_epi32(low, 3));
  store_i32(w[4] + o, _mm_cvtsi128_si32(high));
  store_i32(w[5] + o, _mm_extract_epi32(high, 1));
  store_i32(w[6] + o, _mm_extract_epi32(high, 2));
  store_i32(w[7] + o, _mm_extract_epi32(high, 3));
}

/* Eight Paeth rows, rows[0] below prev (row j's bytes at rows[j], as inflated at raw[j]). */
AVX2_INLINE void paeth_wave_avx2_bpp(uint8_t *const rows[8], const uint8_t *const raw[8], const uint8_t *prev,
                                     size_t length, uint32_t bpp) {
  size_t n = length / bpp;
  const __m256i up = _mm256_setr_epi32(7, 0, 1, 2, 3, 4, 5, 6);
  __m256i a = _mm256_setzero_si256(), b_before = _mm256_setzero_si256();
  /* Steps where a lane is outside its row (the first seven and the last seven): such a lane
   * reads and keeps 0, as the pixels left of a row's first and above-left of it are. */
  for (size_t t = 0; t < n + 7; t = t == 6 && n > 7 ? n : t + 1) {
    __m256i above = _mm256_castsi128_si256(_mm_cvtsi32_si128(t < n ? load_i32(prev + t * bpp) : 0));
    __m256i b = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(a, up), above, 1);
    uint8_t lanes[32] = {0};
    for (size_t j = 0; j < 8; j++)
      if (t >= j && t - j < n) memcpy(lanes + 4 * j, raw[j] + (t - j) * bpp, bpp);
    a = _mm256_add_epi8(paeth8_avx2(a, b, b_before), _mm256_loadu_si256((const __m256i *)(const void *)lanes));
    _mm256_storeu_si256((__m256i *)(void *)lanes, a);
    for (size_t j = 0; j < 8; j++) {
      if (t >= j && t - j < n) {
        memcpy(rows[j] + (t - j) * bpp, lanes + 4 * j, bpp);
      } else {
        memset(lanes + 4 * j, 0, 4);
      }
    }
    a = _mm256_loadu_si256((const __m256i *)(const void *)lanes);
    b_before = b;
    if (t == 6 && n > 7) {
      /* Every lane inside its row: steps 7 … n - 1, row j at offset (t - j) · bpp. Row j's
       * loads read a byte past a 3-byte pixel only below row 7, into the next row. */
      const uint8_t *r[8];
      uint8_t *w[8];
      for (size_t j = 0; j < 8; j++) {
        r[j] = raw[j] - j * bpp;
        w[j] = rows[j] - j * bpp;
      }
      for (size_t o = 7 * bpp; o < n * bpp; o += bpp) {
        b = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(a, up),
                               _mm256_castsi128_si256(_mm_cvtsi32_si128(load_i32(prev + o))), 1);
        a = _mm256_add_epi8(paeth8_avx2(a, b, b_before), gather8(r, o));
        scatter8(w, o, a);
        b_before = b;
      }
    }
  }
}

/*
 * Sixteen Paeth rows as two eight-row wavefronts in step: rows 8 to 15 (`b`'s register) run
 * eight pixels behind rows 0 to 7, so row 8 takes the pixel above it from row 7's last result,
 * and within a step the two registers do not depend on each other. Each step's chain of
 * dependent instructions is as long as with eight rows, and the processor runs the two side
 * by side: sixteen pixels a step.
 */
AVX2_INLINE void paeth_wave16_avx2_bpp(uint8_t *const rows[16], const uint8_t *const raw[16], const uint8_t *prev,
                                       size_t length, uint32_t bpp) {
  size_t n = length / bpp;
  const __m256i up = _mm256_setr_epi32(7, 0, 1, 2, 3, 4, 5, 6);
  __m256i a0 = _mm256_setzero_si256(), a1 = _mm256_setzero_si256();
  __m256i c0 = _mm256_setzero_si256(), c1 = _mm256_setzero_si256();
  /* Steps where a lane is outside its row (the first fifteen and the last fifteen) go through
   * memory, as in paeth_wave_avx2_bpp. */
  for (size_t t = 0; t < n + 15; t = t == 14 && n > 15 ? n : t + 1) {
    __m256i above = _mm256_castsi128_si256(_mm_cvtsi32_si128(t < n ? load_i32(prev + t * bpp) : 0));
    __m256i moved = _mm256_permutevar8x32_epi32(a0, up);
    __m256i b0 = _mm256_blend_epi32(moved, above, 1);
    __m256i b1 = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(a1, up), moved, 1);
    uint8_t lanes[64] = {0};
    for (size_t j = 0; j < 16; j++)
      if (t >= j && t - j < n) memcpy(lanes + 4 * j, raw[j] + (t - j) * bpp, bpp);
    a0 = _mm256_add_epi8(paeth8_avx2(a0, b0, c0), _mm256_loadu_si256((const __m256i *)(const void *)lanes));
    a1 = _mm256_add_epi8(paeth8_avx2(a1, b1, c1), _mm256_loadu_si256((const __m256i *)(const void *)(lanes + 32)));
    _mm256_storeu_si256((__m256i *)(void *)lanes, a0);
    _mm256_storeu_si256((__m256i *)(void *)(lanes + 32), a1);
    for (size_t j = 0; j < 16; j++) {
      if (t >= j && t - j < n) {
        memcpy(rows[j] + (t - j) * bpp, lanes + 4 * j, bpp);
      } else {
        memset(lanes + 4 * j, 0, 4);
      }
    }
    a0 = _mm256_loadu_si256((const __m256i *)(const void *)lanes);
    a1 = _mm256_loadu_si256((const __m256i *)(const void *)(lanes + 32));
    c0 = b0;
    c1 = b1;
    if (t == 14 && n > 15) {
      /* Every lane inside its row: steps 15 … n - 1. Only row 0's loads reach its last pixel
       * (a byte past a 3-byte pixel is then row 1's filter byte). */
      const uint8_t *r[16];
      uint8_t *w[16];
      for (size_t j = 0; j < 16; j++) {
        r[j] = raw[j] - j * bpp;
        w[j] = rows[j] - j * bpp;
      }
      for (size_t o = 15 * bpp; o < n * bpp; o += bpp) {
        moved = _mm256_permutevar8x32_epi32(a0, up);
        b0 = _mm256_blend_epi32(moved, _mm256_castsi128_si256(_mm_cvtsi32_si128(load_i32(prev + o))), 1);
        b1 = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(a1, up), moved, 1);
        __m256i d0 = gather8(r, o), d1 = gather8(r + 8, o);
        a0 = _mm256_add_epi8(paeth8_avx2(a0, b0, c0), d0);
        a1 = _mm256_add_epi8(paeth8_avx2(a1, b1, c1), d1);
        scatter8(w, o, a0);
        scatter8(w + 8, o, a1);
        c0 = b0;
        c1 = b1;
      }
    }
  }
}

/* Sixteen rows (see paeth_wave16_avx2_bpp). */
__attribute__((target("avx2"))) static void paeth_wave16_avx2(uint8_t *const rows[16], const uint8_t *const raw[16],
                                                              const uint8_t *prev, size_t length, uint32_t bpp) {
  if (bpp == 3) {
    paeth_wave16_avx2_bpp(rows, raw, prev, length, 3);
  } else {
    paeth_wave16_avx2_bpp(rows, raw, prev, length, 4);
  }
}

__attribute__((target("avx2"))) static void paeth_wave_avx2(uint8_t *const rows[8], const uint8_t *const raw[8],
                                                            const uint8_t *prev, size_t length, uint32_t bpp) {
  /* A constant pixel size, so the offsets are known steps. */
  if (bpp == 3) {
    paeth_wave_avx2_bpp(rows, raw, prev, length, 3);
  } else {
    paeth_wave_avx2_bpp(rows, raw, prev, length, 4);
  }
}

static int have_avx2(void) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}
#endif

/* The loops a decode unfilters with: the portable ones, SSE2's, or AVX2's with SSE2's. */
enum { LOOPS_PORTABLE = 0, LOOPS_SSE2 = 1, LOOPS_AVX2 = 2 };

/* This machine's best. */
static int best_loops(void) {
#ifdef HAVE_AVX2_LOOPS
  if (have_avx2()) return LOOPS_AVX2;
#endif
#ifdef __SSE2__
  return LOOPS_SSE2;
#else
  return LOOPS_PORTABLE;
#endif
}

/* Loops a test asked for on this thread (cmd_decode_png_loops), or -1. */
static _Thread_local int forced_loops = -1;

/* Undoes one row's filter; 0 for an unknown filter type. */
static int unfilter(int type, uint8_t *row, const uint8_t *raw, const uint8_t *prev, size_t length, uint32_t bpp,
                    int loops) {
  (void)loops;
  switch (type) {
  case 0: memcpy(row, raw, length); return 1;
  case 1:
    for (size_t i = 0; i < bpp && i < length; i++) row[i] = raw[i];
    for (size_t i = bpp; i < length; i++) row[i] = (uint8_t)(raw[i] + row[i - bpp]);
    return 1;
  case 2:
    for (size_t i = 0; i < length; i++) row[i] = (uint8_t)(raw[i] + prev[i]);
    return 1;
  case 3:
#ifdef __SSE2__
    /* A constant pixel size, so each pixel is one load and one store. */
    if (loops >= LOOPS_SSE2 && bpp == 3 && length % 3 == 0) {
      average_sse2(row, raw, prev, length, 3);
      return 1;
    }
    if (loops >= LOOPS_SSE2 && bpp == 4 && length % 4 == 0) {
      average_sse2(row, raw, prev, length, 4);
      return 1;
    }
#endif
    for (size_t i = 0; i < bpp && i < length; i++) row[i] = (uint8_t)(raw[i] + (prev[i] >> 1));
    for (size_t i = bpp; i < length; i++) row[i] = (uint8_t)(raw[i] + ((row[i - bpp] + prev[i]) >> 1));
    return 1;
  case 4:
#ifdef __SSE2__
    if (loops >= LOOPS_SSE2 && bpp == 3 && length % 3 == 0) {
      paeth_sse2(row, raw, prev, length, 3);
      return 1;
    }
    if (loops >= LOOPS_SSE2 && bpp == 4 && length % 4 == 0) {
      paeth_sse2(row, raw, prev, length, 4);
      return 1;
    }
#endif
    for (size_t i = 0; i < bpp && i < length; i++) row[i] = (uint8_t)(raw[i] + prev[i]);
    for (size_t i = bpp; i < length; i++) row[i] = (uint8_t)(raw[i] + paeth(row[i - bpp], prev[i], prev[i - bpp]));
    return 1;
  default: return 0;
  }
}

/* ---- Rows to the sink -------------------------------------------------------------------- */

/* A row of `count` pixels as 8-bit samples in f->channels (the stored row itself when it is
 * already that). 16-bit samples are scaled as libpng's png_set_scale_16 does. */
static const uint8_t *expand(png_fast *f, const uint8_t *row, uint32_t count) {
  uint8_t *out = f->expanded;
  int d = f->depth;
  if (f->color == 3) {
    uint32_t c = f->channels;
    uint32_t per_byte = 8u / (uint32_t)d, mask = (1u << d) - 1;
    for (uint32_t i = 0; i < count; i++) {
      uint32_t index = d == 8 ? row[i] : (row[i / per_byte] >> (8 - d - (int)(i % per_byte) * d)) & mask;
      memcpy(out + (size_t)i * c, f->palette[index], c);
    }
    return out;
  }
  if (d == 8) return row;
  if (d == 16) {
    size_t samples = (size_t)count * f->samples;
    for (size_t i = 0; i < samples; i++) {
      int32_t high = row[2 * i], low = row[2 * i + 1];
      out[i] = (uint8_t)(high + ((((low - high) + 128) * 65535) >> 24));
    }
    return out;
  }
  /* Gray of 1, 2 or 4 bits, spread over 0 … 255. */
  uint32_t per_byte = 8u / (uint32_t)d, mask = (1u << d) - 1, scale = 255u / mask;
  for (uint32_t i = 0; i < count; i++)
    out[i] = (uint8_t)(((row[i / per_byte] >> (8 - d - (int)(i % per_byte) * d)) & mask) * scale);
  return out;
}

/* Bytes of a row of `count` pixels as stored. */
static size_t row_bytes(const png_fast *f, uint32_t count) {
  return ((size_t)count * f->samples * (size_t)f->depth + 7) / 8;
}

/* The CRC of a chunk's type and its next `length` bytes, read from the source. */
static int crc_of(png_fast *f, uint32_t type, uint32_t length, uint32_t *crc) {
  uint8_t type_bytes[4] = {(uint8_t)(type >> 24), (uint8_t)(type >> 16), (uint8_t)(type >> 8), (uint8_t)type};
  *crc = (uint32_t)crc32(0, type_bytes, 4);
  cmd_source *s = f->source;
  while (length > 0) {
    if (s->available == 0 && cmd_source_fill(s) == 0) return fail(f, CMD_ERR_TRUNCATED, "read beyond end of data");
    size_t take = s->available < length ? s->available : length;
    *crc = (uint32_t)crc32(*crc, s->next, (uInt)take);
    s->next += take;
    s->available -= take;
    length -= (uint32_t)take;
  }
  return CMD_OK;
}

/* After the last row: the rest of the image data and the chunks up to IEND, as libpng's
 * png_read_end reads them (CRCs of the image data checked, the file must be whole). */
static int read_to_end(png_fast *f) {
  for (;;) {
    if (f->feed_status != CMD_OK) return fail(f, f->feed_status, f->feed_message);
    if (f->idat_left > 0) {
      cmd_source *s = f->source;
      if (s->available == 0 && cmd_source_fill(s) == 0) return fail(f, CMD_ERR_TRUNCATED, "read beyond end of data");
      size_t take = s->available < f->idat_left ? s->available : f->idat_left;
      f->crc = crc_update(f, f->crc, s->next, take);
      s->next += take;
      s->available -= take;
      f->idat_left -= (uint32_t)take;
      continue;
    }
    if (!next_idat(f) && f->idat_over) break;
  }
  uint32_t length = f->after_length, type = f->after_type;
  for (;;) {
    if (length > 0x7FFFFFFFu) return fail(f, CMD_ERR_CORRUPT, "PNG unsigned integer out of range");
    if (!chunk_name_valid(type)) return fail(f, CMD_ERR_CORRUPT, "invalid chunk type");
    if (!(type & 0x20000000u)) {
      /* A critical chunk (IEND): its CRC is checked, as libpng does. */
      uint32_t crc = 0;
      int status = crc_of(f, type, length, &crc);
      if (status != CMD_OK) return status;
      uint8_t crc_bytes[4];
      if (cmd_source_read(f->source, crc_bytes, 4) != 4) return fail(f, CMD_ERR_TRUNCATED, "read beyond end of data");
      if (be32(crc_bytes) != crc) return fail(f, CMD_ERR_CORRUPT, "CRC error");
    } else if (cmd_source_skip(f->source, (size_t)length + 4) != (size_t)length + 4) {
      return fail(f, CMD_ERR_TRUNCATED, "read beyond end of data");
    }
    if (type == CHUNK_IEND) return CMD_OK;
    if (!read_header(f, &length, &type)) return fail(f, CMD_ERR_TRUNCATED, "read beyond end of data");
  }
}

/* Row r of a pass (of the picture when it is not interlaced) to the sink: an interlaced row
 * lands on the grid of the passes read, gx × gy pixels a grid pixel. */
static void send_row(png_fast *f, cmd_sink *sink, int pass, uint32_t r, uint32_t first_row, uint32_t gx,
                     uint32_t gy, const uint8_t *row, uint32_t count) {
  if (!f->interlaced) {
    if (r >= first_row) cmd_sink_row(sink, r, 0, 1, expand(f, row, count), count);
    return;
  }
  uint32_t y = pass_y0[pass] + r * pass_dy[pass];
  cmd_sink_row(sink, y / gy, pass_x0[pass] / gx, pass_dx[pass] / gx, expand(f, row, count), count);
}

static int decode_rows(png_fast *f, const cmd_limits *limits, cmd_sink *sink, cmd_image *out) {
  /* The passes the sink needs: an interlaced picture stops at the first grid that covers it. */
  int passes = 1;
  uint32_t width = f->width, height = f->height, gx = 1, gy = 1;
  if (f->interlaced) {
    uint32_t need_w, need_h;
    cmd_sink_need(sink, f->width, f->height, &need_w, &need_h);
    passes = 7;
    for (int p = 0; p < 7; p++) {
      uint32_t w = (f->width + grid_x[p] - 1) / grid_x[p], h = (f->height + grid_y[p] - 1) / grid_y[p];
      if (w >= need_w && h >= need_h) {
        passes = p + 1;
        break;
      }
    }
    gx = grid_x[passes - 1];
    gy = grid_y[passes - 1];
    width = (f->width + gx - 1) / gx;
    height = (f->height + gy - 1) / gy;
  }
  int status = cmd_sink_begin(sink, width, height, f->channels, !f->interlaced || passes == 1, f->err, f->errlen);
  if (status != CMD_OK) return status;
  uint32_t first_row = 0, last_row = height;
  if (!f->interlaced) {
    cmd_sink_rows(sink, &first_row, &last_row);
    if (last_row > height) last_row = height;
  }

  size_t widest = row_bytes(f, f->width) + 1;
  size_t expanded = (size_t)f->width * 4;
  f->rows = malloc(LINES * (widest + ROW_PADDING) + expanded + ROW_PADDING);
  if (f->rows == NULL) return fail(f, CMD_ERR_NO_MEMORY, "no memory for a row");
  for (int i = 0; i < LINES; i++) f->line[i] = f->rows + (size_t)i * (widest + ROW_PADDING);
  f->expanded = f->rows + LINES * (widest + ROW_PADDING);

  f->inflater = cmd_inflate_new(16 * widest, fill_idat, f);
  if (f->inflater == NULL) return fail(f, CMD_ERR_NO_MEMORY, "no memory for the inflater");
  uint64_t deadline = cmd_deadline(limits->max_millis);
  uint32_t rows_read = 0;
  int whole = 1;
  for (int pass = 0; pass < passes; pass++) {
    uint32_t pass_w = f->interlaced ? (f->width - pass_x0[pass] + pass_dx[pass] - 1) / pass_dx[pass] : f->width;
    uint32_t pass_h = f->interlaced ? (f->height - pass_y0[pass] + pass_dy[pass] - 1) / pass_dy[pass] : f->height;
    if (f->width <= pass_x0[pass] || f->height <= pass_y0[pass] || pass_w == 0 || pass_h == 0) continue;
    size_t bytes = row_bytes(f, pass_w), stride = bytes + 1;
    memset(f->line[0], 0, stride);
    uint32_t rows = f->interlaced ? pass_h : last_row;
    /* Large image data inflates on a second thread (raw_rows and rows_done). */
    if (!f->interlaced && (uint64_t)rows * stride >= PIPE_MIN_BYTES)
      pipe_start(f, rows, stride, limits->max_millis);
    for (uint32_t r = 0; r < rows;) {
      const uint8_t *raw;
      status = raw_rows(f, 1, stride, &raw);
      if (status != CMD_OK) return status;
      /* A run of Paeth rows (up to eight with AVX2, else four) is unfiltered together;
       * anything else one by one. */
      int run = 1;
#ifdef __SSE2__
      if (raw[0] == 4 && (f->bpp == 3 || f->bpp == 4) && f->loops >= LOOPS_SSE2) {
        int longest = f->loops >= LOOPS_AVX2 ? 16 : 4;
        while (run < longest && r + (uint32_t)run < rows) {
          const uint8_t *more;
          /* Rows further on that are not at hand are read one by one (their error then). */
          if (raw_rows(f, (uint32_t)run + 1, stride, &more) != CMD_OK) break;
          raw = more;
          if (raw[(size_t)run * stride] != 4) break;
          run++;
        }
        run = run >= 16 ? 16 : run >= 8 ? 8 : run >= 4 ? 4 : run >= 2 ? 2 : 1;
        uint8_t *group[16];
        const uint8_t *group_raw[16];
        for (int i = 0; i < run; i++) {
          group[i] = f->line[1 + i] + 1;
          group_raw[i] = raw + (size_t)i * stride + 1;
        }
        const uint8_t *above = f->line[0] + 1;
#ifdef HAVE_AVX2_LOOPS
        if (run == 16) paeth_wave16_avx2(group, group_raw, above, bytes, f->bpp);
        if (run == 8) paeth_wave_avx2(group, group_raw, above, bytes, f->bpp);
#endif
        if (run == 4) {
          if (f->bpp == 3) {
            paeth_wave_sse2(group, group_raw, above, bytes, 3);
          } else {
            paeth_wave_sse2(group, group_raw, above, bytes, 4);
          }
        } else if (run == 2) {
          if (f->bpp == 3) {
            paeth_pair_sse2(group, group_raw, above, bytes, 3);
          } else {
            paeth_pair_sse2(group, group_raw, above, bytes, 4);
          }
        }
      }
#endif
      if (run == 1 && !unfilter(raw[0], f->line[1] + 1, raw + 1, f->line[0] + 1, bytes, f->bpp, f->loops))
        return fail(f, CMD_ERR_CORRUPT, "bad adaptive filter value");
      rows_done(f, (uint32_t)run, stride);
      for (int i = 1; i <= run; i++) send_row(f, sink, pass, r + (uint32_t)(i - 1), first_row, gx, gy, f->line[i] + 1, pass_w);
      /* The last row done becomes the row above. */
      uint8_t *old[LINES];
      memcpy(old, f->line, sizeof old);
      for (int i = 0; i < LINES; i++) f->line[i] = old[(i + run) % LINES];
      r += (uint32_t)run;
      rows_read += (uint32_t)run;
      if ((rows_read & 31) < (uint32_t)run && cmd_past(deadline)) {
        cmd_set_error(f->err, f->errlen, "PNG decoding ran out of time");
        return CMD_ERR_TIMEOUT;
      }
    }
    if (!f->interlaced && last_row < f->height) whole = 0;
  }
  /* The inflating thread has handed over every row: the file is read on here. */
  pipe_end(f);
  /* Passes after the ones read that hold pixels (a picture one row high has no seventh). */
  for (int pass = passes; f->interlaced && pass < 7; pass++) {
    if (f->width > pass_x0[pass] && f->height > pass_y0[pass]) whole = 0;
  }
  /* A picture read to its last row is checked to its end, as libpng did; one whose last rows
   * or passes the sink did not need stops here. */
  if (whole) {
    status = read_to_end(f);
    if (status != CMD_OK) return status;
  }
  out->source_width = f->width;
  out->source_height = f->height;
  out->scale_num = 1;
  out->scale_denom = 1;
  out->scans = (uint32_t)(f->interlaced ? passes : 1);
  out->format = CMD_FORMAT_PNG;
  return CMD_OK;
}

int cmd_decode_png_fast(cmd_source *source, const cmd_limits *limits, cmd_sink *sink, cmd_image *out,
                        char *err, size_t errlen) {
  png_fast *f = calloc(1, sizeof *f);
  if (f == NULL) {
    cmd_set_error(err, errlen, "PNG: no memory for the decoder");
    return CMD_ERR_NO_MEMORY;
  }
  f->source = source;
  f->err = err;
  f->errlen = errlen;
  f->loops = forced_loops >= 0 ? forced_loops : best_loops();
  /* A reducer told to run without AVX2 (cmd_decode_scaled_loops) keeps the decoder without it. */
  if (f->loops == LOOPS_AVX2 && !cmd_sink_is_full(sink) && !cmd_sink_avx2(sink)) f->loops = LOOPS_SSE2;
#ifdef HAVE_PCLMUL_CRC
  /* The portable loops (a test's) check CRCs with zlib, as other machines do. */
  f->fast_crc = f->loops != LOOPS_PORTABLE && have_pclmul();
#endif
  int status = read_chunks(f);
  if (status == CMD_OK) status = decode_rows(f, limits, sink, out);
  /* A decode that failed or ran out of time stops the inflating thread here. */
  pipe_end(f);
  cmd_inflate_free(f->inflater);
  free(f->rows);
  free(f);
  return status;
}

int cmd_decode_png_loops(const uint8_t *bytes, size_t len, const cmd_limits *limits, int loops, cmd_image *out,
                         char *err, size_t errlen) {
  if (out != NULL) memset(out, 0, sizeof *out);
  int usable = loops == LOOPS_PORTABLE;
#ifdef __SSE2__
  usable = usable || loops == LOOPS_SSE2;
#endif
#ifdef HAVE_AVX2_LOOPS
  usable = usable || (loops == LOOPS_AVX2 && have_avx2());
#endif
  if (!usable) {
    cmd_set_error(err, errlen, "this machine has no unfiltering loops %d", loops);
    return CMD_ERR_UNSUPPORTED;
  }
  forced_loops = loops;
  int status = cmd_decode(bytes, len, limits, 0, 0, out, err, errlen);
  forced_loops = -1;
  return status;
}

/* A JPEG at 1/8 scale from its DC coefficients, without libjpeg.
 *
 * At 1/8 scale every 8 × 8 block becomes one pixel whose value is the block's DC coefficient
 * (libjpeg's 1 × 1 inverse DCT), so nothing else is needed:
 *  - baseline and extended Huffman files: the DC difference of each block is decoded and its
 *    AC coefficients are skipped, several Huffman codes at a time, with a lookup table that
 *    gives the bits and coefficient positions they take;
 *  - progressive Huffman files: the DC scans are decoded (first scans and refinements) and the
 *    AC scans are skipped by looking for the next marker, so a progressive file costs less than
 *    a baseline one and needs no whole-image coefficient buffer.
 * Memory is one 16-bit coefficient per block. Chroma is replicated and converted to RGB with
 * libjpeg's own integer arithmetic, so the pixels are libjpeg's at scale 1/8.
 *
 * Anything else (arithmetic coding, 12-bit samples, CMYK, RGB-coded or DNL files, odd sampling
 * ratios) returns CMD_FALLBACK before a row reaches the sink, and libjpeg decodes the file.
 * Every read is bounds-checked; errors, truncation, the scan cap and the time budget end the
 * decode with the same kinds of error libjpeg's path reports. */
#include "cmd_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SSE2__) && defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define CMD_JPEG_AVX2 1
#include <immintrin.h>
#endif

/* The bit reader's steps run per Huffman code: they must not cost a call. */
#define HOT static inline __attribute__((always_inline))

enum {
  FAST_BITS = 9,   /* one lookup decodes codes up to this long */
  SKIP_BITS = 14,  /* one lookup skips AC codes (with their extra bits) within this many bits */
  DIRECT_BITS = 10, /* one lookup gives a DC difference whose code and bits fit in this many */
  MAX_COMPONENTS = 3,
  SEGMENT_MAX = 65535,
};

typedef struct huff_table {
  int defined;
  int32_t maxcode[18]; /* largest code of each length, -1 for none */
  int32_t valptr[17];  /* index of the first symbol of each length */
  int32_t mincode[17];
  uint8_t symbols[256];
  uint16_t fast[1 << FAST_BITS]; /* (length << 8) | symbol; 0 when longer */
  /* AC skipping: one entry for every SKIP_BITS pattern (build_skip). Built on first use. */
  uint16_t *skip;
  /* DC: for every DIRECT_BITS pattern, the difference × 256 + the bits it takes, 0 when they
   * do not fit (build_direct). */
  int direct_built;
  int32_t direct[1 << DIRECT_BITS];
} huff_table;

typedef struct component {
  int id;
  int h, v;     /* sampling factors */
  int quant;    /* quantization table */
  uint32_t bw, bh;   /* blocks that hold picture */
  uint32_t pbw, pbh; /* blocks including the padding of whole MCUs */
  int16_t *dc;       /* pbw × pbh coefficients */
  int dc_table, ac_table;
  int32_t pred;
  int dc_started; /* a progressive first DC scan has been read */
} component;

typedef struct bit_reader {
  /* The source's bytes at hand, copied here while a scan is decoded (reader_load) and handed
   * back before anything else reads the source (reader_store). */
  const uint8_t *next, *end;
  /* While next <= fast_end, the eight bytes from next hold no 0xFF (found once with memchr), so
   * a refill is one load; 0 when the next refill must go byte by byte. */
  uintptr_t fast_end;
  const uint8_t *ff; /* the next 0xFF at hand (NULL: none), which fast_end stops before */
  /* Bytes from mark to next are all data bytes, counted into `loaded` lazily (reader_sync). */
  const uint8_t *mark;
  cmd_source *source;
  uint64_t buffer; /* next bits, most significant first */
  uint64_t loaded; /* bytes put into buffer before mark (stuffing removed) */
  int bits;
  int marker;    /* a marker met inside the entropy data (0: none) */
  int fake_bits; /* zero bits added after a marker or the end of the file */
  int ended;
  /* A source offset to count the data bytes before (the second thread's start): the fast refill
   * stops short of it, and the byte-by-byte refill notes `loaded` there. */
  int watching;
  uint64_t watch_offset;
  const uint8_t *watch; /* it, among the bytes at hand (NULL: not there) */
  int64_t watched;      /* the data bytes before it, once passed (-1 until then) */
} bit_reader;

typedef struct dc_decoder {
  cmd_source *source;
  const cmd_limits *limits;
  uint64_t deadline;
  uint32_t budget_ms; /* each thread gets this much of its own CPU time (cmd_deadline) */
  char *err;
  size_t errlen;
  uint8_t *segment;
  huff_table dc[4], ac[4];
  uint16_t quant[4]; /* the DC entry of each quantization table */
  int quant_defined[4];
  int progressive;
  int frame;
  uint32_t width, height;
  int ncomp;
  component comp[MAX_COMPONENTS];
  int hmax, vmax;
  uint32_t mcux, mcuy;
  uint32_t restart_interval;
  uint32_t scans;
  bit_reader reader;
} dc_decoder;

static int fail(dc_decoder *d, int status, const char *message) {
  cmd_set_error(d->err, d->errlen, "JPEG: %s", message);
  return status;
}

/* ---- Huffman tables ---------------------------------------------------------------------- */

static int build_table(huff_table *t, const uint8_t counts[16], const uint8_t *symbols, int n) {
  free(t->skip);
  memset(t, 0, sizeof *t);
  memcpy(t->symbols, symbols, (size_t)n);
  int32_t code = 0;
  int k = 0;
  for (int length = 1; length <= 16; length++) {
    t->valptr[length] = k;
    t->mincode[length] = code;
    for (int i = 0; i < counts[length - 1]; i++, k++, code++) {
      /* A canonical code never needs more codes than its length allows; checked before the
       * code is written, as the fast table has room only for codes that fit (a table with 200
       * one-bit codes wrote past it, over the decoder's other fields: found by fuzzing). */
      if (code >= (1 << length)) return 0;
      if (length <= FAST_BITS) {
        int shift = FAST_BITS - length;
        for (int j = 0; j < (1 << shift); j++)
          t->fast[(code << shift) | j] = (uint16_t)((length << 8) | symbols[k]);
      }
    }
    t->maxcode[length] = counts[length - 1] ? code - 1 : -1;
    code <<= 1;
  }
  t->maxcode[17] = 0x7FFFFFFF;
  t->defined = 1;
  return 1;
}

/* The symbol at the top of a bit pattern of `width` bits, and its length; -1 for none. */
static int pattern_symbol(const huff_table *t, uint32_t pattern, int width, int *length) {
  /* Codes up to FAST_BITS long from the fast table (a third of the table build's time). */
  uint32_t top = width >= FAST_BITS ? pattern >> (width - FAST_BITS) : pattern << (FAST_BITS - width);
  uint32_t entry = t->fast[top];
  if (entry != 0) {
    if ((int)(entry >> 8) > width) return -1;
    *length = (int)(entry >> 8);
    return (int)(entry & 0xFF);
  }
  for (int l = FAST_BITS + 1; l <= 16 && l <= width; l++) {
    int32_t code = (int32_t)(pattern >> (width - l));
    if (t->maxcode[l] >= 0 && code <= t->maxcode[l] && code >= t->mincode[l]) {
      *length = l;
      return t->symbols[t->valptr[l] + code - t->mincode[l]];
    }
  }
  return -1;
}

/* Skip-table entries: bits taken (bits 0-5, so a shift by the entry takes them) and `step`
 * (bits 6-14): `need` (below) plus 256 when the codes end with an end of block. */
enum { SKIP_EOB = 256, SKIP_NONE = 127 + SKIP_EOB };

/* For every SKIP_BITS pattern: the whole AC codes (code and extra bits) at its start, up to and
 * including an end of block. `need` is the coefficients they advance plus one for an end of
 * block: the entry is used whole when k + need <= 64, so an end of block is not mistaken for the
 * next block's DC code and codes never run past coefficient 63. A pattern that starts with no
 * whole code gets SKIP_NONE, which no k passes.
 *
 * Built by width, shortest first: a pattern's entry is its first code followed by the entry of
 * the narrower pattern left after it (one lookup each, not a walk code by code). */
static int build_skip(huff_table *t) {
  t->skip = malloc(sizeof(uint16_t) << SKIP_BITS);
  /* The tables of widths 0 … SKIP_BITS − 1, width w at offset 2^w − 1. */
  uint16_t *narrow = malloc(sizeof(uint16_t) << SKIP_BITS);
  if (t->skip == NULL || narrow == NULL) {
    free(narrow);
    return 0;
  }
  for (int width = 0; width <= SKIP_BITS; width++) {
    uint16_t *row = width == SKIP_BITS ? t->skip : narrow + (1u << width) - 1;
    for (uint32_t pattern = 0; pattern < (1u << width); pattern++) row[pattern] = SKIP_NONE << 6;
    /* Each code (with its extra bits) fills the patterns that start with it. */
    for (int length = 1; length <= 16 && length <= width; length++) {
      for (int32_t code = t->mincode[length]; code <= t->maxcode[length]; code++) {
        int symbol = t->symbols[t->valptr[length] + code - t->mincode[length]];
        int size = symbol & 15, run = symbol >> 4;
        if (size == 0 && run != 15) {
          /* An end of block; libjpeg also ends the block at any other run with size 0. */
          uint32_t from = (uint32_t)code << (width - length), count = 1u << (width - length);
          for (uint32_t i = 0; i < count; i++) row[from + i] = (uint16_t)(length | (1 + SKIP_EOB) << 6);
          continue;
        }
        if (length + size > width) continue;
        int advance = size == 0 ? 16 : run + 1; /* size 0 with run 15: sixteen zeros */
        int rest = width - length - size;
        const uint16_t *after = narrow + (1u << rest) - 1;
        uint32_t single = (uint32_t)(length + size) | (uint32_t)advance << 6;
        for (uint32_t extra = 0; extra < (1u << size); extra++) {
          uint16_t *out = row + ((((uint32_t)code << size) | extra) << rest);
          for (uint32_t i = 0; i < (1u << rest); i++) {
            uint32_t step = (uint32_t)after[i] >> 6;
            uint32_t need = (uint32_t)advance + (step & 255);
            /* A whole block is at most 63 coefficients: codes past that are left to the next
             * lookup. */
            out[i] = (uint16_t)(step != SKIP_NONE && need <= 63
                                    ? (single + (after[i] & 63u)) + ((need - (uint32_t)advance) << 6) +
                                          ((step & SKIP_EOB) << 6)
                                    : single);
          }
        }
      }
    }
  }
  free(narrow);
  return 1;
}

/* DC differences read whole from a pattern's first DIRECT_BITS: code, size and extra bits. */
static void build_direct(huff_table *t) {
  for (uint32_t pattern = 0; pattern < (1u << DIRECT_BITS); pattern++) {
    int length = 0;
    int size = pattern_symbol(t, pattern, DIRECT_BITS, &length);
    int32_t entry = 0;
    if (size >= 0 && size <= 15 && length + size <= DIRECT_BITS) {
      int32_t value = (int32_t)((pattern >> (DIRECT_BITS - length - size)) & ((1u << size) - 1));
      if (size > 0 && value < (1 << (size - 1))) value += 1 - (1 << size);
      entry = value * 256 + length + size;
    }
    t->direct[pattern] = entry;
  }
  t->direct_built = 1;
}

/* ---- Bits -------------------------------------------------------------------------------- */

/* Where the one-load refill must stop: eight bytes before the next 0xFF or the end. */
static void find_fast_end(bit_reader *r) {
  r->fast_end = 0;
  r->ff = NULL;
  if (r->marker != 0 || r->ended) return;
  size_t left = (size_t)(r->end - r->next);
  const uint8_t *ff = left >= 8 ? memchr(r->next, 0xFF, left) : NULL;
  r->ff = ff;
  const uint8_t *stop = ff != NULL ? ff : r->end;
  if (r->watch != NULL && r->watch >= r->next && r->watch < stop) stop = r->watch;
  if (stop - r->next >= 8) r->fast_end = (uintptr_t)(stop - 8);
}

/* Where the reader's next byte is in its source. */
static uint64_t reader_offset(const bit_reader *r) {
  const cmd_source *s = r->source;
  return s->fd >= 0 ? s->file_offset - (uint64_t)(r->end - r->next) : (uint64_t)(r->next - s->memory);
}

/* Finds the watched offset among the bytes at hand, and where the fast refill stops. */
static void find_watch(bit_reader *r) {
  r->watch = NULL;
  if (r->watching) {
    uint64_t at = reader_offset(r);
    if (r->watch_offset >= at && r->watch_offset - at < (uint64_t)(r->end - r->next))
      r->watch = r->next + (r->watch_offset - at);
  }
  find_fast_end(r);
}

/* Notes the data bytes before the watched offset, which the next byte is. */
static void note_watch(bit_reader *r, uint64_t loaded) {
  r->watched = (int64_t)loaded;
  r->watching = 0;
  r->watch = NULL;
}

static void reader_load(bit_reader *r) {
  r->next = r->source->next;
  r->end = r->source->next + r->source->available;
  r->mark = r->next;
  find_watch(r);
}

/* Counts the bytes taken since the mark into `loaded`. */
static void reader_sync(bit_reader *r) {
  r->loaded += (uint64_t)(r->next - r->mark);
  r->mark = r->next;
}

static void reader_store(bit_reader *r) {
  reader_sync(r);
  r->source->next = r->next;
  r->source->available = (size_t)(r->end - r->next);
}

/* The next byte, or -1 at the end (fill_slow counts `loaded` itself). */
static int reader_byte(bit_reader *r) {
  if (r->next == r->end) {
    r->source->next = r->next;
    r->source->available = 0;
    if (cmd_source_fill(r->source) == 0) return -1;
    reader_load(r);
  }
  if (r->next == r->watch) note_watch(r, r->loaded);
  return *r->next++;
}

/* A refill a byte at a time: stuffed zeros, markers, the end of the bytes at hand. */
static void fill_slow(bit_reader *r) {
  reader_sync(r);
  if (r->marker == 0 && !r->ended) {
    /* Data bytes and stuffed 0xFFs inside the bytes at hand, in locals. */
    uint64_t buffer = r->buffer, loaded = r->loaded;
    int bits = r->bits;
    const uint8_t *next = r->next;
    while (bits < 56 && r->end - next >= 2) {
      if (next == r->watch) note_watch(r, loaded);
      uint8_t c = next[0];
      if (c == 0xFF) {
        if (next[1] != 0) break;
        next++;
      }
      next++;
      buffer |= (uint64_t)c << (56 - bits);
      bits += 8;
      loaded++;
    }
    r->buffer = buffer, r->bits = bits, r->next = next, r->loaded = loaded;
  }
  while (r->bits < 56) {
    int c = 0;
    if (r->marker != 0 || r->ended) {
      r->fake_bits += 8;
    } else {
      c = reader_byte(r);
      if (c < 0) {
        r->ended = 1;
        r->fake_bits += 8;
        c = 0;
      } else if (c == 0xFF) {
        int next;
        do next = reader_byte(r);
        while (next == 0xFF);
        if (next == 0) {
          c = 0xFF;
        } else {
          if (next < 0) {
            r->ended = 1;
          } else {
            r->marker = next;
          }
          r->fake_bits += 8;
          c = 0;
        }
      }
    }
    r->buffer |= (uint64_t)c << (56 - r->bits);
    r->bits += 8;
    r->loaded++;
  }
  r->mark = r->next; /* the bytes taken here are counted */
  find_fast_end(r);
}

/* A refill that meets a 0xFF: a stuffed one (0xFF 0x00) within the next eight bytes is taken
 * by one load with the zero cut out; anything else goes byte by byte. Bits below the ones
 * counted must be the next data bits or zeros (a later refill ORs over them), so the load is cut
 * at the next 0xFF. */
static void refill_stuffed(bit_reader *r) {
  const uint8_t *next = r->next, *ff = r->ff;
  if (ff == NULL || ff < next || ff - next >= 8 || r->end - next < 10 || ff[1] != 0 ||
      (r->watch != NULL && r->watch - next < 10)) {
    fill_slow(r);
    return;
  }
  uint64_t word;
  memcpy(&word, next, 8);
  word = __builtin_bswap64(word);
  int through = (int)(ff - next) + 1; /* bytes up to the 0xFF, it included: 1 … 8 */
  int bytes = (63 - r->bits) >> 3;
  if (bytes < through) {
    /* The 0xFF is not reached: what follows it is left out. */
    if (through < 8) word &= ~0ull << (64 - 8 * through);
    r->buffer |= word >> r->bits;
    r->bits |= 56;
    r->next = next + bytes;
    return;
  }
  /* Past the 0xFF: data bytes up to the next 0xFF, the zero cut out. */
  const uint8_t *after = ff + 2;
  const uint8_t *following = memchr(after, 0xFF, (size_t)(r->end - after));
  int safe = through + (following == NULL || following - after >= 8 ? 8 : (int)(following - after));
  if (safe < bytes) {
    fill_slow(r);
    return;
  }
  if (through < 8) {
    uint64_t kept = ~0ull << (64 - 8 * through);
    word = (word & kept) | ((word << 8) & ~kept);
  }
  if (safe < 8) word &= ~0ull << (64 - 8 * safe);
  r->buffer |= word >> r->bits;
  r->bits |= 56;
  r->next = next + bytes + 1;
  r->mark++; /* the zero: `loaded` counts data bytes */
  r->ff = following;
  const uint8_t *stop = following != NULL ? following : r->end;
  if (r->watch != NULL && r->watch >= r->next && r->watch < stop) stop = r->watch;
  r->fast_end = stop - r->next >= 8 ? (uintptr_t)(stop - 8) : 0;
}

/* At least 32 bits at hand (56 or more after a refill): seven or eight bytes by one load when
 * none of the next eight is 0xFF. The bits below the ones counted are the next byte's own, so a
 * later refill ORs the same values. */
#define REFILL(B, N, P, R)                                                                         \
  do {                                                                                             \
    if ((N) < 32) {                                                                                \
      if ((uintptr_t)(P) <= (R)->fast_end) {                                                       \
        uint64_t word_;                                                                            \
        memcpy(&word_, (P), 8);                                                                    \
        (B) |= __builtin_bswap64(word_) >> (N);                                                    \
        (P) += (63 - (N)) >> 3;                                                                    \
        (N) |= 56;                                                                                 \
      } else {                                                                                     \
        (R)->buffer = (B), (R)->bits = (N), (R)->next = (P);                                       \
        refill_stuffed(R);                                                                         \
        (B) = (R)->buffer, (N) = (R)->bits, (P) = (R)->next;                                       \
      }                                                                                            \
    }                                                                                              \
  } while (0)

HOT void fill(bit_reader *r) { REFILL(r->buffer, r->bits, r->next, r); }

HOT uint32_t peek(const bit_reader *r, int n) { return (uint32_t)(r->buffer >> (64 - n)); }

HOT void drop(bit_reader *r, int n) {
  r->buffer <<= n;
  r->bits -= n;
}

/* Throws away the bits at hand (the padding before a marker). */
static void reset_bits(bit_reader *r) {
  r->buffer = 0;
  r->bits = 0;
  r->fake_bits = 0;
}

/* Whether decoding used bits that were never in the file. */
HOT int overran(const bit_reader *r) { return r->bits < r->fake_bits; }

/* A Huffman symbol (the caller filled first), or -1 for a code the table does not have. */
HOT int decode_symbol(bit_reader *r, const huff_table *t) {
  uint32_t entry = t->fast[peek(r, FAST_BITS)];
  if (entry != 0) {
    drop(r, (int)(entry >> 8));
    return (int)(entry & 0xFF);
  }
  for (int l = FAST_BITS + 1; l <= 16; l++) {
    int32_t code = (int32_t)peek(r, l);
    if (t->maxcode[l] >= 0 && code <= t->maxcode[l]) {
      drop(r, l);
      return t->symbols[t->valptr[l] + code - t->mincode[l]];
    }
  }
  return -1;
}

/* A DC difference of `size` bits, sign-extended as in section F.2.2.1. */
HOT int receive_extend(bit_reader *r, int size) {
  if (size == 0) return 0;
  int value = (int)peek(r, size);
  drop(r, size);
  return value < (1 << (size - 1)) ? value - (1 << size) + 1 : value;
}

/* ---- Markers ----------------------------------------------------------------------------- */

/* The next marker: the one met inside entropy data, or the next 0xFF xx in the file (other
 * bytes before it are skipped). -1 at the end of the file. With `skip_restarts`, restart
 * markers are passed over (skipping an AC scan). */
static int next_marker(dc_decoder *d, int skip_restarts) {
  bit_reader *r = &d->reader;
  if (r->marker != 0) {
    int marker = r->marker;
    r->marker = 0;
    if (!(skip_restarts && marker >= 0xD0 && marker <= 0xD7)) return marker;
  }
  cmd_source *s = d->source;
  for (;;) {
    if (s->available == 0 && cmd_source_fill(s) == 0) return -1;
    const uint8_t *ff = memchr(s->next, 0xFF, s->available);
    if (ff == NULL) {
      s->next += s->available;
      s->available = 0;
      continue;
    }
    s->available -= (size_t)(ff + 1 - s->next);
    s->next = ff + 1;
    int code;
    do code = cmd_source_byte(s);
    while (code == 0xFF);
    if (code < 0) return -1;
    if (code == 0) continue; /* stuffed data */
    if (skip_restarts && code >= 0xD0 && code <= 0xD7) continue;
    return code;
  }
}

/* A marker segment's body into d->segment and its length; CMD_OK or an error (set). */
static int read_segment(dc_decoder *d, int *length) {
  uint8_t length_bytes[2];
  if (cmd_source_read(d->source, length_bytes, 2) != 2)
    return fail(d, CMD_ERR_TRUNCATED, "Premature end of JPEG file");
  *length = (length_bytes[0] << 8 | length_bytes[1]) - 2;
  if (*length < 0) return fail(d, CMD_ERR_CORRUPT, "a marker segment has a bad length");
  if (cmd_source_read(d->source, d->segment, (size_t)*length) != (size_t)*length)
    return fail(d, CMD_ERR_TRUNCATED, "Premature end of JPEG file");
  return CMD_OK;
}

static int skip_segment(dc_decoder *d) {
  uint8_t length_bytes[2];
  if (cmd_source_read(d->source, length_bytes, 2) != 2)
    return fail(d, CMD_ERR_TRUNCATED, "Premature end of JPEG file");
  int length = (length_bytes[0] << 8 | length_bytes[1]) - 2;
  if (length < 0) return fail(d, CMD_ERR_CORRUPT, "a marker segment has a bad length");
  if (cmd_source_skip(d->source, (size_t)length) != (size_t)length)
    return fail(d, CMD_ERR_TRUNCATED, "Premature end of JPEG file");
  return CMD_OK;
}

static int read_dht(dc_decoder *d) {
  int length;
  int status = read_segment(d, &length);
  if (status != CMD_OK) return status;
  const uint8_t *p = d->segment;
  while (length > 0) {
    if (length < 17) return fail(d, CMD_ERR_CORRUPT, "a Huffman table is cut short");
    int cls = p[0] >> 4, index = p[0] & 15;
    int total = 0;
    for (int i = 0; i < 16; i++) total += p[1 + i];
    if (cls > 1 || index > 3 || total > 256 || 17 + total > length)
      return fail(d, CMD_ERR_CORRUPT, "a Huffman table is invalid");
    huff_table *t = cls == 0 ? &d->dc[index] : &d->ac[index];
    if (!build_table(t, p + 1, p + 17, total))
      return fail(d, CMD_ERR_CORRUPT, "a Huffman table is invalid");
    p += 17 + total;
    length -= 17 + total;
  }
  return CMD_OK;
}

static int read_dqt(dc_decoder *d) {
  int length;
  int status = read_segment(d, &length);
  if (status != CMD_OK) return status;
  const uint8_t *p = d->segment;
  while (length > 0) {
    int precision = p[0] >> 4, index = p[0] & 15;
    int size = precision ? 129 : 65;
    if (precision > 1 || index > 3 || size > length)
      return fail(d, CMD_ERR_CORRUPT, "a quantization table is invalid");
    /* Entry 0, in zigzag order, is the DC one. */
    d->quant[index] = precision ? (uint16_t)(p[1] << 8 | p[2]) : p[1];
    d->quant_defined[index] = 1;
    p += size;
    length -= size;
  }
  return CMD_OK;
}

static int read_frame(dc_decoder *d, int marker) {
  int length;
  int status = read_segment(d, &length);
  if (status != CMD_OK) return status;
  const uint8_t *p = d->segment;
  if (d->frame) return fail(d, CMD_ERR_CORRUPT, "the file has two frame headers");
  if (length < 6) return fail(d, CMD_ERR_CORRUPT, "the frame header is cut short");
  d->frame = 1;
  d->progressive = marker == 0xC2;
  d->height = (uint32_t)(p[1] << 8 | p[2]);
  d->width = (uint32_t)(p[3] << 8 | p[4]);
  d->ncomp = p[5];
  if (p[0] != 8 || d->height == 0 || (d->ncomp != 1 && d->ncomp != 3)) return CMD_FALLBACK;
  if (length < 6 + 3 * d->ncomp) return fail(d, CMD_ERR_CORRUPT, "the frame header is cut short");
  status = cmd_check_size(d->width, d->height, d->limits, d->err, d->errlen);
  if (status != CMD_OK) return status;
  d->hmax = d->vmax = 1;
  for (int c = 0; c < d->ncomp; c++) {
    component *comp = &d->comp[c];
    comp->id = p[6 + 3 * c];
    comp->h = p[7 + 3 * c] >> 4;
    comp->v = p[7 + 3 * c] & 15;
    comp->quant = p[8 + 3 * c];
    if (comp->h < 1 || comp->h > 4 || comp->v < 1 || comp->v > 4 || comp->quant > 3)
      return fail(d, CMD_ERR_CORRUPT, "a component has bad sampling factors");
    if (comp->h > d->hmax) d->hmax = comp->h;
    if (comp->v > d->vmax) d->vmax = comp->v;
  }
  for (int c = 0; c < d->ncomp; c++) {
    component *comp = &d->comp[c];
    /* Chroma is replicated, so the ratios must be whole. */
    if (d->hmax % comp->h != 0 || d->vmax % comp->v != 0) return CMD_FALLBACK;
  }
  d->mcux = (d->width + 8u * d->hmax - 1) / (8u * d->hmax);
  d->mcuy = (d->height + 8u * d->vmax - 1) / (8u * d->vmax);
  uint64_t total = 0;
  for (int c = 0; c < d->ncomp; c++) {
    component *comp = &d->comp[c];
    comp->bw = (uint32_t)(((uint64_t)d->width * comp->h + 8u * d->hmax - 1) / (8u * d->hmax));
    comp->bh = (uint32_t)(((uint64_t)d->height * comp->v + 8u * d->vmax - 1) / (8u * d->vmax));
    comp->pbw = d->mcux * (uint32_t)comp->h;
    comp->pbh = d->mcuy * (uint32_t)comp->v;
    total += (uint64_t)comp->pbw * comp->pbh * sizeof(int16_t);
  }
  if (d->limits->max_decoder_memory != 0 && total > d->limits->max_decoder_memory) {
    cmd_set_error(d->err, d->errlen,
                  "JPEG: the image needs more working memory than the %llu-byte cap",
                  (unsigned long long)d->limits->max_decoder_memory);
    return CMD_ERR_NO_MEMORY;
  }
  for (int c = 0; c < d->ncomp; c++) {
    component *comp = &d->comp[c];
    comp->dc = calloc((size_t)comp->pbw * comp->pbh, sizeof(int16_t));
    if (comp->dc == NULL) return fail(d, CMD_ERR_NO_MEMORY, "no memory for the coefficients");
  }
  return CMD_OK;
}

/* ---- Scans ------------------------------------------------------------------------------- */

/* One block of a sequential scan: its DC difference, and its AC codes skipped several at a time
 * through the skip table. The reader's state is kept in locals (registers) for the block, which
 * is where a baseline file's time goes. CMD_OK or CMD_ERR_CORRUPT (a code the table lacks). */
HOT int sequential_block(bit_reader *r, const huff_table *dc, const huff_table *ac, int16_t *diff) {
  uint64_t buffer = r->buffer;
  int bits = r->bits;
  const uint8_t *next = r->next;
  /* 56 bits or more at hand, by one load when no 0xFF is near (a test of the bits at hand would
   * be an unpredictable branch). Every reader keeps fewer than 64 bits, so the shift is defined;
   * when 56 or more are there already, the load adds nothing. */
  if ((uintptr_t)next <= r->fast_end) {
    uint64_t word;
    memcpy(&word, next, 8);
    buffer |= __builtin_bswap64(word) >> bits;
    next += (63 - bits) >> 3;
    bits |= 56;
  } else {
    REFILL(buffer, bits, next, r);
  }
  /* The DC difference: a code of up to 16 bits and up to 15 more (32 at hand), most often
   * read whole by one lookup. */
  int32_t direct = dc->direct[buffer >> (64 - DIRECT_BITS)];
  uint32_t entry;
  if (direct != 0) {
    *diff = (int16_t)(direct >> 8);
    buffer <<= direct & 255;
    bits -= direct & 255;
  } else {
    entry = dc->fast[buffer >> (64 - FAST_BITS)];
    int length, size;
    if (entry != 0) {
      length = (int)(entry >> 8);
      size = (int)(entry & 0xFF);
    } else {
      r->buffer = buffer, r->bits = bits;
      size = decode_symbol(r, dc);
      buffer = r->buffer, bits = r->bits;
      length = 0; /* dropped already */
    }
    if (size < 0 || size > 15) {
      r->buffer = buffer, r->bits = bits, r->next = next;
      return CMD_ERR_CORRUPT;
    }
    /* Section F.2.2.1: `size` bits, negative when the first is 0 (size 0: nothing). */
    uint64_t after = buffer << length;
    int32_t value = (int32_t)((after >> 1) >> (63 - size));
    int32_t half = (int32_t)((1u << size) >> 1);
    *diff = (int16_t)(value < half ? value + 1 - (int32_t)(1u << size) : value); /* 15 bits at most */
    buffer = after << size;
    bits -= length + size;
  }
  const uint16_t *skip = ac->skip;
  int k = 1;
  for (;;) {
    if ((uintptr_t)next <= r->fast_end) {
      /* A refill at every lookup, as above: its load runs beside the table's, as the lookup
       * reads only the top SKIP_BITS, which are at hand (at least 42 after a refill and a
       * lookup, 25 after the DC code, 17 after a code one at a time). */
      uint64_t word;
      memcpy(&word, next, 8);
      entry = skip[buffer >> (64 - SKIP_BITS)];
      buffer |= __builtin_bswap64(word) >> bits;
      next += (63 - bits) >> 3;
      bits |= 56;
    } else {
      REFILL(buffer, bits, next, r);
      entry = skip[buffer >> (64 - SKIP_BITS)];
    }
    /* Whole codes within the block: one lookup, one test. */
    int reached = k + (int)(entry >> 6);
    if (reached < 64) {
      buffer <<= entry & 63;
      bits -= (int)(entry & 63);
      k = reached;
      continue;
    }
    if (reached == 64 || (unsigned)(reached - SKIP_EOB) <= 64) {
      /* The block's last codes: coefficient 63, or an end of block. */
      buffer <<= entry & 63;
      bits -= (int)(entry & 63);
      break;
    }
    /* A code the table cannot take whole (a long one, or one that would pass coefficient 63):
     * one at a time. */
    r->buffer = buffer, r->bits = bits, r->next = next;
    int symbol = decode_symbol(r, ac);
    if (symbol < 0) return CMD_ERR_CORRUPT;
    int ac_size = symbol & 15, run = symbol >> 4;
    if (ac_size != 0) {
      fill(r);
      drop(r, ac_size);
      k += run + 1;
    } else if (run == 15) {
      k += 16;
    } else {
      k = 64;
    }
    buffer = r->buffer, bits = r->bits, next = r->next;
    if (k >= 64) break;
  }
  r->buffer = buffer, r->bits = bits, r->next = next;
  return CMD_OK;
}

/* Finds restart marker `expected` after an interval. */
static int read_restart(dc_decoder *d, int expected) {
  reset_bits(&d->reader);
  int marker = next_marker(d, 0);
  if (marker != 0xD0 + expected) {
    return fail(d, marker < 0 ? CMD_ERR_TRUNCATED : CMD_ERR_CORRUPT,
                marker < 0 ? "Premature end of JPEG file" : "a restart marker is missing");
  }
  for (int c = 0; c < d->ncomp; c++) d->comp[c].pred = 0;
  return CMD_OK;
}

/* What a scan holds: baseline data (DC and AC of every block), a progressive first DC scan, or
 * a progressive DC refinement (one bit per block). */
enum { SEQUENTIAL, DC_FIRST, DC_REFINE };

/* The blocks of a scan: one component's own block grid (one block per unit), or whole MCUs.
 * `mode` is a constant at each call, so each kind of scan gets its own loop. */
HOT int decode_units(dc_decoder *d, component *const *in_scan, int ns, int mode, int al) {
  bit_reader *r = &d->reader;
  uint32_t units_x = ns == 1 ? in_scan[0]->bw : d->mcux;
  uint32_t units_y = ns == 1 ? in_scan[0]->bh : d->mcuy;
  uint32_t until_restart = d->restart_interval;
  int restart_number = 0;
  for (uint32_t uy = 0; uy < units_y; uy++) {
    if (cmd_past(d->deadline)) return fail(d, CMD_ERR_TIMEOUT, "JPEG decoding ran out of time");
    for (uint32_t ux = 0; ux < units_x; ux++) {
      if (d->restart_interval != 0) {
        if (until_restart == 0) {
          reader_store(r);
          int status = read_restart(d, restart_number);
          if (status != CMD_OK) return status;
          reader_load(r);
          restart_number = (restart_number + 1) & 7;
          until_restart = d->restart_interval;
        }
        until_restart--;
      }
      for (int i = 0; i < ns; i++) {
        component *comp = in_scan[i];
        int rows = ns == 1 ? 1 : comp->v, columns = ns == 1 ? 1 : comp->h;
        int16_t *unit = comp->dc + (size_t)uy * (size_t)rows * comp->pbw + (size_t)ux * (size_t)columns;
        const huff_table *dc = &d->dc[comp->dc_table];
        const huff_table *ac = &d->ac[comp->ac_table];
        for (int by = 0; by < rows; by++) {
          for (int bx = 0; bx < columns; bx++) {
            int16_t *coef = unit + (size_t)by * comp->pbw + (size_t)bx;
            if (mode == SEQUENTIAL) {
              int16_t diff;
              if (sequential_block(r, dc, ac, &diff) != CMD_OK)
                return fail(d, CMD_ERR_CORRUPT, "Corrupt JPEG data: bad Huffman code");
              comp->pred = (int32_t)((uint32_t)comp->pred + (uint32_t)diff);
              *coef = (int16_t)comp->pred;
              continue;
            }
            fill(r);
            if (mode == DC_REFINE) {
              if (peek(r, 1)) *coef = (int16_t)((uint16_t)*coef | (1u << al));
              drop(r, 1);
              continue;
            }
            int size = decode_symbol(r, dc);
            if (size < 0 || size > 15) return fail(d, CMD_ERR_CORRUPT, "Corrupt JPEG data: bad Huffman code");
            fill(r);
            /* Unsigned arithmetic: a hostile file may push the sum out of range. */
            comp->pred = (int32_t)((uint32_t)comp->pred + (uint32_t)receive_extend(r, size));
            *coef = (int16_t)((uint32_t)comp->pred << al);
          }
        }
      }
      if (overran(r)) {
        return r->marker != 0 ? fail(d, CMD_ERR_CORRUPT, "Corrupt JPEG data: premature end of data segment")
                              : fail(d, CMD_ERR_TRUNCATED, "Premature end of JPEG file");
      }
    }
  }
  return CMD_OK;
}

/* The blocks of one unit of a sequential scan, in order, with their tables and where their
 * coefficients go: one flat loop an MCU (nested loops over components and block rows cost a
 * mispredicted branch at each level's end). */
enum { MAX_UNIT_BLOCKS = MAX_COMPONENTS * 16 };

typedef struct unit_plan {
  int blocks;
  uint32_t units_x;
  const huff_table *dc[MAX_UNIT_BLOCKS], *ac[MAX_UNIT_BLOCKS];
  component *comp[MAX_UNIT_BLOCKS];
  size_t row_step[MAX_UNIT_BLOCKS], column_step[MAX_UNIT_BLOCKS], offset[MAX_UNIT_BLOCKS];
} unit_plan;

static void make_plan(unit_plan *plan, const dc_decoder *d, component *const *in_scan, int ns) {
  plan->blocks = 0;
  plan->units_x = ns == 1 ? in_scan[0]->bw : d->mcux;
  for (int i = 0; i < ns; i++) {
    component *comp = in_scan[i];
    int rows = ns == 1 ? 1 : comp->v, columns = ns == 1 ? 1 : comp->h;
    for (int by = 0; by < rows; by++) {
      for (int bx = 0; bx < columns; bx++) {
        int b = plan->blocks++;
        plan->dc[b] = &d->dc[comp->dc_table];
        plan->ac[b] = &d->ac[comp->ac_table];
        plan->comp[b] = comp;
        plan->row_step[b] = (size_t)rows * comp->pbw;
        plan->column_step[b] = (size_t)columns;
        plan->offset[b] = (size_t)by * comp->pbw + (size_t)bx;
      }
    }
  }
}

/* The DC differences of one sequential unit (AC codes skipped); CMD_OK or CMD_ERR_CORRUPT. */
HOT int sequential_unit(bit_reader *r, const unit_plan *plan, int16_t *diffs) {
  for (int b = 0; b < plan->blocks; b++) {
    if (sequential_block(r, plan->dc[b], plan->ac[b], &diffs[b]) != CMD_OK) return CMD_ERR_CORRUPT;
  }
  return CMD_OK;
}

/* Stores the differences of the unit at column ux, row uy as coefficients, carrying the DC
 * predictions. */
HOT void store_unit(const unit_plan *plan, size_t ux, size_t uy, const int16_t *diffs) {
  for (int b = 0; b < plan->blocks; b++) {
    component *comp = plan->comp[b];
    comp->pred = (int32_t)((uint32_t)comp->pred + (uint32_t)diffs[b]);
    comp->dc[uy * plan->row_step[b] + ux * plan->column_step[b] + plan->offset[b]] = (int16_t)comp->pred;
  }
}

/* The same for `count` units in order from unit `unit` on (a division for the first only). */
static void store_units(const unit_plan *plan, uint32_t unit, uint32_t count, const int16_t *diffs) {
  uint32_t ux = unit % plan->units_x, uy = unit / plan->units_x;
  for (uint32_t k = 0; k < count; k++, diffs += plan->blocks) {
    store_unit(plan, ux, uy, diffs);
    if (++ux == plan->units_x) ux = 0, uy++;
  }
}

/* ---- Two threads for a baseline scan --------------------------------------------------------
 *
 * A baseline scan is one stream of Huffman codes, so it cannot simply be split. But a decoder
 * started at an arbitrary byte falls into step with the true code and block boundaries after a
 * few codes (Huffman codes synchronize themselves), so a second thread decodes the second half
 * of the file from its middle, assuming an MCU starts there, and records where each of its MCUs
 * starts (in bits of unstuffed data from the middle) with the DC differences it found. The
 * first thread decodes from the start; when it reaches an MCU start the second thread also
 * recorded, both were in the same state there (same bit, same block), so from that MCU on the
 * second thread's results are exactly what the first would find: the first thread takes them,
 * adding its own DC predictions. If the second thread has not got to the end by then (it
 * started later, or a busy machine gave it less time), the first stops it and goes on from the
 * last of its MCUs it kept the reader's state at (every SNAPSHOT_EVERY MCUs), so no work is
 * thrown away and nobody waits. If no such MCU comes (or the second thread met an error), the
 * first thread simply goes on alone: the result never depends on the guess. Used for files
 * without restart markers (those could be split at a marker instead) and large enough to pay
 * for a thread. */

enum { PARALLEL_MIN_UNITS = 4096, PARALLEL_MIN_BYTES = 256 * 1024, SNAPSHOT_EVERY = 32 };

/* A reader's state at an MCU start, from which the first thread can go on. */
typedef struct reader_snapshot {
  uint64_t buffer;
  uint64_t offset; /* the reader's next byte, as an offset into the scan's source */
  int bits, fake_bits, marker, ended;
} reader_snapshot;

typedef struct second_half {
  const dc_decoder *d;
  const unit_plan *plan;
  uint32_t total;
  uint64_t middle; /* where it starts in the source */
  cmd_source source;
  bit_reader reader;
  uint64_t *starts;  /* bit position of each MCU it decoded, from the middle */
  int16_t *diffs;    /* its DC differences, plan->blocks per unit */
  reader_snapshot *snapshots; /* the reader at MCUs 0, SNAPSHOT_EVERY, 2·SNAPSHOT_EVERY, … */
  uint32_t published; /* starts[0 ..< published] are written (atomic) */
  uint32_t completed; /* MCUs decoded cleanly, their differences and snapshots written (atomic) */
  int stop; /* set by the first thread (atomic) */
  reader_snapshot end; /* where its reading stopped */
} second_half;

static uint64_t bit_position(const bit_reader *r) {
  return (r->loaded + (uint64_t)(r->next - r->mark)) * 8 - (uint64_t)r->bits;
}

/* The reader's state; `base` is where its source starts in the scan's source. */
static reader_snapshot snapshot_of(const bit_reader *r, uint64_t base) {
  const cmd_source *s = r->source;
  reader_snapshot snapshot = {r->buffer, 0, r->bits, r->fake_bits, r->marker, r->ended};
  snapshot.offset = s->fd >= 0 ? s->file_offset - (uint64_t)(r->end - r->next)
                               : base + (uint64_t)(r->next - s->memory);
  return snapshot;
}

/* Puts the decoder's reader where a snapshot was taken. */
static void resume_at(dc_decoder *d, const reader_snapshot *snapshot) {
  bit_reader *r = &d->reader;
  cmd_source *source = d->source;
  r->buffer = snapshot->buffer;
  r->bits = snapshot->bits;
  r->fake_bits = snapshot->fake_bits;
  r->marker = snapshot->marker;
  r->ended = snapshot->ended;
  if (source->fd >= 0) {
    source->file_offset = snapshot->offset;
    source->next = source->buffer;
    source->available = 0;
  } else {
    source->next = source->memory + snapshot->offset;
    source->available = source->memory_length - (size_t)snapshot->offset;
  }
  reader_load(r);
}

static void *second_half_run(void *argument) {
  second_half *half = argument;
  /* The budget is CPU time on each thread's own clock, so this thread starts its own. */
  uint64_t deadline = cmd_deadline(half->d->budget_ms);
  bit_reader *r = &half->reader;
  reader_load(r);
  for (uint32_t i = 0; i < half->total; i++) {
    if (__atomic_load_n(&half->stop, __ATOMIC_ACQUIRE) || ((i & 1023) == 0 && cmd_past(deadline))) break;
    fill(r);
    if (i % SNAPSHOT_EVERY == 0) half->snapshots[i / SNAPSHOT_EVERY] = snapshot_of(r, half->middle);
    half->starts[i] = bit_position(r);
    __atomic_store_n(&half->published, i + 1, __ATOMIC_RELEASE);
    if (sequential_unit(r, half->plan, half->diffs + (size_t)i * (size_t)half->plan->blocks) != CMD_OK) break;
    if (overran(r)) break;
    __atomic_store_n(&half->completed, i + 1, __ATOMIC_RELEASE);
  }
  half->end = snapshot_of(r, half->middle);
  return NULL;
}

/* A sequential scan without restart markers, on two threads when it is large enough and a
 * second core is there; CMD_FALLBACK (having done nothing) for a scan with restart markers. */
static int decode_sequential(dc_decoder *d, component *const *in_scan, int ns) {
  if (d->restart_interval != 0) return CMD_FALLBACK;
  unit_plan plan;
  make_plan(&plan, d, in_scan, ns);
  uint32_t units_x = plan.units_x;
  uint32_t units_y = ns == 1 ? in_scan[0]->bh : d->mcuy;
  uint64_t total64 = (uint64_t)units_x * units_y;
  if (total64 > 0x7FFFFFFFu) return CMD_FALLBACK;
  uint32_t total = (uint32_t)total64;
  int blocks = plan.blocks;
  cmd_source *source = d->source;
  uint64_t start = source->fd >= 0 ? source->file_offset - source->available
                                   : (uint64_t)(source->next - source->memory);
  uint64_t size = source->memory_length;
  if (source->fd >= 0) {
    struct stat status;
    size = fstat(source->fd, &status) == 0 ? (uint64_t)status.st_size : 0;
  }
  second_half *half = NULL;
  pthread_t thread;
  if (total >= PARALLEL_MIN_UNITS && size >= start + PARALLEL_MIN_BYTES && sysconf(_SC_NPROCESSORS_ONLN) >= 2) {
    /* The second half starts at the middle byte (after a stuffed zero if it falls on one). */
    uint64_t middle = start + (size - start) / 2;
    uint8_t previous = 0;
    int readable = source->fd >= 0 ? pread(source->fd, &previous, 1, (off_t)(middle - 1)) == 1
                                   : (previous = source->memory[middle - 1], 1);
    if (previous == 0xFF) middle++; /* the zero after it is stuffing */
    half = readable ? calloc(1, sizeof *half) : NULL;
    int ready = half != NULL;
    if (ready) {
      half->d = d;
      half->plan = &plan;
      half->total = total;
      half->middle = middle;
      half->starts = malloc(sizeof(uint64_t) * total);
      half->diffs = malloc(sizeof(int16_t) * (size_t)total * (size_t)blocks);
      half->snapshots = malloc(sizeof(reader_snapshot) * (total / SNAPSHOT_EVERY + 1));
      ready = half->starts != NULL && half->diffs != NULL && half->snapshots != NULL;
      if (ready && source->fd >= 0) {
        ready = cmd_source_file(&half->source, source->fd) == CMD_OK;
        half->source.file_offset = middle;
      } else if (ready) {
        cmd_source_memory(&half->source, source->memory + middle, source->memory_length - middle);
      }
      half->reader.source = &half->source;
    }
    if (half != NULL && (!ready || pthread_create(&thread, NULL, second_half_run, half) != 0)) {
      cmd_source_close(&half->source);
      free(half->starts);
      free(half->diffs);
      free(half->snapshots);
      free(half);
      half = NULL;
    }
  }

  /* From the start, looking for a unit start the second thread shares, once the reader has
   * passed the middle and counted the data bytes before it. */
  bit_reader *r = &d->reader;
  if (half != NULL) {
    r->watching = 1;
    r->watch_offset = half->middle;
    r->watched = -1;
    find_watch(r);
  }
  int16_t diffs[MAX_UNIT_BLOCKS];
  uint64_t from_bits = UINT64_MAX; /* the middle in data bits, once passed */
  uint32_t match = 0;
  int taken = half == NULL, joined = 0, status = CMD_OK;
  uint32_t unit = 0, until_check = 0, ux = 0, uy = 0;
  while (unit < total) {
    if (until_check-- == 0) {
      /* The clock is a system call: every 1,024 units (a fraction of a millisecond). */
      until_check = 1023;
      if (cmd_past(d->deadline)) {
        status = fail(d, CMD_ERR_TIMEOUT, "JPEG decoding ran out of time");
        break;
      }
    }
    if (!taken) {
      if (r->watched >= 0) from_bits = (uint64_t)r->watched * 8;
      uint64_t here = bit_position(r);
      if (here >= from_bits) {
        uint32_t published = __atomic_load_n(&half->published, __ATOMIC_ACQUIRE);
        while (match < published && half->starts[match] + from_bits < here) match++;
        if (match == published) {
          /* It has not got this far (it started late, or the machine is busy), so it could
           * only catch up if this thread stopped: it stops instead. */
          __atomic_store_n(&half->stop, 1, __ATOMIC_RELEASE);
          taken = 1;
        } else if (half->starts[match] + from_bits == here) {
          /* In step from its unit `match` on. */
          taken = 1;
          uint32_t completed = __atomic_load_n(&half->completed, __ATOMIC_ACQUIRE);
          uint32_t rest = total - unit;
          if (completed >= match && completed - match >= rest) {
            /* It got to the end: the rest is its. */
            pthread_join(thread, NULL);
            joined = 1;
            store_units(&plan, unit, rest, half->diffs + (size_t)match * blocks);
            reader_snapshot end = half->end;
            end.buffer = 0, end.bits = 0, end.fake_bits = 0; /* what is left is padding */
            resume_at(d, &end);
            break;
          }
          /* Still going: it stops, and this thread goes on from its last snapshot. */
          __atomic_store_n(&half->stop, 1, __ATOMIC_RELEASE);
          uint32_t snapshot = completed > match ? (completed - 1) / SNAPSHOT_EVERY * SNAPSHOT_EVERY : 0;
          if (snapshot > match) {
            store_units(&plan, unit, snapshot - match, half->diffs + (size_t)match * blocks);
            unit += snapshot - match;
            ux = unit % units_x, uy = unit / units_x;
            resume_at(d, &half->snapshots[snapshot / SNAPSHOT_EVERY]);
            continue;
          }
        }
      }
    }
    if (sequential_unit(r, &plan, diffs) != CMD_OK) {
      status = fail(d, CMD_ERR_CORRUPT, "Corrupt JPEG data: bad Huffman code");
      break;
    }
    if (overran(r)) {
      status = r->marker != 0 ? fail(d, CMD_ERR_CORRUPT, "Corrupt JPEG data: premature end of data segment")
                              : fail(d, CMD_ERR_TRUNCATED, "Premature end of JPEG file");
      break;
    }
    store_unit(&plan, ux, uy, diffs);
    unit++;
    if (++ux == units_x) ux = 0, uy++;
  }
  r->watching = 0;
  r->watch = NULL;
  if (half != NULL) {
    if (!joined) {
      __atomic_store_n(&half->stop, 1, __ATOMIC_RELEASE);
      pthread_join(thread, NULL);
    }
    cmd_source_close(&half->source);
    free(half->starts);
    free(half->diffs);
    free(half->snapshots);
    free(half);
  }
  return status;
}

static int read_scan(dc_decoder *d) {
  int length;
  int status = read_segment(d, &length);
  if (status != CMD_OK) return status;
  const uint8_t *p = d->segment;
  if (!d->frame) return fail(d, CMD_ERR_CORRUPT, "a scan comes before the frame header");
  if (length < 1) return fail(d, CMD_ERR_CORRUPT, "the scan header is cut short");
  int ns = p[0];
  if (ns < 1 || ns > d->ncomp || length < 4 + 2 * ns)
    return fail(d, CMD_ERR_CORRUPT, "the scan header is invalid");
  if (++d->scans > d->limits->max_scans && d->limits->max_scans != 0) {
    cmd_set_error(d->err, d->errlen, "JPEG: progressive JPEG has more than %u scans",
                  d->limits->max_scans);
    return CMD_ERR_TOO_MANY_SCANS;
  }
  if (cmd_past(d->deadline)) return fail(d, CMD_ERR_TIMEOUT, "JPEG decoding ran out of time");
  component *in_scan[MAX_COMPONENTS];
  for (int i = 0; i < ns; i++) {
    int id = p[1 + 2 * i];
    component *comp = NULL;
    for (int c = 0; c < d->ncomp; c++) {
      if (d->comp[c].id == id) comp = &d->comp[c];
    }
    for (int j = 0; j < i; j++) {
      if (in_scan[j] == comp) comp = NULL;
    }
    if (comp == NULL) return fail(d, CMD_ERR_CORRUPT, "the scan names an unknown component");
    comp->dc_table = p[2 + 2 * i] >> 4;
    comp->ac_table = p[2 + 2 * i] & 15;
    if (comp->dc_table > 3 || comp->ac_table > 3)
      return fail(d, CMD_ERR_CORRUPT, "the scan names a bad Huffman table");
    comp->pred = 0;
    in_scan[i] = comp;
  }
  int ss = p[1 + 2 * ns], se = p[2 + 2 * ns], ah = p[3 + 2 * ns] >> 4, al = p[3 + 2 * ns] & 15;

  if (d->progressive) {
    if (ss != 0) {
      /* An AC scan: nothing in it is needed at 1/8 scale. */
      if (se < ss || se > 63 || ns != 1) return fail(d, CMD_ERR_CORRUPT, "a bad progression");
      return CMD_OK;
    }
    if (se != 0 || al > 13 || (ah != 0 && ah != al + 1))
      return fail(d, CMD_ERR_CORRUPT, "a bad progression");
    for (int i = 0; i < ns; i++) {
      if (ah == 0 ? in_scan[i]->dc_started : !in_scan[i]->dc_started)
        return fail(d, CMD_ERR_CORRUPT, "a bad progression");
      in_scan[i]->dc_started = 1;
    }
  } else if (ss != 0 || se != 63 || ah != 0 || al != 0) {
    return fail(d, CMD_ERR_CORRUPT, "a sequential scan with progressive parameters");
  }
  for (int i = 0; i < ns; i++) {
    component *comp = in_scan[i];
    if (!(d->progressive && ah != 0) && !d->dc[comp->dc_table].defined)
      return fail(d, CMD_ERR_CORRUPT, "the scan uses an undefined Huffman table");
    if (!d->progressive) {
      if (!d->dc[comp->dc_table].direct_built) build_direct(&d->dc[comp->dc_table]);
      huff_table *ac = &d->ac[comp->ac_table];
      if (!ac->defined) return fail(d, CMD_ERR_CORRUPT, "the scan uses an undefined Huffman table");
      if (ac->skip == NULL && !build_skip(ac)) return fail(d, CMD_ERR_NO_MEMORY, "no memory");
    }
  }

  int mode = !d->progressive ? SEQUENTIAL : ah == 0 ? DC_FIRST : DC_REFINE;
  bit_reader *r = &d->reader;
  reset_bits(r);
  r->marker = 0;
  r->ended = 0;
  reader_load(r);
  /* One loop per kind of scan, so each is compiled without the others' tests. */
  switch (mode) {
  case SEQUENTIAL:
    status = decode_sequential(d, in_scan, ns);
    if (status == CMD_FALLBACK) status = decode_units(d, in_scan, ns, SEQUENTIAL, al);
    break;
  case DC_FIRST: status = decode_units(d, in_scan, ns, DC_FIRST, al); break;
  default: status = decode_units(d, in_scan, ns, DC_REFINE, al); break;
  }
  reader_store(r);
  reset_bits(r);
  return status;
}

/* ---- Output ------------------------------------------------------------------------------ */

static inline uint8_t clamp_sample(int value) {
  return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
}

/* libjpeg's YCbCr to RGB (jdcolor.c), with its 16-bit fixed point and rounding. */
enum { SCALEBITS = 16 };
#define ONE_HALF ((int32_t)1 << (SCALEBITS - 1))
#define FIX(x) ((int32_t)((x) * (1L << SCALEBITS) + 0.5))

#ifdef CMD_JPEG_AVX2
/* Luma a sample a column and chroma one for two, to RGB, sixteen columns a step (AVX2, taken
 * with the reducer's AVX2 loops): `o6` holds each chroma column's three colour terms twice
 * (the pair of columns it serves, as the RGB bytes lie), each luma sample is spread to its
 * three bytes by a byte shuffle, and the sums are clamped by packing with unsigned saturation,
 * which is what the scalar loop's range-limit table does. Returns the columns done (a multiple
 * of 16); `luma` starts on a pair. */
__attribute__((target("avx2"))) static uint32_t colour_pairs_avx2(const uint8_t *luma, const int16_t *o6,
                                                                   uint8_t *out, uint32_t count) {
  const __m128i spread0 = _mm_setr_epi8(0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5);
  const __m128i spread1 = _mm_setr_epi8(5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10);
  const __m128i spread2 = _mm_setr_epi8(10, 11, 11, 11, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15);
  uint32_t i = 0;
  for (; i + 16 <= count; i += 16, luma += 16, o6 += 48, out += 48) {
    __m128i l = _mm_loadu_si128((const __m128i *)(const void *)luma);
    __m256i s0 = _mm256_add_epi16(_mm256_cvtepu8_epi16(_mm_shuffle_epi8(l, spread0)),
                                  _mm256_loadu_si256((const __m256i *)(const void *)o6));
    __m256i s1 = _mm256_add_epi16(_mm256_cvtepu8_epi16(_mm_shuffle_epi8(l, spread1)),
                                  _mm256_loadu_si256((const __m256i *)(const void *)(o6 + 16)));
    __m256i s2 = _mm256_add_epi16(_mm256_cvtepu8_epi16(_mm_shuffle_epi8(l, spread2)),
                                  _mm256_loadu_si256((const __m256i *)(const void *)(o6 + 32)));
    /* packus works within 128-bit halves: the quarters come out 0 2 1 3. */
    __m256i first = _mm256_permute4x64_epi64(_mm256_packus_epi16(s0, s1), 0xD8);
    __m128i last = _mm_packus_epi16(_mm256_castsi256_si128(s2), _mm256_extracti128_si256(s2, 1));
    _mm256_storeu_si256((__m256i *)(void *)out, first);
    _mm_storeu_si128((__m128i *)(void *)(out + 32), last);
  }
  return i;
}

/* The 1 × 1 inverse DCT of `count` coefficients, sixteen a step (AVX2): the products fit 32
 * bits (16-bit coefficients, quantizers below 2^16), and packing with signed then unsigned
 * saturation clamps as clamp_sample does. Returns the samples done (a multiple of 16). */
__attribute__((target("avx2"))) static uint32_t dc_samples_avx2(const int16_t *dc, int q, uint8_t *samples,
                                                                 uint32_t count) {
  const __m256i quantizer = _mm256_set1_epi32(q), four = _mm256_set1_epi32(4), centre = _mm256_set1_epi32(128);
  uint32_t i = 0;
  for (; i + 16 <= count; i += 16) {
    __m256i low = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(const void *)(dc + i)));
    __m256i high = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(const void *)(dc + i + 8)));
    low = _mm256_add_epi32(_mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(low, quantizer), four), 3), centre);
    high = _mm256_add_epi32(_mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(high, quantizer), four), 3), centre);
    /* packs works within 128-bit halves: its four-word groups come out 0 2 1 3. */
    __m256i words = _mm256_permute4x64_epi64(_mm256_packs_epi32(low, high), 0xD8);
    __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1));
    _mm_storeu_si128((__m128i *)(void *)(samples + i), bytes);
  }
  return i;
}
#endif

static int emit_rows(dc_decoder *d, cmd_sink *sink, char *err, size_t errlen) {
  uint32_t out_w = (d->width + 7) / 8, out_h = (d->height + 7) / 8;
  int channels = d->ncomp == 1 ? 1 : 3;
  int status = cmd_sink_begin(sink, out_w, out_h, (uint32_t)channels, 1, err, errlen);
  if (status != CMD_OK) return status;
  uint32_t first_row, last_row, first_column, last_column;
  cmd_sink_rows(sink, &first_row, &last_row);
  cmd_sink_columns(sink, &first_column, &last_column);
  if (last_row > out_h) last_row = out_h;
  if (last_column > out_w) last_column = out_w;
  if (first_column >= last_column) return CMD_OK;
  uint32_t count = last_column - first_column;
  /* Per component: the sample row (one per block, made when the block row changes) and which
   * of its samples each output column takes. */
  typedef struct plane {
    uint8_t *samples;
    uint32_t *column;
    uint32_t first, count, row; /* the blocks the samples hold; row UINT32_MAX: none yet */
    int q;
  } plane;
  plane planes[MAX_COMPONENTS] = {{0}};
  /* libjpeg's colour terms (jdcolor.c), by sample, and its range limit for the sums. */
  int32_t *terms = malloc(sizeof(int32_t) * 4 * 256);
  uint8_t *row = malloc((size_t)count * 3);
  int ready = terms != NULL && row != NULL;
  for (int c = 0; c < d->ncomp && ready; c++) {
    const component *comp = &d->comp[c];
    uint32_t hstep = (uint32_t)(d->hmax / comp->h);
    plane *p = &planes[c];
    p->first = first_column / hstep;
    p->count = (last_column - 1) / hstep - p->first + 1;
    p->row = UINT32_MAX;
    p->q = d->quant[comp->quant];
    p->samples = malloc(p->count);
    p->column = malloc(sizeof(uint32_t) * count);
    ready = p->samples != NULL && p->column != NULL;
    for (uint32_t i = 0; ready && i < count; i++) p->column[i] = (first_column + i) / hstep - p->first;
  }
  if (!ready) {
    for (int c = 0; c < MAX_COMPONENTS; c++) free(planes[c].samples), free(planes[c].column);
    free(terms);
    free(row);
    return fail(d, CMD_ERR_NO_MEMORY, "no memory for a row");
  }
  int32_t *cr_red = terms, *cb_blue = terms + 256, *cb_green = terms + 512, *cr_green = terms + 768;
  for (int i = 0; i < 256; i++) {
    int x = i - 128;
    cr_red[i] = (int32_t)((FIX(1.40200) * x + ONE_HALF) >> SCALEBITS);
    cb_blue[i] = (int32_t)((FIX(1.77200) * x + ONE_HALF) >> SCALEBITS);
    cb_green[i] = -FIX(0.34414) * x;
    cr_green[i] = -FIX(0.71414) * x + ONE_HALF;
  }
  uint8_t limit[1024]; /* clamp of value + 384 */
  for (int i = 0; i < 1024; i++) limit[i] = clamp_sample(i - 384);
  /* Cb and Cr with the same columns (the usual case): their colour terms by column. */
  int shared = channels == 3 && d->comp[1].h == d->comp[2].h && d->comp[1].v == d->comp[2].v;
  int pairs = shared && d->hmax == d->comp[0].h && d->hmax == 2 * d->comp[1].h;
  /* With the AVX2 loops, pairs of columns take each chroma column's terms twice (o6). */
  int vector = 0; /* the AVX2 loops */
#ifdef CMD_JPEG_AVX2
  vector = cmd_sink_avx2(sink);
#endif
  int wide = pairs && vector;
  int16_t *offsets = shared ? malloc(sizeof(int16_t) * (wide ? 6 : 3) * planes[1].count) : NULL;
  uint32_t offsets_row = UINT32_MAX;
  if (shared && offsets == NULL) {
    for (int c = 0; c < MAX_COMPONENTS; c++) free(planes[c].samples), free(planes[c].column);
    free(terms);
    free(row);
    return fail(d, CMD_ERR_NO_MEMORY, "no memory for a row");
  }
  for (uint32_t y = first_row; y < last_row; y++) {
    for (int c = 0; c < d->ncomp; c++) {
      const component *comp = &d->comp[c];
      plane *p = &planes[c];
      uint32_t sy = y / (uint32_t)(d->vmax / comp->v);
      if (sy == p->row) continue;
      /* The 1 × 1 inverse DCT: (coefficient × quantizer + 4) >> 3, centred on 128. */
      const int16_t *dc = comp->dc + (size_t)sy * comp->pbw + p->first;
      uint32_t i = 0;
#ifdef CMD_JPEG_AVX2
      if (vector) i = dc_samples_avx2(dc, p->q, p->samples, p->count);
#endif
      for (; i < p->count; i++) p->samples[i] = clamp_sample(((dc[i] * p->q + 4) >> 3) + 128);
      p->row = sy;
    }
    const uint8_t *luma = planes[0].samples;
    const uint32_t *luma_column = planes[0].column;
    if (channels == 1) {
      for (uint32_t i = 0; i < count; i++) row[i] = luma[luma_column[i]];
    } else if (shared) {
      /* Cb and Cr share their columns: each column's colour terms once per chroma row. */
      if (planes[1].row != offsets_row) {
        for (uint32_t j = 0; j < planes[1].count; j++) {
          int b = planes[1].samples[j], r = planes[2].samples[j];
          int16_t *o = offsets + (wide ? 6 : 3) * j;
          o[0] = (int16_t)cr_red[r];
          o[1] = (int16_t)((cb_green[b] + cr_green[r]) >> SCALEBITS);
          o[2] = (int16_t)cb_blue[b];
          if (wide) o[3] = o[0], o[4] = o[1], o[5] = o[2];
        }
        offsets_row = planes[1].row;
      }
      if (pairs) {
        /* Luma a sample a column, chroma one for two (4:2:x): each chroma entry serves a pair
         * of columns, without the column maps (the first column alone when it is odd). */
        const int16_t *o = offsets;
        uint32_t step = wide ? 6 : 3; /* terms a chroma column */
        uint8_t *out = row;
        uint32_t i = 0;
        if (first_column & 1) {
          int l = luma[0] + 384;
          out[0] = limit[l + o[0]], out[1] = limit[l + o[1]], out[2] = limit[l + o[2]];
          i = 1, out += 3, o += step;
        }
#ifdef CMD_JPEG_AVX2
        if (wide) {
          uint32_t done = colour_pairs_avx2(luma + i, o, out, count - i);
          i += done, out += 3 * done, o += 3 * done;
        }
#endif
        for (; i + 1 < count; i += 2, out += 6, o += step) {
          int l0 = luma[i] + 384, l1 = luma[i + 1] + 384;
          out[0] = limit[l0 + o[0]], out[1] = limit[l0 + o[1]], out[2] = limit[l0 + o[2]];
          out[3] = limit[l1 + o[0]], out[4] = limit[l1 + o[1]], out[5] = limit[l1 + o[2]];
        }
        if (i < count) {
          int l = luma[i] + 384;
          out[0] = limit[l + o[0]], out[1] = limit[l + o[1]], out[2] = limit[l + o[2]];
        }
      } else {
        const uint32_t *chroma_column = planes[1].column;
        for (uint32_t i = 0; i < count; i++) {
          int l = luma[luma_column[i]] + 384;
          const int16_t *o = offsets + 3 * chroma_column[i];
          row[3 * i] = limit[l + o[0]];
          row[3 * i + 1] = limit[l + o[1]];
          row[3 * i + 2] = limit[l + o[2]];
        }
      }
    } else {
      const uint8_t *cb = planes[1].samples, *cr = planes[2].samples;
      const uint32_t *cb_column = planes[1].column, *cr_column = planes[2].column;
      for (uint32_t i = 0; i < count; i++) {
        int l = luma[luma_column[i]] + 384, b = cb[cb_column[i]], r = cr[cr_column[i]];
        row[3 * i] = limit[l + cr_red[r]];
        row[3 * i + 1] = limit[l + (int)((cb_green[b] + cr_green[r]) >> SCALEBITS)];
        row[3 * i + 2] = limit[l + cb_blue[b]];
      }
    }
    cmd_sink_row(sink, y, first_column, 1, row, count);
  }
  for (int c = 0; c < MAX_COMPONENTS; c++) free(planes[c].samples), free(planes[c].column);
  free(offsets);
  free(terms);
  free(row);
  return CMD_OK;
}

/* ---- The decoder ------------------------------------------------------------------------- */

static int decode(dc_decoder *d, cmd_sink *sink, cmd_image *out) {
  uint8_t soi[2];
  if (cmd_source_read(d->source, soi, 2) != 2 || soi[0] != 0xFF || soi[1] != 0xD8)
    return CMD_FALLBACK;
  for (;;) {
    int marker = next_marker(d, d->progressive && d->scans > 0);
    if (marker < 0) return fail(d, CMD_ERR_TRUNCATED, "Premature end of JPEG file");
    int status = CMD_OK;
    switch (marker) {
    case 0xC0:
    case 0xC1:
    case 0xC2: status = read_frame(d, marker); break;
    case 0xC4: status = read_dht(d); break;
    case 0xDB: status = read_dqt(d); break;
    case 0xDD: {
      int length;
      status = read_segment(d, &length);
      if (status != CMD_OK) return status;
      if (length < 2) return fail(d, CMD_ERR_CORRUPT, "the restart interval is cut short");
      d->restart_interval = (uint32_t)(d->segment[0] << 8 | d->segment[1]);
      break;
    }
    case 0xDA:
      status = read_scan(d);
      break;
    case 0xD9: {
      if (!d->frame || d->scans == 0) return fail(d, CMD_ERR_CORRUPT, "the file has no image data");
      for (int c = 0; c < d->ncomp; c++) {
        if (!d->quant_defined[d->comp[c].quant])
          return fail(d, CMD_ERR_CORRUPT, "a quantization table is missing");
        if (d->progressive && !d->comp[c].dc_started)
          return fail(d, CMD_ERR_CORRUPT, "a component has no DC scan");
      }
      status = emit_rows(d, sink, d->err, d->errlen);
      if (status != CMD_OK) return status;
      out->source_width = d->width;
      out->source_height = d->height;
      out->scale_num = 1;
      out->scale_denom = 8;
      out->scans = d->scans;
      out->format = CMD_FORMAT_JPEG;
      return CMD_OK;
    }
    case 0xEE: {
      /* Adobe: transform 0 with three components means RGB, which libjpeg handles. */
      int length;
      status = read_segment(d, &length);
      if (status != CMD_OK) return status;
      if (length >= 12 && memcmp(d->segment, "Adobe", 5) == 0 && d->segment[11] == 0 &&
          (d->ncomp == 3 || !d->frame))
        return CMD_FALLBACK;
      break;
    }
    case 0xC3: case 0xC5: case 0xC6: case 0xC7: case 0xC9: case 0xCA: case 0xCB:
    case 0xCD: case 0xCE: case 0xCF: case 0xDC:
      /* Lossless, hierarchical, arithmetic coding, DNL: libjpeg's. */
      return CMD_FALLBACK;
    case 0xD8:
      return fail(d, CMD_ERR_CORRUPT, "a second start of image");
    default:
      if (marker >= 0xD0 && marker <= 0xD7) break; /* a stray restart marker */
      status = skip_segment(d);
      break;
    }
    if (status != CMD_OK) return status;
  }
}

int cmd_decode_jpeg_dc(cmd_source *source, const cmd_limits *limits, cmd_sink *sink,
                       cmd_image *out, char *err, size_t errlen) {
  dc_decoder *d = calloc(1, sizeof *d);
  if (d == NULL) {
    cmd_set_error(err, errlen, "JPEG: no memory for the decoder");
    return CMD_ERR_NO_MEMORY;
  }
  d->source = source;
  d->limits = limits;
  d->deadline = cmd_deadline(limits->max_millis);
  d->budget_ms = limits->max_millis;
  d->err = err;
  d->errlen = errlen;
  d->reader.source = source;
  d->segment = malloc(SEGMENT_MAX);
  int status = d->segment == NULL ? fail(d, CMD_ERR_NO_MEMORY, "no memory for the decoder")
                                  : decode(d, sink, out);
  for (int i = 0; i < 4; i++) {
    free(d->dc[i].skip);
    free(d->ac[i].skip);
  }
  for (int c = 0; c < MAX_COMPONENTS; c++) free(d->comp[c].dc);
  free(d->segment);
  free(d);
  return status;
}

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

/* The bit reader's steps run per Huffman code: they must not cost a call. */
#define HOT static inline __attribute__((always_inline))

enum {
  FAST_BITS = 9,   /* one lookup decodes codes up to this long */
  SKIP_BITS = 14,  /* one lookup skips AC codes (with their extra bits) within this many bits */
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
  /* AC skipping: bits taken (4 bits), coefficients advanced (7 bits), ends with EOB (bit 11),
   * valid (bit 15). Built on first use. */
  uint16_t *skip;
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
  cmd_source *source;
  uint64_t buffer; /* next bits, most significant first */
  uint64_t loaded; /* bytes put into buffer so far (stuffing removed): position = loaded·8 − bits */
  int bits;
  int marker;    /* a marker met inside the entropy data (0: none) */
  int fake_bits; /* zero bits added after a marker or the end of the file */
  int ended;
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

/* For every SKIP_BITS pattern: the whole AC codes (code and extra bits) it holds, up to and
 * including an end of block: bits taken (4 bits), `need` (7 bits, below) and whether it ends
 * with an end of block (bit 11). */
static int build_skip(huff_table *t) {
  t->skip = malloc(sizeof(uint16_t) << SKIP_BITS);
  if (t->skip == NULL) return 0;
  for (uint32_t pattern = 0; pattern < (1u << SKIP_BITS); pattern++) {
    int used = 0, advance = 0, eob = 0, count = 0;
    while (used < SKIP_BITS) {
      int length;
      int width = SKIP_BITS - used;
      int symbol = pattern_symbol(t, pattern & ((1u << width) - 1), width, &length);
      if (symbol < 0) break;
      if (symbol == 0) {
        used += length;
        eob = 1;
        count++;
        break;
      }
      int size = symbol & 15, run = symbol >> 4;
      if (size == 0 && run != 15) {
        /* libjpeg ends the block here, as at an end of block. */
        used += length;
        eob = 1;
        count++;
        break;
      }
      if (used + length + size > SKIP_BITS) break;
      used += length + size;
      advance += size == 0 ? 16 : run + 1; /* size 0 with run 15: sixteen zeros */
      count++;
      if (advance >= 63) break;
    }
    /* `need`: the entry is used whole when k + need <= 64, so an end of block is not mistaken
     * for the next block's DC code (k + advance < 64) and codes never run past coefficient 63;
     * 127 for a pattern that starts with no whole code. */
    int need = count == 0 ? 127 : advance + eob;
    t->skip[pattern] = (uint16_t)(used | (need << 4) | (eob << 11));
  }
  return 1;
}

/* ---- Bits -------------------------------------------------------------------------------- */

static void reader_load(bit_reader *r) {
  r->next = r->source->next;
  r->end = r->source->next + r->source->available;
}

static void reader_store(bit_reader *r) {
  r->source->next = r->next;
  r->source->available = (size_t)(r->end - r->next);
}

/* The next byte, or -1 at the end. */
static int reader_byte(bit_reader *r) {
  if (r->next == r->end) {
    reader_store(r);
    if (cmd_source_fill(r->source) == 0) return -1;
    reader_load(r);
  }
  return *r->next++;
}

static void fill_slow(bit_reader *r) {
  while (r->bits <= 56) {
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
}

/* At least 32 bits at hand (57 after a refill): eight bytes at once when none is 0xFF. */
HOT void fill(bit_reader *r) {
  if (r->bits >= 32) return;
  if (r->marker == 0 && r->end - r->next >= 8) {
    uint64_t word;
    memcpy(&word, r->next, 8);
    uint64_t inverted = ~word;
    if (((inverted - 0x0101010101010101ull) & ~inverted & 0x8080808080808080ull) == 0) {
      word = __builtin_bswap64(word);
      r->buffer |= word >> r->bits;
      int bytes = (63 - r->bits) >> 3;
      r->next += bytes;
      r->bits += bytes * 8;
      r->loaded += (uint64_t)bytes;
      /* The bits below are the next bytes themselves, so a later fill ORs the same values. */
      return;
    }
  }
  fill_slow(r);
}

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

/* Skips the AC coefficients of one block in a sequential scan. The reader's state is kept in
 * locals (registers) for the loop, which is where a baseline file's time goes. */
HOT int skip_ac(bit_reader *r, huff_table *t) {
  const uint16_t *skip = t->skip;
  uint64_t buffer = r->buffer;
  int bits = r->bits;
  const uint8_t *next = r->next;
  const uint8_t *const end = r->end;
  int k = 1;
  int status = CMD_OK;
  int clean = r->marker == 0; /* no marker met yet: the fast refill may read ahead */
  while (k < 64) {
    if (bits < 32) {
      uint64_t word;
      if (clean && end - next >= 8 && (memcpy(&word, next, 8), 1) &&
          ((~word - 0x0101010101010101ull) & word & 0x8080808080808080ull) == 0) {
        /* As in fill: eight bytes without 0xFF at once. (~word has a zero byte where word has
         * 0xFF; the test above is the usual "has a zero byte" on ~word.) */
        buffer |= __builtin_bswap64(word) >> bits;
        int bytes = (63 - bits) >> 3;
        next += bytes;
        bits += bytes * 8;
        r->loaded += (uint64_t)bytes;
      } else {
        r->buffer = buffer, r->bits = bits, r->next = next;
        fill_slow(r);
        buffer = r->buffer, bits = r->bits, next = r->next;
        clean = r->marker == 0;
      }
    }
    /* Whole codes within the block: one lookup, one test. */
    uint32_t entry = skip[buffer >> (64 - SKIP_BITS)];
    int need = (int)(entry >> 4) & 127;
    if (k + need <= 64) {
      int used = (int)(entry & 15);
      buffer <<= used;
      bits -= used;
      if (entry & 0x800) break;
      k += need;
      continue;
    }
    /* A code the table cannot take whole (a long one, or one that ends the block at 63): one
     * at a time. */
    r->buffer = buffer, r->bits = bits, r->next = next;
    int symbol = decode_symbol(r, t);
    if (symbol < 0) {
      status = CMD_ERR_CORRUPT;
      break;
    }
    int size = symbol & 15, run = symbol >> 4;
    if (size != 0) {
      fill(r);
      drop(r, size);
      k += run + 1;
    } else if (run == 15) {
      k += 16;
    } else {
      buffer = r->buffer, bits = r->bits, next = r->next;
      break;
    }
    buffer = r->buffer, bits = r->bits, next = r->next;
    clean = r->marker == 0;
  }
  r->buffer = buffer, r->bits = bits, r->next = next;
  return status;
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
        huff_table *ac = &d->ac[comp->ac_table];
        for (int by = 0; by < rows; by++) {
          for (int bx = 0; bx < columns; bx++) {
            int16_t *coef = unit + (size_t)by * comp->pbw + (size_t)bx;
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
            if (mode == SEQUENTIAL && skip_ac(r, ac) != CMD_OK)
              return fail(d, CMD_ERR_CORRUPT, "Corrupt JPEG data: bad Huffman code");
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

/* ---- Two threads for a baseline scan --------------------------------------------------------
 *
 * A baseline scan is one stream of Huffman codes, so it cannot simply be split. But a decoder
 * started at an arbitrary byte falls into step with the true code and block boundaries after a
 * few codes (Huffman codes synchronize themselves), so a second thread decodes the second half
 * of the file from its middle, assuming an MCU starts there, and records where each of its MCUs
 * starts (in bits of unstuffed data from the start of the scan) with the DC differences it
 * found. The first thread decodes from the start; when it reaches an MCU start the second
 * thread also recorded, both were in the same state there (same bit, same block), so from that
 * MCU on the second thread's results are exactly what the first would find: the first thread
 * takes them, adding its own DC predictions. If no such MCU comes (or the second thread met an
 * error, or did not get to the end), the first thread simply goes on alone: the result never
 * depends on the guess. Used for files without restart markers (those could be split at a
 * marker instead) and large enough to pay for a thread. */

enum { PARALLEL_MIN_UNITS = 4096, PARALLEL_MIN_BYTES = 256 * 1024 };

typedef struct second_half {
  dc_decoder *d;
  component *const *in_scan;
  int ns;
  int blocks; /* blocks per MCU */
  uint32_t total;
  cmd_source source;
  bit_reader reader;
  uint64_t *starts;  /* bit position of each MCU it decoded */
  int32_t *diffs;    /* its DC differences, `blocks` per MCU */
  uint32_t published; /* starts[0 ..< published] are written (atomic) */
  uint32_t completed; /* MCUs decoded without running past the data */
  int failed;
  int stop; /* set by the first thread (atomic) */
  uint64_t end_offset; /* where in the file its reading stopped */
  int end_marker;
  int end_ended;
} second_half;

/* The DC differences of one sequential MCU (AC codes skipped); CMD_OK or CMD_ERR_CORRUPT. */
HOT int sequential_mcu(bit_reader *r, const dc_decoder *d, component *const *in_scan, int ns,
                       int32_t *diffs) {
  int b = 0;
  for (int i = 0; i < ns; i++) {
    const component *comp = in_scan[i];
    int count = ns == 1 ? 1 : comp->h * comp->v;
    const huff_table *dc = &d->dc[comp->dc_table];
    huff_table *ac = (huff_table *)&d->ac[comp->ac_table];
    for (int k = 0; k < count; k++) {
      fill(r);
      int size = decode_symbol(r, dc);
      if (size < 0 || size > 15) return CMD_ERR_CORRUPT;
      fill(r);
      diffs[b++] = receive_extend(r, size);
      if (skip_ac(r, ac) != CMD_OK) return CMD_ERR_CORRUPT;
    }
  }
  return CMD_OK;
}

/* Stores one MCU's differences as coefficients, carrying the DC predictions. */
HOT void store_mcu(component *const *in_scan, int ns, uint32_t units_x, uint32_t unit,
                   const int32_t *diffs) {
  uint32_t ux = unit % units_x, uy = unit / units_x;
  int b = 0;
  for (int i = 0; i < ns; i++) {
    component *comp = in_scan[i];
    int rows = ns == 1 ? 1 : comp->v, columns = ns == 1 ? 1 : comp->h;
    int16_t *base = comp->dc + (size_t)uy * (size_t)rows * comp->pbw + (size_t)ux * (size_t)columns;
    for (int by = 0; by < rows; by++) {
      for (int bx = 0; bx < columns; bx++) {
        comp->pred = (int32_t)((uint32_t)comp->pred + (uint32_t)diffs[b++]);
        base[(size_t)by * comp->pbw + (size_t)bx] = (int16_t)comp->pred;
      }
    }
  }
}

static uint64_t bit_position(const bit_reader *r) { return r->loaded * 8 - (uint64_t)r->bits; }

static void *second_half_run(void *argument) {
  second_half *half = argument;
  /* The budget is CPU time on each thread's own clock, so this thread starts its own. */
  uint64_t deadline = cmd_deadline(half->d->budget_ms);
  bit_reader *r = &half->reader;
  reader_load(r);
  for (uint32_t i = 0; i < half->total; i++) {
    if (__atomic_load_n(&half->stop, __ATOMIC_ACQUIRE) || ((i & 255) == 0 && cmd_past(deadline))) break;
    fill(r);
    half->starts[i] = bit_position(r);
    __atomic_store_n(&half->published, i + 1, __ATOMIC_RELEASE);
    if (sequential_mcu(r, half->d, half->in_scan, half->ns, half->diffs + (size_t)i * half->blocks) != CMD_OK) {
      half->failed = 1;
      break;
    }
    if (overran(r)) break;
    half->completed = i + 1;
  }
  reader_store(r);
  half->end_offset = r->source->fd >= 0 ? r->source->file_offset - r->source->available
                                        : (uint64_t)(r->source->next - r->source->memory);
  half->end_marker = r->marker;
  half->end_ended = r->ended;
  return NULL;
}

/* Data bytes (stuffing removed) in source bytes [from, to), or -1 when a marker lies there. */
static int64_t data_bytes(cmd_source *source, uint64_t from, uint64_t to) {
  uint8_t buffer[16384];
  int64_t stuffed = 0;
  int last_ff = 0;
  for (uint64_t at = from; at < to;) {
    size_t want = to - at < sizeof buffer ? (size_t)(to - at) : sizeof buffer;
    const uint8_t *bytes;
    size_t got;
    if (source->fd >= 0) {
      ssize_t n = pread(source->fd, buffer, want, (off_t)at);
      if (n <= 0) return -1;
      bytes = buffer;
      got = (size_t)n;
    } else {
      bytes = source->memory + at;
      got = want;
    }
    /* From one 0xFF to the next with memchr: this runs over half the scan before the second
     * thread can start, so a byte-by-byte loop here cost a tenth of the whole decode. */
    size_t i = 0;
    if (last_ff && got > 0) {
      if (bytes[0] != 0) return -1;
      stuffed++;
      i = 1;
    }
    last_ff = 0;
    while (i < got) {
      const uint8_t *ff = memchr(bytes + i, 0xFF, got - i);
      if (ff == NULL) break;
      size_t at_ff = (size_t)(ff - bytes);
      if (at_ff + 1 == got) {
        last_ff = 1;
        break;
      }
      if (bytes[at_ff + 1] != 0) return -1;
      stuffed++;
      i = at_ff + 2;
    }
    at += got;
  }
  return (int64_t)(to - from) - stuffed;
}

/* A sequential scan on two threads; returns CMD_FALLBACK (having done nothing) when the scan
 * does not suit, else the scan's status. */
static int decode_sequential_parallel(dc_decoder *d, component *const *in_scan, int ns) {
  uint32_t units_x = ns == 1 ? in_scan[0]->bw : d->mcux;
  uint32_t units_y = ns == 1 ? in_scan[0]->bh : d->mcuy;
  uint64_t total64 = (uint64_t)units_x * units_y;
  cmd_source *source = d->source;
  uint64_t start = source->fd >= 0 ? source->file_offset - source->available
                                   : (uint64_t)(source->next - source->memory);
  uint64_t size = source->memory_length;
  if (source->fd >= 0) {
    struct stat status;
    if (fstat(source->fd, &status) != 0) return CMD_FALLBACK;
    size = (uint64_t)status.st_size;
  }
  if (d->restart_interval != 0 || total64 < PARALLEL_MIN_UNITS || total64 > 0x7FFFFFFFu ||
      size < start + PARALLEL_MIN_BYTES || sysconf(_SC_NPROCESSORS_ONLN) < 2)
    return CMD_FALLBACK;
  uint32_t total = (uint32_t)total64;
  int blocks = 0;
  for (int i = 0; i < ns; i++) blocks += ns == 1 ? 1 : in_scan[i]->h * in_scan[i]->v;
  for (int i = 0; i < ns; i++) {
    huff_table *ac = &d->ac[in_scan[i]->ac_table];
    if (ac->skip == NULL && !build_skip(ac)) return CMD_FALLBACK;
  }

  /* The second half starts at the middle byte (after a stuffed zero if it falls on one). */
  uint64_t middle = start + (size - start) / 2;
  int64_t before = data_bytes(source, start, middle);
  if (before < 0) return CMD_FALLBACK;
  if (middle > start) {
    uint8_t previous = 0;
    if (source->fd >= 0 ? pread(source->fd, &previous, 1, (off_t)(middle - 1)) != 1
                        : (previous = source->memory[middle - 1], 0))
      return CMD_FALLBACK;
    if (previous == 0xFF) middle++, before--; /* the zero after it is stuffing */
  }
  second_half *half = calloc(1, sizeof *half);
  if (half == NULL) return CMD_FALLBACK;
  half->d = d;
  half->in_scan = in_scan;
  half->ns = ns;
  half->blocks = blocks;
  half->total = total;
  half->starts = malloc(sizeof(uint64_t) * total);
  half->diffs = malloc(sizeof(int32_t) * (size_t)total * (size_t)blocks);
  int ready = half->starts != NULL && half->diffs != NULL;
  if (ready) {
    if (source->fd >= 0) {
      ready = cmd_source_file(&half->source, source->fd) == CMD_OK;
      half->source.file_offset = middle;
    } else {
      cmd_source_memory(&half->source, source->memory + middle, source->memory_length - middle);
    }
  }
  half->reader.source = &half->source;
  half->reader.loaded = (uint64_t)before;
  pthread_t thread;
  if (!ready || pthread_create(&thread, NULL, second_half_run, half) != 0) {
    cmd_source_close(&half->source);
    free(half->starts);
    free(half->diffs);
    free(half);
    return CMD_FALLBACK;
  }

  /* The first half, looking for an MCU start the second thread shares. */
  bit_reader *r = &d->reader;
  int32_t diffs[64];
  uint64_t from_bits = (uint64_t)before * 8;
  uint32_t match = 0;
  int joined = 0, status = CMD_OK;
  for (uint32_t unit = 0; unit < total; unit++) {
    if (unit % units_x == 0 && cmd_past(d->deadline)) {
      status = fail(d, CMD_ERR_TIMEOUT, "JPEG decoding ran out of time");
      break;
    }
    fill(r);
    uint64_t here = bit_position(r);
    if (!joined && here >= from_bits) {
      uint32_t published = __atomic_load_n(&half->published, __ATOMIC_ACQUIRE);
      while (match < published && half->starts[match] < here) match++;
      if (match < published && half->starts[match] == here) {
        /* In step: the rest is the second thread's, if it got to the end cleanly. When it has
         * not done half of the rest yet (a busy machine gave it little time), waiting for it
         * would be slower than going on alone, so it is stopped. */
        if ((uint64_t)(published - match) * 2 < (uint64_t)(total - unit))
          __atomic_store_n(&half->stop, 1, __ATOMIC_RELEASE);
        pthread_join(thread, NULL);
        joined = 1;
        uint32_t rest = total - unit;
        if (!half->failed && half->completed >= match && half->completed - match >= rest) {
          for (uint32_t k = 0; k < rest; k++)
            store_mcu(in_scan, ns, units_x, unit + k, half->diffs + (size_t)(match + k) * blocks);
          reset_bits(r);
          r->marker = half->end_marker;
          r->ended = half->end_ended;
          if (source->fd >= 0) {
            source->file_offset = half->end_offset;
            source->available = 0;
          } else {
            source->next = source->memory + middle + half->end_offset;
            source->available = source->memory_length - middle - (size_t)half->end_offset;
          }
          reader_load(r);
          break;
        }
      }
    }
    if (sequential_mcu(r, d, in_scan, ns, diffs) != CMD_OK) {
      status = fail(d, CMD_ERR_CORRUPT, "Corrupt JPEG data: bad Huffman code");
      break;
    }
    if (overran(r)) {
      status = r->marker != 0 ? fail(d, CMD_ERR_CORRUPT, "Corrupt JPEG data: premature end of data segment")
                              : fail(d, CMD_ERR_TRUNCATED, "Premature end of JPEG file");
      break;
    }
    store_mcu(in_scan, ns, units_x, unit, diffs);
  }
  if (!joined) {
    __atomic_store_n(&half->stop, 1, __ATOMIC_RELEASE);
    pthread_join(thread, NULL);
  }
  cmd_source_close(&half->source);
  free(half->starts);
  free(half->diffs);
  free(half);
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
    status = decode_sequential_parallel(d, in_scan, ns);
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
  uint8_t *row = malloc((size_t)count * 3);
  if (row == NULL) return fail(d, CMD_ERR_NO_MEMORY, "no memory for a row");
  /* The 1 × 1 inverse DCT: (coefficient × quantizer + 4) >> 3, centred on 128. */
  int q[MAX_COMPONENTS];
  for (int c = 0; c < d->ncomp; c++) q[c] = d->quant[d->comp[c].quant];
  for (uint32_t y = first_row; y < last_row; y++) {
    const int16_t *planes[MAX_COMPONENTS];
    uint32_t hstep[MAX_COMPONENTS], column[MAX_COMPONENTS], phase[MAX_COMPONENTS];
    for (int c = 0; c < d->ncomp; c++) {
      const component *comp = &d->comp[c];
      uint32_t sy = y / (uint32_t)(d->vmax / comp->v);
      planes[c] = comp->dc + (size_t)sy * comp->pbw;
      hstep[c] = (uint32_t)(d->hmax / comp->h);
      /* Which sample of the component column x takes, counted along (no division a pixel). */
      column[c] = first_column / hstep[c];
      phase[c] = first_column % hstep[c];
    }
    if (channels == 1) {
      for (uint32_t i = 0; i < count; i++) {
        row[i] = clamp_sample(((planes[0][column[0]] * q[0] + 4) >> 3) + 128);
        if (++phase[0] == hstep[0]) phase[0] = 0, column[0]++;
      }
    } else {
      /* Chroma changes once per chroma block: its part of the colour is worked out then. */
      int last_cb = -1, last_cr = -1, red = 0, green = 0, blue = 0;
      for (uint32_t i = 0; i < count; i++) {
        int luma = clamp_sample(((planes[0][column[0]] * q[0] + 4) >> 3) + 128);
        int cbs = clamp_sample(((planes[1][column[1]] * q[1] + 4) >> 3) + 128);
        int crs = clamp_sample(((planes[2][column[2]] * q[2] + 4) >> 3) + 128);
        if (cbs != last_cb || crs != last_cr) {
          int cb = cbs - 128, cr = crs - 128;
          red = (int)((FIX(1.40200) * cr + ONE_HALF) >> SCALEBITS);
          blue = (int)((FIX(1.77200) * cb + ONE_HALF) >> SCALEBITS);
          green = (int)((-FIX(0.34414) * cb + ONE_HALF + -FIX(0.71414) * cr) >> SCALEBITS);
          last_cb = cbs;
          last_cr = crs;
        }
        row[3 * i] = clamp_sample(luma + red);
        row[3 * i + 1] = clamp_sample(luma + green);
        row[3 * i + 2] = clamp_sample(luma + blue);
        for (int c = 0; c < 3; c++) {
          if (++phase[c] == hstep[c]) phase[c] = 0, column[c]++;
        }
      }
    }
    cmd_sink_row(sink, y, first_column, 1, row, count);
  }
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

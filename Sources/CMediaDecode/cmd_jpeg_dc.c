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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  cmd_source *source;
  uint64_t buffer; /* next bits, most significant first */
  int bits;
  int marker;    /* a marker met inside the entropy data (0: none) */
  int fake_bits; /* zero bits added after a marker or the end of the file */
  int ended;
} bit_reader;

typedef struct dc_decoder {
  cmd_source *source;
  const cmd_limits *limits;
  uint64_t deadline;
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
      if (length <= FAST_BITS) {
        int shift = FAST_BITS - length;
        for (int j = 0; j < (1 << shift); j++)
          t->fast[(code << shift) | j] = (uint16_t)((length << 8) | symbols[k]);
      }
    }
    t->maxcode[length] = counts[length - 1] ? code - 1 : -1;
    /* A canonical code never needs more codes than its length allows. */
    if (code > (1 << length)) return 0;
    code <<= 1;
  }
  t->maxcode[17] = 0x7FFFFFFF;
  t->defined = 1;
  return 1;
}

/* The symbol at the top of a bit pattern of `width` bits, and its length; -1 for none. */
static int pattern_symbol(const huff_table *t, uint32_t pattern, int width, int *length) {
  for (int l = 1; l <= 16 && l <= width; l++) {
    int32_t code = (int32_t)(pattern >> (width - l));
    if (t->maxcode[l] >= 0 && code <= t->maxcode[l] && code >= t->mincode[l]) {
      *length = l;
      return t->symbols[t->valptr[l] + code - t->mincode[l]];
    }
  }
  return -1;
}

/* For every SKIP_BITS pattern: the whole AC codes (code and extra bits) it holds, up to and
 * including an end of block. */
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
    t->skip[pattern] = count == 0 ? 0 : (uint16_t)(used | (advance << 4) | (eob << 11) | (1 << 15));
  }
  return 1;
}

/* ---- Bits -------------------------------------------------------------------------------- */

static void fill_slow(bit_reader *r) {
  while (r->bits <= 56) {
    int c = 0;
    if (r->marker != 0 || r->ended) {
      r->fake_bits += 8;
    } else {
      c = cmd_source_byte(r->source);
      if (c < 0) {
        r->ended = 1;
        r->fake_bits += 8;
        c = 0;
      } else if (c == 0xFF) {
        int next;
        do next = cmd_source_byte(r->source);
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
  }
}

/* At least 32 bits at hand (57 after a refill): eight bytes at once when none is 0xFF. */
static inline void fill(bit_reader *r) {
  if (r->bits >= 32) return;
  cmd_source *s = r->source;
  if (r->marker == 0 && s->available >= 8) {
    uint64_t word;
    memcpy(&word, s->next, 8);
    uint64_t inverted = ~word;
    if (((inverted - 0x0101010101010101ull) & ~inverted & 0x8080808080808080ull) == 0) {
      word = __builtin_bswap64(word);
      r->buffer |= word >> r->bits;
      int bytes = (63 - r->bits) >> 3;
      s->next += bytes;
      s->available -= (size_t)bytes;
      r->bits += bytes * 8;
      /* The bits below are the next bytes themselves, so a later fill ORs the same values. */
      return;
    }
  }
  fill_slow(r);
}

static inline uint32_t peek(const bit_reader *r, int n) { return (uint32_t)(r->buffer >> (64 - n)); }

static inline void drop(bit_reader *r, int n) {
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
static inline int overran(const bit_reader *r) { return r->bits < r->fake_bits; }

/* A Huffman symbol (the caller filled first), or -1 for a code the table does not have. */
static inline int decode_symbol(bit_reader *r, const huff_table *t) {
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
static inline int receive_extend(bit_reader *r, int size) {
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

/* Skips the AC coefficients of one block in a sequential scan. */
static int skip_ac(bit_reader *r, huff_table *t) {
  int k = 1;
  while (k < 64) {
    fill(r);
    uint32_t entry = t->skip[peek(r, SKIP_BITS)];
    int advance = (int)(entry >> 4) & 127;
    int eob = (entry >> 11) & 1;
    /* Whole codes within the block: use them. An entry that would run past coefficient 63, or
     * whose end of block would really be the next block's DC code, is decoded one by one. */
    if ((entry >> 15) && (k + advance < 64 || (k + advance == 64 && !eob))) {
      drop(r, (int)(entry & 15));
      if (eob) return CMD_OK;
      k += advance;
      continue;
    }
    int symbol = decode_symbol(r, t);
    if (symbol < 0) return CMD_ERR_CORRUPT;
    int size = symbol & 15, run = symbol >> 4;
    if (size != 0) {
      fill(r);
      drop(r, size);
      k += run + 1;
    } else if (run == 15) {
      k += 16;
    } else {
      return CMD_OK;
    }
  }
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
  int refine = d->progressive && ah != 0;
  int skip_acs = !d->progressive;
  for (int i = 0; i < ns; i++) {
    component *comp = in_scan[i];
    if (!refine && !d->dc[comp->dc_table].defined)
      return fail(d, CMD_ERR_CORRUPT, "the scan uses an undefined Huffman table");
    if (skip_acs) {
      huff_table *ac = &d->ac[comp->ac_table];
      if (!ac->defined) return fail(d, CMD_ERR_CORRUPT, "the scan uses an undefined Huffman table");
      if (ac->skip == NULL && !build_skip(ac)) return fail(d, CMD_ERR_NO_MEMORY, "no memory");
    }
  }

  /* One component: its own block grid, one block per MCU. Several: whole MCUs. */
  uint32_t units_x = ns == 1 ? in_scan[0]->bw : d->mcux;
  uint32_t units_y = ns == 1 ? in_scan[0]->bh : d->mcuy;
  bit_reader *r = &d->reader;
  reset_bits(r);
  r->marker = 0;
  r->ended = 0;
  uint32_t until_restart = d->restart_interval;
  int restart_number = 0;
  for (uint32_t uy = 0; uy < units_y; uy++) {
    if (cmd_past(d->deadline)) return fail(d, CMD_ERR_TIMEOUT, "JPEG decoding ran out of time");
    for (uint32_t ux = 0; ux < units_x; ux++) {
      if (d->restart_interval != 0) {
        if (until_restart == 0) {
          status = read_restart(d, restart_number);
          if (status != CMD_OK) return status;
          restart_number = (restart_number + 1) & 7;
          until_restart = d->restart_interval;
        }
        until_restart--;
      }
      for (int i = 0; i < ns; i++) {
        component *comp = in_scan[i];
        int bh = ns == 1 ? 1 : comp->v, bwid = ns == 1 ? 1 : comp->h;
        for (int by = 0; by < bh; by++) {
          for (int bx = 0; bx < bwid; bx++) {
            uint32_t row = ns == 1 ? uy : uy * (uint32_t)comp->v + (uint32_t)by;
            uint32_t column = ns == 1 ? ux : ux * (uint32_t)comp->h + (uint32_t)bx;
            int16_t *coef = &comp->dc[(size_t)row * comp->pbw + column];
            fill(r);
            if (refine) {
              if (peek(r, 1)) *coef = (int16_t)((uint16_t)*coef | (1u << al));
              drop(r, 1);
              continue;
            }
            int size = decode_symbol(r, &d->dc[comp->dc_table]);
            if (size < 0 || size > 15) return fail(d, CMD_ERR_CORRUPT, "Corrupt JPEG data: bad Huffman code");
            fill(r);
            /* Unsigned arithmetic: a hostile file may push the sum out of range. */
            comp->pred = (int32_t)((uint32_t)comp->pred + (uint32_t)receive_extend(r, size));
            *coef = (int16_t)((uint32_t)comp->pred << al);
            if (skip_acs && skip_ac(r, &d->ac[comp->ac_table]) != CMD_OK)
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
  reset_bits(r);
  return CMD_OK;
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
    int hstep[MAX_COMPONENTS];
    for (int c = 0; c < d->ncomp; c++) {
      const component *comp = &d->comp[c];
      uint32_t sy = y / (uint32_t)(d->vmax / comp->v);
      planes[c] = comp->dc + (size_t)sy * comp->pbw;
      hstep[c] = d->hmax / comp->h;
    }
    for (uint32_t i = 0; i < count; i++) {
      uint32_t x = first_column + i;
      int sample[MAX_COMPONENTS];
      for (int c = 0; c < d->ncomp; c++) {
        int dcval = planes[c][x / (uint32_t)hstep[c]] * q[c];
        sample[c] = clamp_sample(((dcval + 4) >> 3) + 128);
      }
      if (channels == 1) {
        row[i] = (uint8_t)sample[0];
        continue;
      }
      int luma = sample[0], cb = sample[1] - 128, cr = sample[2] - 128;
      int red = (int)((FIX(1.40200) * cr + ONE_HALF) >> SCALEBITS);
      int blue = (int)((FIX(1.77200) * cb + ONE_HALF) >> SCALEBITS);
      int green = (int)((-FIX(0.34414) * cb + ONE_HALF + -FIX(0.71414) * cr) >> SCALEBITS);
      row[3 * i] = clamp_sample(luma + red);
      row[3 * i + 1] = clamp_sample(luma + green);
      row[3 * i + 2] = clamp_sample(luma + blue);
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

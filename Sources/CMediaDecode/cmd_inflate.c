/* A zlib stream inflated into a sliding window, for PNG image data (cmd_png_fast.c).
 *
 * zlib 1.2.13's inflate was half of a large PNG's decode, and it copies every byte it writes
 * once more into its own window when the output is taken a row at a time. This one follows
 * libdeflate's design: a 64-bit bit buffer refilled a word at a time, one table lookup per
 * literal/length or distance (codes longer than the main table's bits go through a subtable),
 * a fast loop that decodes without bounds checks while at least a word of input and a longest
 * match of output remain, and a careful loop for the ends that stops wherever the output is
 * full (mid-match included) and resumes there. Output goes into one buffer that keeps the last
 * 32 KiB (what a distance can reach) and the bytes the caller has not taken when it slides, so
 * memory stays a few hundred KiB whatever the picture's size; the caller reads rows in place.
 *
 * It accepts what zlib's inflate accepts and refuses what it refuses (a differential fuzz
 * target and tests compare them), with one difference of intent: a distance may reach back
 * 32 KiB whatever window size the header declares, as libdeflate allows (zlib's own answer
 * depends on how its caller sized the output buffers). The Adler-32 trailer is read but not
 * checked, as libpng was told (PNG_IGNORE_ADLER32). */
#include "cmd_internal.h"

#include <stdlib.h>
#include <string.h>

enum {
  WINDOW = 32768,
  /* The most a match writes, and how far the fast copies may write past its end. */
  MAX_MATCH = 258,
  COPY_SLACK = 32,
  /* Bits of the main tables; longer codes go through a subtable. */
  LITLEN_BITS = 11,
  DIST_BITS = 8,
  CODELEN_BITS = 7,
  /* Entries the tables can need (zlib's `enough` for 288 and 32 symbols at these bits). */
  LITLEN_ENOUGH = 2342,
  DIST_ENOUGH = 402,
  IN_CAPACITY = 32768,
  /* Output bytes decoded between slides of the window, at least. */
  CHUNK = 256 * 1024,
};

/* A table entry: its code's length in bits (0-4; a subtable's entries too, so a lookup consumes
 * nothing until its symbol is known), its kind (5-7), the extra bits that follow it or a
 * subtable's index bits (8-12), and its value (16-31: a literal, a length or distance base, a
 * subtable's first entry). */
enum { KIND_LITERAL = 0, KIND_LENGTH = 1, KIND_END = 2, KIND_SUBTABLE = 3, KIND_INVALID = 4 };
#define ENTRY(bits, kind, extra, value) \
  ((uint32_t)(bits) | ((uint32_t)(kind) << 5) | ((uint32_t)(extra) << 8) | ((uint32_t)(value) << 16))
#define E_BITS(e) ((e) & 31u)
#define E_KIND(e) (((e) >> 5) & 7u)
#define E_EXTRA(e) (((e) >> 8) & 31u)
#define E_VALUE(e) ((e) >> 16)

static const uint16_t length_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                         31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                         2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
                                       193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
static const uint8_t codelen_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

enum {
  STATE_ZLIB_HEADER,
  STATE_BLOCK_HEADER,
  STATE_STORED,
  STATE_CODES,
  STATE_MATCH,
  STATE_TRAILER,
  STATE_END,
};

struct cmd_inflate {
  cmd_inflate_fill fill;
  void *context;
  /* Input: in_buffer[in, in_end) not yet read; more comes from fill until it gives nothing. */
  uint8_t in_buffer[IN_CAPACITY];
  const uint8_t *in, *in_end;
  int in_over;
  /* Bits not yet used, the lowest first; above `bitsleft` the word may hold the next input
   * bytes again (the refill loads a whole word and keeps the bytes it did not take). */
  uint64_t bits;
  uint32_t bitsleft;
  /* Zero bytes put into the bit buffer after the input ended; using one is an error. */
  uint32_t overrun;
  /* Output: window[0, pos) written, [taken, pos) not yet taken by the caller. The window is
   * `own` (cmd_inflate_need) or the caller's buffer with the history before it
   * (cmd_inflate_into). */
  uint8_t *window, *own;
  size_t capacity, pos, taken;
  /* Bytes cmd_inflate_into has written in all. */
  uint64_t total;
  int state, last_block;
  uint32_t stored_left;
  uint32_t match_length, match_dist;
  int status;
  char message[96];
  uint32_t litlen[LITLEN_ENOUGH];
  uint32_t dist[DIST_ENOUGH];
};

static int stop(cmd_inflate *z, int status, const char *message) {
  z->status = status;
  size_t length = strlen(message);
  if (length >= sizeof z->message) length = sizeof z->message - 1;
  memcpy(z->message, message, length);
  z->message[length] = '\0';
  return status;
}

/* An error found in the data: a truncation if it may come from the zero bytes put in after the
 * input ended (fewer real bits than a longest code were left), corrupt otherwise. */
static int corrupt(cmd_inflate *z, const char *message) {
  uint32_t real = z->bitsleft >= 8 * z->overrun ? z->bitsleft - 8 * z->overrun : 0;
  if (z->overrun > 0 && real < 15 + 13 + 15 + 5) return stop(z, CMD_ERR_TRUNCATED, "Not enough image data");
  return stop(z, CMD_ERR_CORRUPT, message);
}

static inline uint64_t load64(const uint8_t *p) {
  uint64_t value;
  memcpy(&value, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  value = __builtin_bswap64(value);
#endif
  return value;
}

/* ---- Input ------------------------------------------------------------------------------ */

/* More input after what is left; 0 when fill gives nothing (from then on, never asked again). */
static int more_input(cmd_inflate *z) {
  if (z->in_over) return 0;
  size_t left = (size_t)(z->in_end - z->in);
  memmove(z->in_buffer, z->in, left);
  size_t got = z->fill(z->context, z->in_buffer + left, IN_CAPACITY - left);
  z->in = z->in_buffer;
  z->in_end = z->in_buffer + left + got;
  if (got == 0) z->in_over = 1;
  return got > 0;
}

/* Fills the bit buffer to 56 … 63 bits (never 64: the word refill shifts by bitsleft), a byte
 * at a time from the input (asking for more), zeros once it ends (counted in overrun). */
static void refill_slow(cmd_inflate *z) {
  while (z->bitsleft < 56) {
    if (z->in == z->in_end && !more_input(z)) {
      /* Above bitsleft nothing is left from a word load: no input followed. */
      z->bits &= ((uint64_t)1 << z->bitsleft) - 1;
      z->overrun++;
      z->bitsleft += 8;
      continue;
    }
    z->bits &= ((uint64_t)1 << z->bitsleft) - 1;
    z->bits |= (uint64_t)*z->in++ << z->bitsleft;
    z->bitsleft += 8;
  }
}

/* Whether zero bytes from past the end have been used. */
static inline int overran(const cmd_inflate *z) { return z->bitsleft < 8 * z->overrun; }

/* n ≤ 32 bits from the slow reader. */
static uint32_t take_bits(cmd_inflate *z, uint32_t n) {
  if (z->bitsleft < n) refill_slow(z);
  uint32_t value = (uint32_t)(z->bits & (((uint64_t)1 << n) - 1));
  z->bits >>= n;
  z->bitsleft -= n;
  return value;
}

/* To the next byte boundary; then whole bytes in the bit buffer come before the input. */
static void align_to_byte(cmd_inflate *z) {
  uint32_t drop = z->bitsleft & 7;
  z->bits >>= drop;
  z->bitsleft -= drop;
}

/* ---- Tables ----------------------------------------------------------------------------- */

/* The value entry of symbol `symbol` for a table of kind litlen (1), distance (2) or code
 * length (0), to be consumed with `bits` bits. */
static uint32_t symbol_entry(int which, uint32_t symbol, uint32_t bits) {
  if (which == 0) return ENTRY(bits, KIND_LITERAL, 0, symbol);
  if (which == 1) {
    if (symbol < 256) return ENTRY(bits, KIND_LITERAL, 0, symbol);
    if (symbol == 256) return ENTRY(bits, KIND_END, 0, 0);
    if (symbol > 285) return ENTRY(bits, KIND_INVALID, 0, 0);
    return ENTRY(bits, KIND_LENGTH, length_extra[symbol - 257], length_base[symbol - 257]);
  }
  if (symbol > 29) return ENTRY(bits, KIND_INVALID, 0, 0);
  return ENTRY(bits, KIND_LENGTH, dist_extra[symbol], dist_base[symbol]);
}

static uint32_t reverse_bits(uint32_t code, uint32_t length) {
  uint32_t reversed = 0;
  for (uint32_t i = 0; i < length; i++) {
    reversed = (reversed << 1) | (code & 1);
    code >>= 1;
  }
  return reversed;
}

/*
 * A canonical Huffman table from code lengths, zlib's rules for which sets are valid: none
 * over-subscribed; incomplete only for the code-length code never, and for the others only when
 * the longest code has one bit (a single code, whose other half is invalid); no code at all is
 * accepted (every lookup is invalid). Returns 0 for an invalid set.
 */
static int build_table(uint32_t *table, uint32_t capacity, uint32_t table_bits, const uint8_t *lengths,
                       uint32_t count, int which) {
  uint32_t counts[16] = {0}, offsets[16];
  uint16_t sorted[288];
  for (uint32_t i = 0; i < count; i++) counts[lengths[i]]++;
  counts[0] = 0;
  uint32_t longest = 0;
  for (uint32_t l = 1; l <= 15; l++)
    if (counts[l] != 0) longest = l;
  uint32_t main_size = 1u << table_bits;
  for (uint32_t i = 0; i < main_size; i++) table[i] = ENTRY(1, KIND_INVALID, 0, 0);
  if (longest == 0) return 1;
  int32_t left = 1;
  for (uint32_t l = 1; l <= 15; l++) {
    left = 2 * left - (int32_t)counts[l];
    if (left < 0) return 0; /* over-subscribed */
  }
  if (left > 0 && (which == 0 || longest != 1)) return 0; /* incomplete */
  offsets[1] = 0;
  for (uint32_t l = 1; l < 15; l++) offsets[l + 1] = offsets[l] + counts[l];
  for (uint32_t i = 0; i < count; i++)
    if (lengths[i] != 0) sorted[offsets[lengths[i]]++] = (uint16_t)i;

  /* Codes in canonical order (by length, then symbol); those longer than the main table go to
   * subtables, one per main-table prefix, sized for the codes that share it (zlib's method). */
  uint32_t remaining[16];
  memcpy(remaining, counts, sizeof remaining);
  uint32_t next_free = main_size, code = 0, index = 0, subtable_prefix = UINT32_MAX, sub_start = 0, sub_bits = 0;
  for (uint32_t l = 1; l <= longest; l++) {
    for (uint32_t k = 0; k < counts[l]; k++, code++) {
      uint32_t symbol = sorted[index++];
      uint32_t reversed = reverse_bits(code, l);
      remaining[l]--;
      if (l <= table_bits) {
        uint32_t entry = symbol_entry(which, symbol, l);
        for (uint32_t i = reversed; i < main_size; i += 1u << l) table[i] = entry;
        continue;
      }
      uint32_t prefix = reversed & (main_size - 1);
      if (prefix != subtable_prefix) {
        /* A new subtable: as many index bits as the codes from here with this prefix need. */
        sub_bits = l - table_bits;
        int32_t room = 1 << sub_bits;
        while (sub_bits + table_bits < longest) {
          uint32_t m = sub_bits + table_bits;
          room -= (int32_t)(m == l ? remaining[m] + 1 : remaining[m]);
          if (room <= 0) break;
          sub_bits++;
          room <<= 1;
        }
        if (next_free + (1u << sub_bits) > capacity) return 0;
        sub_start = next_free;
        next_free += 1u << sub_bits;
        for (uint32_t i = 0; i < (1u << sub_bits); i++) table[sub_start + i] = ENTRY(1, KIND_INVALID, 0, 0);
        table[prefix] = ENTRY(table_bits, KIND_SUBTABLE, sub_bits, sub_start);
        subtable_prefix = prefix;
      }
      uint32_t entry = symbol_entry(which, symbol, l);
      for (uint32_t i = reversed >> table_bits; i < (1u << sub_bits); i += 1u << (l - table_bits))
        table[sub_start + i] = entry;
    }
    code <<= 1;
  }
  return 1;
}

static void build_fixed(cmd_inflate *z) {
  uint8_t lengths[320];
  for (uint32_t i = 0; i < 144; i++) lengths[i] = 8;
  for (uint32_t i = 144; i < 256; i++) lengths[i] = 9;
  for (uint32_t i = 256; i < 280; i++) lengths[i] = 7;
  for (uint32_t i = 280; i < 288; i++) lengths[i] = 8;
  for (uint32_t i = 0; i < 32; i++) lengths[288 + i] = 5;
  build_table(z->litlen, LITLEN_ENOUGH, LITLEN_BITS, lengths, 288, 1);
  build_table(z->dist, DIST_ENOUGH, DIST_BITS, lengths + 288, 32, 2);
}

/* One symbol through the slow reader. */
static uint32_t decode_slow(cmd_inflate *z, const uint32_t *table, uint32_t table_bits) {
  if (z->bitsleft < 15) refill_slow(z);
  uint32_t entry = table[z->bits & ((1u << table_bits) - 1)];
  if (E_KIND(entry) == KIND_SUBTABLE)
    entry = table[E_VALUE(entry) + ((z->bits >> table_bits) & ((1u << E_EXTRA(entry)) - 1))];
  if (E_KIND(entry) != KIND_INVALID) {
    z->bits >>= E_BITS(entry);
    z->bitsleft -= E_BITS(entry);
  }
  return entry;
}

/* A dynamic block's code lengths and tables. */
static int read_dynamic(cmd_inflate *z) {
  refill_slow(z);
  uint32_t nlen = take_bits(z, 5) + 257, ndist = take_bits(z, 5) + 1, ncode = take_bits(z, 4) + 4;
  if (nlen > 286 || ndist > 30) return corrupt(z, "too many length or distance symbols");
  uint8_t code_lengths[19] = {0};
  refill_slow(z);
  for (uint32_t i = 0; i < ncode; i++) code_lengths[codelen_order[i]] = (uint8_t)take_bits(z, 3);
  if (overran(z)) return stop(z, CMD_ERR_TRUNCATED, "Not enough image data");
  uint32_t codelen_table[1u << CODELEN_BITS];
  if (!build_table(codelen_table, 1u << CODELEN_BITS, CODELEN_BITS, code_lengths, 19, 0))
    return corrupt(z, "invalid code lengths set");
  uint8_t lengths[286 + 30];
  uint32_t have = 0;
  while (have < nlen + ndist) {
    refill_slow(z);
    uint32_t entry = decode_slow(z, codelen_table, CODELEN_BITS);
    if (E_KIND(entry) == KIND_INVALID) return corrupt(z, "invalid code lengths set");
    uint32_t symbol = E_VALUE(entry);
    if (symbol < 16) {
      lengths[have++] = (uint8_t)symbol;
      continue;
    }
    uint32_t repeat;
    uint8_t value = 0;
    if (symbol == 16) {
      if (have == 0) return corrupt(z, "invalid bit length repeat");
      value = lengths[have - 1];
      repeat = 3 + take_bits(z, 2);
    } else if (symbol == 17) {
      repeat = 3 + take_bits(z, 3);
    } else {
      repeat = 11 + take_bits(z, 7);
    }
    if (have + repeat > nlen + ndist) return corrupt(z, "invalid bit length repeat");
    memset(lengths + have, value, repeat);
    have += repeat;
  }
  if (overran(z)) return stop(z, CMD_ERR_TRUNCATED, "Not enough image data");
  if (lengths[256] == 0) return corrupt(z, "invalid code -- missing end-of-block");
  if (!build_table(z->litlen, LITLEN_ENOUGH, LITLEN_BITS, lengths, nlen, 1))
    return corrupt(z, "invalid literal/lengths set");
  if (!build_table(z->dist, DIST_ENOUGH, DIST_BITS, lengths + nlen, ndist, 2))
    return corrupt(z, "invalid distances set");
  return CMD_OK;
}

/* ---- Decoding --------------------------------------------------------------------------- */

/* A match's bytes where the output has COPY_SLACK bytes of room past its end. */
static inline void copy_match_fast(uint8_t *out, uint32_t length, uint32_t dist) {
  const uint8_t *from = out - dist;
  uint8_t *end = out + length;
  if (dist >= 16) {
    do {
      memcpy(out, from, 16);
      out += 16;
      from += 16;
    } while (out < end);
  } else if (dist >= 8) {
    do {
      memcpy(out, from, 8);
      out += 8;
      from += 8;
    } while (out < end);
  } else if (dist == 1) {
    memset(out, *from, length);
  } else {
    do *out++ = *from++;
    while (out < end);
  }
}

/* The block's symbols until its end, the output's end (z->capacity) or an error. */
static int decode_codes(cmd_inflate *z) {
  uint8_t *const start = z->window;
  uint8_t *out = start + z->pos;
  uint8_t *const out_end = start + z->capacity;
  const uint32_t *litlen = z->litlen, *dist = z->dist;
  for (;;) {
    /* The fast loop: a word of input for each refill, a longest match and the copies' slack of
     * output; each round one refill gives the 48 bits a length and a distance can take. */
    if (z->in_end - z->in < 16 && !z->in_over) {
      /* Keep the whole bytes in the bit buffer: the fast loop's refill works from bitsleft. */
      more_input(z);
    }
    uint64_t bits = z->bits;
    uint32_t bitsleft = z->bitsleft;
    const uint8_t *in = z->in;
    const uint8_t *const in_end = z->in_end;
    if (z->overrun == 0) {
      while (in_end - in >= 8 && out_end - out >= MAX_MATCH + COPY_SLACK) {
        bits |= load64(in) << bitsleft;
        in += (63 - bitsleft) >> 3;
        bitsleft |= 56;
        uint32_t entry = litlen[bits & ((1u << LITLEN_BITS) - 1)];
        if (E_KIND(entry) == KIND_SUBTABLE)
          entry = litlen[E_VALUE(entry) + ((bits >> LITLEN_BITS) & ((1u << E_EXTRA(entry)) - 1))];
        uint32_t kind = E_KIND(entry);
        if (kind == KIND_LITERAL) {
          bits >>= E_BITS(entry);
          bitsleft -= E_BITS(entry);
          *out++ = (uint8_t)E_VALUE(entry);
          /* A second literal while 15 + 11 bits remain (a code through a subtable). */
          entry = litlen[bits & ((1u << LITLEN_BITS) - 1)];
          if (E_KIND(entry) == KIND_LITERAL) {
            bits >>= E_BITS(entry);
            bitsleft -= E_BITS(entry);
            *out++ = (uint8_t)E_VALUE(entry);
          }
          continue;
        }
        if (kind != KIND_LENGTH) {
          /* The block's end, or an invalid code: the careful loop below decides. */
          break;
        }
        bits >>= E_BITS(entry);
        bitsleft -= E_BITS(entry);
        uint32_t extra = E_EXTRA(entry);
        uint32_t length = E_VALUE(entry) + (uint32_t)(bits & ((1u << extra) - 1));
        bits >>= extra;
        bitsleft -= extra;
        entry = dist[bits & ((1u << DIST_BITS) - 1)];
        if (E_KIND(entry) == KIND_SUBTABLE)
          entry = dist[E_VALUE(entry) + ((bits >> DIST_BITS) & ((1u << E_EXTRA(entry)) - 1))];
        if (E_KIND(entry) != KIND_LENGTH) {
          z->bits = bits;
          z->bitsleft = bitsleft;
          z->in = in;
          z->pos = (size_t)(out - start);
          return corrupt(z, "invalid distance code");
        }
        bits >>= E_BITS(entry);
        bitsleft -= E_BITS(entry);
        extra = E_EXTRA(entry);
        uint32_t distance = E_VALUE(entry) + (uint32_t)(bits & ((1u << extra) - 1));
        bits >>= extra;
        bitsleft -= extra;
        if (distance > (size_t)(out - start)) {
          z->bits = bits;
          z->bitsleft = bitsleft;
          z->in = in;
          z->pos = (size_t)(out - start);
          return corrupt(z, "invalid distance too far back");
        }
        copy_match_fast(out, length, distance);
        out += length;
      }
      /* Above bitsleft the word may hold bytes the input still has: drop them. */
      bits &= ((uint64_t)1 << bitsleft) - 1;
    }
    z->bits = bits;
    z->bitsleft = bitsleft;
    z->in = in;

    /* The careful loop: one symbol, every read and write checked. */
    if (out == out_end) break;
    refill_slow(z);
    uint32_t entry = decode_slow(z, litlen, LITLEN_BITS);
    uint32_t kind = E_KIND(entry);
    if (kind == KIND_INVALID) {
      z->pos = (size_t)(out - start);
      return corrupt(z, "invalid literal/length code");
    }
    if (overran(z)) break;
    if (kind == KIND_LITERAL) {
      *out++ = (uint8_t)E_VALUE(entry);
      continue;
    }
    if (kind == KIND_END) {
      z->state = z->last_block ? STATE_TRAILER : STATE_BLOCK_HEADER;
      z->pos = (size_t)(out - start);
      return CMD_OK;
    }
    uint32_t length = E_VALUE(entry) + take_bits(z, E_EXTRA(entry));
    entry = decode_slow(z, dist, DIST_BITS);
    if (E_KIND(entry) != KIND_LENGTH) {
      z->pos = (size_t)(out - start);
      return corrupt(z, "invalid distance code");
    }
    uint32_t distance = E_VALUE(entry) + take_bits(z, E_EXTRA(entry));
    if (overran(z)) break;
    if (distance > (size_t)(out - start)) {
      z->pos = (size_t)(out - start);
      return corrupt(z, "invalid distance too far back");
    }
    z->match_length = length;
    z->match_dist = distance;
    z->state = STATE_MATCH;
    z->pos = (size_t)(out - start);
    return CMD_OK;
  }
  z->pos = (size_t)(out - start);
  if (overran(z)) return stop(z, CMD_ERR_TRUNCATED, "Not enough image data");
  return CMD_OK;
}

/* Decodes until the output buffer is full, the stream has ended, or an error. */
static int run(cmd_inflate *z) {
  while (z->status == CMD_OK && z->pos < z->capacity) {
    switch (z->state) {
    case STATE_ZLIB_HEADER: {
      uint32_t cmf = take_bits(z, 8), flg = take_bits(z, 8);
      if (overran(z)) return stop(z, CMD_ERR_TRUNCATED, "Not enough image data");
      if ((cmf * 256 + flg) % 31 != 0) return stop(z, CMD_ERR_CORRUPT, "incorrect header check");
      if ((cmf & 15) != 8) return stop(z, CMD_ERR_CORRUPT, "unknown compression method");
      if ((cmf >> 4) > 7) return stop(z, CMD_ERR_CORRUPT, "invalid window size");
      if (flg & 0x20) return stop(z, CMD_ERR_CORRUPT, "need dictionary");
      z->state = STATE_BLOCK_HEADER;
      break;
    }
    case STATE_BLOCK_HEADER: {
      z->last_block = (int)take_bits(z, 1);
      uint32_t type = take_bits(z, 2);
      if (overran(z)) return stop(z, CMD_ERR_TRUNCATED, "Not enough image data");
      if (type == 0) {
        align_to_byte(z);
        uint32_t length = take_bits(z, 16), check = take_bits(z, 16);
        if (overran(z)) return stop(z, CMD_ERR_TRUNCATED, "Not enough image data");
        if (length != (~check & 0xFFFFu)) return stop(z, CMD_ERR_CORRUPT, "invalid stored block lengths");
        z->stored_left = length;
        z->state = STATE_STORED;
      } else if (type == 1) {
        build_fixed(z);
        z->state = STATE_CODES;
      } else if (type == 2) {
        if (read_dynamic(z) != CMD_OK) return z->status;
        z->state = STATE_CODES;
      } else {
        return stop(z, CMD_ERR_CORRUPT, "invalid block type");
      }
      break;
    }
    case STATE_STORED: {
      /* Whole bytes in the bit buffer first (aligned already), then the input. */
      while (z->stored_left > 0 && z->pos < z->capacity && z->bitsleft >= 8) {
        if (overran(z) || z->bitsleft - 8 < 8 * z->overrun) return stop(z, CMD_ERR_TRUNCATED, "Not enough image data");
        z->window[z->pos++] = (uint8_t)z->bits;
        z->bits >>= 8;
        z->bitsleft -= 8;
        z->stored_left--;
      }
      while (z->stored_left > 0 && z->pos < z->capacity) {
        if (z->in == z->in_end && !more_input(z)) return stop(z, CMD_ERR_TRUNCATED, "Not enough image data");
        size_t take = (size_t)(z->in_end - z->in);
        if (take > z->stored_left) take = z->stored_left;
        if (take > z->capacity - z->pos) take = z->capacity - z->pos;
        memcpy(z->window + z->pos, z->in, take);
        z->in += take;
        z->pos += take;
        z->stored_left -= (uint32_t)take;
      }
      if (z->stored_left == 0) z->state = z->last_block ? STATE_TRAILER : STATE_BLOCK_HEADER;
      break;
    }
    case STATE_MATCH: {
      size_t room = z->capacity - z->pos;
      uint32_t length = z->match_length < room ? z->match_length : (uint32_t)room;
      uint8_t *out = z->window + z->pos;
      const uint8_t *from = out - z->match_dist;
      for (uint32_t i = 0; i < length; i++) out[i] = from[i];
      z->pos += length;
      z->match_length -= length;
      if (z->match_length == 0) z->state = STATE_CODES;
      break;
    }
    case STATE_CODES:
      if (decode_codes(z) != CMD_OK) return z->status;
      break;
    case STATE_TRAILER: {
      /* The Adler-32, read (so a stream cut inside it is truncated) but not checked. */
      align_to_byte(z);
      take_bits(z, 16);
      take_bits(z, 16);
      if (overran(z)) return stop(z, CMD_ERR_TRUNCATED, "Not enough image data");
      z->state = STATE_END;
      return CMD_OK;
    }
    default: return CMD_OK;
    }
  }
  return z->status;
}

/* ---- The caller's side ------------------------------------------------------------------ */

cmd_inflate *cmd_inflate_new(size_t largest_request, cmd_inflate_fill fill, void *context) {
  cmd_inflate *z = calloc(1, sizeof *z);
  if (z == NULL) return NULL;
  z->fill = fill;
  z->context = context;
  z->in = z->in_end = z->in_buffer;
  z->capacity = WINDOW + largest_request + CHUNK;
  z->own = z->window = malloc(z->capacity + COPY_SLACK);
  if (z->window == NULL) {
    free(z);
    return NULL;
  }
  z->state = STATE_ZLIB_HEADER;
  z->status = CMD_OK;
  return z;
}

void cmd_inflate_free(cmd_inflate *z) {
  if (z == NULL) return;
  free(z->own);
  free(z);
}

int cmd_inflate_need(cmd_inflate *z, size_t count, const uint8_t **data) {
  while (z->pos - z->taken < count) {
    if (z->status != CMD_OK) return z->status;
    if (z->state == STATE_END) return stop(z, CMD_ERR_TRUNCATED, "Not enough image data");
    if (z->capacity - z->pos < CHUNK / 2) {
      /* Slide: keep what a distance can reach and what the caller has not taken. */
      size_t from = z->pos > WINDOW ? z->pos - WINDOW : 0;
      if (from > z->taken) from = z->taken;
      memmove(z->window, z->window + from, z->pos - from);
      z->pos -= from;
      z->taken -= from;
    }
    run(z);
  }
  *data = z->window + z->taken;
  return CMD_OK;
}

void cmd_inflate_take(cmd_inflate *z, size_t count) { z->taken += count; }

int cmd_inflate_into(cmd_inflate *z, uint8_t *out, size_t count, size_t *written) {
  /* The caller's buffer becomes the window: the history before it, then `count` bytes. The
   * fast loop writes no further than the window's end (it needs room for a match and its slack
   * first), so nothing past out + count is touched. */
  size_t history = z->total < WINDOW ? (size_t)z->total : WINDOW;
  size_t own_capacity = z->capacity, own_pos = z->pos, own_taken = z->taken;
  z->window = out - history;
  z->pos = z->taken = history;
  z->capacity = history + count;
  while (z->pos < z->capacity && z->status == CMD_OK) {
    if (z->state == STATE_END) {
      stop(z, CMD_ERR_TRUNCATED, "Not enough image data");
      break;
    }
    run(z);
  }
  *written = z->pos - history;
  z->total += *written;
  z->window = z->own;
  z->capacity = own_capacity;
  z->pos = own_pos;
  z->taken = own_taken;
  return z->status;
}

const char *cmd_inflate_message(const cmd_inflate *z) { return z->message; }

/* ---- A whole stream (tests and the fuzz target) ------------------------------------------ */

typedef struct pieces {
  const uint8_t *bytes;
  size_t length, at, piece;
} pieces;

static size_t give_pieces(void *context, uint8_t *into, size_t capacity) {
  pieces *p = context;
  size_t take = p->length - p->at;
  if (take > p->piece) take = p->piece;
  if (take > capacity) take = capacity;
  memcpy(into, p->bytes + p->at, take);
  p->at += take;
  return take;
}

/* cmd_inflate_zlib's `direct` form: pieces written with cmd_inflate_into one after the other
 * into a buffer a byte larger than the caller's (that byte says the output does not fit). */
static int zlib_direct(cmd_inflate *z, size_t output_piece, uint8_t *out, size_t capacity, size_t *written,
                       char *err, size_t errlen) {
  uint8_t *buffer = malloc(capacity + 1);
  if (buffer == NULL) {
    cmd_set_error(err, errlen, "no memory");
    return CMD_ERR_NO_MEMORY;
  }
  size_t total = 0;
  int status;
  for (;;) {
    size_t room = capacity + 1 - total;
    size_t got = 0;
    status = cmd_inflate_into(z, buffer + total, output_piece < room ? output_piece : room, &got);
    total += got;
    if (status != CMD_OK && z->state != STATE_END) {
      cmd_set_error(err, errlen, "%s", z->message);
      break;
    }
    if (total > capacity) {
      cmd_set_error(err, errlen, "more output than %zu bytes", capacity);
      status = CMD_ERR_TOO_LARGE;
      break;
    }
    if (status != CMD_OK) {
      /* The stream ended properly (its trailer read) before the piece was full. */
      status = CMD_OK;
      break;
    }
  }
  if (status == CMD_OK) {
    memcpy(out, buffer, total);
    *written = total;
  }
  free(buffer);
  return status;
}

int cmd_inflate_zlib(const uint8_t *bytes, size_t length, size_t input_piece, size_t output_piece, int direct,
                     uint8_t *out, size_t capacity, size_t *written, char *err, size_t errlen) {
  *written = 0;
  if (input_piece == 0) input_piece = 1;
  if (output_piece == 0) output_piece = 1;
  pieces source = {bytes, length, 0, input_piece};
  cmd_inflate *z = cmd_inflate_new(output_piece, give_pieces, &source);
  if (z == NULL) {
    cmd_set_error(err, errlen, "no memory");
    return CMD_ERR_NO_MEMORY;
  }
  int status = CMD_OK;
  if (direct) {
    status = zlib_direct(z, output_piece, out, capacity, written, err, errlen);
    cmd_inflate_free(z);
    return status;
  }
  /* Output taken in pieces until the stream has ended; the last piece may be short. */
  for (;;) {
    const uint8_t *data = NULL;
    status = cmd_inflate_need(z, output_piece, &data);
    size_t have = status == CMD_OK ? output_piece : z->pos - z->taken;
    if (status != CMD_OK && z->state != STATE_END) {
      cmd_set_error(err, errlen, "%s", z->message);
      break;
    }
    if (have > capacity - *written) {
      cmd_set_error(err, errlen, "more output than %zu bytes", capacity);
      status = CMD_ERR_TOO_LARGE;
      break;
    }
    memcpy(out + *written, z->window + z->taken, have);
    *written += have;
    cmd_inflate_take(z, have);
    if (status != CMD_OK) {
      /* The stream ended properly (its trailer read) with less than a piece left. */
      status = CMD_OK;
      break;
    }
  }
  cmd_inflate_free(z);
  return status;
}

/* The first frame of a GIF, decoded here without a library (libgif is not available).
 *
 * Every read is bounds-checked against the input, the LZW table is fixed at 4096 entries with
 * prefix chains that strictly decrease, the logical screen and the frame are both held to the
 * caps before anything is allocated, and the wall-clock budget is checked as pixels come out.
 * Later frames, disposal and animation are ignored: a notification thumbnail shows frame one. */
#include "cmd_internal.h"

#include <stdlib.h>
#include <string.h>

enum { LZW_MAX_CODES = 4096, LZW_NO_CODE = 0xFFFF };

/* Reads LZW codes, least significant bit first, across the data sub-blocks. */
typedef struct bit_reader {
  const uint8_t *bytes;
  size_t len;
  size_t pos;
  size_t block_left;
  int ended; /* the zero-length terminator block was read */
  uint32_t buffer;
  int count;
} bit_reader;

/* 1: a byte; 0: the data blocks ended; -1: the file ended first. */
static int next_byte(bit_reader *reader, uint8_t *byte) {
  while (reader->block_left == 0) {
    if (reader->ended) return 0;
    if (reader->pos >= reader->len) return -1;
    size_t size = reader->bytes[reader->pos++];
    if (size == 0) {
      reader->ended = 1;
      return 0;
    }
    reader->block_left = size;
  }
  if (reader->pos >= reader->len) return -1;
  *byte = reader->bytes[reader->pos++];
  reader->block_left--;
  return 1;
}

/* Same results as next_byte. */
static int next_code(bit_reader *reader, int size, uint32_t *code) {
  while (reader->count < size) {
    uint8_t byte;
    int got = next_byte(reader, &byte);
    if (got <= 0) return got;
    reader->buffer |= (uint32_t)byte << reader->count;
    reader->count += 8;
  }
  *code = reader->buffer & ((1u << size) - 1);
  reader->buffer >>= size;
  reader->count -= size;
  return 1;
}

/* Where decoded colour indices go: the frame's rows (interlaced or not) on the canvas. */
typedef struct pixel_writer {
  uint8_t *canvas;
  uint32_t canvas_w, canvas_h;
  uint32_t left, top, frame_w, frame_h;
  const uint8_t *palette;
  uint32_t palette_count;
  int transparent; /* -1 for none */
  int interlaced;
  int pass;
  uint32_t x, y;
  uint64_t written, total;
} pixel_writer;

static void put_index(pixel_writer *w, uint8_t index) {
  if (w->written >= w->total) return;
  uint32_t cx = w->left + w->x, cy = w->top + w->y;
  if (cx < w->canvas_w && cy < w->canvas_h && (int)index != w->transparent) {
    uint8_t *p = w->canvas + ((size_t)cy * w->canvas_w + cx) * 4;
    if (index < w->palette_count) {
      memcpy(p, w->palette + 3 * (size_t)index, 3);
    } else {
      p[0] = p[1] = p[2] = 0;
    }
    p[3] = 255;
  }
  w->written++;
  if (++w->x < w->frame_w) return;
  w->x = 0;
  if (!w->interlaced) {
    w->y++;
    return;
  }
  static const uint32_t start[4] = {0, 4, 2, 1}, step[4] = {8, 8, 4, 2};
  w->y += step[w->pass];
  while (w->y >= w->frame_h && w->pass < 3) {
    w->pass++;
    w->y = start[w->pass];
  }
}

/* Skips data sub-blocks up to and including the terminator. */
static int skip_blocks(const uint8_t *bytes, size_t len, size_t *pos) {
  for (;;) {
    if (*pos >= len) return CMD_ERR_TRUNCATED;
    size_t size = bytes[(*pos)++];
    if (size == 0) return CMD_OK;
    if (len - *pos < size) return CMD_ERR_TRUNCATED;
    *pos += size;
  }
}

/* The LZW stream of one frame into the writer. */
static int decode_lzw(bit_reader *reader, int min_size, pixel_writer *w, uint64_t deadline,
                      char *err, size_t errlen) {
  uint16_t prefix[LZW_MAX_CODES];
  uint8_t suffix[LZW_MAX_CODES];
  uint8_t first[LZW_MAX_CODES];
  uint8_t stack[LZW_MAX_CODES + 1];
  const uint32_t clear = 1u << min_size, end = clear + 1;
  for (uint32_t i = 0; i < clear; i++) {
    prefix[i] = LZW_NO_CODE;
    suffix[i] = (uint8_t)i;
    first[i] = (uint8_t)i;
  }
  int size = min_size + 1;
  uint32_t next = clear + 2;
  uint32_t previous = LZW_NO_CODE;
  uint64_t checked = 0;
  while (w->written < w->total) {
    if (w->written - checked >= 65536) {
      checked = w->written;
      if (cmd_past(deadline)) {
        cmd_set_error(err, errlen, "GIF decoding ran out of time");
        return CMD_ERR_TIMEOUT;
      }
    }
    uint32_t code;
    int got = next_code(reader, size, &code);
    if (got < 0) {
      cmd_set_error(err, errlen, "GIF data is truncated");
      return CMD_ERR_TRUNCATED;
    }
    if (got == 0 || code == end) break;
    if (code == clear) {
      size = min_size + 1;
      next = clear + 2;
      previous = LZW_NO_CODE;
      continue;
    }
    if (previous == LZW_NO_CODE) {
      if (code >= clear) {
        cmd_set_error(err, errlen, "GIF data starts with an undefined code");
        return CMD_ERR_CORRUPT;
      }
      put_index(w, (uint8_t)code);
      previous = code;
      continue;
    }
    if (code > next || (code == next && next >= LZW_MAX_CODES)) {
      cmd_set_error(err, errlen, "GIF data has an undefined code");
      return CMD_ERR_CORRUPT;
    }
    if (next < LZW_MAX_CODES) {
      prefix[next] = (uint16_t)previous;
      suffix[next] = code < next ? first[code] : first[previous];
      first[next] = first[previous];
      next++;
      if (next == (1u << size) && size < 12) size++;
    }
    /* Walk the prefix chain (each link is a smaller code) and emit it in order. */
    size_t depth = 0;
    uint32_t c = code;
    while (c >= clear) {
      if (depth >= LZW_MAX_CODES || prefix[c] == LZW_NO_CODE) {
        cmd_set_error(err, errlen, "GIF data has a broken code chain");
        return CMD_ERR_CORRUPT;
      }
      stack[depth++] = suffix[c];
      c = prefix[c];
    }
    stack[depth++] = (uint8_t)c;
    while (depth > 0) put_index(w, stack[--depth]);
    previous = code;
  }
  if (w->written < w->total) {
    cmd_set_error(err, errlen, "GIF image data ends after %llu of %llu pixels",
                  (unsigned long long)w->written, (unsigned long long)w->total);
    return CMD_ERR_TRUNCATED;
  }
  return CMD_OK;
}

int cmd_decode_gif(const uint8_t *bytes, size_t len, const cmd_limits *limits, cmd_image *out,
                   char *err, size_t errlen) {
  uint64_t deadline = cmd_deadline(limits->max_millis);
  cmd_info info;
  int status = cmd_probe_gif(bytes, len, &info, err, errlen);
  if (status != CMD_OK) return status;
  status = cmd_check_size(info.width, info.height, limits, err, errlen);
  if (status != CMD_OK) return status;

  size_t pos = 13;
  const uint8_t *global = NULL;
  uint32_t global_count = 0;
  if (bytes[10] & 0x80) {
    global_count = 2u << (bytes[10] & 7);
    if (len - pos < 3 * (size_t)global_count) {
      cmd_set_error(err, errlen, "GIF colour table is truncated");
      return CMD_ERR_TRUNCATED;
    }
    global = bytes + pos;
    pos += 3 * (size_t)global_count;
  }

  int transparent = -1;
  for (;;) {
    if (pos >= len) {
      cmd_set_error(err, errlen, "GIF ends before its first image");
      return CMD_ERR_TRUNCATED;
    }
    uint8_t block = bytes[pos++];
    if (block == 0x2C) break;
    if (block == 0x3B) {
      cmd_set_error(err, errlen, "GIF has no image");
      return CMD_ERR_CORRUPT;
    }
    if (block != 0x21) {
      cmd_set_error(err, errlen, "GIF has an unknown block 0x%02X", block);
      return CMD_ERR_CORRUPT;
    }
    if (pos >= len) {
      cmd_set_error(err, errlen, "GIF extension is truncated");
      return CMD_ERR_TRUNCATED;
    }
    uint8_t label = bytes[pos++];
    /* Graphic control extension: a 4-byte block whose flags say whether an index is clear. */
    if (label == 0xF9 && len - pos >= 6 && bytes[pos] == 4)
      transparent = (bytes[pos + 1] & 1) ? bytes[pos + 4] : -1;
    if (skip_blocks(bytes, len, &pos) != CMD_OK) {
      cmd_set_error(err, errlen, "GIF extension is truncated");
      return CMD_ERR_TRUNCATED;
    }
  }

  if (len - pos < 9) {
    cmd_set_error(err, errlen, "GIF image descriptor is truncated");
    return CMD_ERR_TRUNCATED;
  }
  uint32_t left = bytes[pos] | ((uint32_t)bytes[pos + 1] << 8);
  uint32_t top = bytes[pos + 2] | ((uint32_t)bytes[pos + 3] << 8);
  uint32_t frame_w = bytes[pos + 4] | ((uint32_t)bytes[pos + 5] << 8);
  uint32_t frame_h = bytes[pos + 6] | ((uint32_t)bytes[pos + 7] << 8);
  uint8_t flags = bytes[pos + 8];
  pos += 9;
  status = cmd_check_size(frame_w, frame_h, limits, err, errlen);
  if (status != CMD_OK) return status;
  const uint8_t *palette = global;
  uint32_t palette_count = global_count;
  if (flags & 0x80) {
    palette_count = 2u << (flags & 7);
    if (len - pos < 3 * (size_t)palette_count) {
      cmd_set_error(err, errlen, "GIF colour table is truncated");
      return CMD_ERR_TRUNCATED;
    }
    palette = bytes + pos;
    pos += 3 * (size_t)palette_count;
  }
  if (palette == NULL) {
    cmd_set_error(err, errlen, "GIF image has no colour table");
    return CMD_ERR_CORRUPT;
  }
  if (pos >= len) {
    cmd_set_error(err, errlen, "GIF image data is missing");
    return CMD_ERR_TRUNCATED;
  }
  int min_size = bytes[pos++];
  if (min_size < 2 || min_size > 8) {
    cmd_set_error(err, errlen, "GIF LZW code size %d is invalid", min_size);
    return CMD_ERR_CORRUPT;
  }

  size_t size = cmd_buffer_size(info.width, info.height, 4);
  uint8_t *canvas = size == 0 ? NULL : calloc(1, size);
  if (canvas == NULL) {
    cmd_set_error(err, errlen, "no memory for %ux%u pixels", info.width, info.height);
    return CMD_ERR_NO_MEMORY;
  }
  pixel_writer writer = {
      .canvas = canvas,
      .canvas_w = info.width,
      .canvas_h = info.height,
      .left = left,
      .top = top,
      .frame_w = frame_w,
      .frame_h = frame_h,
      .palette = palette,
      .palette_count = palette_count,
      .transparent = transparent,
      .interlaced = (flags & 0x40) != 0,
      .total = (uint64_t)frame_w * frame_h,
  };
  bit_reader reader = {.bytes = bytes, .len = len, .pos = pos};
  status = decode_lzw(&reader, min_size, &writer, deadline, err, errlen);
  if (status != CMD_OK) {
    free(canvas);
    return status;
  }
  *out = (cmd_image){.pixels = canvas, .byte_count = size, .width = info.width,
                      .height = info.height, .channels = 4, .source_width = info.width,
                      .source_height = info.height, .scale_denom = 1, .scans = 1,
                      .format = CMD_FORMAT_GIF};
  return CMD_OK;
}

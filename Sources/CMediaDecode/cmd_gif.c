/* The first frame of a GIF, decoded here without a library (libgif is not available).
 *
 * Every read goes through the bounded source, the LZW table is fixed at 4096 entries with
 * prefix chains that strictly decrease, the logical screen and the frame are both held to the
 * caps before anything is allocated, and the wall-clock budget is checked as pixels come out.
 * Each finished row of the frame goes to the sink on the logical screen (transparent around
 * the frame), so no canvas is held. Later frames, disposal and animation are ignored: a
 * notification thumbnail shows frame one. */
#include "cmd_internal.h"

#include <stdlib.h>
#include <string.h>

enum { LZW_MAX_CODES = 4096, LZW_NO_CODE = 0xFFFF };

/* Reads LZW codes, least significant bit first, across the data sub-blocks. */
typedef struct bit_reader {
  cmd_source *source;
  size_t block_left;
  int ended; /* the zero-length terminator block was read */
  uint32_t buffer;
  int count;
} bit_reader;

/* 1: a byte; 0: the data blocks ended; -1: the file ended first. */
static int next_byte(bit_reader *reader, uint8_t *byte) {
  while (reader->block_left == 0) {
    if (reader->ended) return 0;
    int size = cmd_source_byte(reader->source);
    if (size < 0) return -1;
    if (size == 0) {
      reader->ended = 1;
      return 0;
    }
    reader->block_left = (size_t)size;
  }
  int value = cmd_source_byte(reader->source);
  if (value < 0) return -1;
  *byte = (uint8_t)value;
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

/* Where decoded colour indices go: the frame's pixels into a row of the logical screen, which
 * goes to the sink (at its interlaced position) as soon as the frame row is complete. */
typedef struct pixel_writer {
  cmd_sink *sink;
  uint8_t *row; /* canvas_w × 4 bytes, transparent outside the frame */
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
  uint64_t cx = (uint64_t)w->left + w->x;
  if (cx < w->canvas_w) {
    uint8_t *p = w->row + cx * 4;
    if ((int)index == w->transparent) {
      p[0] = p[1] = p[2] = p[3] = 0;
    } else {
      if (index < w->palette_count) {
        memcpy(p, w->palette + 3 * (size_t)index, 3);
      } else {
        p[0] = p[1] = p[2] = 0;
      }
      p[3] = 255;
    }
  }
  w->written++;
  if (++w->x < w->frame_w) return;
  w->x = 0;
  uint64_t cy = (uint64_t)w->top + w->y;
  if (cy < w->canvas_h) cmd_sink_row(w->sink, (uint32_t)cy, 0, 1, w->row, w->canvas_w);
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

/* Skips data sub-blocks up to and including the terminator; with a graphic control block
 * (label 0xF9), records its transparent index. */
static int read_extension(cmd_source *source, int label, int *transparent) {
  int first = 1;
  for (;;) {
    int size = cmd_source_byte(source);
    if (size < 0) return CMD_ERR_TRUNCATED;
    if (size == 0) return CMD_OK;
    uint8_t block[255];
    if (cmd_source_read(source, block, (size_t)size) != (size_t)size) return CMD_ERR_TRUNCATED;
    if (first && label == 0xF9 && size == 4) *transparent = (block[0] & 1) ? block[3] : -1;
    first = 0;
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

/* A row of transparent pixels for the screen outside the frame. */
static void clear_rows(cmd_sink *sink, uint8_t *row, uint32_t width, uint32_t from, uint32_t to) {
  memset(row, 0, (size_t)width * 4);
  for (uint32_t y = from; y < to; y++) cmd_sink_row(sink, y, 0, 1, row, width);
}

int cmd_decode_gif(cmd_source *source, const cmd_limits *limits, cmd_sink *sink, cmd_image *out,
                   char *err, size_t errlen) {
  uint64_t deadline = cmd_deadline(limits->max_millis);
  uint8_t header[13];
  size_t got = cmd_source_read(source, header, sizeof header);
  cmd_info info;
  int status = cmd_probe_gif(header, got, &info, err, errlen);
  if (status != CMD_OK) return status;
  status = cmd_check_size(info.width, info.height, limits, err, errlen);
  if (status != CMD_OK) return status;

  uint8_t global[768], local[768];
  uint32_t global_count = 0;
  if (header[10] & 0x80) {
    global_count = 2u << (header[10] & 7);
    if (cmd_source_read(source, global, 3 * (size_t)global_count) != 3 * (size_t)global_count) {
      cmd_set_error(err, errlen, "GIF colour table is truncated");
      return CMD_ERR_TRUNCATED;
    }
  }

  int transparent = -1;
  for (;;) {
    int block = cmd_source_byte(source);
    if (block < 0) {
      cmd_set_error(err, errlen, "GIF ends before its first image");
      return CMD_ERR_TRUNCATED;
    }
    if (block == 0x2C) break;
    if (block == 0x3B) {
      cmd_set_error(err, errlen, "GIF has no image");
      return CMD_ERR_CORRUPT;
    }
    if (block != 0x21) {
      cmd_set_error(err, errlen, "GIF has an unknown block 0x%02X", block);
      return CMD_ERR_CORRUPT;
    }
    int label = cmd_source_byte(source);
    if (label < 0 || read_extension(source, label, &transparent) != CMD_OK) {
      cmd_set_error(err, errlen, "GIF extension is truncated");
      return CMD_ERR_TRUNCATED;
    }
  }

  uint8_t descriptor[9];
  if (cmd_source_read(source, descriptor, sizeof descriptor) != sizeof descriptor) {
    cmd_set_error(err, errlen, "GIF image descriptor is truncated");
    return CMD_ERR_TRUNCATED;
  }
  uint32_t left = descriptor[0] | ((uint32_t)descriptor[1] << 8);
  uint32_t top = descriptor[2] | ((uint32_t)descriptor[3] << 8);
  uint32_t frame_w = descriptor[4] | ((uint32_t)descriptor[5] << 8);
  uint32_t frame_h = descriptor[6] | ((uint32_t)descriptor[7] << 8);
  uint8_t flags = descriptor[8];
  status = cmd_check_size(frame_w, frame_h, limits, err, errlen);
  if (status != CMD_OK) return status;
  const uint8_t *palette = global_count > 0 ? global : NULL;
  uint32_t palette_count = global_count;
  if (flags & 0x80) {
    palette_count = 2u << (flags & 7);
    if (cmd_source_read(source, local, 3 * (size_t)palette_count) != 3 * (size_t)palette_count) {
      cmd_set_error(err, errlen, "GIF colour table is truncated");
      return CMD_ERR_TRUNCATED;
    }
    palette = local;
  }
  if (palette == NULL) {
    cmd_set_error(err, errlen, "GIF image has no colour table");
    return CMD_ERR_CORRUPT;
  }
  int min_size = cmd_source_byte(source);
  if (min_size < 0) {
    cmd_set_error(err, errlen, "GIF image data is missing");
    return CMD_ERR_TRUNCATED;
  }
  if (min_size < 2 || min_size > 8) {
    cmd_set_error(err, errlen, "GIF LZW code size %d is invalid", min_size);
    return CMD_ERR_CORRUPT;
  }

  int interlaced = (flags & 0x40) != 0;
  status = cmd_sink_begin(sink, info.width, info.height, 4, !interlaced, err, errlen);
  if (status != CMD_OK) return status;
  uint8_t *row = calloc(info.width, 4);
  if (row == NULL) {
    cmd_set_error(err, errlen, "no memory for a row of %u pixels", info.width);
    return CMD_ERR_NO_MEMORY;
  }
  uint32_t frame_top = top < info.height ? top : info.height;
  clear_rows(sink, row, info.width, 0, frame_top);
  pixel_writer writer = {
      .sink = sink,
      .row = row,
      .canvas_w = info.width,
      .canvas_h = info.height,
      .left = left,
      .top = top,
      .frame_w = frame_w,
      .frame_h = frame_h,
      .palette = palette,
      .palette_count = palette_count,
      .transparent = transparent,
      .interlaced = interlaced,
      .total = (uint64_t)frame_w * frame_h,
  };
  bit_reader reader = {.source = source};
  status = decode_lzw(&reader, min_size, &writer, deadline, err, errlen);
  if (status == CMD_OK) {
    uint64_t below = (uint64_t)top + frame_h;
    clear_rows(sink, row, info.width, below < info.height ? (uint32_t)below : info.height,
               info.height);
    out->source_width = info.width;
    out->source_height = info.height;
    out->scale_num = 1;
    out->scale_denom = 1;
    out->scans = 1;
    out->format = CMD_FORMAT_GIF;
  }
  free(row);
  return status;
}

/* PNG through libpng's row API, one row (or one interlace pass row) at a time into the sink.
 *
 * libpng reports errors with longjmp. The setjmp is in cmd_decode_png, in this file, so no
 * longjmp crosses a Swift frame; everything that changes after setjmp lives in a heap context
 * reached through a pointer set before setjmp and never changed. Warnings are dropped (libpng
 * already discards a bad ancillary chunk). Only the chunks a picture needs are read: text,
 * profiles and the other ancillary chunks are skipped unread, so a compressed-text or ICC
 * "bomb" costs nothing. Colours are taken as stored (no gamma conversion). */
#include "cmd_internal.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct png_context {
  png_structp png;
  png_infop info;
  cmd_source *source;
  char message[200];
  uint8_t *row;
} png_context;

/* Sorts libpng's message into one of the error codes. */
static int png_status(const char *message) {
  if (strstr(message, "end of data") != NULL || strstr(message, "Not enough image data") != NULL ||
      strstr(message, "truncated") != NULL)
    return CMD_ERR_TRUNCATED;
  if (strstr(message, "memory") != NULL) return CMD_ERR_NO_MEMORY;
  if (strstr(message, "exceeds user limits") != NULL || strstr(message, "too large") != NULL)
    return CMD_ERR_TOO_LARGE;
  return CMD_ERR_CORRUPT;
}

static void on_error(png_structp png, png_const_charp message) {
  png_context *context = (png_context *)png_get_error_ptr(png);
  snprintf(context->message, sizeof context->message, "%s", message);
  png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;
}

static void on_read(png_structp png, png_bytep data, png_size_t length) {
  png_context *context = (png_context *)png_get_io_ptr(png);
  if (cmd_source_read(context->source, data, length) != length)
    png_error(png, "read beyond end of data");
}

int cmd_decode_png(cmd_source *source, const cmd_limits *limits, cmd_sink *sink, cmd_image *out,
                   char *err, size_t errlen) {
  /* Check the size from IHDR before libpng reads anything else. */
  uint8_t header[33];
  size_t have = source->available < sizeof header ? source->available : sizeof header;
  memcpy(header, source->next, have);
  cmd_info info;
  int status = cmd_probe_png(header, have, &info, err, errlen);
  if (status != CMD_OK) return status;
  status = cmd_check_size(info.width, info.height, limits, err, errlen);
  if (status != CMD_OK) return status;
  uint64_t deadline = cmd_deadline(limits->max_millis);

  /* Set once, before setjmp, and never assigned again. */
  png_context *const context = calloc(1, sizeof(png_context));
  if (context == NULL) {
    cmd_set_error(err, errlen, "no memory for the PNG decoder");
    return CMD_ERR_NO_MEMORY;
  }
  context->source = source;
  context->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, context, on_error, on_warning);
  if (context->png != NULL) context->info = png_create_info_struct(context->png);
  if (context->png == NULL || context->info == NULL) {
    png_destroy_read_struct(&context->png, &context->info, NULL);
    free(context);
    cmd_set_error(err, errlen, "no memory for the PNG decoder");
    return CMD_ERR_NO_MEMORY;
  }
  if (setjmp(png_jmpbuf(context->png)) != 0) {
    status = png_status(context->message);
    cmd_set_error(err, errlen, "PNG: %s", context->message);
    png_destroy_read_struct(&context->png, &context->info, NULL);
    free(context->row);
    free(context);
    return status;
  }
  png_structp png = context->png;
  png_infop pinfo = context->info;
  png_set_read_fn(png, context, on_read);
  png_set_user_limits(png, limits->max_width, limits->max_height);
  png_set_chunk_malloc_max(png, 8u << 20);
  /* A negative count: every chunk but IHDR, PLTE, tRNS, IDAT and IEND is skipped unread. */
  png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
#ifdef PNG_IGNORE_ADLER32
  /* zlib's checksum of the pixel data costs a tenth of the decode; every chunk's CRC is still
   * checked, and a picture that breaks the format still fails. */
  png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
  png_read_info(png, pinfo);

  uint32_t width = png_get_image_width(png, pinfo), height = png_get_image_height(png, pinfo);
  status = cmd_check_size(width, height, limits, context->message, sizeof context->message);
  if (status != CMD_OK) {
    cmd_set_error(err, errlen, "%s", context->message);
    png_destroy_read_struct(&context->png, &context->info, NULL);
    free(context);
    return status;
  }
  int interlaced = png_get_interlace_type(png, pinfo) == PNG_INTERLACE_ADAM7;
  png_set_expand(png);
  png_set_scale_16(png);
  png_read_update_info(png, pinfo);
  uint32_t channels = png_get_channels(png, pinfo);
  size_t rowbytes = png_get_rowbytes(png, pinfo);
  if (channels < 1 || channels > 4 || png_get_bit_depth(png, pinfo) != 8 ||
      rowbytes != (size_t)width * channels) {
    cmd_set_error(err, errlen, "PNG: unexpected row layout after expansion");
    png_destroy_read_struct(&context->png, &context->info, NULL);
    free(context);
    return CMD_ERR_UNSUPPORTED;
  }
  /* An interlaced thumbnail reads only the Adam7 passes it needs: after pass p the pixels read
   * are every col_step-th of every row_step-th row, a smaller picture (as a JPEG's DCT scale
   * is), and the first such grid that gives each output pixel a source pixel is enough. */
  static const uint32_t col_step[7] = {8, 4, 4, 2, 2, 1, 1}, row_step[7] = {8, 8, 4, 4, 2, 2, 1};
  int passes = interlaced ? 7 : 1;
  uint32_t cs = 1, rs = 1;
  if (interlaced && !cmd_sink_is_full(sink)) {
    uint32_t need_w, need_h;
    cmd_sink_need(sink, width, height, &need_w, &need_h);
    for (passes = 1; passes < 7; passes++) {
      uint32_t cols = (width + col_step[passes - 1] - 1) / col_step[passes - 1];
      uint32_t rows = (height + row_step[passes - 1] - 1) / row_step[passes - 1];
      if (cols >= need_w && rows >= need_h) break;
    }
    cs = col_step[passes - 1];
    rs = row_step[passes - 1];
  }
  status = cmd_sink_begin(sink, (width + cs - 1) / cs, (height + rs - 1) / rs, channels, !interlaced, err,
                          errlen);
  if (status == CMD_OK) {
    context->row = malloc(rowbytes);
    if (context->row == NULL) {
      cmd_set_error(err, errlen, "PNG: no memory for a row of %u pixels", width);
      status = CMD_ERR_NO_MEMORY;
    }
  }
  if (status != CMD_OK) {
    png_destroy_read_struct(&context->png, &context->info, NULL);
    free(context);
    return status;
  }

  /* Without interlace handling libpng returns each Adam7 pass as its own small picture; the
   * sink puts each pixel where it belongs on the grid (every pass up to the last read lies on
   * it: its start and step are multiples of the grid's). */
  uint32_t rows_read = 0;
  for (int pass = 0; pass < passes && status == CMD_OK; pass++) {
    uint32_t pass_w = interlaced ? PNG_PASS_COLS(width, pass) : width;
    uint32_t pass_h = interlaced ? PNG_PASS_ROWS(height, pass) : height;
    if (pass_w == 0 || pass_h == 0) continue;
    uint32_t x0 = interlaced ? PNG_PASS_START_COL(pass) : 0;
    uint32_t xstep = interlaced ? PNG_PASS_COL_OFFSET(pass) : 1;
    uint32_t y0 = interlaced ? PNG_PASS_START_ROW(pass) : 0;
    uint32_t ystep = interlaced ? PNG_PASS_ROW_OFFSET(pass) : 1;
    for (uint32_t r = 0; r < pass_h; r++) {
      png_read_row(png, context->row, NULL);
      cmd_sink_row(sink, (y0 + r * ystep) / rs, x0 / cs, xstep / cs, context->row, pass_w);
      if ((++rows_read & 31) == 0 && cmd_past(deadline)) {
        cmd_set_error(err, errlen, "PNG decoding ran out of time");
        status = CMD_ERR_TIMEOUT;
        break;
      }
    }
  }
  if (status == CMD_OK) {
    /* The rest of the file: the end of the image data and its checksums, up to IEND (not for
     * a thumbnail that stopped after its passes: the rest is not read, as with a JPEG crop). */
    if (passes == (interlaced ? 7 : 1)) png_read_end(png, NULL);
    out->source_width = width;
    out->source_height = height;
    out->scale_num = 1;
    out->scale_denom = 1;
    out->scans = (uint32_t)passes;
    out->format = CMD_FORMAT_PNG;
  }
  png_destroy_read_struct(&context->png, &context->info, NULL);
  free(context->row);
  free(context);
  return status;
}

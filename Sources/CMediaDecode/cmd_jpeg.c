/* JPEG through libjpeg-turbo's classic API.
 *
 * libjpeg reports fatal errors through error_exit, whose default ends the process. Here every
 * error, every warning (treated as fatal, as libjpeg-turbo's maintainers advise for untrusted
 * input) and every budget breach longjmps to the setjmp in decode_libjpeg, which is in this
 * file: no longjmp ever crosses a Swift frame. Everything that changes after setjmp lives in a
 * heap context reached through a pointer that is set before setjmp and never changed, so its
 * value is well defined after the longjmp.
 *
 * The picture is decoded at the smallest scale that still gives the sink a pixel for each of
 * its pixels (libjpeg's scaled inverse DCT, down to 1/8), only the rows and columns the sink
 * needs are decoded (jpeg_skip_scanlines, jpeg_crop_scanline), and rows go to the sink one at
 * a time. A reduced picture is decoded with libjpeg's fast integer DCT and without fancy
 * upsampling, its fastest mode: the reducer averages many decoded pixels into each one it
 * keeps, which hides the difference; a full copy (cmd_decode) keeps libjpeg's defaults. */
#include "cmd_internal.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

/* libjpeg's source manager over a cmd_source. */
typedef struct source_manager {
  struct jpeg_source_mgr pub;
  cmd_source *source;
  JOCTET end_of_image[2];
} source_manager;

/* libjpeg's per-decode state plus ours. */
typedef struct jpeg_context {
  struct jpeg_decompress_struct cinfo;
  struct jpeg_error_mgr errors;
  struct jpeg_progress_mgr progress;
  source_manager source;
  jmp_buf jump;
  /* Why the decode stopped: a CMD_ERR_* set before the longjmp. */
  int status;
  char message[JMSG_LENGTH_MAX];
  uint32_t max_scans;
  uint64_t deadline;
  /* Buffers freed on every exit path. */
  uint8_t *row;
  uint8_t *rgb;
} jpeg_context;

static jpeg_context *context_of(j_common_ptr cinfo) { return (jpeg_context *)cinfo->client_data; }

/* Records why decoding stops and jumps back to cmd_decode_jpeg. */
static void stop(jpeg_context *context, int status) {
  if (context->status == CMD_OK) context->status = status;
  longjmp(context->jump, 1);
}

static int status_for_error(int code) {
  switch (code) {
  case JERR_OUT_OF_MEMORY:
  case JERR_NO_BACKING_STORE:
  case JERR_TFILE_CREATE:
  case JERR_TFILE_READ:
  case JERR_TFILE_SEEK:
  case JERR_TFILE_WRITE:
    return CMD_ERR_NO_MEMORY;
  case JERR_IMAGE_TOO_BIG:
  case JERR_WIDTH_OVERFLOW:
    return CMD_ERR_TOO_LARGE;
  case JERR_INPUT_EOF:
  case JERR_INPUT_EMPTY:
    return CMD_ERR_TRUNCATED;
  case JERR_ARITH_NOTIMPL:
  case JERR_BAD_PRECISION:
  case JERR_CONVERSION_NOTIMPL:
  case JERR_NOTIMPL:
    return CMD_ERR_UNSUPPORTED;
  default:
    return CMD_ERR_CORRUPT;
  }
}

/* error_exit: never returns, never ends the process. */
static void on_error(j_common_ptr cinfo) {
  jpeg_context *context = context_of(cinfo);
  if (context->status == CMD_OK) {
    if (cinfo->err->msg_code == JERR_NO_BACKING_STORE) {
      /* libjpeg asks for disk backing once its memory cap is reached. */
      snprintf(context->message, sizeof context->message,
               "the image needs more working memory than the %ld-byte cap",
               cinfo->mem != NULL ? cinfo->mem->max_memory_to_use : 0L);
    } else {
      (*cinfo->err->format_message)(cinfo, context->message);
    }
  }
  stop(context, status_for_error(cinfo->err->msg_code));
}

/* emit_message: level -1 is a warning (corrupt data, premature end); treat it as fatal.
 * Trace messages (level >= 0) are dropped. */
static void on_message(j_common_ptr cinfo, int level) {
  if (level >= 0) return;
  jpeg_context *context = context_of(cinfo);
  if (context->status == CMD_OK) (*cinfo->err->format_message)(cinfo, context->message);
  stop(context, cinfo->err->msg_code == JWRN_JPEG_EOF ? CMD_ERR_TRUNCATED : CMD_ERR_CORRUPT);
}

/* output_message: libjpeg would print to stderr, which may be the user's terminal. */
static void on_output(j_common_ptr cinfo) { (void)cinfo; }

/* Called once per chunk of input while scans are absorbed and once per read_scanlines call:
 * enforces the scan cap and the wall-clock budget. */
static void on_progress(j_common_ptr cinfo) {
  jpeg_context *context = context_of(cinfo);
  int scans = context->cinfo.input_scan_number;
  if (context->max_scans != 0 && scans > 0 && (uint32_t)scans > context->max_scans) {
    snprintf(context->message, sizeof context->message,
             "progressive JPEG has more than %u scans", context->max_scans);
    stop(context, CMD_ERR_TOO_MANY_SCANS);
  }
  if (cmd_past(context->deadline)) {
    snprintf(context->message, sizeof context->message, "JPEG decoding ran out of time");
    stop(context, CMD_ERR_TIMEOUT);
  }
}

static void source_init(j_decompress_ptr cinfo) { (void)cinfo; }

/* The next block of input; at the end, a fake end of image after a warning (which stops the
 * decode as truncated), as libjpeg's own sources do. */
static boolean source_fill(j_decompress_ptr cinfo) {
  source_manager *manager = (source_manager *)cinfo->src;
  cmd_source *source = manager->source;
  if (cmd_source_fill(source) > 0) {
    manager->pub.next_input_byte = source->next;
    manager->pub.bytes_in_buffer = source->available;
    source->next += source->available;
    source->available = 0;
    return TRUE;
  }
  WARNMS(cinfo, JWRN_JPEG_EOF);
  manager->end_of_image[0] = 0xFF;
  manager->end_of_image[1] = JPEG_EOI;
  manager->pub.next_input_byte = manager->end_of_image;
  manager->pub.bytes_in_buffer = 2;
  return TRUE;
}

static void source_skip(j_decompress_ptr cinfo, long count) {
  source_manager *manager = (source_manager *)cinfo->src;
  if (count <= 0) return;
  if ((size_t)count <= manager->pub.bytes_in_buffer) {
    manager->pub.next_input_byte += count;
    manager->pub.bytes_in_buffer -= (size_t)count;
    return;
  }
  size_t rest = (size_t)count - manager->pub.bytes_in_buffer;
  manager->pub.bytes_in_buffer = 0;
  cmd_source_skip(manager->source, rest);
}

static void source_term(j_decompress_ptr cinfo) { (void)cinfo; }

/* cmd_decode's scale: the largest power-of-two reduction (8, 4, 2) that still gives at least the target size. */
static unsigned int scale_for(uint32_t width, uint32_t height, uint32_t target_w,
                              uint32_t target_h) {
  if (target_w == 0 && target_h == 0) return 1;
  static const unsigned int denominators[] = {8, 4, 2};
  for (size_t i = 0; i < sizeof denominators / sizeof denominators[0]; i++) {
    unsigned int d = denominators[i];
    uint32_t w = (width + d - 1) / d, h = (height + d - 1) / d;
    if (w >= target_w && h >= target_h) return d;
  }
  return 1;
}

/* CMYK or YCCK scanline (as libjpeg outputs it) to RGB. Adobe files store inverted CMYK. */
static void cmyk_to_rgb(const uint8_t *in, uint8_t *out, uint32_t width, int inverted) {
  for (uint32_t x = 0; x < width; x++) {
    unsigned int c = in[4 * x], m = in[4 * x + 1], y = in[4 * x + 2], k = in[4 * x + 3];
    if (!inverted) {
      c = 255 - c;
      m = 255 - m;
      y = 255 - y;
      k = 255 - k;
    }
    out[3 * x] = (uint8_t)((c * k + 127) / 255);
    out[3 * x + 1] = (uint8_t)((m * k + 127) / 255);
    out[3 * x + 2] = (uint8_t)((y * k + 127) / 255);
  }
}

/* The smallest scale M/8 (M = 1 … 8) at which the picture is at least the needed size. */
static unsigned int eighths_for(uint32_t width, uint32_t height, uint32_t need_w, uint32_t need_h) {
  for (unsigned int m = 1; m < 8; m++) {
    uint64_t w = ((uint64_t)width * m + 7) / 8, h = ((uint64_t)height * m + 7) / 8;
    if (w >= need_w && h >= need_h) return m;
  }
  return 8;
}

/* Sets up libjpeg on the source and reads the header; on error longjmps. */
static void start(jpeg_context *context, cmd_source *source, const cmd_limits *limits) {
  struct jpeg_decompress_struct *cinfo = &context->cinfo;
  jpeg_create_decompress(cinfo); /* keeps err and client_data, zeroes the rest */
  if (limits->max_decoder_memory != 0)
    cinfo->mem->max_memory_to_use =
        limits->max_decoder_memory > 0x7FFFFFFFu ? 0x7FFFFFFFL : (long)limits->max_decoder_memory;
  context->progress.progress_monitor = on_progress;
  cinfo->progress = &context->progress;
  context->source.source = source;
  context->source.pub.init_source = source_init;
  context->source.pub.fill_input_buffer = source_fill;
  context->source.pub.skip_input_data = source_skip;
  context->source.pub.resync_to_restart = jpeg_resync_to_restart;
  context->source.pub.term_source = source_term;
  context->source.pub.next_input_byte = NULL;
  context->source.pub.bytes_in_buffer = 0;
  cinfo->src = &context->source.pub;
  jpeg_read_header(cinfo, TRUE);
}

/* Decodes with libjpeg at the scale the sink needs. */
static int decode_libjpeg(cmd_source *source, const cmd_limits *limits, cmd_sink *sink,
                          uint32_t full_target_w, uint32_t full_target_h, cmd_image *out, char *err,
                          size_t errlen) {
  /* Set once, before setjmp, and never assigned again. */
  jpeg_context *const context = calloc(1, sizeof(jpeg_context));
  if (context == NULL) {
    cmd_set_error(err, errlen, "no memory for the JPEG decoder");
    return CMD_ERR_NO_MEMORY;
  }
  context->max_scans = limits->max_scans;
  context->deadline = cmd_deadline(limits->max_millis);
  struct jpeg_decompress_struct *const cinfo = &context->cinfo;
  cinfo->err = jpeg_std_error(&context->errors);
  context->errors.error_exit = on_error;
  context->errors.emit_message = on_message;
  context->errors.output_message = on_output;
  cinfo->client_data = context;

  if (setjmp(context->jump) != 0) {
    int status = context->status == CMD_OK ? CMD_ERR_CORRUPT : context->status;
    cmd_set_error(err, errlen, "JPEG: %s", context->message[0] ? context->message : "decoding failed");
    jpeg_destroy_decompress(cinfo);
    free(context->row);
    free(context->rgb);
    free(context);
    return status;
  }

  start(context, source, limits);
  /* The caps, before anything sized by the image is allocated. */
  int status = cmd_check_size(cinfo->image_width, cinfo->image_height, limits, context->message,
                              sizeof context->message);
  if (status != CMD_OK) stop(context, status);

  unsigned int num, denom;
  uint32_t need_w = 1, need_h = 1;
  if (cmd_sink_is_full(sink)) {
    /* A full copy gets every pixel of the scale, chroma included. */
    num = 1;
    denom = scale_for(cinfo->image_width, cinfo->image_height, full_target_w, full_target_h);
    need_w = (cinfo->image_width + denom - 1) / denom;
    need_h = (cinfo->image_height + denom - 1) / denom;
  } else {
    cmd_sink_need(sink, cinfo->image_width, cinfo->image_height, &need_w, &need_h);
    num = eighths_for(cinfo->image_width, cinfo->image_height, need_w, need_h);
    denom = 8;
  }
  if (!cmd_sink_is_full(sink)) {
    cinfo->dct_method = JDCT_IFAST;
    cinfo->do_fancy_upsampling = FALSE;
  }

  int cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
  int gray = cinfo->jpeg_color_space == JCS_GRAYSCALE;
  cinfo->out_color_space = cmyk ? JCS_CMYK : gray ? JCS_GRAYSCALE : JCS_RGB;
  cinfo->scale_num = num;
  cinfo->scale_denom = denom;
  jpeg_calc_output_dimensions(cinfo);
  uint32_t width = cinfo->output_width, height = cinfo->output_height;
  int components = cmyk ? 4 : gray ? 1 : 3;
  if (width == 0 || height == 0 || cinfo->output_components != components) {
    snprintf(context->message, sizeof context->message, "unexpected output layout");
    stop(context, CMD_ERR_UNSUPPORTED);
  }
  status = cmd_sink_begin(sink, width, height, gray ? 1 : 3, 1, context->message,
                          sizeof context->message);
  if (status != CMD_OK) stop(context, status);
  uint32_t first_row, last_row, first_column, last_column;
  cmd_sink_rows(sink, &first_row, &last_row);
  cmd_sink_columns(sink, &first_column, &last_column);
  if (last_row > height) last_row = height;
  if (last_column > width) last_column = width;

  /* Progressive files are absorbed scan by scan here, under the progress monitor. */
  jpeg_start_decompress(cinfo);
  JDIMENSION x0 = 0, columns = width;
  if (first_column > 0 || last_column < width) {
    x0 = first_column;
    columns = last_column - first_column;
    jpeg_crop_scanline(cinfo, &x0, &columns); /* widened to whole blocks */
  }
  context->row = malloc((size_t)columns * (size_t)components);
  if (cmyk) context->rgb = malloc((size_t)columns * 3);
  if (context->row == NULL || (cmyk && context->rgb == NULL)) {
    snprintf(context->message, sizeof context->message, "no memory for a row of %u pixels", columns);
    stop(context, CMD_ERR_NO_MEMORY);
  }
  if (first_row > 0) jpeg_skip_scanlines(cinfo, first_row);
  while (cinfo->output_scanline < last_row) {
    JDIMENSION y = cinfo->output_scanline;
    JSAMPROW row = context->row;
    if (jpeg_read_scanlines(cinfo, &row, 1) != 1) {
      snprintf(context->message, sizeof context->message, "no scanline was produced");
      stop(context, CMD_ERR_CORRUPT);
    }
    if (cmyk) cmyk_to_rgb(context->row, context->rgb, columns, cinfo->saw_Adobe_marker);
    cmd_sink_row(sink, y, x0, 1, cmyk ? context->rgb : context->row, columns);
  }
  /* Reading on to the end of the file checks it is whole; a crop that ends early stops. */
  if (cinfo->output_scanline == cinfo->output_height) {
    jpeg_finish_decompress(cinfo);
  } else {
    jpeg_abort_decompress(cinfo);
  }
  out->source_width = cinfo->image_width;
  out->source_height = cinfo->image_height;
  out->scale_num = num;
  out->scale_denom = denom;
  out->scans = cinfo->input_scan_number > 0 ? (uint32_t)cinfo->input_scan_number : 1;
  out->format = CMD_FORMAT_JPEG;
  jpeg_destroy_decompress(cinfo);
  free(context->row);
  free(context->rgb);
  free(context);
  return CMD_OK;
}

/* Walks the markers before the first frame header as cmd_probe_jpeg does and refuses what it
 * refuses, then rewinds. libjpeg skips an APPn or COM segment whose length is
 * below 2, which the JPEG standard and the probe call corrupt: without this walk the decoder
 * would draw a file its header check refuses. A truncated header is left to the decoders. */
static int check_markers(cmd_source *source, char *err, size_t errlen) {
  uint64_t at = 2; /* the offset of the next byte read */
  int status = CMD_OK;
#define NEXT_BYTE() (at++, cmd_source_byte(source))
  if (cmd_source_skip(source, 2) == 2) {
    for (;;) {
      int byte = NEXT_BYTE();
      if (byte < 0) break;
      if (byte != 0xFF) {
        cmd_set_error(err, errlen, "JPEG marker expected at byte %llu", (unsigned long long)(at - 1));
        status = CMD_ERR_CORRUPT;
        break;
      }
      while ((byte = NEXT_BYTE()) == 0xFF) continue; /* fill bytes */
      if (byte < 0) break;
      if (byte == 0x01 || (byte >= 0xD0 && byte <= 0xD7)) continue; /* no length */
      if (byte == 0xD9 || byte == 0xDA) {
        cmd_set_error(err, errlen, "JPEG has no frame header before its image data");
        status = CMD_ERR_CORRUPT;
        break;
      }
      int high = NEXT_BYTE(), low = NEXT_BYTE();
      if (high < 0 || low < 0) break;
      size_t length = ((size_t)high << 8) | (size_t)low;
      if (length < 2) {
        cmd_set_error(err, errlen, "JPEG marker has a bad length");
        status = CMD_ERR_CORRUPT;
        break;
      }
      if (byte >= 0xC0 && byte <= 0xCF && byte != 0xC4 && byte != 0xC8 && byte != 0xCC) break;
      if (cmd_source_skip(source, length - 2) != length - 2) break;
      at += length - 2;
    }
  }
#undef NEXT_BYTE
  cmd_source_rewind(source);
  return status;
}

int cmd_decode_jpeg(cmd_source *source, const cmd_limits *limits, cmd_sink *sink,
                    uint32_t full_target_w, uint32_t full_target_h, cmd_image *out, char *err,
                    size_t errlen) {
  int checked = check_markers(source, err, errlen);
  if (checked != CMD_OK) return checked;
  return decode_libjpeg(source, limits, sink, full_target_w, full_target_h, out, err, errlen);
}

/* Header probe without libjpeg: walks the markers up to the first SOFn. */
int cmd_probe_jpeg(const uint8_t *bytes, size_t len, cmd_info *out, char *err, size_t errlen) {
  size_t pos = 2; /* after SOI */
  while (pos < len) {
    if (bytes[pos] != 0xFF) {
      cmd_set_error(err, errlen, "JPEG marker expected at byte %zu", pos);
      return CMD_ERR_CORRUPT;
    }
    while (pos < len && bytes[pos] == 0xFF) pos++; /* fill bytes */
    if (pos >= len) break;
    uint8_t marker = bytes[pos++];
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue; /* no length */
    if (marker == 0xD9 || marker == 0xDA) {
      cmd_set_error(err, errlen, "JPEG has no frame header before its image data");
      return CMD_ERR_CORRUPT;
    }
    if (len - pos < 2) break;
    size_t length = ((size_t)bytes[pos] << 8) | bytes[pos + 1];
    if (length < 2) {
      cmd_set_error(err, errlen, "JPEG marker has a bad length");
      return CMD_ERR_CORRUPT;
    }
    int is_frame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 &&
                   marker != 0xCC;
    if (is_frame) {
      if (length < 8 || len - pos < 8) break;
      uint32_t height = ((uint32_t)bytes[pos + 3] << 8) | bytes[pos + 4];
      uint32_t width = ((uint32_t)bytes[pos + 5] << 8) | bytes[pos + 6];
      if (width == 0 || height == 0) {
        cmd_set_error(err, errlen, "JPEG frame header gives an empty size (%ux%u)", width, height);
        return CMD_ERR_CORRUPT;
      }
      out->width = width;
      out->height = height;
      out->format = CMD_FORMAT_JPEG;
      out->interlaced = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE;
      /* libjpeg's fastest decode: its 1/8 scale, which it gives every JPEG it reads. */
      out->fast_width = (width + 7) / 8;
      out->fast_height = (height + 7) / 8;
      return CMD_OK;
    }
    if (len - pos < length) break;
    pos += length;
  }
  cmd_set_error(err, errlen, "JPEG header is truncated");
  return CMD_ERR_TRUNCATED;
}

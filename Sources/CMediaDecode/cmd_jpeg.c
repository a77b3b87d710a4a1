/* JPEG through the classic libjpeg API.
 *
 * libjpeg reports fatal errors through error_exit, whose default ends the process. Here every
 * error, every warning (treated as fatal, as libjpeg-turbo's maintainers advise for untrusted
 * input) and every budget breach longjmps to the setjmp in cmd_decode_jpeg, which is in this
 * file: no longjmp ever crosses a Swift frame. Everything that changes after setjmp lives in a
 * heap context reached through a pointer that is set before setjmp and never changed, so its
 * value is well defined after the longjmp. */
#include "cmd_internal.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

/* libjpeg's per-decode state plus ours. */
typedef struct jpeg_context {
  struct jpeg_decompress_struct cinfo;
  struct jpeg_error_mgr errors;
  struct jpeg_progress_mgr progress;
  jmp_buf jump;
  /* Why the decode stopped: a CMD_ERR_* set before the longjmp. */
  int status;
  char message[JMSG_LENGTH_MAX];
  uint32_t max_scans;
  uint64_t deadline;
  /* Buffers freed on every exit path. */
  uint8_t *pixels;
  uint8_t *row;
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

/* The largest power-of-two reduction (8, 4, 2) that still gives at least the target size. */
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

int cmd_decode_jpeg(const uint8_t *bytes, size_t len, const cmd_limits *limits,
                    uint32_t target_w, uint32_t target_h, cmd_image *out, char *err,
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
    free(context->pixels);
    free(context->row);
    free(context);
    return status;
  }

  jpeg_create_decompress(cinfo); /* keeps err and client_data, zeroes the rest */
  if (limits->max_decoder_memory != 0)
    cinfo->mem->max_memory_to_use =
        limits->max_decoder_memory > 0x7FFFFFFFu ? 0x7FFFFFFFL : (long)limits->max_decoder_memory;
  context->progress.progress_monitor = on_progress;
  cinfo->progress = &context->progress;
  jpeg_mem_src(cinfo, bytes, (unsigned long)len);
  jpeg_read_header(cinfo, TRUE);

  /* The caps, before anything sized by the image is allocated. */
  int status = cmd_check_size(cinfo->image_width, cinfo->image_height, limits, context->message,
                              sizeof context->message);
  if (status != CMD_OK) stop(context, status);

  int cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
  cinfo->out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
  cinfo->scale_num = 1;
  cinfo->scale_denom = scale_for(cinfo->image_width, cinfo->image_height, target_w, target_h);
  jpeg_calc_output_dimensions(cinfo);
  uint32_t width = cinfo->output_width, height = cinfo->output_height;
  size_t size = cmd_buffer_size(width, height, 3);
  if (width == 0 || height == 0 || size == 0 || cinfo->output_components != (cmyk ? 4 : 3)) {
    snprintf(context->message, sizeof context->message, "unexpected output layout");
    stop(context, CMD_ERR_UNSUPPORTED);
  }
  context->pixels = malloc(size);
  if (cmyk) context->row = malloc((size_t)width * 4);
  if (context->pixels == NULL || (cmyk && context->row == NULL)) {
    snprintf(context->message, sizeof context->message, "no memory for %ux%u pixels", width, height);
    stop(context, CMD_ERR_NO_MEMORY);
  }

  /* Progressive files are absorbed scan by scan here, under the progress monitor. */
  jpeg_start_decompress(cinfo);
  while (cinfo->output_scanline < height) {
    uint8_t *target = context->pixels + (size_t)cinfo->output_scanline * width * 3;
    JSAMPROW row = cmyk ? context->row : target;
    if (jpeg_read_scanlines(cinfo, &row, 1) != 1) {
      snprintf(context->message, sizeof context->message, "no scanline was produced");
      stop(context, CMD_ERR_CORRUPT);
    }
    if (cmyk) cmyk_to_rgb(context->row, target, width, cinfo->saw_Adobe_marker);
  }
  jpeg_finish_decompress(cinfo);

  *out = (cmd_image){.pixels = context->pixels, .byte_count = size, .width = width,
                      .height = height, .channels = 3, .source_width = cinfo->image_width,
                      .source_height = cinfo->image_height, .scale_denom = cinfo->scale_denom,
                      .scans = cinfo->input_scan_number > 0 ? (uint32_t)cinfo->input_scan_number : 1,
                      .format = CMD_FORMAT_JPEG};
  context->pixels = NULL;
  jpeg_destroy_decompress(cinfo);
  free(context->row);
  free(context);
  return CMD_OK;
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
      return CMD_OK;
    }
    if (len - pos < length) break;
    pos += length;
  }
  cmd_set_error(err, errlen, "JPEG header is truncated");
  return CMD_ERR_TRUNCATED;
}

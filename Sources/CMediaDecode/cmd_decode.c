/* Format dispatch, header probes for PNG and GIF, and the shared helpers. */
#include "cmd_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const uint8_t png_signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};

void cmd_set_error(char *err, size_t errlen, const char *format, ...) {
  if (err == NULL || errlen == 0) return;
  va_list args;
  va_start(args, format);
  int written = vsnprintf(err, errlen, format, args);
  va_end(args);
  if (written < 0) err[0] = '\0';
  err[errlen - 1] = '\0';
}

uint64_t cmd_now_ms(void) {
  /* The decoding thread's own CPU time: a budget that stops a decode bomb, and that a decode
   * waiting for the CPU on a busy machine does not use up, so whether an image can be drawn
   * does not depend on the machine's load. */
  struct timespec now;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0) return 0;
  return (uint64_t)now.tv_sec * 1000u + (uint64_t)now.tv_nsec / 1000000u;
}

uint64_t cmd_deadline(uint32_t budget_ms) {
  if (budget_ms == 0) return 0;
  return cmd_now_ms() + budget_ms;
}

int cmd_past(uint64_t deadline) { return deadline != 0 && cmd_now_ms() > deadline; }

int cmd_check_size(uint64_t width, uint64_t height, const cmd_limits *limits, char *err,
                   size_t errlen) {
  if (width == 0 || height == 0) {
    cmd_set_error(err, errlen, "the header gives an empty size (%llux%llu)",
                  (unsigned long long)width, (unsigned long long)height);
    return CMD_ERR_CORRUPT;
  }
  if (width > limits->max_width || height > limits->max_height ||
      width * height > limits->max_pixels) {
    cmd_set_error(err, errlen, "%llux%llu is over the limit (%ux%u, %llu pixels)",
                  (unsigned long long)width, (unsigned long long)height, limits->max_width,
                  limits->max_height, (unsigned long long)limits->max_pixels);
    return CMD_ERR_TOO_LARGE;
  }
  return CMD_OK;
}

size_t cmd_buffer_size(uint32_t width, uint32_t height, uint32_t channels) {
  uint64_t row = (uint64_t)width * channels;
  if (height != 0 && row > (uint64_t)SIZE_MAX / height) return 0;
  return (size_t)(row * height);
}

static uint32_t be32(const uint8_t *p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static int format_of(const uint8_t *bytes, size_t len) {
  if (len >= 8 && memcmp(bytes, png_signature, 8) == 0) return CMD_FORMAT_PNG;
  if (len >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF) return CMD_FORMAT_JPEG;
  if (len >= 6 && (memcmp(bytes, "GIF87a", 6) == 0 || memcmp(bytes, "GIF89a", 6) == 0))
    return CMD_FORMAT_GIF;
  return CMD_FORMAT_UNKNOWN;
}

int cmd_probe_png(const uint8_t *bytes, size_t len, cmd_info *out, char *err, size_t errlen) {
  /* Signature (8), IHDR length (4) and type (4), then width, height, depth, colour type,
   * compression, filter, interlace. */
  if (len < 33) {
    cmd_set_error(err, errlen, "PNG header is truncated");
    return CMD_ERR_TRUNCATED;
  }
  if (be32(bytes + 8) != 13 || memcmp(bytes + 12, "IHDR", 4) != 0) {
    cmd_set_error(err, errlen, "PNG does not start with an IHDR chunk");
    return CMD_ERR_CORRUPT;
  }
  uint32_t width = be32(bytes + 16), height = be32(bytes + 20);
  if (width == 0 || height == 0 || width > 0x7FFFFFFFu || height > 0x7FFFFFFFu) {
    cmd_set_error(err, errlen, "PNG header gives an invalid size (%ux%u)", width, height);
    return CMD_ERR_CORRUPT;
  }
  out->width = width;
  out->height = height;
  out->format = CMD_FORMAT_PNG;
  out->interlaced = bytes[28] != 0;
  return CMD_OK;
}

int cmd_probe_gif(const uint8_t *bytes, size_t len, cmd_info *out, char *err, size_t errlen) {
  if (len < 13) {
    cmd_set_error(err, errlen, "GIF header is truncated");
    return CMD_ERR_TRUNCATED;
  }
  uint32_t width = (uint32_t)bytes[6] | ((uint32_t)bytes[7] << 8);
  uint32_t height = (uint32_t)bytes[8] | ((uint32_t)bytes[9] << 8);
  if (width == 0 || height == 0) {
    cmd_set_error(err, errlen, "GIF header gives an empty screen (%ux%u)", width, height);
    return CMD_ERR_CORRUPT;
  }
  out->width = width;
  out->height = height;
  out->format = CMD_FORMAT_GIF;
  out->interlaced = 0;
  return CMD_OK;
}

int cmd_probe(const uint8_t *bytes, size_t len, cmd_info *out, char *err, size_t errlen) {
  if (err != NULL && errlen > 0) err[0] = '\0';
  if (bytes == NULL || out == NULL) {
    cmd_set_error(err, errlen, "no data");
    return CMD_ERR_ARGUMENT;
  }
  memset(out, 0, sizeof *out);
  switch (format_of(bytes, len)) {
  case CMD_FORMAT_PNG: return cmd_probe_png(bytes, len, out, err, errlen);
  case CMD_FORMAT_JPEG: return cmd_probe_jpeg(bytes, len, out, err, errlen);
  case CMD_FORMAT_GIF: return cmd_probe_gif(bytes, len, out, err, errlen);
  default:
    cmd_set_error(err, errlen, "not a PNG, JPEG or GIF image");
    return CMD_ERR_UNSUPPORTED;
  }
}

/* Which decoder a source needs, from its first bytes. */
static int source_format(cmd_source *source) {
  if (source->available < 8) cmd_source_fill(source);
  return format_of(source->next, source->available);
}

/* Runs the decoder for the source's format into the sink and collects the pixels. */
static int decode_into(cmd_source *source, const cmd_limits *limits, cmd_sink *sink, int format,
                       uint32_t target_w, uint32_t target_h, cmd_image *out, char *err,
                       size_t errlen) {
  int status;
  switch (format) {
  case CMD_FORMAT_PNG: status = cmd_decode_png(source, limits, sink, out, err, errlen); break;
  case CMD_FORMAT_JPEG:
    status = cmd_decode_jpeg(source, limits, sink, target_w, target_h, out, err, errlen);
    break;
  case CMD_FORMAT_GIF: status = cmd_decode_gif(source, limits, sink, out, err, errlen); break;
  default:
    cmd_set_error(err, errlen, "not a PNG, JPEG or GIF image");
    return CMD_ERR_UNSUPPORTED;
  }
  if (status == CMD_OK) status = cmd_sink_finish(sink, out, err, errlen);
  if (status != CMD_OK) {
    cmd_free(out);
    if (err != NULL && errlen > 0 && err[0] == '\0') cmd_set_error(err, errlen, "decoding failed");
  }
  return status;
}

static int limits_usable(const cmd_limits *limits) {
  return limits != NULL && limits->max_width != 0 && limits->max_height != 0 &&
         limits->max_pixels != 0;
}

int cmd_decode(const uint8_t *bytes, size_t len, const cmd_limits *limits, uint32_t target_w,
               uint32_t target_h, cmd_image *out, char *err, size_t errlen) {
  if (err != NULL && errlen > 0) err[0] = '\0';
  if (out == NULL) return CMD_ERR_ARGUMENT;
  memset(out, 0, sizeof *out);
  if (bytes == NULL || !limits_usable(limits)) {
    cmd_set_error(err, errlen, "no data or no limits");
    return CMD_ERR_ARGUMENT;
  }
  cmd_source source;
  cmd_source_memory(&source, bytes, len);
  int format = source_format(&source);
  cmd_sink *sink = cmd_sink_full(format == CMD_FORMAT_JPEG ? 3 : 4);
  if (sink == NULL) {
    cmd_set_error(err, errlen, "no memory for the decoder");
    return CMD_ERR_NO_MEMORY;
  }
  int status = decode_into(&source, limits, sink, format, target_w, target_h, out, err, errlen);
  cmd_sink_free(sink);
  return status;
}

/* Checks a target; CMD_OK or CMD_ERR_ARGUMENT with a message. */
static int check_target(const cmd_target *target, char *err, size_t errlen) {
  if (target == NULL) {
    cmd_set_error(err, errlen, "no target");
    return CMD_ERR_ARGUMENT;
  }
  if (target->width == 0 || target->height == 0 || target->width > CMD_MAX_TARGET_SIDE ||
      target->height > CMD_MAX_TARGET_SIDE ||
      (uint64_t)target->width * target->height > CMD_MAX_TARGET_PIXELS) {
    cmd_set_error(err, errlen, "a target of %ux%u pixels is out of range", target->width,
                  target->height);
    return CMD_ERR_ARGUMENT;
  }
  double values[4] = {target->x, target->y, target->region_width, target->region_height};
  for (int i = 0; i < 4; i++) {
    if (!(values[i] == values[i]) || values[i] > 1e9 || values[i] < -1e9) {
      cmd_set_error(err, errlen, "the region is not a finite rectangle");
      return CMD_ERR_ARGUMENT;
    }
  }
  double left = target->x < 0 ? 0 : target->x > 1 ? 1 : target->x;
  double top = target->y < 0 ? 0 : target->y > 1 ? 1 : target->y;
  double right = target->x + target->region_width, bottom = target->y + target->region_height;
  right = right < 0 ? 0 : right > 1 ? 1 : right;
  bottom = bottom < 0 ? 0 : bottom > 1 ? 1 : bottom;
  if (right - left < 1e-6 || bottom - top < 1e-6) {
    cmd_set_error(err, errlen, "the region has no area inside the picture");
    return CMD_ERR_ARGUMENT;
  }
  return CMD_OK;
}

/* cmd_decode_scaled over any source. */
static int decode_scaled(cmd_source *source, const cmd_limits *limits, const cmd_target *target,
                         cmd_image *out, char *err, size_t errlen) {
  int format = source_format(source);
  if (source->read_error != 0) {
    cmd_set_error(err, errlen, "cannot read the file (%s)", strerror(source->read_error));
    return CMD_ERR_TRUNCATED;
  }
  cmd_sink *sink = cmd_sink_reducer(target, limits);
  if (sink == NULL) {
    cmd_set_error(err, errlen, "no memory for the decoder");
    return CMD_ERR_NO_MEMORY;
  }
  int status = decode_into(source, limits, sink, format, 0, 0, out, err, errlen);
  cmd_sink_free(sink);
  return status;
}

int cmd_decode_scaled(const uint8_t *bytes, size_t len, const cmd_limits *limits,
                      const cmd_target *target, cmd_image *out, char *err, size_t errlen) {
  if (err != NULL && errlen > 0) err[0] = '\0';
  if (out == NULL) return CMD_ERR_ARGUMENT;
  memset(out, 0, sizeof *out);
  if (bytes == NULL || !limits_usable(limits)) {
    cmd_set_error(err, errlen, "no data or no limits");
    return CMD_ERR_ARGUMENT;
  }
  int status = check_target(target, err, errlen);
  if (status != CMD_OK) return status;
  cmd_source source;
  cmd_source_memory(&source, bytes, len);
  return decode_scaled(&source, limits, target, out, err, errlen);
}

int cmd_decode_scaled_fd(int fd, const cmd_limits *limits, const cmd_target *target,
                         cmd_image *out, char *err, size_t errlen) {
  if (err != NULL && errlen > 0) err[0] = '\0';
  if (out == NULL) return CMD_ERR_ARGUMENT;
  memset(out, 0, sizeof *out);
  if (fd < 0 || !limits_usable(limits)) {
    cmd_set_error(err, errlen, "no file or no limits");
    return CMD_ERR_ARGUMENT;
  }
  int status = check_target(target, err, errlen);
  if (status != CMD_OK) return status;
  cmd_source source;
  if (cmd_source_file(&source, fd) != CMD_OK) {
    cmd_set_error(err, errlen, "no memory for the file buffer");
    return CMD_ERR_NO_MEMORY;
  }
  status = decode_scaled(&source, limits, target, out, err, errlen);
  cmd_source_close(&source);
  return status;
}

void cmd_free(cmd_image *image) {
  if (image == NULL) return;
  free(image->pixels);
  image->pixels = NULL;
  image->byte_count = 0;
}

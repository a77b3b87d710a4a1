/* PNG through libpng's simplified API: png_image_* run every libpng step under libpng's own
 * setjmp (png_safe_execute) and report errors in image.message, so no longjmp leaves libpng. */
#include "cmd_internal.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>

/* Sorts libpng's message into one of the error codes. */
static int png_status(const char *message) {
  if (strstr(message, "end of data") != NULL || strstr(message, "Not enough image data") != NULL ||
      strstr(message, "truncated") != NULL)
    return CMD_ERR_TRUNCATED;
  if (strstr(message, "memory") != NULL) return CMD_ERR_NO_MEMORY;
  return CMD_ERR_CORRUPT;
}

int cmd_decode_png(const uint8_t *bytes, size_t len, const cmd_limits *limits, cmd_image *out,
                   char *err, size_t errlen) {
  /* Check the size from IHDR before libpng reads anything else. */
  cmd_info info;
  int status = cmd_probe_png(bytes, len, &info, err, errlen);
  if (status != CMD_OK) return status;
  status = cmd_check_size(info.width, info.height, limits, err, errlen);
  if (status != CMD_OK) return status;

  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, bytes, len)) {
    status = png_status(image.message);
    cmd_set_error(err, errlen, "PNG: %s", image.message);
    png_image_free(&image);
    return status;
  }
  /* libpng parsed the same IHDR; check again in case it disagrees. */
  status = cmd_check_size(image.width, image.height, limits, err, errlen);
  if (status != CMD_OK) {
    png_image_free(&image);
    return status;
  }
  if ((uint64_t)image.width * 4 > 0x7FFFFFFFu) {
    cmd_set_error(err, errlen, "PNG: rows of %u pixels are too wide", image.width);
    png_image_free(&image);
    return CMD_ERR_TOO_LARGE;
  }
  image.format = PNG_FORMAT_RGBA;
  size_t size = cmd_buffer_size(image.width, image.height, 4);
  uint8_t *pixels = size == 0 ? NULL : malloc(size);
  if (pixels == NULL) {
    cmd_set_error(err, errlen, "PNG: no memory for %ux%u pixels", image.width, image.height);
    png_image_free(&image);
    return CMD_ERR_NO_MEMORY;
  }
  if (!png_image_finish_read(&image, NULL, pixels, (png_int_32)(image.width * 4), NULL)) {
    status = png_status(image.message);
    cmd_set_error(err, errlen, "PNG: %s", image.message);
    free(pixels);
    png_image_free(&image);
    return status;
  }
  *out = (cmd_image){.pixels = pixels, .byte_count = size, .width = image.width,
                      .height = image.height, .channels = 4, .source_width = image.width,
                      .source_height = image.height, .scale_denom = 1, .scans = 1,
                      .format = CMD_FORMAT_PNG};
  png_image_free(&image);
  return CMD_OK;
}

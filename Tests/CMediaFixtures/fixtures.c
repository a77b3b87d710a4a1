/* Test-only encoders; see CMediaFixtures.h. Errors are reported, never fatal. */
#include "CMediaFixtures.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>
#include <zlib.h>

int cmf_encode_png(const uint8_t *rgba, uint32_t width, uint32_t height, uint8_t **out,
                   size_t *out_len) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = PNG_FORMAT_RGBA;
  png_alloc_size_t size = 0;
  if (!png_image_write_to_memory(&image, NULL, &size, 0, rgba, 0, NULL)) return 1;
  uint8_t *buffer = malloc(size);
  if (buffer == NULL) return 2;
  if (!png_image_write_to_memory(&image, buffer, &size, 0, rgba, 0, NULL)) {
    free(buffer);
    return 3;
  }
  *out = buffer;
  *out_len = size;
  return 0;
}

typedef struct encode_context {
  struct jpeg_compress_struct cinfo;
  struct jpeg_error_mgr errors;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
  unsigned char *buffer;
  unsigned long size;
  uint8_t *row;
  jpeg_scan_info *scans;
} encode_context;

static void on_error(j_common_ptr cinfo) {
  encode_context *context = (encode_context *)cinfo->client_data;
  (*cinfo->err->format_message)(cinfo, context->message);
  longjmp(context->jump, 1);
}

static void on_output(j_common_ptr cinfo) { (void)cinfo; }

int cmf_encode_jpeg(const uint8_t *pixels, uint32_t width, uint32_t height, int components,
                    int quality, int layout, uint8_t **out, size_t *out_len, char *err,
                    size_t errlen) {
  encode_context *const context = calloc(1, sizeof(encode_context));
  if (context == NULL) return 1;
  struct jpeg_compress_struct *const cinfo = &context->cinfo;
  cinfo->err = jpeg_std_error(&context->errors);
  context->errors.error_exit = on_error;
  context->errors.output_message = on_output;
  cinfo->client_data = context;
  if (setjmp(context->jump) != 0) {
    snprintf(err, errlen, "%s", context->message);
    jpeg_destroy_compress(cinfo);
    free(context->buffer);
    free(context->row);
    free(context->scans);
    free(context);
    return 2;
  }
  jpeg_create_compress(cinfo);
  jpeg_mem_dest(cinfo, &context->buffer, &context->size);
  cinfo->image_width = width;
  cinfo->image_height = height;
  cinfo->input_components = components;
  cinfo->in_color_space = components == 1 ? JCS_GRAYSCALE : components == 4 ? JCS_CMYK : JCS_RGB;
  jpeg_set_defaults(cinfo);
  if (components == 4) jpeg_set_colorspace(cinfo, JCS_YCCK);
  jpeg_set_quality(cinfo, quality, TRUE);
  if (layout == CMF_JPEG_PROGRESSIVE) jpeg_simple_progression(cinfo);
  if (layout == CMF_JPEG_MANY_SCANS) {
    int count = 1 + 63 * 11;
    context->scans = calloc((size_t)count, sizeof(jpeg_scan_info));
    if (context->scans == NULL) longjmp(context->jump, 1);
    jpeg_scan_info *scan = context->scans;
    scan->comps_in_scan = 1;
    scan->Ss = scan->Se = scan->Ah = scan->Al = 0;
    scan++;
    for (int k = 1; k < 64; k++) {
      scan->comps_in_scan = 1;
      scan->Ss = scan->Se = k;
      scan->Ah = 0;
      scan->Al = 10;
      scan++;
      for (int a = 10; a >= 1; a--) {
        scan->comps_in_scan = 1;
        scan->Ss = scan->Se = k;
        scan->Ah = a;
        scan->Al = a - 1;
        scan++;
      }
    }
    cinfo->scan_info = context->scans;
    cinfo->num_scans = count;
  }
  jpeg_start_compress(cinfo, TRUE);
  size_t stride = (size_t)width * (size_t)components;
  if (pixels == NULL) {
    context->row = malloc(stride);
    if (context->row == NULL) longjmp(context->jump, 1);
  }
  while (cinfo->next_scanline < height) {
    uint32_t y = cinfo->next_scanline;
    JSAMPROW row;
    if (pixels != NULL) {
      row = (JSAMPROW)(pixels + stride * y);
    } else {
      for (uint32_t x = 0; x < width; x++) {
        for (int c = 0; c < components; c++)
          context->row[(size_t)x * components + c] =
              (uint8_t)(c == 0 ? x * 255 / (width > 1 ? width - 1 : 1)
                               : c == 1 ? y * 255 / (height > 1 ? height - 1 : 1) : 128);
      }
      row = context->row;
    }
    jpeg_write_scanlines(cinfo, &row, 1);
  }
  jpeg_finish_compress(cinfo);
  *out = context->buffer;
  *out_len = context->size;
  jpeg_destroy_compress(cinfo);
  free(context->row);
  free(context->scans);
  free(context);
  return 0;
}

int cmf_deflate_zeros(size_t count, uint8_t **out, size_t *out_len) {
  z_stream stream;
  memset(&stream, 0, sizeof stream);
  if (deflateInit(&stream, 9) != Z_OK) return 1;
  size_t capacity = count / 500 + 4096;
  uint8_t *buffer = malloc(capacity);
  static uint8_t zeros[65536];
  if (buffer == NULL) {
    deflateEnd(&stream);
    return 2;
  }
  stream.next_out = buffer;
  stream.avail_out = (uInt)capacity;
  size_t left = count;
  int flush, status;
  do {
    size_t chunk = left < sizeof zeros ? left : sizeof zeros;
    stream.next_in = zeros;
    stream.avail_in = (uInt)chunk;
    left -= chunk;
    flush = left == 0 ? Z_FINISH : Z_NO_FLUSH;
    status = deflate(&stream, flush);
  } while (flush != Z_FINISH && status == Z_OK && stream.avail_out > 0);
  size_t produced = capacity - stream.avail_out;
  deflateEnd(&stream);
  if (status != Z_STREAM_END) {
    free(buffer);
    return 3;
  }
  *out = buffer;
  *out_len = produced;
  return 0;
}

int cmf_deflate(const uint8_t *bytes, size_t len, uint8_t **out, size_t *out_len) {
  uLongf size = compressBound((uLong)len);
  uint8_t *buffer = malloc(size);
  if (buffer == NULL) return 1;
  if (compress2(buffer, &size, bytes, (uLong)len, 9) != Z_OK) {
    free(buffer);
    return 2;
  }
  *out = buffer;
  *out_len = size;
  return 0;
}

uint32_t cmf_crc32(const uint8_t *bytes, size_t len) {
  return (uint32_t)crc32(0L, bytes, (uInt)len);
}

void cmf_free(void *pointer) { free(pointer); }

/* Test-only encoders; see CMediaFixtures.h. Errors are reported, never fatal. */
#include "CMediaFixtures.h"

#include <malloc.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* A small xorshift generator, so pictures are the same on every machine. */
static uint32_t next_random(uint32_t *state) {
  uint32_t x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *state = x;
}

enum { GRID = 65, OCTAVES = 4 };

/* Value noise on a 64 × 64 lattice, smoothly interpolated; u, v in [0, 64). */
static float lattice_noise(const float grid[GRID][GRID], float u, float v) {
  int x = (int)u, y = (int)v;
  float fx = u - (float)x, fy = v - (float)y;
  fx = fx * fx * (3 - 2 * fx);
  fy = fy * fy * (3 - 2 * fy);
  float top = grid[y][x] * (1 - fx) + grid[y][x + 1] * fx;
  float bottom = grid[y + 1][x] * (1 - fx) + grid[y + 1][x + 1] * fx;
  return top * (1 - fy) + bottom * fy;
}

static uint8_t clamp_byte(float value) {
  return value < 0 ? 0 : value > 255 ? 255 : (uint8_t)value;
}

int cmf_photo_rgb(uint32_t width, uint32_t height, uint32_t seed, int noise, uint8_t **out) {
  if (width == 0 || height == 0 || out == NULL) return 1;
  static float grids[OCTAVES][GRID][GRID];
  uint32_t state = seed == 0 ? 0x9E3779B9u : seed;
  for (int o = 0; o < OCTAVES; o++)
    for (int y = 0; y < GRID; y++)
      for (int x = 0; x < GRID; x++) grids[o][y][x] = (float)(next_random(&state) % 1000) / 1000.0f;
  uint8_t *pixels = malloc((size_t)width * height * 3);
  if (pixels == NULL) return 2;
  for (uint32_t y = 0; y < height; y++) {
    for (uint32_t x = 0; x < width; x++) {
      float u = (float)x / (float)width, v = (float)y / (float)height;
      float n = 0, amplitude = 1, frequency = 4;
      for (int o = 0; o < OCTAVES; o++) {
        n += amplitude * lattice_noise(grids[o], u * frequency, v * frequency);
        amplitude *= 0.5f;
        frequency *= 2;
      }
      n /= 1.875f;
      float r = n * 200 + 40 * u, g = (1 - n) * 150 + 60 * v, b = 100 + 80 * sinf(u * 9 + v * 5) * n;
      if (noise > 0) {
        float z = (float)((int)(next_random(&state) % (uint32_t)(2 * noise + 1)) - noise);
        r += z;
        g += z;
        b += z;
      }
      uint8_t *p = pixels + ((size_t)y * width + x) * 3;
      p[0] = clamp_byte(r);
      p[1] = clamp_byte(g);
      p[2] = clamp_byte(b);
    }
  }
  *out = pixels;
  return 0;
}

int cmf_encode_png_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, uint8_t **out,
                       size_t *out_len) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = PNG_FORMAT_RGB;
  png_alloc_size_t size = 0;
  if (!png_image_write_to_memory(&image, NULL, &size, 0, rgb, 0, NULL)) return 1;
  uint8_t *buffer = malloc(size);
  if (buffer == NULL) return 2;
  if (!png_image_write_to_memory(&image, buffer, &size, 0, rgb, 0, NULL)) {
    free(buffer);
    return 3;
  }
  *out = buffer;
  *out_len = size;
  return 0;
}

/* Appends libpng's output to a growing buffer. */
typedef struct png_buffer {
  uint8_t *bytes;
  size_t length, capacity;
  int failed;
} png_buffer;

static void png_buffer_write(png_structp png, png_bytep data, png_size_t length) {
  png_buffer *buffer = (png_buffer *)png_get_io_ptr(png);
  if (buffer->failed) return;
  if (buffer->length + length > buffer->capacity) {
    size_t capacity = (buffer->length + length) * 2;
    uint8_t *grown = realloc(buffer->bytes, capacity);
    if (grown == NULL) {
      buffer->failed = 1;
      return;
    }
    buffer->bytes = grown;
    buffer->capacity = capacity;
  }
  memcpy(buffer->bytes + buffer->length, data, length);
  buffer->length += length;
}

static void png_buffer_flush(png_structp png) { (void)png; }

/* 8-bit pixels of a colour type as an interlaced (Adam7) PNG. */
static int encode_png_interlaced(const uint8_t *pixels, uint32_t width, uint32_t height, int color_type,
                                 uint32_t channels, uint8_t **out, size_t *out_len);

int cmf_encode_png_interlaced(const uint8_t *rgba, uint32_t width, uint32_t height, uint8_t **out,
                              size_t *out_len) {
  return encode_png_interlaced(rgba, width, height, PNG_COLOR_TYPE_RGB_ALPHA, 4, out, out_len);
}

int cmf_encode_png_rgb_interlaced(const uint8_t *rgb, uint32_t width, uint32_t height, uint8_t **out,
                                  size_t *out_len) {
  return encode_png_interlaced(rgb, width, height, PNG_COLOR_TYPE_RGB, 3, out, out_len);
}

static int encode_png_interlaced(const uint8_t *pixels, uint32_t width, uint32_t height, int color_type,
                                 uint32_t channels, uint8_t **out, size_t *out_len) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  if (png == NULL) return 1;
  png_infop info = png_create_info_struct(png);
  png_buffer buffer = {0};
  png_bytep *rows = calloc(height, sizeof(png_bytep));
  if (info == NULL || rows == NULL || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    free(rows);
    free(buffer.bytes);
    return 2;
  }
  png_set_write_fn(png, &buffer, png_buffer_write, png_buffer_flush);
  png_set_IHDR(png, info, width, height, 8, color_type, PNG_INTERLACE_ADAM7, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  for (uint32_t y = 0; y < height; y++) rows[y] = (png_bytep)(pixels + (size_t)y * width * channels);
  png_set_rows(png, info, rows);
  png_write_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
  png_destroy_write_struct(&png, &info);
  free(rows);
  if (buffer.failed) {
    free(buffer.bytes);
    return 3;
  }
  *out = buffer.bytes;
  *out_len = buffer.length;
  return 0;
}

int cmf_encode_png_gradient(uint32_t width, uint32_t height, uint8_t **out, size_t *out_len) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  if (png == NULL) return 1;
  png_infop info = png_create_info_struct(png);
  png_buffer buffer = {0};
  uint8_t *volatile row = malloc((size_t)width * 3);
  if (info == NULL || row == NULL || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    free(row);
    free(buffer.bytes);
    return 2;
  }
  png_set_write_fn(png, &buffer, png_buffer_write, png_buffer_flush);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (uint32_t y = 0; y < height; y++) {
    for (uint32_t x = 0; x < width; x++) {
      row[3 * x] = (uint8_t)(x * 255 / (width > 1 ? width - 1 : 1));
      row[3 * x + 1] = (uint8_t)(y * 255 / (height > 1 ? height - 1 : 1));
      row[3 * x + 2] = (uint8_t)((x + y) & 0xFF);
    }
    png_write_row(png, row);
  }
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  free(row);
  if (buffer.failed) {
    free(buffer.bytes);
    return 3;
  }
  *out = buffer.bytes;
  *out_len = buffer.length;
  return 0;
}

int cmf_decode_jpeg_eighth(const uint8_t *bytes, size_t len, uint8_t **out, uint32_t *width,
                           uint32_t *height) {
  struct jpeg_decompress_struct cinfo;
  struct jpeg_error_mgr errors;
  encode_context *context = calloc(1, sizeof(encode_context));
  if (context == NULL) return 1;
  cinfo.err = jpeg_std_error(&errors);
  errors.error_exit = on_error;
  errors.output_message = on_output;
  cinfo.client_data = context;
  uint8_t *volatile pixels = NULL;
  if (setjmp(context->jump) != 0) {
    jpeg_destroy_decompress(&cinfo);
    free(pixels);
    free(context);
    return 2;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, bytes, (unsigned long)len);
  jpeg_read_header(&cinfo, TRUE);
  cinfo.scale_num = 1;
  cinfo.scale_denom = 8;
  cinfo.out_color_space = JCS_GRAYSCALE;
  jpeg_start_decompress(&cinfo);
  pixels = malloc((size_t)cinfo.output_width * cinfo.output_height);
  if (pixels == NULL) longjmp(context->jump, 1);
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = pixels + (size_t)cinfo.output_scanline * cinfo.output_width;
    jpeg_read_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_decompress(&cinfo);
  *out = pixels;
  *width = cinfo.output_width;
  *height = cinfo.output_height;
  jpeg_destroy_decompress(&cinfo);
  free(context);
  return 0;
}

static uint32_t variant_random(uint32_t *state) {
  *state = *state * 1103515245u + 12345u;
  return *state >> 8;
}

int cmf_encode_png_variant(uint32_t width, uint32_t height, int color_type, int bit_depth, int interlaced,
                           int alpha, int noise, uint32_t seed, uint8_t **out, size_t *out_len) {
  int samples = color_type == 2 ? 3 : color_type == 4 ? 2 : color_type == 6 ? 4 : 1;
  size_t row_bytes = ((size_t)width * samples * bit_depth + 7) / 8;
  uint32_t state = seed;
  png_buffer buffer = {0};
  png_bytep *volatile rows = calloc(height, sizeof(png_bytep));
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png != NULL ? png_create_info_struct(png) : NULL;
  if (rows == NULL || info == NULL || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    for (uint32_t y = 0; rows != NULL && y < height; y++) free(rows[y]);
    free(rows);
    free(buffer.bytes);
    return 1;
  }
  png_set_write_fn(png, &buffer, png_buffer_write, png_buffer_flush);
  png_set_IHDR(png, info, width, height, bit_depth, color_type,
               interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  if (color_type == 3) {
    png_color palette[256];
    png_byte transparency[256];
    int colours = 1 << bit_depth;
    for (int i = 0; i < colours; i++) {
      palette[i].red = (png_byte)variant_random(&state);
      palette[i].green = (png_byte)variant_random(&state);
      palette[i].blue = (png_byte)variant_random(&state);
      transparency[i] = (png_byte)(i * 255 / (colours > 1 ? colours - 1 : 1));
    }
    png_set_PLTE(png, info, palette, colours);
    /* Fewer alpha entries than colours: the rest are opaque. */
    if (alpha) png_set_tRNS(png, info, transparency, colours > 2 ? colours - 1 : colours, NULL);
  }
  for (uint32_t y = 0; y < height; y++) {
    rows[y] = malloc(row_bytes);
    if (rows[y] == NULL) longjmp(png_jmpbuf(png), 1);
    for (size_t i = 0; i < row_bytes; i++) {
      int smooth = (int)(y * 3 + i * 2 + (i % (size_t)(samples * ((bit_depth + 7) / 8))) * 40);
      int value = smooth + (noise > 0 ? (int)(variant_random(&state) % (uint32_t)(noise + 1)) : 0);
      rows[y][i] = (png_byte)value;
    }
  }
  if (alpha && (color_type == 0 || color_type == 2)) {
    /* A colour key: the first pixel's colour is transparent wherever it appears. */
    png_color_16 key;
    memset(&key, 0, sizeof key);
    const png_byte *p = rows[0];
    if (color_type == 0) {
      key.gray = bit_depth == 16 ? (png_uint_16)(p[0] << 8 | p[1]) : (png_uint_16)(p[0] >> (8 - bit_depth));
    } else if (bit_depth == 16) {
      key.red = (png_uint_16)(p[0] << 8 | p[1]);
      key.green = (png_uint_16)(p[2] << 8 | p[3]);
      key.blue = (png_uint_16)(p[4] << 8 | p[5]);
    } else {
      key.red = p[0], key.green = p[1], key.blue = p[2];
    }
    png_set_tRNS(png, info, NULL, 0, &key);
  }
  png_set_filter(png, 0, PNG_ALL_FILTERS);
  png_write_info(png, info);
  png_write_image(png, rows);
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  for (uint32_t y = 0; y < height; y++) free(rows[y]);
  free(rows);
  if (buffer.failed) {
    free(buffer.bytes);
    return 2;
  }
  *out = buffer.bytes;
  *out_len = buffer.length;
  return 0;
}

/* Reads a PNG from memory for libpng. */
typedef struct memory_reader {
  const uint8_t *bytes;
  size_t length, at;
} memory_reader;

static void memory_read(png_structp png, png_bytep data, png_size_t length) {
  memory_reader *reader = (memory_reader *)png_get_io_ptr(png);
  if (reader->length - reader->at < length) png_error(png, "read beyond end of data");
  memcpy(data, reader->bytes + reader->at, length);
  reader->at += length;
}

static uint8_t composite(uint32_t value, uint32_t alpha, uint32_t background) {
  return (uint8_t)((value * alpha + background * (255 - alpha) + 127) / 255);
}

int cmf_decode_png_reference(const uint8_t *bytes, size_t len, const uint8_t background[3], uint8_t **out,
                             uint32_t *width, uint32_t *height) {
  memory_reader reader = {bytes, len, 0};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png != NULL ? png_create_info_struct(png) : NULL;
  uint8_t *volatile picture = NULL;
  if (info == NULL || setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, NULL);
    free(picture);
    return 1;
  }
  png_set_read_fn(png, &reader, memory_read);
  png_read_info(png, info);
  png_set_expand(png);
  png_set_scale_16(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  uint32_t w = png_get_image_width(png, info), h = png_get_image_height(png, info);
  uint32_t channels = png_get_channels(png, info);
  size_t row_bytes = png_get_rowbytes(png, info);
  picture = malloc(row_bytes * h);
  png_bytep *rows = malloc(sizeof(png_bytep) * h);
  if (picture == NULL || rows == NULL) {
    free(rows);
    longjmp(png_jmpbuf(png), 1);
  }
  for (uint32_t y = 0; y < h; y++) rows[y] = picture + (size_t)y * row_bytes;
  png_read_image(png, rows);
  png_read_end(png, NULL);
  free(rows);
  png_destroy_read_struct(&png, &info, NULL);
  uint8_t *rgb = malloc((size_t)w * h * 3);
  if (rgb == NULL) {
    free(picture);
    return 2;
  }
  for (size_t i = 0; i < (size_t)w * h; i++) {
    const uint8_t *p = picture + i * channels;
    uint32_t r = p[0], g = p[0], b = p[0], a = 255;
    if (channels == 2) a = p[1];
    if (channels >= 3) g = p[1], b = p[2];
    if (channels == 4) a = p[3];
    rgb[3 * i] = composite(r, a, background[0]);
    rgb[3 * i + 1] = composite(g, a, background[1]);
    rgb[3 * i + 2] = composite(b, a, background[2]);
  }
  free(picture);
  *out = rgb;
  *width = w;
  *height = h;
  return 0;
}

void cmf_return_freed_memory(void) {
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  mallopt(M_TRIM_THRESHOLD, 128 * 1024);
}

void cmf_free(void *pointer) { free(pointer); }

/* Test-only encoders that make PNG and JPEG fixtures at test time (libpng, libjpeg, zlib). */
#ifndef CMEDIAFIXTURES_H
#define CMEDIAFIXTURES_H

#include <stddef.h>
#include <stdint.h>

/** JPEG scan layouts cmf_encode_jpeg can write. */
enum {
  CMF_JPEG_BASELINE = 0,
  /** libjpeg's standard progressive script (a handful of scans). */
  CMF_JPEG_PROGRESSIVE = 1,
  /** A valid progressive grayscale script with 694 scans: every AC coefficient in its own
   *  scan, first at Al = 10 and then refined one bit at a time. Needs components == 1. */
  CMF_JPEG_MANY_SCANS = 2,
};

/** RGBA8 pixels as a PNG; 0 on success. Free *out with cmf_free. */
int cmf_encode_png(const uint8_t *rgba, uint32_t width, uint32_t height, uint8_t **out,
                   size_t *out_len);

/**
 * A JPEG; 0 on success, with a message in err otherwise. Free *out with cmf_free.
 * pixels holds width × height × components bytes (components 1 = gray, 3 = RGB, 4 = inverted
 * CMYK as Adobe writes it), or is NULL for a built-in gradient so large images need no buffer.
 */
int cmf_encode_jpeg(const uint8_t *pixels, uint32_t width, uint32_t height, int components,
                    int quality, int layout, uint8_t **out, size_t *out_len, char *err,
                    size_t errlen);

/** count zero bytes compressed with zlib (a decompression-bomb payload). */
int cmf_deflate_zeros(size_t count, uint8_t **out, size_t *out_len);

/** bytes compressed with zlib. */
int cmf_deflate(const uint8_t *bytes, size_t len, uint8_t **out, size_t *out_len);

/** The CRC-32 PNG chunks use, over bytes. */
uint32_t cmf_crc32(const uint8_t *bytes, size_t len);

/**
 * A photo-like RGB picture for benchmarks (width × height × 3 bytes, caller-owned *out): smooth
 * fractal shapes and colour gradients, plus per-pixel noise of ±noise (0 for an illustration
 * that compresses like one). The same seed gives the same picture. 0 on success.
 */
int cmf_photo_rgb(uint32_t width, uint32_t height, uint32_t seed, int noise, uint8_t **out);

/** RGB8 pixels as a PNG (libpng's default compression); 0 on success. Free *out with cmf_free. */
int cmf_encode_png_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, uint8_t **out,
                       size_t *out_len);

/** RGBA8 pixels as an interlaced (Adam7) PNG; 0 on success. Free *out with cmf_free. */
int cmf_encode_png_interlaced(const uint8_t *rgba, uint32_t width, uint32_t height, uint8_t **out,
                              size_t *out_len);

/** RGB8 pixels as an interlaced (Adam7) PNG; 0 on success. Free *out with cmf_free. */
int cmf_encode_png_rgb_interlaced(const uint8_t *rgb, uint32_t width, uint32_t height, uint8_t **out,
                                  size_t *out_len);

/** A width × height RGB gradient as a PNG, written row by row (no picture-sized buffer); 0 on
 *  success. Free *out with cmf_free. */
int cmf_encode_png_gradient(uint32_t width, uint32_t height, uint8_t **out, size_t *out_len);

/** A PNG of any colour type (0, 2, 3, 4, 6) and bit depth it allows, Adam7-interlaced or not:
 *  a smooth picture with noise (`noise` 0 … 255) from `seed`, written with every filter type
 *  libpng chooses among; a palette picture gets a palette of 2^depth colours and, with `alpha`,
 *  a tRNS chunk; a gray or RGB one with `alpha` gets a colour key (its first pixel's colour).
 *  0 on success. */
int cmf_encode_png_variant(uint32_t width, uint32_t height, int color_type, int bit_depth, int interlaced,
                           int alpha, int noise, uint32_t seed, uint8_t **out, size_t *out_len);

/** libpng's own decode of a PNG (row API: expand, scale 16 to 8 bits, interlace handling), as
 *  RGB composited over a background with cmd_decode_scaled's arithmetic (*out: width × height
 *  × 3 bytes). 0 on success. */
int cmf_decode_png_reference(const uint8_t *bytes, size_t len, const uint8_t background[3], uint8_t **out,
                             uint32_t *width, uint32_t *height);

/** libjpeg's own decode of a JPEG at scale 1/8 as gray samples (*out: *width × *height bytes,
 *  free with cmf_free); 0 on success. */
int cmf_decode_jpeg_eighth(const uint8_t *bytes, size_t len, uint8_t **out, uint32_t *width,
                           uint32_t *height);

/** Makes malloc hand large freed blocks back to the system at once (fixed mmap threshold), so
 *  a benchmark's own size stays small after it made its pictures. */
void cmf_return_freed_memory(void);

/** A GIF of an RGB picture on a fixed 3-3-2 palette, by giflib's encoder (opened with dlopen);
 *  0 on success, with *out to release with cmf_free. */
int cmf_encode_gif_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, uint8_t **out, size_t *out_len);

void cmf_free(void *pointer);

#endif

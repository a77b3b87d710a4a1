/*
 * CMediaDecode: PNG, JPEG and first-frame GIF decoding for UNTerm, with every library error
 * handled inside C.
 *
 * Safety rules this shim keeps:
 *  - No call here ends the process: libpng's simplified API does its own setjmp, libjpeg gets
 *    an error manager whose longjmp lands in this file (never in a Swift frame), and the GIF
 *    reader is plain bounds-checked C. Nothing writes to stdout or stderr.
 *  - Dimensions and the pixel budget are checked from the header before the pixel buffer is
 *    allocated.
 *  - Progressive JPEG scans, libjpeg's working memory and wall-clock time are capped.
 *  - Library warnings (corrupt data, premature end of file) are treated as errors.
 *
 * cmd_decode returns the whole picture. cmd_decode_scaled and cmd_decode_scaled_fd return a
 * region of it area-averaged to a target size, and never hold the whole decoded picture: PNG
 * and GIF rows stream into the reducer as they are decoded, and a JPEG is decoded at the
 * smallest DCT scale (1/8 … 8/8) that still gives every target pixel a source pixel, cropped
 * to the region; at 1/8 it is read from its DC coefficients alone.
 */
#ifndef CMEDIADECODE_H
#define CMEDIADECODE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The container formats this shim knows. */
enum {
  CMD_FORMAT_UNKNOWN = 0,
  CMD_FORMAT_PNG = 1,
  CMD_FORMAT_JPEG = 2,
  CMD_FORMAT_GIF = 3,
};

/** Results of cmd_probe and cmd_decode: 0 on success, one of these otherwise. */
enum {
  CMD_OK = 0,
  /** A null pointer or an impossible limit was passed. */
  CMD_ERR_ARGUMENT = 1,
  /** Not PNG, JPEG or GIF, or a variant this shim does not draw. */
  CMD_ERR_UNSUPPORTED = 2,
  /** The data breaks the format (includes library warnings, treated as fatal). */
  CMD_ERR_CORRUPT = 3,
  /** The data ends before the image does. */
  CMD_ERR_TRUNCATED = 4,
  /** The width, height or pixel count is over the caps. */
  CMD_ERR_TOO_LARGE = 5,
  /** A progressive JPEG has more scans than allowed. */
  CMD_ERR_TOO_MANY_SCANS = 6,
  /** Decoding ran past the wall-clock budget. */
  CMD_ERR_TIMEOUT = 7,
  /** An allocation failed or libjpeg's working memory cap was hit. */
  CMD_ERR_NO_MEMORY = 8,
};

/** Caps for one decode. */
typedef struct cmd_limits {
  /** Largest width and height as stored in the file. */
  uint32_t max_width;
  uint32_t max_height;
  /** Largest width × height as stored in the file. */
  uint64_t max_pixels;
  /** Largest number of progressive JPEG scans (0: no cap). */
  uint32_t max_scans;
  /** Wall-clock budget in milliseconds (0: no budget). Checked by libjpeg's progress monitor
   *  and every few rows of a GIF; a PNG's time is bounded by its pixel cap. */
  uint32_t max_millis;
  /** libjpeg's cap on its large working buffers, in bytes (0: libjpeg's default). */
  uint64_t max_decoder_memory;
} cmd_limits;

/** What a header says. */
typedef struct cmd_info {
  uint32_t width;
  uint32_t height;
  /** One of CMD_FORMAT_*. */
  int32_t format;
  /** 1 for a progressive JPEG or an interlaced PNG or GIF. */
  int32_t interlaced;
  /** For a JPEG cmd_decode_scaled reads from its DC coefficients alone (the fastest way): the
   *  largest target size, as a share of the whole picture, it serves that way, which is the
   *  1/8 scale of the most subsampled component. 0 when the file needs libjpeg. */
  uint32_t fast_width;
  uint32_t fast_height;
} cmd_info;

/** A decoded image: 8-bit samples, rows top to bottom with no padding. */
typedef struct cmd_image {
  /** Owned by the image: release with cmd_free. */
  uint8_t *pixels;
  size_t byte_count;
  uint32_t width;
  uint32_t height;
  /** cmd_decode: 4 (RGBA, not premultiplied) for PNG and GIF, 3 (RGB) for JPEG.
   *  cmd_decode_scaled: 3 (RGB, transparency composited over the background). */
  uint32_t channels;
  /** The size stored in the file; larger than width/height when a JPEG was scaled down. */
  uint32_t source_width;
  uint32_t source_height;
  /** The JPEG scale's denominator: cmd_decode reduces by 1, 2, 4 or 8 (scale_num 1);
   *  cmd_decode_scaled uses scale_num / 8. 1 for PNG and GIF. */
  uint32_t scale_denom;
  /** Scans read from a JPEG (1 for baseline). */
  uint32_t scans;
  /** One of CMD_FORMAT_*. */
  int32_t format;
  /** With scale_denom, the JPEG scale used (scale_num / scale_denom; 1/1 for PNG and GIF). */
  uint32_t scale_num;
} cmd_image;

/** Largest side of a cmd_decode_scaled target. */
#define CMD_MAX_TARGET_SIDE 8192u
/** Largest width × height of a cmd_decode_scaled target. */
#define CMD_MAX_TARGET_PIXELS (1u << 22)

/** The part of the stored picture cmd_decode_scaled draws, and the size it draws it at. */
typedef struct cmd_target {
  /** Output size in pixels: 1 … CMD_MAX_TARGET_SIDE each, CMD_MAX_TARGET_PIXELS in all. */
  uint32_t width;
  uint32_t height;
  /** The region drawn, in fractions of the stored width and height (origin top left); it is
   *  clamped to the picture and must keep some area. The whole picture is 0, 0, 1, 1. */
  double x;
  double y;
  double region_width;
  double region_height;
  /** The colour transparent pixels are composited over. */
  uint8_t background[3];
} cmd_target;

/** Reads only the header: size, format and whether the image is interlaced or progressive.
 *  Works on a prefix of the file. Returns CMD_OK or an error with a message in err. */
int cmd_probe(const uint8_t *bytes, size_t len, cmd_info *out, char *err, size_t errlen);

/**
 * Decodes the whole image (a GIF's first frame) within the limits.
 *
 * target_w and target_h are the smallest size the caller needs; a JPEG larger than that by a
 * factor of 2, 4 or 8 in both directions is decoded at that reduced scale (0 means full size).
 * On success *out owns a pixel buffer; on failure *out holds no buffer and err holds a short
 * message (always NUL-terminated when errlen > 0).
 */
int cmd_decode(const uint8_t *bytes, size_t len, const cmd_limits *limits, uint32_t target_w,
               uint32_t target_h, cmd_image *out, char *err, size_t errlen);

/**
 * A region of the picture (a GIF's first frame) averaged down (or up) to target->width ×
 * target->height RGB pixels: *out gets channels 3, the stored size in source_width and
 * source_height, and the JPEG scale used. Same limits, errors and ownership as cmd_decode.
 */
int cmd_decode_scaled(const uint8_t *bytes, size_t len, const cmd_limits *limits,
                      const cmd_target *target, cmd_image *out, char *err, size_t errlen);

/** cmd_decode_scaled reading a regular file from its first byte with pread (the descriptor's
 *  offset is left alone), 64 KB at a time. */
int cmd_decode_scaled_fd(int fd, const cmd_limits *limits, const cmd_target *target,
                         cmd_image *out, char *err, size_t errlen);

/**
 * A whole zlib stream through the PNG decoder's inflate (cmd_inflate.c), for tests and the fuzz
 * target: the input is handed over `input_piece` bytes at a time and the output taken
 * `output_piece` bytes at a time (both at least 1), so every place the decoder stops and
 * resumes is reached; with `direct` the pieces are written straight into one buffer after the
 * ones before (as a large PNG's inflating thread writes rows) instead of taken from the
 * decoder's own window. CMD_OK when the stream ended (its trailer read) with *written bytes in
 * out; CMD_ERR_TOO_LARGE when they do not fit `capacity`; otherwise the decoder's error.
 */
int cmd_inflate_zlib(const uint8_t *bytes, size_t length, size_t input_piece, size_t output_piece, int direct,
                     uint8_t *out, size_t capacity, size_t *written, char *err, size_t errlen);

/** The reducer's loops cmd_reduce_rows runs: this machine's fastest (AVX2 where the processor
 *  has it, else SSE2 on x86-64), the portable ones (what machines without SSE2 run), or SSE2's
 *  without AVX2 (what x86-64 machines without AVX2 run; the portable ones elsewhere). */
enum {
  CMD_LOOPS_FASTEST = 0,
  CMD_LOOPS_PORTABLE = 1,
  CMD_LOOPS_SSE2 = 2,
};

/**
 * For tests: `height` rows of `width` pixels of `channels` (1 … 4) 8-bit samples, in order,
 * through the area-averaging reducer cmd_decode_scaled uses, to target's size and region, with
 * the loops `loops` says (CMD_LOOPS_*). Same ownership and errors as cmd_decode_scaled.
 */
int cmd_reduce_rows(const uint8_t *pixels, uint32_t width, uint32_t height, uint32_t channels,
                    const cmd_target *target, int loops, cmd_image *out, char *err, size_t errlen);

/** For tests: cmd_decode_scaled with CMD_LOOPS_FASTEST (the same) or CMD_LOOPS_SSE2 (no AVX2
 *  loop, in the reducer or a decoder: what x86-64 machines without AVX2 run). */
int cmd_decode_scaled_loops(const uint8_t *bytes, size_t len, const cmd_limits *limits, const cmd_target *target,
                            int loops, cmd_image *out, char *err, size_t errlen);

/** For tests: 1 when CMD_LOOPS_FASTEST runs AVX2 loops on this machine, else 0. */
int cmd_reduce_uses_avx2(void);

/**
 * For tests: cmd_decode of a PNG (full size) with its rows unfiltered by one set of loops: 0
 * the portable ones (what machines without SSE2 run), 1 SSE2's, 2 AVX2's (eight Paeth rows at
 * once; chosen at run time where the machine has AVX2), so every set is checked against the
 * others on any machine that can run it. CMD_ERR_UNSUPPORTED when this one cannot. A PNG the
 * decoder leaves to libpng (a colour key, an unusual header) does not use them.
 */
int cmd_decode_png_loops(const uint8_t *bytes, size_t len, const cmd_limits *limits, int loops,
                         cmd_image *out, char *err, size_t errlen);

/** Releases a decoded image's pixels; safe to call twice or on a zeroed image. */
void cmd_free(cmd_image *image);

#ifdef __cplusplus
}
#endif

#endif

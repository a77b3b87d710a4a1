/*
 * CMediaDecode: PNG, JPEG and first-frame GIF decoding for UNTerm, glue over the libraries
 * made for it — libpng, libjpeg-turbo and giflib — with every library error handled inside C.
 *
 * Safety rules this shim keeps:
 *  - No call here ends the process: libpng and libjpeg get error handlers whose longjmp lands
 *    in this library's C (never in a Swift frame); giflib returns its errors. Nothing writes to
 *    stdout or stderr.
 *  - Dimensions and the pixel budget are checked from the header before the pixel buffer is
 *    allocated.
 *  - Progressive JPEG scans, libjpeg's working memory and wall-clock time are capped.
 *  - Library warnings (corrupt data, premature end of file) are treated as errors.
 *
 * cmd_decode returns the whole picture. cmd_decode_scaled and cmd_decode_scaled_fd return a
 * region of it area-averaged to a target size, and never hold the whole decoded picture: PNG
 * and GIF rows stream into the reducer as the library decodes them, and a JPEG is decoded by
 * libjpeg at the smallest DCT scale (1/8 … 8/8) that still gives every target pixel a source
 * pixel, cropped to the region.
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
  /** For a JPEG, the size libjpeg's fastest decode gives (its 1/8 DCT scale): the largest
   *  whole-picture target cmd_decode_scaled serves that way. 0 for other formats. */
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
 * For tests: `height` rows of `width` pixels of `channels` (1 … 4) 8-bit samples, in order,
 * through the area-averaging reducer cmd_decode_scaled uses, to target's size and region. Same
 * ownership and errors as cmd_decode_scaled.
 */
int cmd_reduce_rows(const uint8_t *pixels, uint32_t width, uint32_t height, uint32_t channels,
                    const cmd_target *target, cmd_image *out, char *err, size_t errlen);

/** Releases a decoded image's pixels; safe to call twice or on a zeroed image. */
void cmd_free(cmd_image *image);

#ifdef __cplusplus
}
#endif

#endif

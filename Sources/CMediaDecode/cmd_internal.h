/* Helpers shared by the decoders; not part of the public header. */
#ifndef CMD_INTERNAL_H
#define CMD_INTERNAL_H

#include "CMediaDecode.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/** Writes a message into err (always NUL-terminated when errlen > 0). */
void cmd_set_error(char *err, size_t errlen, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/** Milliseconds of CPU time the calling thread has used (the decode budget's clock). */
uint64_t cmd_now_ms(void);

/** The deadline for a budget in milliseconds, or 0 for none. */
uint64_t cmd_deadline(uint32_t budget_ms);

/** Whether a deadline from cmd_deadline has passed. */
int cmd_past(uint64_t deadline);

/** Checks a stored size against the caps; CMD_OK or CMD_ERR_TOO_LARGE with a message. */
int cmd_check_size(uint64_t width, uint64_t height, const cmd_limits *limits, char *err,
                   size_t errlen);

/** width × height × channels, or 0 when that overflows size_t. */
size_t cmd_buffer_size(uint32_t width, uint32_t height, uint32_t channels);

/* ---- Input ------------------------------------------------------------------------------ */

/**
 * Where the encoded bytes come from: a buffer in memory, or a file descriptor read forward in
 * 64 KB blocks with pread (so only a block of the file is in memory at a time). `next` and
 * `available` are the bytes at hand; cmd_source_fill brings the next block.
 */
typedef struct cmd_source {
  const uint8_t *memory;
  size_t memory_length;
  int fd;
  uint64_t file_offset;
  uint8_t *buffer;
  size_t capacity;
  const uint8_t *next;
  size_t available;
  /** An errno from reading the file (0: none). */
  int read_error;
} cmd_source;

/** A source over memory (never fails). */
void cmd_source_memory(cmd_source *source, const uint8_t *bytes, size_t length);

/** A source over a file descriptor, from offset 0; CMD_ERR_NO_MEMORY when the buffer cannot be
 *  allocated. */
int cmd_source_file(cmd_source *source, int fd);

/** Releases the buffer of a file source. */
void cmd_source_close(cmd_source *source);

/** Brings more bytes when none are at hand; returns the count now at hand (0: the end). */
size_t cmd_source_fill(cmd_source *source);

/** Starts again from the first byte. */
void cmd_source_rewind(cmd_source *source);

/** Copies up to length bytes, filling as needed; returns how many were copied. */
size_t cmd_source_read(cmd_source *source, uint8_t *out, size_t length);

/** Skips up to length bytes; returns how many were skipped. */
size_t cmd_source_skip(cmd_source *source, size_t length);

/** The next byte, or -1 at the end. */
static inline int cmd_source_byte(cmd_source *source) {
  if (source->available == 0 && cmd_source_fill(source) == 0) return -1;
  source->available--;
  return *source->next++;
}

/* ---- Output ----------------------------------------------------------------------------- */

/**
 * Where decoded rows go. A decoder calls cmd_sink_begin once it knows the size of the rows it
 * produces (a scaled JPEG's rows are smaller than the stored image), then cmd_sink_row for each
 * row (or each pass row of an interlaced PNG), then cmd_sink_finish.
 *
 * In full mode the rows are copied into an image of that size (cmd_decode). Otherwise the sink
 * is an area-averaging reducer: each output pixel is the mean of the part of the picture it
 * covers, weighted by how much of each pixel falls inside it (in 1/256 pixel steps), with
 * transparent pixels composited over the background first. It holds one accumulator per output
 * pixel and channel only for the rows in progress when rows arrive in order, or for the whole
 * output when they do not (interlaced images); never the decoded picture.
 */
typedef struct cmd_sink cmd_sink;

/** A sink that copies the whole picture with `channels` (3 or 4) per pixel. */
cmd_sink *cmd_sink_full(uint32_t channels);

/** A reducer to a target (checked by the caller). */
cmd_sink *cmd_sink_reducer(const cmd_target *target, const cmd_limits *limits);

void cmd_sink_free(cmd_sink *sink);

/** Whether the sink is a full copy. */
int cmd_sink_is_full(const cmd_sink *sink);

/**
 * The smallest size of the whole picture that gives every output pixel at least one source
 * pixel (for choosing a JPEG scale); the stored size for a full copy.
 */
void cmd_sink_need(const cmd_sink *sink, uint32_t stored_width, uint32_t stored_height,
                   uint32_t *need_width, uint32_t *need_height);

/**
 * Rows of width × height pixels with `channels` samples each (1 gray, 2 gray + alpha, 3 RGB,
 * 4 RGBA) are about to come; `in_order` when every row comes once, top to bottom. Returns
 * CMD_OK, or CMD_ERR_NO_MEMORY / CMD_ERR_TOO_LARGE with a message.
 */
int cmd_sink_begin(cmd_sink *sink, uint32_t width, uint32_t height, uint32_t channels,
                   int in_order, char *err, size_t errlen);

/** The source rows [first, last) and columns [first, last) the output needs (after begin). */
void cmd_sink_rows(const cmd_sink *sink, uint32_t *first, uint32_t *last);
void cmd_sink_columns(const cmd_sink *sink, uint32_t *first, uint32_t *last);

/**
 * Pixels of row y at columns x0, x0 + step, x0 + 2·step, … (count of them). Rows and pixels
 * outside the picture are ignored.
 */
void cmd_sink_row(cmd_sink *sink, uint32_t y, uint32_t x0, uint32_t step, const uint8_t *pixels,
                  uint32_t count);

/** Hands the finished pixels to out (its pixels, byte_count, width, height and channels). */
int cmd_sink_finish(cmd_sink *sink, cmd_image *out, char *err, size_t errlen);

/* ---- Decoders --------------------------------------------------------------------------- */

int cmd_probe_png(const uint8_t *bytes, size_t len, cmd_info *out, char *err, size_t errlen);
int cmd_probe_jpeg(const uint8_t *bytes, size_t len, cmd_info *out, char *err, size_t errlen);
int cmd_probe_gif(const uint8_t *bytes, size_t len, cmd_info *out, char *err, size_t errlen);

/**
 * Each decoder reads its format from the source into the sink and fills out's source size,
 * scale, scans and format (cmd_sink_finish fills the pixels). full_target_w/h apply in full
 * mode only: cmd_decode's hint for a reduced JPEG scale.
 */
int cmd_decode_png(cmd_source *source, const cmd_limits *limits, cmd_sink *sink, cmd_image *out,
                   char *err, size_t errlen);
int cmd_decode_jpeg(cmd_source *source, const cmd_limits *limits, cmd_sink *sink,
                    uint32_t full_target_w, uint32_t full_target_h, cmd_image *out, char *err,
                    size_t errlen);
int cmd_decode_gif(cmd_source *source, const cmd_limits *limits, cmd_sink *sink, cmd_image *out,
                   char *err, size_t errlen);

#endif

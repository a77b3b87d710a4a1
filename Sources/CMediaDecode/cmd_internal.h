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

/** Milliseconds on the monotonic clock. */
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

int cmd_probe_png(const uint8_t *bytes, size_t len, cmd_info *out, char *err, size_t errlen);
int cmd_probe_jpeg(const uint8_t *bytes, size_t len, cmd_info *out, char *err, size_t errlen);
int cmd_probe_gif(const uint8_t *bytes, size_t len, cmd_info *out, char *err, size_t errlen);

int cmd_decode_png(const uint8_t *bytes, size_t len, const cmd_limits *limits, cmd_image *out,
                   char *err, size_t errlen);
int cmd_decode_jpeg(const uint8_t *bytes, size_t len, const cmd_limits *limits,
                    uint32_t target_w, uint32_t target_h, cmd_image *out, char *err,
                    size_t errlen);
int cmd_decode_gif(const uint8_t *bytes, size_t len, const cmd_limits *limits, cmd_image *out,
                   char *err, size_t errlen);

#endif

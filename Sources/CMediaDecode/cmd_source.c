/* Encoded bytes from memory, or from a file read forward a block at a time. */
#include "cmd_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { FILE_BLOCK = 64 * 1024 };

void cmd_source_memory(cmd_source *source, const uint8_t *bytes, size_t length) {
  memset(source, 0, sizeof *source);
  source->fd = -1;
  source->memory = bytes;
  source->memory_length = length;
  source->next = bytes;
  source->available = length;
}

int cmd_source_file(cmd_source *source, int fd) {
  memset(source, 0, sizeof *source);
  source->fd = fd;
  source->buffer = malloc(FILE_BLOCK);
  if (source->buffer == NULL) return CMD_ERR_NO_MEMORY;
  source->capacity = FILE_BLOCK;
  source->next = source->buffer;
  return CMD_OK;
}

void cmd_source_close(cmd_source *source) {
  free(source->buffer);
  source->buffer = NULL;
  source->next = NULL;
  source->available = 0;
}

size_t cmd_source_fill(cmd_source *source) {
  if (source->available > 0) return source->available;
  if (source->fd < 0 || source->buffer == NULL || source->read_error != 0) return 0;
  for (;;) {
    ssize_t got = pread(source->fd, source->buffer, source->capacity, (off_t)source->file_offset);
    if (got > 0) {
      source->file_offset += (uint64_t)got;
      source->next = source->buffer;
      source->available = (size_t)got;
      return source->available;
    }
    if (got == 0) return 0;
    if (errno != EINTR) {
      source->read_error = errno;
      return 0;
    }
  }
}

void cmd_source_rewind(cmd_source *source) {
  if (source->fd < 0) {
    source->next = source->memory;
    source->available = source->memory_length;
    return;
  }
  source->file_offset = 0;
  source->available = 0;
  source->next = source->buffer;
}

size_t cmd_source_read(cmd_source *source, uint8_t *out, size_t length) {
  size_t copied = 0;
  while (copied < length) {
    if (cmd_source_fill(source) == 0) break;
    size_t chunk = source->available < length - copied ? source->available : length - copied;
    memcpy(out + copied, source->next, chunk);
    source->next += chunk;
    source->available -= chunk;
    copied += chunk;
  }
  return copied;
}

size_t cmd_source_skip(cmd_source *source, size_t length) {
  size_t skipped = 0;
  while (skipped < length) {
    if (source->available == 0 && source->fd >= 0 && length - skipped > source->capacity) {
      /* Whole blocks of a file are skipped without reading them. */
      size_t blocks = (length - skipped) / source->capacity * source->capacity;
      source->file_offset += blocks;
      skipped += blocks;
      continue;
    }
    if (cmd_source_fill(source) == 0) break;
    size_t chunk = source->available < length - skipped ? source->available : length - skipped;
    source->next += chunk;
    source->available -= chunk;
    skipped += chunk;
  }
  return skipped;
}

/* A GIF encoder for the benchmark's GIF row, through giflib's own encoder (opened with
 * dlopen, as UNTerm opens the decoder: the build has no giflib headers). */
#include "CMediaFixtures.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_giflib_abi.h"

typedef struct gif_buffer {
  uint8_t *bytes;
  size_t length, capacity;
} gif_buffer;

static int append(GifFileType *gif, const GifByteType *bytes, int length) {
  gif_buffer *buffer = (gif_buffer *)gif->UserData;
  if (buffer->length + (size_t)length > buffer->capacity) {
    size_t capacity = (buffer->capacity + (size_t)length) * 2;
    uint8_t *grown = realloc(buffer->bytes, capacity);
    if (grown == NULL) return 0;
    buffer->bytes = grown;
    buffer->capacity = capacity;
  }
  memcpy(buffer->bytes + buffer->length, bytes, (size_t)length);
  buffer->length += (size_t)length;
  return length;
}

typedef int (*output_function)(GifFileType *, const GifByteType *, int);

int cmf_encode_gif_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, uint8_t **out, size_t *out_len) {
  *out = NULL;
  *out_len = 0;
  void *library = dlopen(CMD_GIFLIB_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) return -1;
  GifFileType *(*open)(void *, output_function, int *) =
      (GifFileType * (*)(void *, output_function, int *)) dlsym(library, "EGifOpen");
  int (*screen)(GifFileType *, int, int, int, int, const ColorMapObject *) =
      (int (*)(GifFileType *, int, int, int, int, const ColorMapObject *))dlsym(library, "EGifPutScreenDesc");
  int (*image)(GifFileType *, int, int, int, int, bool, const ColorMapObject *) =
      (int (*)(GifFileType *, int, int, int, int, bool, const ColorMapObject *))dlsym(library, "EGifPutImageDesc");
  int (*line)(GifFileType *, GifPixelType *, int) = (int (*)(GifFileType *, GifPixelType *, int))dlsym(library, "EGifPutLine");
  int (*close)(GifFileType *, int *) = (int (*)(GifFileType *, int *))dlsym(library, "EGifCloseFile");
  ColorMapObject *(*make_map)(int, const GifColorType *) =
      (ColorMapObject * (*)(int, const GifColorType *)) dlsym(library, "GifMakeMapObject");
  void (*free_map)(ColorMapObject *) = (void (*)(ColorMapObject *))dlsym(library, "GifFreeMapObject");
  if (!open || !screen || !image || !line || !close || !make_map || !free_map) return -1;
  /* 3-3-2 bits of red, green and blue: a fixed 256-colour palette. */
  GifColorType colours[256];
  for (int i = 0; i < 256; i++) {
    colours[i].Red = (GifByteType)((i >> 5) * 255 / 7);
    colours[i].Green = (GifByteType)(((i >> 2) & 7) * 255 / 7);
    colours[i].Blue = (GifByteType)((i & 3) * 255 / 3);
  }
  ColorMapObject *map = make_map(256, colours);
  gif_buffer buffer = {0};
  int error = 0;
  GifFileType *gif = map != NULL ? open(&buffer, append, &error) : NULL;
  GifPixelType *row = malloc(width);
  int status = gif != NULL && row != NULL && screen(gif, (int)width, (int)height, 8, 0, map) == GIF_OK &&
                       image(gif, 0, 0, (int)width, (int)height, false, NULL) == GIF_OK
                   ? 0
                   : -1;
  for (uint32_t y = 0; status == 0 && y < height; y++) {
    const uint8_t *p = rgb + (size_t)y * width * 3;
    for (uint32_t x = 0; x < width; x++, p += 3)
      row[x] = (GifPixelType)((p[0] >> 5) << 5 | (p[1] >> 5) << 2 | p[2] >> 6);
    if (line(gif, row, (int)width) != GIF_OK) status = -1;
  }
  if (gif != NULL && close(gif, &error) != GIF_OK) status = -1;
  free(row);
  if (map != NULL) free_map(map);
  if (status != 0) {
    free(buffer.bytes);
    return -1;
  }
  *out = buffer.bytes;
  *out_len = buffer.length;
  return 0;
}

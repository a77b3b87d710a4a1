/* The first frame of a GIF, through giflib (Debian's libgif7).
 *
 * giflib is opened with dlopen on the first GIF (libgif.so.7) and its interface declared in
 * cmd_giflib_abi.h, so building UNTerm needs no giflib headers and the static install links
 * none of it; without the library a GIF is refused with a message that names it. Decoding
 * untrusted LZW data is left to the library that maintains it.
 *
 * giflib reads through a callback over the bounded source. The logical screen and the frame
 * are held to the caps before a row is allocated, and the CPU-time budget is checked as rows
 * come out. Each frame row goes to the sink on the logical screen (transparent around the
 * frame, as rows of their own above and below it), at its interlaced position, so no canvas is
 * held. Later frames, disposal and animation are ignored: a notification thumbnail shows frame
 * one. giflib reports errors by return values, so there is no longjmp here. */
#include "cmd_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_giflib_abi.h"

/* giflib's functions, resolved once. */
static struct {
  DGifOpen_fn *open;
  DGifCloseFile_fn *close;
  DGifGetRecordType_fn *record_type;
  DGifGetImageDesc_fn *image_desc;
  DGifGetLine_fn *line;
  DGifGetExtension_fn *extension;
  DGifGetExtensionNext_fn *extension_next;
  GifErrorString_fn *error_string;
  char error[200];
} gif;

static pthread_once_t gif_once = PTHREAD_ONCE_INIT;

static void load_giflib(void) {
  void *library = dlopen(CMD_GIFLIB_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *why = dlerror();
    snprintf(gif.error, sizeof gif.error, "GIF needs giflib (%s): %s", CMD_GIFLIB_SONAME, why ? why : "not found");
    return;
  }
#define RESOLVE(field, name)                                                                                      \
  do {                                                                                                            \
    *(void **)(&gif.field) = dlsym(library, name);                                                                \
    if (gif.field == NULL) {                                                                                      \
      snprintf(gif.error, sizeof gif.error, "GIF needs giflib 5 (%s): it has no %s", CMD_GIFLIB_SONAME, name);    \
      gif.open = NULL;                                                                                            \
      return;                                                                                                     \
    }                                                                                                             \
  } while (0)
  RESOLVE(close, "DGifCloseFile");
  RESOLVE(record_type, "DGifGetRecordType");
  RESOLVE(image_desc, "DGifGetImageDesc");
  RESOLVE(line, "DGifGetLine");
  RESOLVE(extension, "DGifGetExtension");
  RESOLVE(extension_next, "DGifGetExtensionNext");
  RESOLVE(error_string, "GifErrorString");
  RESOLVE(open, "DGifOpen"); /* last: set only when every other one is */
#undef RESOLVE
}

/* What the read callback saw. */
typedef struct gif_input {
  cmd_source *source;
  uint64_t deadline;
  unsigned calls;
  int short_read;
  int timed_out; /* a read was refused: the budget ran out */
} gif_input;

/* Every read also looks at the budget (every 16th): giflib clears its 16 KB code table at each
 * clear code, so a file of clear codes would otherwise spend minutes inside one DGifGetLine. */
static int read_source(GifFileType *file, GifByteType *into, int length) {
  gif_input *input = (gif_input *)file->UserData;
  if (length <= 0 || input->timed_out) return 0;
  if (++input->calls % 16 == 0 && cmd_past(input->deadline)) {
    input->timed_out = 1;
    return 0;
  }
  size_t got = cmd_source_read(input->source, into, (size_t)length);
  if (got < (size_t)length) input->short_read = 1;
  return (int)got;
}

/* giflib's error as a status and a message. */
static int gif_failure(int code, const gif_input *input, const char *what, char *err, size_t errlen) {
  int status;
  if (input->timed_out) {
    cmd_set_error(err, errlen, "GIF decoding ran out of time");
    return CMD_ERR_TIMEOUT;
  }
  if (input->short_read || code == D_GIF_ERR_EOF_TOO_SOON) {
    status = CMD_ERR_TRUNCATED;
  } else if (code == D_GIF_ERR_NOT_ENOUGH_MEM) {
    status = CMD_ERR_NO_MEMORY;
  } else {
    status = CMD_ERR_CORRUPT;
  }
  const char *words = gif.error_string(code);
  if (status == CMD_ERR_TRUNCATED) words = "the file ends early";
  cmd_set_error(err, errlen, "GIF %s: %s", what, words != NULL ? words : "decoding failed");
  return status;
}

/* Rows of transparent pixels for the screen outside the frame. */
static void clear_rows(cmd_sink *sink, uint8_t *row, uint32_t width, uint32_t from, uint32_t to) {
  if (from >= to) return;
  memset(row, 0, (size_t)width * 4);
  for (uint32_t y = from; y < to; y++) cmd_sink_row(sink, y, 0, 1, row, width);
}

/* Extensions up to the first image: a graphic control block (0xF9) sets the transparent index. */
static int skip_to_image(GifFileType *file, const gif_input *input, int *transparent, char *err, size_t errlen) {
  for (;;) {
    GifRecordType type;
    if (gif.record_type(file, &type) != GIF_OK) return gif_failure(file->Error, input, "block", err, errlen);
    if (type == IMAGE_DESC_RECORD_TYPE) return CMD_OK;
    if (type == TERMINATE_RECORD_TYPE) {
      cmd_set_error(err, errlen, "GIF has no image");
      return CMD_ERR_CORRUPT;
    }
    int code;
    GifByteType *block;
    if (gif.extension(file, &code, &block) != GIF_OK)
      return gif_failure(file->Error, input, "extension", err, errlen);
    /* block[0] is the sub-block's length, its bytes follow. */
    if (code == GRAPHICS_EXT_FUNC_CODE && block != NULL && block[0] == 4)
      *transparent = (block[1] & 1) ? block[4] : -1;
    while (block != NULL) {
      if (gif.extension_next(file, &block) != GIF_OK)
        return gif_failure(file->Error, input, "extension", err, errlen);
    }
  }
}

/* The frame's rows onto screen rows, into the sink. `channels` is 4 (RGBA: transparency, or
 * screen outside the frame) or 3 (an opaque frame over the whole screen). */
static int decode_frame(GifFileType *file, const gif_input *input, cmd_sink *sink, uint32_t screen_w,
                        uint32_t screen_h, int transparent, uint32_t channels, uint64_t deadline, uint8_t *row,
                        char *err, size_t errlen) {
  const GifImageDesc *image = &file->Image;
  const ColorMapObject *map = image->ColorMap != NULL ? image->ColorMap : file->SColorMap;
  /* Every index's pixel: the palette's colour, opaque black past its end, clear for the
   * transparent one. */
  uint8_t colours[256][4];
  memset(colours, 0, sizeof colours);
  for (int i = 0; i < 256; i++) {
    if (i < map->ColorCount) {
      colours[i][0] = map->Colors[i].Red, colours[i][1] = map->Colors[i].Green, colours[i][2] = map->Colors[i].Blue;
    }
    colours[i][3] = i == transparent ? 0 : 255;
    if (i == transparent) colours[i][0] = colours[i][1] = colours[i][2] = 0;
  }
  uint32_t left = (uint32_t)image->Left, top = (uint32_t)image->Top;
  uint32_t frame_w = (uint32_t)image->Width, frame_h = (uint32_t)image->Height;
  uint32_t shown = left >= screen_w ? 0 : (frame_w < screen_w - left ? frame_w : screen_w - left);
  GifPixelType *indices = malloc(frame_w);
  if (indices == NULL) {
    cmd_set_error(err, errlen, "no memory for a row of %u pixels", frame_w);
    return CMD_ERR_NO_MEMORY;
  }
  uint32_t frame_top = top < screen_h ? top : screen_h;
  clear_rows(sink, row, screen_w, 0, frame_top);
  static const uint32_t start[4] = {0, 4, 2, 1}, step[4] = {8, 8, 4, 2};
  uint32_t pass = 0, y = 0;
  int status = CMD_OK;
  for (uint32_t line = 0; line < frame_h; line++) {
    if (gif.line(file, indices, (int)frame_w) != GIF_OK) {
      status = gif_failure(file->Error, input, "image data", err, errlen);
      break;
    }
    uint8_t *p = row + (size_t)left * channels;
    if (channels == 3) { /* constant sizes: one move a pixel, not a call */
      for (uint32_t x = 0; x < shown; x++, p += 3) memcpy(p, colours[indices[x]], 3);
    } else {
      for (uint32_t x = 0; x < shown; x++, p += 4) memcpy(p, colours[indices[x]], 4);
    }
    uint64_t screen_y = (uint64_t)top + y;
    if (screen_y < screen_h) cmd_sink_row(sink, (uint32_t)screen_y, 0, 1, row, screen_w);
    if (image->Interlace) {
      y += step[pass];
      while (y >= frame_h && pass < 3) y = start[++pass];
    } else {
      y++;
    }
    if ((line & 15) == 15 && cmd_past(deadline)) {
      cmd_set_error(err, errlen, "GIF decoding ran out of time");
      status = CMD_ERR_TIMEOUT;
      break;
    }
  }
  free(indices);
  if (status == CMD_OK) {
    uint64_t below = (uint64_t)top + frame_h;
    clear_rows(sink, row, screen_w, below < screen_h ? (uint32_t)below : screen_h, screen_h);
  }
  return status;
}

int cmd_decode_gif(cmd_source *source, const cmd_limits *limits, cmd_sink *sink, cmd_image *out, char *err,
                   size_t errlen) {
  uint64_t deadline = cmd_deadline(limits->max_millis);
  /* The screen's size from the header, checked before giflib reads anything. */
  cmd_info info;
  if (source->available < 13) cmd_source_fill(source);
  int status = cmd_probe_gif(source->next, source->available, &info, err, errlen);
  if (status != CMD_OK) return status;
  status = cmd_check_size(info.width, info.height, limits, err, errlen);
  if (status != CMD_OK) return status;
  pthread_once(&gif_once, load_giflib);
  if (gif.open == NULL) {
    cmd_set_error(err, errlen, "%s", gif.error);
    return CMD_ERR_UNSUPPORTED;
  }

  gif_input input = {.source = source, .deadline = deadline};
  int code = 0;
  GifFileType *file = gif.open(&input, read_source, &code);
  if (file == NULL) return gif_failure(code, &input, "header", err, errlen);
  int transparent = -1;
  uint8_t *row = NULL;
  status = skip_to_image(file, &input, &transparent, err, errlen);
  if (status == CMD_OK && gif.image_desc(file) != GIF_OK)
    status = gif_failure(file->Error, &input, "image descriptor", err, errlen);
  if (status == CMD_OK) {
    const GifImageDesc *image = &file->Image;
    status = image->Width <= 0 || image->Height <= 0
                 ? (cmd_set_error(err, errlen, "GIF frame is empty (%dx%d)", image->Width, image->Height), CMD_ERR_CORRUPT)
                 : cmd_check_size((uint64_t)image->Width, (uint64_t)image->Height, limits, err, errlen);
  }
  const ColorMapObject *map = file->Image.ColorMap != NULL ? file->Image.ColorMap : file->SColorMap;
  if (status == CMD_OK && (map == NULL || map->Colors == NULL)) {
    cmd_set_error(err, errlen, "GIF image has no colour table");
    status = CMD_ERR_CORRUPT;
  }
  /* An opaque frame over the whole screen goes as RGB: nothing to composite. */
  const GifImageDesc *frame = &file->Image;
  uint32_t channels = transparent < 0 && frame->Left == 0 && frame->Top == 0 && (uint32_t)frame->Width >= info.width &&
                              (uint32_t)frame->Height >= info.height
                          ? 3
                          : 4;
  if (status == CMD_OK) status = cmd_sink_begin(sink, info.width, info.height, channels, !frame->Interlace, err, errlen);
  if (status == CMD_OK) {
    row = calloc(info.width, 4);
    if (row == NULL) {
      cmd_set_error(err, errlen, "no memory for a row of %u pixels", info.width);
      status = CMD_ERR_NO_MEMORY;
    }
  }
  if (status == CMD_OK)
    status = decode_frame(file, &input, sink, info.width, info.height, transparent, channels, deadline, row, err, errlen);
  if (status == CMD_OK) {
    out->source_width = info.width;
    out->source_height = info.height;
    out->scale_num = 1;
    out->scale_denom = 1;
    out->scans = 1;
    out->format = CMD_FORMAT_GIF;
  }
  free(row);
  gif.close(file, &code);
  return status;
}

/* unterm-image-floor: the libraries' own fastest decode of a picture, the floor unterm-bench
 * sets UNTerm's thumbnails beside (Sources/unterm-bench/ImageFigures.swift).
 *
 *   unterm-image-floor FILE    decode FILE as a thumbnail would need it, keep nothing, exit 0
 *   unterm-image-floor         start and exit (the start-up the bench subtracts)
 *
 * It calls the libraries directly, as a program written for the one job would: a JPEG at
 * libjpeg-turbo's 1/8 scale with its fast integer DCT and no fancy upsampling (the scale and
 * mode UNTerm's thumbnail of a 4000 × 3000 picture uses), a PNG's every row through libpng
 * (every pass of an interlaced one), a GIF's first frame through giflib (opened with dlopen,
 * as UNTerm opens it). The bench runs it as a process, as it runs `unterm render`, so both
 * figures count the same things: reading the file, the decode, the memory it takes. */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>

#include "cmd_giflib_abi.h"

static jmp_buf jpeg_jump;

static void jpeg_fail(j_common_ptr cinfo) {
  (void)cinfo;
  longjmp(jpeg_jump, 1);
}

static int decode_jpeg(FILE *file) {
  struct jpeg_decompress_struct cinfo;
  struct jpeg_error_mgr errors;
  JSAMPLE *volatile row = NULL;
  cinfo.err = jpeg_std_error(&errors);
  errors.error_exit = jpeg_fail;
  if (setjmp(jpeg_jump) != 0) {
    jpeg_destroy_decompress(&cinfo);
    free(row);
    return 1;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_stdio_src(&cinfo, file);
  jpeg_read_header(&cinfo, TRUE);
  cinfo.scale_num = 1;
  cinfo.scale_denom = 8;
  cinfo.dct_method = JDCT_IFAST;
  cinfo.do_fancy_upsampling = FALSE;
  jpeg_start_decompress(&cinfo);
  row = malloc((size_t)cinfo.output_width * (size_t)cinfo.output_components);
  if (row == NULL) longjmp(jpeg_jump, 1);
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW rows = row;
    jpeg_read_scanlines(&cinfo, &rows, 1);
  }
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  free(row);
  return 0;
}

static int decode_png(FILE *file) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png != NULL ? png_create_info_struct(png) : NULL;
  png_bytep volatile row = NULL;
  if (info == NULL || setjmp(png_jmpbuf(png)) != 0) {
    png_destroy_read_struct(&png, &info, NULL);
    free(row);
    return 1;
  }
  png_init_io(png, file);
  png_read_info(png, info);
  png_set_expand(png);
  png_set_scale_16(png);
  int passes = png_set_interlace_handling(png);
  png_read_update_info(png, info);
  row = malloc(png_get_rowbytes(png, info));
  if (row == NULL) png_error(png, "no memory");
  uint32_t height = png_get_image_height(png, info);
  for (int pass = 0; pass < passes; pass++)
    for (uint32_t y = 0; y < height; y++) png_read_row(png, row, NULL);
  png_read_end(png, NULL);
  png_destroy_read_struct(&png, &info, NULL);
  free(row);
  return 0;
}

static int read_file(GifFileType *gif, GifByteType *into, int length) {
  return (int)fread(into, 1, (size_t)length, (FILE *)gif->UserData);
}

static int decode_gif(FILE *file) {
  void *library = dlopen(CMD_GIFLIB_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) return 1;
  GifFileType *(*open)(void *, InputFunc, int *) = (GifFileType * (*)(void *, InputFunc, int *)) dlsym(library, "DGifOpen");
  int (*close)(GifFileType *, int *) = (int (*)(GifFileType *, int *))dlsym(library, "DGifCloseFile");
  int (*record)(GifFileType *, GifRecordType *) = (int (*)(GifFileType *, GifRecordType *))dlsym(library, "DGifGetRecordType");
  int (*descriptor)(GifFileType *) = (int (*)(GifFileType *))dlsym(library, "DGifGetImageDesc");
  int (*line)(GifFileType *, GifPixelType *, int) = (int (*)(GifFileType *, GifPixelType *, int))dlsym(library, "DGifGetLine");
  int (*extension)(GifFileType *, int *, GifByteType **) =
      (int (*)(GifFileType *, int *, GifByteType **))dlsym(library, "DGifGetExtension");
  int (*next)(GifFileType *, GifByteType **) = (int (*)(GifFileType *, GifByteType **))dlsym(library, "DGifGetExtensionNext");
  if (!open || !close || !record || !descriptor || !line || !extension || !next) return 1;
  int error = 0;
  GifFileType *gif = open(file, read_file, &error);
  if (gif == NULL) return 1;
  int status = 1;
  GifRecordType type;
  while (record(gif, &type) == GIF_OK && type != TERMINATE_RECORD_TYPE) {
    if (type == EXTENSION_RECORD_TYPE) {
      int code;
      GifByteType *block;
      if (extension(gif, &code, &block) != GIF_OK) break;
      while (block != NULL)
        if (next(gif, &block) != GIF_OK) break;
      continue;
    }
    if (type != IMAGE_DESC_RECORD_TYPE || descriptor(gif) != GIF_OK) break;
    GifPixelType *row = malloc((size_t)gif->Image.Width);
    status = row == NULL;
    for (int y = 0; row != NULL && y < gif->Image.Height; y++) {
      if (line(gif, row, gif->Image.Width) != GIF_OK) {
        status = 1;
        break;
      }
    }
    free(row);
    break;
  }
  close(gif, &error);
  return status;
}

int main(int argc, char **argv) {
  if (argc < 2) return 0;
  FILE *file = fopen(argv[1], "rb");
  if (file == NULL) {
    fprintf(stderr, "unterm-image-floor: cannot open %s\n", argv[1]);
    return 66;
  }
  unsigned char magic[4] = {0};
  size_t got = fread(magic, 1, sizeof magic, file);
  rewind(file);
  int status;
  if (got >= 3 && magic[0] == 0xFF && magic[1] == 0xD8) {
    status = decode_jpeg(file);
  } else if (got >= 4 && magic[0] == 0x89 && memcmp(magic + 1, "PNG", 3) == 0) {
    status = decode_png(file);
  } else if (got >= 3 && memcmp(magic, "GIF", 3) == 0) {
    status = decode_gif(file);
  } else {
    fprintf(stderr, "unterm-image-floor: %s is not a JPEG, PNG or GIF\n", argv[1]);
    status = 65;
  }
  fclose(file);
  if (status == 1) fprintf(stderr, "unterm-image-floor: %s did not decode\n", argv[1]);
  return status;
}

/* The part of giflib's interface cmd_gif.c calls, declared here so building UNTerm needs no
 * giflib headers (Debian's libgif-dev): giflib itself is opened with dlopen on the first GIF.
 *
 * The types, constants and prototypes are copied from giflib 5.2.1's gif_lib.h (MIT licence),
 * unchanged but for the prototypes, which become function types for dlsym. They are giflib 5's
 * ABI under its soname libgif.so.7 (Debian: libgif7): giflib 5.1 bumped the soname to 7 when
 * DGifCloseFile took its error pointer, and 5.1 and 5.2 keep these layouts. Only the fields
 * the decoder reads are used (GifFileType's SWidth, SHeight, SColorMap, Image, Error and
 * UserData), but the structures are whole so every offset is giflib's. */
#ifndef CMD_GIFLIB_ABI_H
#define CMD_GIFLIB_ABI_H

#include <stdbool.h>
#include <stddef.h>

/* The soname opened; tests build with another to see the message of a missing library. */
#ifndef CMD_GIFLIB_SONAME
#define CMD_GIFLIB_SONAME "libgif.so.7"
#endif

#define GIF_ERROR 0
#define GIF_OK 1

typedef unsigned char GifPixelType;
typedef unsigned char *GifRowType;
typedef unsigned char GifByteType;
typedef unsigned int GifPrefixType;
typedef int GifWord;

typedef struct GifColorType {
  GifByteType Red, Green, Blue;
} GifColorType;

typedef struct ColorMapObject {
  int ColorCount;
  int BitsPerPixel;
  bool SortFlag;
  GifColorType *Colors; /* on malloc(3) heap */
} ColorMapObject;

typedef struct GifImageDesc {
  GifWord Left, Top, Width, Height; /* Current image dimensions. */
  bool Interlace;                   /* Sequential/Interlaced lines. */
  ColorMapObject *ColorMap;         /* The local color map */
} GifImageDesc;

typedef struct ExtensionBlock {
  int ByteCount;
  GifByteType *Bytes; /* on malloc(3) heap */
  int Function;       /* The block function code */
} ExtensionBlock;

#define CONTINUE_EXT_FUNC_CODE 0x00    /* continuation subblock */
#define COMMENT_EXT_FUNC_CODE 0xfe     /* comment */
#define GRAPHICS_EXT_FUNC_CODE 0xf9    /* graphics control (GIF89) */
#define PLAINTEXT_EXT_FUNC_CODE 0x01   /* plaintext */
#define APPLICATION_EXT_FUNC_CODE 0xff /* application block (GIF89) */

typedef struct SavedImage {
  GifImageDesc ImageDesc;
  GifByteType *RasterBits;         /* on malloc(3) heap */
  int ExtensionBlockCount;         /* Count of extensions before image */
  ExtensionBlock *ExtensionBlocks; /* Extensions before image */
} SavedImage;

typedef struct GifFileType {
  GifWord SWidth, SHeight;         /* Size of virtual canvas */
  GifWord SColorResolution;        /* How many colors can we generate? */
  GifWord SBackGroundColor;        /* Background color for virtual canvas */
  GifByteType AspectByte;          /* Used to compute pixel aspect ratio */
  ColorMapObject *SColorMap;       /* Global colormap, NULL if nonexistent. */
  int ImageCount;                  /* Number of current image (both APIs) */
  GifImageDesc Image;              /* Current image (low-level API) */
  SavedImage *SavedImages;         /* Image sequence (high-level API) */
  int ExtensionBlockCount;         /* Count extensions past last image */
  ExtensionBlock *ExtensionBlocks; /* Extensions past last image */
  int Error;                       /* Last error condition reported */
  void *UserData;                  /* hook to attach user data (TVT) */
  void *Private;                   /* Don't mess with this! */
} GifFileType;

typedef enum {
  UNDEFINED_RECORD_TYPE,
  SCREEN_DESC_RECORD_TYPE,
  IMAGE_DESC_RECORD_TYPE, /* Begin with ',' */
  EXTENSION_RECORD_TYPE,  /* Begin with '!' */
  TERMINATE_RECORD_TYPE   /* Begin with ';' */
} GifRecordType;

/* func type to read gif data from arbitrary sources (TVT) */
typedef int (*InputFunc)(GifFileType *, GifByteType *, int);

#define D_GIF_SUCCEEDED 0
#define D_GIF_ERR_OPEN_FAILED 101 /* And DGif possible errors. */
#define D_GIF_ERR_READ_FAILED 102
#define D_GIF_ERR_NOT_GIF_FILE 103
#define D_GIF_ERR_NO_SCRN_DSCR 104
#define D_GIF_ERR_NO_IMAG_DSCR 105
#define D_GIF_ERR_NO_COLOR_MAP 106
#define D_GIF_ERR_WRONG_RECORD 107
#define D_GIF_ERR_DATA_TOO_BIG 108
#define D_GIF_ERR_NOT_ENOUGH_MEM 109
#define D_GIF_ERR_CLOSE_FAILED 110
#define D_GIF_ERR_NOT_READABLE 111
#define D_GIF_ERR_IMAGE_DEFECT 112
#define D_GIF_ERR_EOF_TOO_SOON 113

/* The prototypes, as function types (gif_lib.h declares them as functions):
 *   GifFileType *DGifOpen(void *userPtr, InputFunc readFunc, int *Error);
 *   int DGifCloseFile(GifFileType *GifFile, int *ErrorCode);
 *   int DGifGetRecordType(GifFileType *GifFile, GifRecordType *GifType);
 *   int DGifGetImageDesc(GifFileType *GifFile);
 *   int DGifGetLine(GifFileType *GifFile, GifPixelType *GifLine, int GifLineLen);
 *   int DGifGetExtension(GifFileType *GifFile, int *GifExtCode, GifByteType **GifExtension);
 *   int DGifGetExtensionNext(GifFileType *GifFile, GifByteType **GifExtension);
 *   const char *GifErrorString(int ErrorCode); */
typedef GifFileType *DGifOpen_fn(void *userPtr, InputFunc readFunc, int *Error);
typedef int DGifCloseFile_fn(GifFileType *GifFile, int *ErrorCode);
typedef int DGifGetRecordType_fn(GifFileType *GifFile, GifRecordType *GifType);
typedef int DGifGetImageDesc_fn(GifFileType *GifFile);
typedef int DGifGetLine_fn(GifFileType *GifFile, GifPixelType *GifLine, int GifLineLen);
typedef int DGifGetExtension_fn(GifFileType *GifFile, int *GifExtCode, GifByteType **GifExtension);
typedef int DGifGetExtensionNext_fn(GifFileType *GifFile, GifByteType **GifExtension);
typedef const char *GifErrorString_fn(int ErrorCode);

#endif

/*
 * GNU FriBidi, opened with dlopen on first use (Debian: libfribidi0, which the image has), so
 * building UNTerm needs no FriBidi headers (libfribidi-dev). Only what this file calls is
 * declared below, with the types and bit masks of FriBidi's public headers
 * (fribidi-types.h, fribidi-bidi-types.h, fribidi-flags.h), which FriBidi keeps stable across
 * its 1.0 interface (its soname has been libfribidi.so.0 since 2004).
 */
#define _GNU_SOURCE
#include "CFriBidi.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef uint32_t FriBidiChar;
typedef uint32_t FriBidiCharType;
typedef uint32_t FriBidiParType;
typedef uint32_t FriBidiBracketType;
typedef uint32_t FriBidiFlags;
typedef int FriBidiStrIndex;
typedef signed char FriBidiLevel;
typedef uint8_t FriBidiArabicProp;
typedef uint8_t FriBidiJoiningType;

enum {
  FRIBIDI_MASK_RTL = 0x1,
  FRIBIDI_MASK_STRONG = 0x10,
  FRIBIDI_MASK_LETTER = 0x100,
  FRIBIDI_MASK_EXPLICIT = 0x1000,
  FRIBIDI_MASK_ISOLATE = 0x8000,
};
#define FRIBIDI_TYPE_LTR 0x110u
#define FRIBIDI_TYPE_RTL 0x111u
#define FRIBIDI_TYPE_AL 0x113u
#define FRIBIDI_TYPE_AN 0x222u
#define FRIBIDI_TYPE_ON 0x40u
#define FRIBIDI_PAR_LTR 0x110u
#define FRIBIDI_PAR_RTL 0x111u
#define FRIBIDI_FLAG_SHAPE_MIRRORING 0x1u
#define FRIBIDI_FLAG_REORDER_NSM 0x2u
#define FRIBIDI_FLAG_SHAPE_ARAB_PRES 0x100u
#define FRIBIDI_FLAG_SHAPE_ARAB_LIGA 0x200u
#define FRIBIDI_IS_RTL(p) ((p)&FRIBIDI_MASK_RTL)
#define FRIBIDI_IS_STRONG(p) ((p)&FRIBIDI_MASK_STRONG)
#define FRIBIDI_IS_LETTER(p) ((p)&FRIBIDI_MASK_LETTER)
#define FRIBIDI_IS_EXPLICIT(p) ((p)&FRIBIDI_MASK_EXPLICIT)
#define FRIBIDI_IS_ISOLATE(p) ((p)&FRIBIDI_MASK_ISOLATE)

static struct {
  int loaded;
  char error[200];
  FriBidiCharType (*get_bidi_type)(FriBidiChar);
  void (*get_bidi_types)(const FriBidiChar *, FriBidiStrIndex, FriBidiCharType *);
  void (*get_bracket_types)(const FriBidiChar *, FriBidiStrIndex, const FriBidiCharType *, FriBidiBracketType *);
  FriBidiLevel (*get_par_embedding_levels_ex)(
    const FriBidiCharType *, const FriBidiBracketType *, FriBidiStrIndex, FriBidiParType *, FriBidiLevel *);
  FriBidiLevel (*reorder_line)(
    FriBidiFlags, const FriBidiCharType *, FriBidiStrIndex, FriBidiStrIndex, FriBidiParType, FriBidiLevel *,
    FriBidiChar *, FriBidiStrIndex *);
  void (*get_joining_types)(const FriBidiChar *, FriBidiStrIndex, FriBidiJoiningType *);
  void (*join_arabic)(const FriBidiCharType *, FriBidiStrIndex, const FriBidiLevel *, FriBidiArabicProp *);
  void (*shape)(FriBidiFlags, const FriBidiLevel *, FriBidiStrIndex, FriBidiArabicProp *, FriBidiChar *);
} fb;

static pthread_once_t fb_once = PTHREAD_ONCE_INIT;

static void load_fribidi(void) {
  void *handle = dlopen("libfribidi.so.0", RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char *why = dlerror();
    snprintf(fb.error, sizeof fb.error, "GNU FriBidi (Debian: libfribidi0) cannot be loaded: %s",
             why != NULL ? why : "not found");
    return;
  }
#define LOAD(field, name)                                                                       \
  do {                                                                                          \
    *(void **)(&fb.field) = dlsym(handle, name);                                                \
    if (fb.field == NULL) {                                                                     \
      snprintf(fb.error, sizeof fb.error, "GNU FriBidi has no %s: too old (1.0 or later is needed)", name); \
      return;                                                                                   \
    }                                                                                           \
  } while (0)
  LOAD(get_bidi_type, "fribidi_get_bidi_type");
  LOAD(get_bidi_types, "fribidi_get_bidi_types");
  LOAD(get_bracket_types, "fribidi_get_bracket_types");
  LOAD(get_par_embedding_levels_ex, "fribidi_get_par_embedding_levels_ex");
  LOAD(reorder_line, "fribidi_reorder_line");
  LOAD(get_joining_types, "fribidi_get_joining_types");
  LOAD(join_arabic, "fribidi_join_arabic");
  LOAD(shape, "fribidi_shape");
#undef LOAD
  fb.loaded = 1;
}

static int ready(void) {
  pthread_once(&fb_once, load_fribidi);
  return fb.loaded;
}

const char *cfb_load_error(void) { return ready() ? NULL : fb.error; }

#define fribidi_get_bidi_type fb.get_bidi_type
#define fribidi_get_bidi_types fb.get_bidi_types
#define fribidi_get_bracket_types fb.get_bracket_types
#define fribidi_get_par_embedding_levels_ex fb.get_par_embedding_levels_ex
#define fribidi_reorder_line fb.reorder_line
#define fribidi_get_joining_types fb.get_joining_types
#define fribidi_join_arabic fb.join_arabic
#define fribidi_shape fb.shape

static int is_control(FriBidiCharType type) {
  return FRIBIDI_IS_EXPLICIT(type) || FRIBIDI_IS_ISOLATE(type);
}

static int is_mark(uint32_t c) {
  return c == 0x200E || c == 0x200F || c == 0x061C;
}

int cfb_has_rtl(const uint32_t *text, int32_t length) {
  if (!ready()) return 0;
  for (int32_t i = 0; i < length; i++) {
    if (text[i] < 0x0590) continue;
    if (is_mark(text[i])) continue;
    FriBidiCharType type = fribidi_get_bidi_type(text[i]);
    if (type == FRIBIDI_TYPE_RTL || type == FRIBIDI_TYPE_AL || type == FRIBIDI_TYPE_AN) return 1;
  }
  return 0;
}

int cfb_paragraph(
  const uint32_t *text, int32_t length, int direction, const uint8_t *strong_ltr, uint32_t *types, int8_t *levels) {
  if (length <= 0) return direction == CFB_DIRECTION_RTL ? 1 : 0;
  if (!ready()) {
    // Without FriBidi: one run at the base level, in logical order.
    int rtl = direction == CFB_DIRECTION_RTL;
    for (int32_t i = 0; i < length; i++) {
      types[i] = FRIBIDI_TYPE_LTR;
      levels[i] = (int8_t)rtl;
    }
    return rtl;
  }
  FriBidiBracketType *brackets = malloc(sizeof(FriBidiBracketType) * (size_t)length);
  if (!brackets) return -1;
  fribidi_get_bidi_types(text, length, types);
  for (int32_t i = 0; i < length; i++) {
    // Controls and marks count as plain neutrals: nothing in the text steers the reordering.
    if (is_control(types[i]) || is_mark(text[i])) types[i] = FRIBIDI_TYPE_ON;
  }
  // Rules P2 and P3 on the payload's own letters: a placeholder ("‹RLO›" before an Urdu title)
  // is drawn in left-to-right letters but must not make the paragraph left to right.
  FriBidiParType first_strong = FRIBIDI_PAR_LTR;
  for (int32_t i = 0; i < length; i++) {
    if ((strong_ltr && strong_ltr[i]) || !FRIBIDI_IS_STRONG(types[i]) || !FRIBIDI_IS_LETTER(types[i])) continue;
    first_strong = FRIBIDI_IS_RTL(types[i]) ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_LTR;
    break;
  }
  if (strong_ltr) {
    for (int32_t i = 0; i < length; i++) {
      if (strong_ltr[i]) types[i] = FRIBIDI_TYPE_LTR;
    }
  }
  fribidi_get_bracket_types(text, length, types, brackets);
  FriBidiParType base = direction == CFB_DIRECTION_RTL   ? FRIBIDI_PAR_RTL
                        : direction == CFB_DIRECTION_LTR ? FRIBIDI_PAR_LTR
                                                          : first_strong;
  FriBidiLevel max = fribidi_get_par_embedding_levels_ex(types, brackets, length, &base, levels);
  free(brackets);
  if (max == 0) return -1;
  return FRIBIDI_IS_RTL(base) ? 1 : 0;
}

int cfb_reorder_line(
  const uint32_t *types, int8_t *levels, int32_t paragraph_length, int32_t offset, int32_t length, int rtl,
  int32_t *map) {
  if (length <= 0) return 0;
  if (offset < 0 || offset + length > paragraph_length) return -1;
  if (!ready()) return 0; /* the map stays in logical order */
  FriBidiParType base = rtl ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_LTR;
  FriBidiLevel max = fribidi_reorder_line(
    FRIBIDI_FLAG_REORDER_NSM, types, length, offset, base, levels, NULL, map);
  return max == 0 ? -1 : 0;
}

void cfb_shape(uint32_t *text, const int8_t *levels, int32_t length, int ligatures) {
  if (length <= 0 || !ready()) return;
  FriBidiCharType *types = malloc(sizeof(FriBidiCharType) * (size_t)length);
  FriBidiArabicProp *props = malloc(sizeof(FriBidiArabicProp) * (size_t)length);
  if (!types || !props) {
    free(types);
    free(props);
    return;
  }
  fribidi_get_bidi_types(text, length, types);
  fribidi_get_joining_types(text, length, props);
  fribidi_join_arabic(types, length, levels, props);
  FriBidiFlags flags = FRIBIDI_FLAG_SHAPE_MIRRORING | FRIBIDI_FLAG_SHAPE_ARAB_PRES;
  if (ligatures) flags |= FRIBIDI_FLAG_SHAPE_ARAB_LIGA;
  fribidi_shape(flags, levels, length, props, text);
  free(types);
  free(props);
}

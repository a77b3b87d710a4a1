#include "CFriBidi.h"

#include <fribidi/fribidi.h>
#include <stdlib.h>

static int is_control(FriBidiCharType type) {
  return FRIBIDI_IS_EXPLICIT(type) || FRIBIDI_IS_ISOLATE(type);
}

static int is_mark(uint32_t c) {
  return c == 0x200E || c == 0x200F || c == 0x061C;
}

int cfb_has_rtl(const uint32_t *text, int32_t length) {
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
  FriBidiParType base = rtl ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_LTR;
  FriBidiLevel max = fribidi_reorder_line(
    FRIBIDI_FLAG_REORDER_NSM, types, length, offset, base, levels, NULL, map);
  return max == 0 ? -1 : 0;
}

void cfb_shape(uint32_t *text, const int8_t *levels, int32_t length, int ligatures) {
  if (length <= 0) return;
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

/*
 * CFriBidi: the Unicode bidirectional algorithm and Arabic shaping of GNU FriBidi, for UNTerm's
 * text layout. Plain C types only; UNTermBidi is the one Swift module that calls these.
 *
 * Explicit embedding, override and isolate characters and the three marks (LRM, RLM, ALM) are
 * resolved as plain neutrals (ON): text reaching the layout has already been through the
 * sanitizer, and even if one slipped through it must not steer the reordering of its
 * neighbours. Nothing here allocates memory that outlives a call, and nothing prints.
 */
#ifndef CFRIBIDI_H
#define CFRIBIDI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Paragraph directions for cfb_paragraph. */
enum {
  /**
   * The first strong letter decides (rules P2 and P3), leaving out those marked `strong_ltr`;
   * left to right when there is none.
   */
  CFB_DIRECTION_AUTO = 0,
  CFB_DIRECTION_LTR = 1,
  CFB_DIRECTION_RTL = 2,
};

/**
 * Why GNU FriBidi could not be opened (libfribidi.so.0, with dlopen on first use), or NULL when
 * it is. Without it nothing is reordered: cfb_has_rtl says no text needs it, and a paragraph
 * resolves as the direction asked for, every level its base.
 */
const char *cfb_load_error(void);

/**
 * Whether any of the characters is right-to-left or an Arabic number (bidi types R, AL, AN):
 * text without them needs no reordering in a left-to-right paragraph.
 */
int cfb_has_rtl(const uint32_t *text, int32_t length);

/**
 * Resolves the embedding levels of one paragraph (rules P2 to I2 and parts 1-3 of L1).
 *
 * `strong_ltr`, when not NULL, marks characters to resolve as strong left-to-right letters
 * whatever their own type (the sanitizer's placeholders, so "‹RLO›" stays one run). `types`
 * and `levels` receive one entry per character: its bidi type (as reorder and shape want it)
 * and its resolved level. Returns 1 when the paragraph's base direction is right to left, 0
 * when it is left to right, and -1 on failure (no memory).
 */
int cfb_paragraph(
  const uint32_t *text, int32_t length, int direction, const uint8_t *strong_ltr, uint32_t *types, int8_t *levels);

/**
 * Reorders one line of a paragraph for display (part 4 of L1, L2, L3).
 *
 * `types` and `levels` hold one entry per unit of the paragraph (a unit may stand for a whole
 * grapheme cluster); the line is units [offset, offset + length). `levels` is modified (L1
 * resets trailing white space). `map` holds the paragraph's unit indexes; on return,
 * map[offset + v] is the unit drawn at visual position v of the line, left to right.
 * Returns 0, or -1 on failure.
 */
int cfb_reorder_line(
  const uint32_t *types, int8_t *levels, int32_t paragraph_length, int32_t offset, int32_t length,
  int rtl, int32_t *map);

/**
 * Shapes a run of text in logical order, in place: Arabic joining to presentation forms,
 * optionally the mandatory lam-alef ligatures (the second character of a ligature becomes
 * U+FEFF), and mirrored glyphs for characters at right-to-left levels.
 */
void cfb_shape(uint32_t *text, const int8_t *levels, int32_t length, int ligatures);

#ifdef __cplusplus
}
#endif

#endif

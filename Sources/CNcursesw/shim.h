/*
 * CNcursesw: the slice of ncursesw (wide-character ncurses 6.x) that UNTermCurses uses.
 *
 * Only UNTermCurses imports this module. Debian: `apt-get install libncurses-dev`.
 */
#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H

/* Must come before curses.h: SwiftPM drops the -D flags from ncursesw.pc, and without them the
 * wide API (setcchar, mvwadd_wch, wget_wch, cchar_t) is not declared at all. */
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif

#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <wchar.h>
#include <ncursesw/curses.h> /* the same file as <curses.h> on Debian 12 */

/* C globals: Swift 6 refuses to read them ("not concurrency-safe"), so read them here. */
static inline WINDOW *cnc_stdscr(void) { return stdscr; }
static inline int cnc_colors(void) { return COLORS; }
static inline int cnc_color_pairs(void) { return COLOR_PAIRS; }

/* The codeset of the current LC_CTYPE ("UTF-8" when wide characters will work). */
static inline const char *cnc_codeset(void) { return nl_langinfo(CODESET); }

/* A terminfo string capability, or NULL when absent or not a string capability
 * (tigetstr returns (char *)-1 for the latter). */
static inline const char *cnc_tigetstr(const char *name) {
  char *value = tigetstr(name);
  if (value == NULL || value == (char *)-1) { return NULL; }
  return value;
}

/* Another terminal type's description, for its key sequences (term.h is left out: its
 * capability macros would clash with ordinary names). Loading makes it the current terminal;
 * freeing it leaves none, so call both before newterm. */
struct term;
extern struct term *cur_term;
extern int setupterm(const char *, int, int *);
extern int del_curterm(struct term *);
static inline void *cnc_load_terminal(const char *name, int fd) {
  int status = 0;
  if (setupterm(name, fd, &status) != OK) { return NULL; }
  return (void *)cur_term;
}
static inline void cnc_free_terminal(void *terminal) { del_curterm((struct term *)terminal); }

/* NCURSES_BITS-based attribute macros are not imported into Swift. */
static const attr_t CNC_A_NORMAL = A_NORMAL;
static const attr_t CNC_A_BOLD = A_BOLD;
static const attr_t CNC_A_DIM = A_DIM;
static const attr_t CNC_A_ITALIC = A_ITALIC;
static const attr_t CNC_A_UNDERLINE = A_UNDERLINE;
static const attr_t CNC_A_REVERSE = A_REVERSE;

/* Mouse masks are NCURSES_MOUSE_MASK(...) expressions, which are not imported either. */
static const mmask_t CNC_BUTTON1_PRESSED = BUTTON1_PRESSED;
static const mmask_t CNC_BUTTON1_RELEASED = BUTTON1_RELEASED;
static const mmask_t CNC_BUTTON1_CLICKED = BUTTON1_CLICKED;
static const mmask_t CNC_BUTTON2_PRESSED = BUTTON2_PRESSED;
static const mmask_t CNC_BUTTON2_RELEASED = BUTTON2_RELEASED;
static const mmask_t CNC_BUTTON2_CLICKED = BUTTON2_CLICKED;
static const mmask_t CNC_BUTTON3_PRESSED = BUTTON3_PRESSED;
static const mmask_t CNC_BUTTON3_RELEASED = BUTTON3_RELEASED;
static const mmask_t CNC_BUTTON3_CLICKED = BUTTON3_CLICKED;
static const mmask_t CNC_BUTTON4_PRESSED = BUTTON4_PRESSED;
static const mmask_t CNC_BUTTON5_PRESSED = BUTTON5_PRESSED;
static const mmask_t CNC_REPORT_MOUSE_POSITION = REPORT_MOUSE_POSITION;

#endif

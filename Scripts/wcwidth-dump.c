#define _XOPEN_SOURCE 700
#include <wchar.h>
#include <locale.h>
#include <stdio.h>

// Prints the ranges of code points that glibc wcwidth() gives width 0 or 2, and the ranges
// above U+009F it calls unprintable (-1: unassigned in this glibc's Unicode version).
static int width(long c) {
  if (c >= 0x110000) return -99;
  if (c >= 0xD800 && c <= 0xDFFF) return -2;
  int w = wcwidth((wchar_t)c);
  if (w < 0 && c < 0xA0) return -2;  // C0, DEL, C1: the sanitizer's business
  return w;
}

int main(void) {
  setlocale(LC_ALL, "C.UTF-8");
  int prev = -99;
  long start = 0;
  for (long c = 0; c <= 0x110000; c++) {
    int w = width(c);
    if (w != prev) {
      if (c > 0 && (prev == 0 || prev == 2 || prev == -1)) printf("%d 0x%lX 0x%lX\n", prev, start, c - 1);
      start = c;
      prev = w;
    }
  }
  return 0;
}

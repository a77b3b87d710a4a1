/* Where decoded rows go: a full copy (cmd_decode) or an area-averaging reducer. */
#include "cmd_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* AVX2 loops beside the SSE2 ones on x86-64, compiled for AVX2 function by function and taken
 * when the processor has it (the binary itself stays at x86-64's baseline). The portable build
 * (cmd_sink_portable.c, without __SSE2__) has neither. */
#if defined(__SSE2__) && defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define CMD_SINK_AVX2 1
#include <immintrin.h>
#define AVX2 __attribute__((target("avx2")))
#endif

/* Fixed-point steps per source pixel: weights are overlaps in 1/256 of a pixel. */
enum { UNIT = 256 };

/* The part of the source one output pixel covers along one axis: pixels [first, last), the
 * weight of the first and the last (partly covered) ones, and the sum of all weights. Pixels in
 * between weigh UNIT. */
typedef struct span {
  uint32_t first, last;
  uint32_t first_weight, last_weight;
  uint64_t total;
} span;

struct cmd_sink {
  int full;
  int begun;
  uint32_t src_w, src_h, src_channels;
  int in_order;

  /* Full copy. */
  uint32_t out_channels;
  uint8_t *copy;

  /* Reducer. */
  cmd_target target;
  uint64_t max_memory;
  double left, top, right, bottom; /* the region, clamped, in fractions */
  uint32_t ow, oh;
  uint32_t wc; /* working channels: 1 (gray) or 3 */
  span *columns, *rows;
  uint64_t *acc;       /* held_rows × ow × wc */
  uint32_t held_rows;  /* oh when rows come out of order, else a ring */
  uint32_t next_emit;  /* in order: the first output row not finished yet */
  uint64_t *h;         /* ow × wc: the current row's sums per output column */
  uint8_t *working;    /* src_w × wc: a row with transparency composited, when needed */
  /* Rows in order while reducing: each source row is first added into per-column sums of the
   * output rows it touches (held_rows × (cx1 − cx0) × wc, 32 bits), and an output row's columns
   * are summed once when it is finished. The same sums as summing each row's columns first,
   * in a fraction of the work: the per-column adds are a plain loop over the row's bytes. */
  int vertical;
  uint32_t cx0, cx1;   /* the source columns the output covers */
  uint32_t *vacc;
  /* The same for the rows that weigh a whole pixel (UNIT): their plain sums, in 16 bits (at
   * most 256 such rows an output row), so a row is added with 16-bit lanes, twice as many a
   * vector as 32-bit ones; folded into vacc (× UNIT) when the output row is finished. */
  uint16_t *wacc;
  /* Per slot of held_rows: whether its vacc (wacc) sums hold nothing yet. The first row added
   * over the whole of [cx0, cx1) stores its values instead of adding them, so no sum is ever
   * cleared; a slot still fresh when its output row is finished counts as zeros. */
  uint8_t vfresh[4], wfresh[4];
  /* Every output pixel's total (column span × row span) is below 2^44: see rounded_mean. */
  int exact_double;
  /* Whether the AVX2 loops run (the processor has AVX2; tests may turn them off). */
  int avx2;
  /* Each output column covers exactly `factor` whole source columns (a whole ratio, 1:1
   * included), or 0. */
  uint32_t factor;
  uint8_t *out;        /* ow × oh × 3 */
};

cmd_sink *cmd_sink_full(uint32_t channels) {
  cmd_sink *sink = calloc(1, sizeof *sink);
  if (sink == NULL) return NULL;
  sink->full = 1;
  sink->out_channels = channels == 3 ? 3 : 4;
  return sink;
}

static double clamp_unit(double value) { return value < 0 ? 0 : value > 1 ? 1 : value; }

/* Whether this processor (and its system) runs AVX2: asked once, the answer kept. */
static int has_avx2(void) {
#ifdef CMD_SINK_AVX2
  static int known = -1;
  if (known < 0) {
    __builtin_cpu_init();
    known = __builtin_cpu_supports("avx2") ? 1 : 0;
  }
  return known;
#else
  return 0;
#endif
}

cmd_sink *cmd_sink_reducer(const cmd_target *target, const cmd_limits *limits) {
  cmd_sink *sink = calloc(1, sizeof *sink);
  if (sink == NULL) return NULL;
  sink->avx2 = has_avx2();
  sink->target = *target;
  sink->max_memory = limits->max_decoder_memory;
  sink->ow = target->width;
  sink->oh = target->height;
  sink->left = clamp_unit(target->x);
  sink->top = clamp_unit(target->y);
  sink->right = clamp_unit(target->x + target->region_width);
  sink->bottom = clamp_unit(target->y + target->region_height);
  return sink;
}

void cmd_sink_free(cmd_sink *sink) {
  if (sink == NULL) return;
  free(sink->copy);
  free(sink->columns);
  free(sink->rows);
  free(sink->acc);
  free(sink->h);
  free(sink->working);
  free(sink->out);
  free(sink->vacc);
  free(sink->wacc);
  free(sink);
}

int cmd_sink_is_full(const cmd_sink *sink) { return sink->full; }

int cmd_sink_avx2(const cmd_sink *sink) { return sink->avx2; }

void cmd_sink_without_avx2(cmd_sink *sink) { sink->avx2 = 0; }

void cmd_sink_need(const cmd_sink *sink, uint32_t stored_width, uint32_t stored_height,
                   uint32_t *need_width, uint32_t *need_height) {
  if (sink->full) {
    *need_width = stored_width;
    *need_height = stored_height;
    return;
  }
  double w = ceil((double)sink->ow / (sink->right - sink->left) - 1e-9);
  double h = ceil((double)sink->oh / (sink->bottom - sink->top) - 1e-9);
  *need_width = w >= stored_width ? stored_width : (uint32_t)w;
  *need_height = h >= stored_height ? stored_height : (uint32_t)h;
}

/* The spans of `count` output pixels over [from, to) in fixed point, for a source of `size`
 * pixels. An output pixel narrower than 1/256 of a pixel takes the pixel under it. */
static void make_spans(span *spans, uint32_t count, int64_t from, int64_t to, uint32_t size) {
  for (uint32_t k = 0; k < count; k++) {
    int64_t a = from + (to - from) * (int64_t)k / count;
    int64_t b = from + (to - from) * (int64_t)(k + 1) / count;
    span *s = &spans[k];
    if (b > a) {
      s->first = (uint32_t)(a / UNIT);
      s->last = (uint32_t)((b + UNIT - 1) / UNIT);
      if (s->last > size) s->last = size;
      if (s->last <= s->first) s->last = s->first + 1;
      int64_t first_end = (int64_t)(s->first + 1) * UNIT;
      int64_t last_start = (int64_t)(s->last - 1) * UNIT;
      s->first_weight = (uint32_t)((first_end < b ? first_end : b) - a);
      s->last_weight = (uint32_t)(b - (last_start > a ? last_start : a));
      s->total = (uint64_t)(b - a);
    } else {
      uint32_t pixel = (uint32_t)(a / UNIT);
      if (pixel >= size) pixel = size - 1;
      s->first = pixel;
      s->last = pixel + 1;
      s->first_weight = s->last_weight = 1;
      s->total = 1;
    }
  }
}

/* The weight of pixel p in a span. */
static inline uint32_t weight_of(const span *s, uint32_t p) {
  if (p == s->first) return s->first_weight;
  if (p + 1 == s->last) return s->last_weight;
  return UNIT;
}

int cmd_sink_begin(cmd_sink *sink, uint32_t width, uint32_t height, uint32_t channels,
                   int in_order, char *err, size_t errlen) {
  if (sink->begun || width == 0 || height == 0 || channels == 0 || channels > 4) {
    cmd_set_error(err, errlen, "the decoder produced an unexpected layout");
    return CMD_ERR_UNSUPPORTED;
  }
  sink->begun = 1;
  sink->src_w = width;
  sink->src_h = height;
  sink->src_channels = channels;
  sink->in_order = in_order;
  if (sink->full) {
    size_t size = cmd_buffer_size(width, height, sink->out_channels);
    sink->copy = size == 0 ? NULL : calloc(1, size);
    if (sink->copy == NULL) {
      cmd_set_error(err, errlen, "no memory for %ux%u pixels", width, height);
      return CMD_ERR_NO_MEMORY;
    }
    return CMD_OK;
  }
  /* Sums of weight × sample stay far inside 64 bits up to 2^36 source pixels. */
  if ((uint64_t)width * height > ((uint64_t)1 << 36)) {
    cmd_set_error(err, errlen, "%ux%u is too large to reduce", width, height);
    return CMD_ERR_TOO_LARGE;
  }
  const uint8_t *bg = sink->target.background;
  int gray_background = bg[0] == bg[1] && bg[1] == bg[2];
  sink->wc = channels == 1 || (channels == 2 && gray_background) ? 1 : 3;

  int64_t x0 = llround(sink->left * width * UNIT), x1 = llround(sink->right * width * UNIT);
  int64_t y0 = llround(sink->top * height * UNIT), y1 = llround(sink->bottom * height * UNIT);
  if (x1 <= x0) x1 = x0 + 1;
  if (x1 > (int64_t)width * UNIT) x0 = (x1 = (int64_t)width * UNIT) - 1;
  if (y1 <= y0) y1 = y0 + 1;
  if (y1 > (int64_t)height * UNIT) y0 = (y1 = (int64_t)height * UNIT) - 1;

  uint32_t ow = sink->ow, oh = sink->oh, wc = sink->wc;
  /* Output rows one source row touches: 2 when reducing, more when enlarging. */
  uint64_t per_row = 2 + ((uint64_t)oh * UNIT + (uint64_t)(y1 - y0) - 1) / (uint64_t)(y1 - y0);
  sink->held_rows = in_order ? (per_row < oh ? (uint32_t)per_row : oh) : oh;
  uint64_t acc_bytes = (uint64_t)sink->held_rows * ow * wc * sizeof(uint64_t);
  if (sink->max_memory != 0 && acc_bytes > sink->max_memory) {
    cmd_set_error(err, errlen, "reducing to %ux%u needs more working memory than the %llu-byte cap",
                  ow, oh, (unsigned long long)sink->max_memory);
    return CMD_ERR_NO_MEMORY;
  }
  sink->columns = malloc(sizeof(span) * ow);
  sink->rows = malloc(sizeof(span) * oh);
  sink->acc = calloc((size_t)sink->held_rows * ow * wc, sizeof(uint64_t));
  sink->h = malloc(sizeof(uint64_t) * ow * wc);
  sink->out = malloc((size_t)ow * oh * 3);
  if (channels != wc) sink->working = malloc((size_t)width * wc);
  if (sink->columns == NULL || sink->rows == NULL || sink->acc == NULL || sink->h == NULL ||
      sink->out == NULL || (channels != wc && sink->working == NULL)) {
    cmd_set_error(err, errlen, "no memory to reduce to %ux%u pixels", ow, oh);
    return CMD_ERR_NO_MEMORY;
  }
  make_spans(sink->columns, ow, x0, x1, width);
  make_spans(sink->rows, oh, y0, y1, height);
  /* Column sums when rows come in order, few output rows are open at once (reducing), and
   * an output row's weighted sum of one column fits 32 bits. */
  uint64_t tallest = 0, widest = 0;
  for (uint32_t j = 0; j < oh; j++) tallest = sink->rows[j].total > tallest ? sink->rows[j].total : tallest;
  for (uint32_t k = 0; k < ow; k++) widest = sink->columns[k].total > widest ? sink->columns[k].total : widest;
  sink->exact_double = widest * tallest < ((uint64_t)1 << 44);
  uint32_t factor = sink->columns[0].last - sink->columns[0].first;
  sink->factor = factor;
  for (uint32_t k = 0; k < ow && sink->factor != 0; k++) {
    const span *s = &sink->columns[k];
    if (s->first != sink->columns[0].first + k * factor || s->last != s->first + factor || s->first_weight != UNIT ||
        s->last_weight != UNIT || s->total != (uint64_t)factor * UNIT)
      sink->factor = 0;
  }
  sink->cx0 = sink->columns[0].first;
  sink->cx1 = sink->columns[ow - 1].last;
  uint64_t vacc_bytes = (uint64_t)sink->held_rows * (sink->cx1 - sink->cx0) * wc * sizeof(uint32_t);
  if (in_order && sink->held_rows <= 4 && tallest * 255 <= UINT32_MAX &&
      (sink->max_memory == 0 || vacc_bytes <= sink->max_memory)) {
    size_t count = (size_t)sink->held_rows * (sink->cx1 - sink->cx0) * wc;
    /* One sum more, zero: the AVX2 mean loads four sums from a pixel's last column on. */
    sink->vacc = calloc(count + 1, sizeof(uint32_t));
    sink->vertical = sink->vacc != NULL;
    /* Whole-pixel rows of one output row, at most 256 (each 255 at most), fit 16 bits. */
    if (sink->vertical && tallest <= 256 * UNIT) sink->wacc = malloc(count * sizeof(uint16_t));
    memset(sink->vfresh, 1, sizeof sink->vfresh);
    memset(sink->wfresh, 1, sizeof sink->wfresh);
  }
  return CMD_OK;
}

void cmd_sink_rows(const cmd_sink *sink, uint32_t *first, uint32_t *last) {
  if (sink->full || !sink->begun) {
    *first = 0;
    *last = sink->src_h;
    return;
  }
  *first = sink->rows[0].first;
  *last = sink->rows[sink->oh - 1].last;
}

void cmd_sink_columns(const cmd_sink *sink, uint32_t *first, uint32_t *last) {
  if (sink->full || !sink->begun) {
    *first = 0;
    *last = sink->src_w;
    return;
  }
  *first = sink->columns[0].first;
  *last = sink->columns[sink->ow - 1].last;
}

/* Pixels of any layout into the full copy. */
static void copy_row(cmd_sink *sink, uint32_t y, uint32_t x0, uint32_t step, const uint8_t *px,
                     uint32_t count) {
  uint32_t in = sink->src_channels, out_c = sink->out_channels;
  uint8_t *row = sink->copy + (size_t)y * sink->src_w * out_c;
  for (uint32_t i = 0; i < count; i++, px += in) {
    uint64_t x = (uint64_t)x0 + (uint64_t)i * step;
    if (x >= sink->src_w) break;
    uint8_t *o = row + x * out_c;
    uint8_t r, g, b, a = 255;
    switch (in) {
    case 1: r = g = b = px[0]; break;
    case 2: r = g = b = px[0], a = px[1]; break;
    case 3: r = px[0], g = px[1], b = px[2]; break;
    default: r = px[0], g = px[1], b = px[2], a = px[3]; break;
    }
    o[0] = r;
    o[1] = g;
    o[2] = b;
    if (out_c == 4) o[3] = a;
  }
}

static inline uint8_t over(uint32_t value, uint32_t alpha, uint32_t background) {
  return (uint8_t)((value * alpha + background * (255 - alpha) + 127) / 255);
}

/* A row with transparency (or gray to colour) in working channels. */
static const uint8_t *working_row(cmd_sink *sink, const uint8_t *px, uint32_t count) {
  if (sink->src_channels == sink->wc) return px;
  const uint8_t *bg = sink->target.background;
  uint8_t *w = sink->working;
  switch (sink->src_channels) {
  case 1: /* gray to colour never happens: gray works in one channel */
    for (uint32_t i = 0; i < count; i++) w[i] = px[i];
    break;
  case 2:
    if (sink->wc == 1) {
      for (uint32_t i = 0; i < count; i++) w[i] = over(px[2 * i], px[2 * i + 1], bg[0]);
    } else {
      for (uint32_t i = 0; i < count; i++) {
        uint32_t v = px[2 * i], a = px[2 * i + 1];
        w[3 * i] = over(v, a, bg[0]);
        w[3 * i + 1] = over(v, a, bg[1]);
        w[3 * i + 2] = over(v, a, bg[2]);
      }
    }
    break;
  case 4:
    for (uint32_t i = 0; i < count; i++) {
      const uint8_t *p = px + 4 * i;
      uint32_t a = p[3];
      if (a == 255) {
        w[3 * i] = p[0], w[3 * i + 1] = p[1], w[3 * i + 2] = p[2];
      } else {
        w[3 * i] = over(p[0], a, bg[0]);
        w[3 * i + 1] = over(p[1], a, bg[1]);
        w[3 * i + 2] = over(p[2], a, bg[2]);
      }
    }
    break;
  default: break;
  }
  return w;
}

/* Per output column, the weighted sums of a contiguous row that starts at column x0. */
static void gather_contiguous(cmd_sink *sink, const uint8_t *row, uint32_t x0, uint32_t count) {
  uint32_t wc = sink->wc;
  for (uint32_t k = 0; k < sink->ow; k++) {
    const span *s = &sink->columns[k];
    uint64_t *h = sink->h + (size_t)k * wc;
    if (s->first < x0 || s->last > x0 + count) {
      /* Outside what the decoder produced: weighs nothing (never happens with whole rows). */
      for (uint32_t c = 0; c < wc; c++) h[c] = 0;
      continue;
    }
    const uint8_t *p = row + (size_t)(s->first - x0) * wc;
    uint32_t n = s->last - s->first;
    if (wc == 3) {
      if (n == 1) {
        h[0] = (uint64_t)p[0] * s->first_weight;
        h[1] = (uint64_t)p[1] * s->first_weight;
        h[2] = (uint64_t)p[2] * s->first_weight;
        continue;
      }
      uint64_t r = 0, g = 0, b = 0;
      const uint8_t *q = p + 3, *end = p + 3 * (size_t)(n - 1);
      for (; q < end; q += 3) {
        r += q[0];
        g += q[1];
        b += q[2];
      }
      h[0] = r * UNIT + (uint64_t)p[0] * s->first_weight + (uint64_t)end[0] * s->last_weight;
      h[1] = g * UNIT + (uint64_t)p[1] * s->first_weight + (uint64_t)end[1] * s->last_weight;
      h[2] = b * UNIT + (uint64_t)p[2] * s->first_weight + (uint64_t)end[2] * s->last_weight;
    } else {
      if (n == 1) {
        h[0] = (uint64_t)p[0] * s->first_weight;
        continue;
      }
      uint64_t v = 0;
      for (uint32_t i = 1; i + 1 < n; i++) v += p[i];
      h[0] = v * UNIT + (uint64_t)p[0] * s->first_weight + (uint64_t)p[n - 1] * s->last_weight;
    }
  }
}

/* The same for every step-th pixel from x0 (an interlaced PNG's pass): pixels not in the pass
 * come in other passes. */
static void gather_strided(cmd_sink *sink, const uint8_t *row, uint32_t x0, uint32_t step,
                           uint32_t count) {
  uint32_t wc = sink->wc;
  uint64_t end = (uint64_t)x0 + (uint64_t)step * count;
  for (uint32_t k = 0; k < sink->ow; k++) {
    const span *s = &sink->columns[k];
    uint64_t *h = sink->h + (size_t)k * wc;
    for (uint32_t c = 0; c < wc; c++) h[c] = 0;
    uint64_t x = s->first <= x0 ? x0 : x0 + ((uint64_t)(s->first - x0) + step - 1) / step * step;
    for (; x < s->last && x < end; x += step) {
      uint64_t w = weight_of(s, (uint32_t)x);
      const uint8_t *p = row + (size_t)((x - x0) / step) * wc;
      for (uint32_t c = 0; c < wc; c++) h[c] += w * p[c];
    }
  }
}

/* Output row j's finished pixels, and its accumulators cleared for reuse. */
static void finish_row(cmd_sink *sink, uint32_t j) {
  uint32_t wc = sink->wc;
  uint64_t *acc = sink->acc + (size_t)(j % sink->held_rows) * sink->ow * wc;
  uint8_t *out = sink->out + (size_t)j * sink->ow * 3;
  uint64_t row_total = sink->rows[j].total;
  for (uint32_t k = 0; k < sink->ow; k++) {
    uint64_t total = sink->columns[k].total * row_total;
    for (uint32_t c = 0; c < 3; c++) {
      uint64_t sum = acc[(size_t)k * wc + (wc == 3 ? c : 0)];
      uint64_t value = (sum + total / 2) / total;
      out[(size_t)k * 3 + c] = (uint8_t)(value > 255 ? 255 : value);
    }
  }
  memset(acc, 0, sizeof(uint64_t) * sink->ow * wc);
}

/* (sum + total / 2) / total, at most 255, without a 64-bit integer division (tens of cycles,
 * three an output pixel). While total < 2^44 both numbers are exact doubles (n < 256 · total)
 * and the quotient x = n / total is below 256: a true quotient below an integer k lies at least
 * 1/total > 2^-44 below it, and rounding to a double moves it by at most 2^-46 (half the
 * spacing of doubles below 256), never onto k or below floor(x) (a double itself), so
 * truncating the double quotient gives the integer division's result. Larger totals (pictures
 * of billions of pixels) take the reciprocal's quotient, off by at most one as a double's
 * relative error is far below 1/256, corrected by one integer check each way. */
static inline uint8_t rounded_mean(uint64_t sum, uint64_t total) {
  uint64_t n = sum + total / 2;
  uint64_t q;
  if (total < ((uint64_t)1 << 44)) {
    q = (uint64_t)((double)n / (double)total);
  } else {
    double estimate = (double)n * (1.0 / (double)total);
    q = estimate >= 256.0 ? 256 : (uint64_t)estimate;
    q -= q > 0 && q * total > n;
    q += q < 256 && (q + 1) * total <= n;
  }
  return (uint8_t)(q > 255 ? 255 : q);
}

/* One output pixel's sums from the column sums at p: its first (partly covered) column, the
 * whole ones, its last (partly covered) one. wc is a constant where this is inlined, so the
 * channels' sums stay in registers. */
static inline __attribute__((always_inline)) void pixel_sums(const span *s, const uint32_t *p, uint32_t wc,
                                                             uint64_t sum[3]) {
  uint32_t n = s->last - s->first;
  uint64_t first = s->first_weight;
  for (uint32_t c = 0; c < wc; c++) sum[c] = first * p[c];
  if (n == 1) return;
  uint64_t whole[3] = {0, 0, 0};
  const uint32_t *q = p + wc, *end = p + (size_t)(n - 1) * wc;
  for (; q < end; q += wc)
    for (uint32_t c = 0; c < wc; c++) whole[c] += q[c];
  uint64_t last = s->last_weight;
  for (uint32_t c = 0; c < wc; c++) sum[c] += whole[c] * UNIT + last * end[c];
}

/* Output row j's pixels from the column sums at v, in wc channels (a constant where inlined).
 * With `exact_double` (every total below 2^44) the mean is rounded_mean's double division,
 * inline, the total converted once a pixel and through signed integers (one instruction). */
static inline __attribute__((always_inline)) void emit_vertical_wc(cmd_sink *sink, uint32_t j, const uint32_t *v,
                                                                   uint32_t wc) {
  uint8_t *out = sink->out + (size_t)j * sink->ow * 3;
  uint64_t row_total = sink->rows[j].total;
  const span *columns = sink->columns;
  uint32_t cx0 = sink->cx0, ow = sink->ow;
  int exact = sink->exact_double;
  for (uint32_t k = 0; k < ow; k++, out += 3) {
    const span *s = &columns[k];
    uint64_t sum[3];
    pixel_sums(s, v + (size_t)(s->first - cx0) * wc, wc, sum);
    uint64_t total = s->total * row_total;
    uint8_t mean[3];
    if (exact) {
      double divisor = (double)(int64_t)total;
      uint64_t half = total / 2;
      for (uint32_t c = 0; c < wc; c++) {
        int64_t q = (int64_t)((double)(int64_t)(sum[c] + half) / divisor);
        mean[c] = (uint8_t)(q > 255 ? 255 : q);
      }
    } else {
      for (uint32_t c = 0; c < wc; c++) mean[c] = rounded_mean(sum[c], total);
    }
    out[0] = mean[0];
    out[1] = mean[wc == 3 ? 1 : 0];
    out[2] = mean[wc == 3 ? 2 : 0];
  }
}

#ifdef CMD_SINK_AVX2
/* A pixel's three bytes from the low three of `bytes`: one 4-byte store when another pixel of
 * the row follows (it writes the fourth byte again). */
static inline __attribute__((always_inline)) void store_pixel(uint8_t *out, uint32_t bytes, int more) {
  if (more) {
    memcpy(out, &bytes, 4);
  } else {
    out[0] = (uint8_t)bytes, out[1] = (uint8_t)(bytes >> 8), out[2] = (uint8_t)(bytes >> 16);
  }
}

/* emit_vertical_wc for three channels in AVX2: a pixel's three sums in three 64-bit lanes of one
 * register (a fourth, ignored, takes the next sum), its mean by one exact double division of the
 * lanes (sums below 2^52 become doubles by their bits: see rounded_mean for the exactness). */
AVX2 static void emit_vertical_avx2(cmd_sink *sink, uint32_t j, const uint32_t *v) {
  uint8_t *out = sink->out + (size_t)j * sink->ow * 3;
  uint64_t row_total = sink->rows[j].total;
  const span *columns = sink->columns;
  uint32_t cx0 = sink->cx0, ow = sink->ow;
  const __m256i magic = _mm256_set1_epi64x(0x4330000000000000LL); /* 2^52 as a double's bits */
  const __m256d two52 = _mm256_set1_pd(4503599627370496.0);
  for (uint32_t k = 0; k < ow; k++, out += 3) {
    const span *s = &columns[k];
    const uint32_t *p = v + (size_t)(s->first - cx0) * 3;
    uint32_t n = s->last - s->first;
    __m256i sum = _mm256_mul_epu32(_mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(const void *)p)),
                                   _mm256_set1_epi64x(s->first_weight));
    if (n > 1) {
      __m256i whole = _mm256_setzero_si256();
      const uint32_t *q = p + 3, *end = p + (size_t)(n - 1) * 3;
      for (; q < end; q += 3)
        whole = _mm256_add_epi64(whole, _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(const void *)q)));
      __m256i last = _mm256_mul_epu32(_mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(const void *)end)),
                                      _mm256_set1_epi64x(s->last_weight));
      sum = _mm256_add_epi64(_mm256_add_epi64(sum, _mm256_slli_epi64(whole, 8)), last);
    }
    uint64_t total = s->total * row_total;
    sum = _mm256_add_epi64(sum, _mm256_set1_epi64x((long long)(total / 2)));
    __m256d numerator = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(sum, magic)), two52);
    __m128i q = _mm256_cvttpd_epi32(_mm256_div_pd(numerator, _mm256_set1_pd((double)(int64_t)total)));
    q = _mm_packus_epi16(_mm_packus_epi32(q, q), q);
    store_pixel(out, (uint32_t)_mm_cvtsi128_si32(q), k + 1 < ow);
  }
}

/* The same when every output column covers `factor` whole source columns (a whole ratio): a
 * plain sum of its columns, × UNIT, over one total for the whole row. */
AVX2 static void emit_whole_avx2(cmd_sink *sink, uint32_t j, const uint32_t *v) {
  uint8_t *out = sink->out + (size_t)j * sink->ow * 3;
  uint32_t ow = sink->ow, factor = sink->factor;
  uint64_t total = (uint64_t)factor * UNIT * sink->rows[j].total;
  const __m256i magic = _mm256_set1_epi64x(0x4330000000000000LL);
  const __m256d two52 = _mm256_set1_pd(4503599627370496.0);
  const __m256i half = _mm256_set1_epi64x((long long)(total / 2));
  const __m256d divisor = _mm256_set1_pd((double)(int64_t)total);
  const uint32_t *p = v + (size_t)(sink->columns[0].first - sink->cx0) * 3;
  for (uint32_t k = 0; k < ow; k++, out += 3) {
    __m256i sum = _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(const void *)p));
    p += 3;
    for (uint32_t t = 1; t < factor; t++, p += 3)
      sum = _mm256_add_epi64(sum, _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(const void *)p)));
    sum = _mm256_add_epi64(_mm256_slli_epi64(sum, 8), half);
    __m256d numerator = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(sum, magic)), two52);
    __m128i q = _mm256_cvttpd_epi32(_mm256_div_pd(numerator, divisor));
    q = _mm_packus_epi16(_mm_packus_epi32(q, q), q);
    store_pixel(out, (uint32_t)_mm_cvtsi128_si32(q), k + 1 < ow);
  }
}
#endif

static void emit_vertical(cmd_sink *sink, uint32_t j, const uint32_t *v) {
#ifdef CMD_SINK_AVX2
  if (sink->avx2 && sink->wc == 3 && sink->exact_double) {
    if (sink->factor != 0) {
      emit_whole_avx2(sink, j, v);
    } else {
      emit_vertical_avx2(sink, j, v);
    }
    return;
  }
#endif
  if (sink->wc == 3) {
    emit_vertical_wc(sink, j, v, 3);
  } else {
    emit_vertical_wc(sink, j, v, 1);
  }
}

/* The whole rows' plain sums × UNIT into the partly covered rows' sums, or in place of them
 * (`set`: no partly covered row was added). SSE2: eight a step. */
static inline __attribute__((always_inline)) void fold16(uint32_t *v, const uint16_t *whole, size_t n, int set) {
  size_t i = 0;
#ifdef __SSE2__
  const __m128i zero = _mm_setzero_si128();
  for (; i + 8 <= n; i += 8) {
    __m128i w = _mm_loadu_si128((const __m128i *)(const void *)(whole + i));
    __m128i *s = (__m128i *)(void *)(v + i);
    __m128i low = _mm_slli_epi32(_mm_unpacklo_epi16(w, zero), 8);
    __m128i high = _mm_slli_epi32(_mm_unpackhi_epi16(w, zero), 8);
    if (!set) {
      low = _mm_add_epi32(_mm_loadu_si128(s), low);
      high = _mm_add_epi32(_mm_loadu_si128(s + 1), high);
    }
    _mm_storeu_si128(s, low);
    _mm_storeu_si128(s + 1, high);
  }
#endif
  for (; i < n; i++) v[i] = (set ? 0 : v[i]) + ((uint32_t)whole[i] << 8);
}

#ifdef CMD_SINK_AVX2
/* The same in AVX2: sixteen a step. */
AVX2 static void fold16_avx2(uint32_t *v, const uint16_t *whole, size_t n, int set) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m256i *s = (__m256i *)(void *)(v + i);
    __m256i low = _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)(whole + i))), 8);
    __m256i high =
        _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)(whole + i + 8))), 8);
    if (!set) {
      low = _mm256_add_epi32(_mm256_loadu_si256(s), low);
      high = _mm256_add_epi32(_mm256_loadu_si256(s + 1), high);
    }
    _mm256_storeu_si256(s, low);
    _mm256_storeu_si256(s + 1, high);
  }
  fold16(v + i, whole + i, n - i, set);
}
#endif

static void fold_whole(const cmd_sink *sink, uint32_t *v, const uint16_t *whole, size_t n, int set) {
#ifdef CMD_SINK_AVX2
  if (sink->avx2) {
    fold16_avx2(v, whole, n, set);
    return;
  }
#endif
  (void)sink;
  if (set) {
    fold16(v, whole, n, 1);
  } else {
    fold16(v, whole, n, 0);
  }
}

/* Output row j from its column sums (the vertical mode); its slot is fresh again after. */
static void finish_row_vertical(cmd_sink *sink, uint32_t j) {
  uint32_t slot = j % sink->held_rows;
  size_t width = (size_t)(sink->cx1 - sink->cx0) * sink->wc;
  uint32_t *v = sink->vacc + (size_t)slot * width;
  int has_whole = sink->wacc != NULL && !sink->wfresh[slot];
  if (has_whole) {
    /* Stored when no partly covered row was added (an output row on whole source rows). */
    fold_whole(sink, v, sink->wacc + (size_t)slot * width, width, sink->vfresh[slot]);
  } else if (sink->vfresh[slot]) {
    memset(v, 0, sizeof(uint32_t) * width);
  }
  emit_vertical(sink, j, v);
  sink->vfresh[slot] = 1;
  sink->wfresh[slot] = 1;
}

/* Bytes added into 16-bit sums, or stored into them (`set`: the first row of a fresh slot).
 * SSE2 does sixteen a step; the loop after it is the portable path and the tail. */
static inline __attribute__((always_inline)) void bytes16(uint16_t *sums, const uint8_t *p, size_t n, int set) {
  size_t i = 0;
#ifdef __SSE2__
  const __m128i zero = _mm_setzero_si128();
  for (; i + 16 <= n; i += 16) {
    __m128i bytes = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
    __m128i *s = (__m128i *)(void *)(sums + i);
    __m128i low = _mm_unpacklo_epi8(bytes, zero), high = _mm_unpackhi_epi8(bytes, zero);
    if (!set) {
      low = _mm_add_epi16(_mm_loadu_si128(s), low);
      high = _mm_add_epi16(_mm_loadu_si128(s + 1), high);
    }
    _mm_storeu_si128(s, low);
    _mm_storeu_si128(s + 1, high);
  }
#endif
  for (; i < n; i++) sums[i] = (uint16_t)((set ? 0 : sums[i]) + p[i]);
}

/* Bytes times a weight below UNIT added into (or stored into) 32-bit sums: each product fits
 * 16 bits, so SSE2 multiplies eight a step in 16-bit lanes before widening. */
static inline __attribute__((always_inline)) void weighted32(uint32_t *sums, const uint8_t *p, size_t n,
                                                             uint16_t weight, int set) {
  size_t i = 0;
#ifdef __SSE2__
  const __m128i zero = _mm_setzero_si128(), w = _mm_set1_epi16((short)weight);
  for (; i + 16 <= n; i += 16) {
    __m128i bytes = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
    __m128i low = _mm_mullo_epi16(_mm_unpacklo_epi8(bytes, zero), w);
    __m128i high = _mm_mullo_epi16(_mm_unpackhi_epi8(bytes, zero), w);
    __m128i *s = (__m128i *)(void *)(sums + i);
    __m128i q0 = _mm_unpacklo_epi16(low, zero), q1 = _mm_unpackhi_epi16(low, zero);
    __m128i q2 = _mm_unpacklo_epi16(high, zero), q3 = _mm_unpackhi_epi16(high, zero);
    if (!set) {
      q0 = _mm_add_epi32(_mm_loadu_si128(s), q0);
      q1 = _mm_add_epi32(_mm_loadu_si128(s + 1), q1);
      q2 = _mm_add_epi32(_mm_loadu_si128(s + 2), q2);
      q3 = _mm_add_epi32(_mm_loadu_si128(s + 3), q3);
    }
    _mm_storeu_si128(s, q0);
    _mm_storeu_si128(s + 1, q1);
    _mm_storeu_si128(s + 2, q2);
    _mm_storeu_si128(s + 3, q3);
  }
#endif
  for (; i < n; i++) sums[i] = (set ? 0 : sums[i]) + (uint16_t)(p[i] * weight);
}

#ifdef CMD_SINK_AVX2
/* bytes16 in AVX2: thirty-two a step. */
AVX2 static void bytes16_avx2(uint16_t *sums, const uint8_t *p, size_t n, int set) {
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256i *s = (__m256i *)(void *)(sums + i);
    __m256i low = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(p + i)));
    __m256i high = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(p + i + 16)));
    if (!set) {
      low = _mm256_add_epi16(_mm256_loadu_si256(s), low);
      high = _mm256_add_epi16(_mm256_loadu_si256(s + 1), high);
    }
    _mm256_storeu_si256(s, low);
    _mm256_storeu_si256(s + 1, high);
  }
  bytes16(sums + i, p + i, n - i, set);
}

/* weighted32 in AVX2: sixteen a step, the products in 16-bit lanes before widening. */
AVX2 static void weighted32_avx2(uint32_t *sums, const uint8_t *p, size_t n, uint16_t weight, int set) {
  size_t i = 0;
  const __m256i w = _mm256_set1_epi16((short)weight);
  for (; i + 16 <= n; i += 16) {
    __m256i products = _mm256_mullo_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(p + i))), w);
    __m256i *s = (__m256i *)(void *)(sums + i);
    __m256i low = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(products));
    __m256i high = _mm256_cvtepu16_epi32(_mm256_extracti128_si256(products, 1));
    if (!set) {
      low = _mm256_add_epi32(_mm256_loadu_si256(s), low);
      high = _mm256_add_epi32(_mm256_loadu_si256(s + 1), high);
    }
    _mm256_storeu_si256(s, low);
    _mm256_storeu_si256(s + 1, high);
  }
  weighted32(sums + i, p + i, n - i, weight, set);
}
#endif

static void add_bytes16(const cmd_sink *sink, uint16_t *sums, const uint8_t *p, size_t n) {
#ifdef CMD_SINK_AVX2
  if (sink->avx2) {
    bytes16_avx2(sums, p, n, 0);
    return;
  }
#endif
  (void)sink;
  bytes16(sums, p, n, 0);
}
static void set_bytes16(const cmd_sink *sink, uint16_t *sums, const uint8_t *p, size_t n) {
#ifdef CMD_SINK_AVX2
  if (sink->avx2) {
    bytes16_avx2(sums, p, n, 1);
    return;
  }
#endif
  (void)sink;
  bytes16(sums, p, n, 1);
}
static void add_weighted32(const cmd_sink *sink, uint32_t *sums, const uint8_t *p, size_t n, uint16_t weight) {
#ifdef CMD_SINK_AVX2
  if (sink->avx2) {
    weighted32_avx2(sums, p, n, weight, 0);
    return;
  }
#endif
  (void)sink;
  weighted32(sums, p, n, weight, 0);
}
static void set_weighted32(const cmd_sink *sink, uint32_t *sums, const uint8_t *p, size_t n, uint16_t weight) {
#ifdef CMD_SINK_AVX2
  if (sink->avx2) {
    weighted32_avx2(sums, p, n, weight, 1);
    return;
  }
#endif
  (void)sink;
  weighted32(sums, p, n, weight, 1);
}

/* A row into the column sums of the output rows from j on that it touches. */
static void add_row_vertical(cmd_sink *sink, uint32_t j, uint32_t y, uint32_t x0, const uint8_t *row,
                             uint32_t count) {
  uint32_t wc = sink->wc, columns = sink->cx1 - sink->cx0;
  /* The part of the row inside [cx0, cx1) (all of it needed comes with whole rows). */
  uint32_t from = sink->cx0 > x0 ? sink->cx0 : x0;
  uint64_t end = (uint64_t)x0 + count;
  uint32_t to = end < sink->cx1 ? (uint32_t)end : sink->cx1;
  if (from >= to) return;
  const uint8_t *p = row + (size_t)(from - x0) * wc;
  size_t n = (size_t)(to - from) * wc, offset = (size_t)(from - sink->cx0) * wc;
  size_t width = (size_t)columns * wc;
  /* A row over the whole width stores into a fresh slot; a part of one clears it first. */
  int whole_width = from == sink->cx0 && to == sink->cx1;
  for (; j < sink->oh && sink->rows[j].first <= y; j++) {
    uint32_t w = weight_of(&sink->rows[j], y);
    uint32_t slot = j % sink->held_rows;
    size_t at = (size_t)slot * width + offset;
    if (w == UNIT && sink->wacc != NULL) {
      int set = sink->wfresh[slot];
      if (set && !whole_width) memset(sink->wacc + (size_t)slot * width, 0, sizeof(uint16_t) * width), set = 0;
      sink->wfresh[slot] = 0;
      if (set) {
        set_bytes16(sink, sink->wacc + at, p, n);
      } else {
        add_bytes16(sink, sink->wacc + at, p, n);
      }
      continue;
    }
    int set = sink->vfresh[slot];
    if (set && !whole_width) memset(sink->vacc + (size_t)slot * width, 0, sizeof(uint32_t) * width), set = 0;
    sink->vfresh[slot] = 0;
    uint32_t *v = sink->vacc + at;
    if (w == UNIT) {
      for (size_t i = 0; i < n; i++) v[i] = (set ? 0 : v[i]) + ((uint32_t)p[i] << 8);
    } else if (set) {
      set_weighted32(sink, v, p, n, (uint16_t)w);
    } else {
      add_weighted32(sink, v, p, n, (uint16_t)w);
    }
  }
}

/* The first output row whose span ends after source row y. */
static uint32_t first_row_after(const cmd_sink *sink, uint32_t y) {
  uint32_t low = 0, high = sink->oh;
  while (low < high) {
    uint32_t mid = low + (high - low) / 2;
    if (sink->rows[mid].last > y) {
      high = mid;
    } else {
      low = mid + 1;
    }
  }
  return low;
}

void cmd_sink_row(cmd_sink *sink, uint32_t y, uint32_t x0, uint32_t step, const uint8_t *pixels,
                  uint32_t count) {
  if (!sink->begun || y >= sink->src_h || count == 0 || step == 0 || x0 >= sink->src_w) return;
  if (sink->full) {
    copy_row(sink, y, x0, step, pixels, count);
    return;
  }
  uint32_t j = first_row_after(sink, y);
  if (j >= sink->oh || sink->rows[j].first > y) return; /* no output row needs it */
  if (sink->vertical) {
    while (sink->next_emit < j) finish_row_vertical(sink, sink->next_emit++);
    const uint8_t *row = working_row(sink, pixels, count);
    if (step == 1) {
      add_row_vertical(sink, j, y, x0, row, count);
    } else {
      /* Rows in order come whole from every decoder; a strided one is added pixel by pixel. */
      for (uint32_t i = 0; i < count; i++) {
        uint64_t x = (uint64_t)x0 + (uint64_t)i * step;
        if (x >= sink->src_w) break;
        add_row_vertical(sink, j, y, (uint32_t)x, row + (size_t)i * sink->wc, 1);
      }
    }
    return;
  }
  if (sink->in_order) {
    while (sink->next_emit < j) finish_row(sink, sink->next_emit++);
  }
  const uint8_t *row = working_row(sink, pixels, count);
  if (step == 1) {
    gather_contiguous(sink, row, x0, count);
  } else {
    gather_strided(sink, row, x0, step, count);
  }
  uint32_t wc = sink->wc;
  size_t width = (size_t)sink->ow * wc;
  for (; j < sink->oh && sink->rows[j].first <= y; j++) {
    uint64_t w = weight_of(&sink->rows[j], y);
    uint64_t *acc = sink->acc + (size_t)(j % sink->held_rows) * width;
    for (size_t i = 0; i < width; i++) acc[i] += sink->h[i] * w;
  }
}

int cmd_sink_finish(cmd_sink *sink, cmd_image *out, char *err, size_t errlen) {
  if (!sink->begun) {
    cmd_set_error(err, errlen, "the decoder produced no pixels");
    return CMD_ERR_CORRUPT;
  }
  if (sink->full) {
    out->pixels = sink->copy;
    out->byte_count = cmd_buffer_size(sink->src_w, sink->src_h, sink->out_channels);
    out->width = sink->src_w;
    out->height = sink->src_h;
    out->channels = sink->out_channels;
    sink->copy = NULL;
    return CMD_OK;
  }
  uint32_t from = sink->in_order ? sink->next_emit : 0;
  for (uint32_t j = from; j < sink->oh; j++) {
    if (sink->vertical) {
      finish_row_vertical(sink, j);
    } else {
      finish_row(sink, j);
    }
  }
  sink->next_emit = sink->oh;
  out->pixels = sink->out;
  out->byte_count = (size_t)sink->ow * sink->oh * 3;
  out->width = sink->ow;
  out->height = sink->oh;
  out->channels = 3;
  sink->out = NULL;
  return CMD_OK;
}

/* Tests: a picture's rows, in order, through a reducer to `target` (cmd_reduce_rows), with the
 * AVX2 loops when `avx2` and the processor has them. */
static int reduce_rows(const uint8_t *pixels, uint32_t width, uint32_t height, uint32_t channels,
                       const cmd_target *target, int avx2, cmd_image *out, char *err, size_t errlen) {
  cmd_limits limits;
  memset(&limits, 0, sizeof limits);
  cmd_sink *sink = cmd_sink_reducer(target, &limits);
  if (sink == NULL) {
    cmd_set_error(err, errlen, "no memory for the reducer");
    return CMD_ERR_NO_MEMORY;
  }
  sink->avx2 = sink->avx2 && avx2;
  int status = cmd_sink_begin(sink, width, height, channels, 1, err, errlen);
  for (uint32_t y = 0; status == CMD_OK && y < height; y++)
    cmd_sink_row(sink, y, 0, 1, pixels + (size_t)y * width * channels, width);
  if (status == CMD_OK) status = cmd_sink_finish(sink, out, err, errlen);
  cmd_sink_free(sink);
  return status;
}

#ifdef CMD_SINK_PORTABLE
int cmd_reduce_rows_portable(const uint8_t *pixels, uint32_t width, uint32_t height, uint32_t channels,
                             const cmd_target *target, cmd_image *out, char *err, size_t errlen) {
  return reduce_rows(pixels, width, height, channels, target, 0, out, err, errlen);
}
#else
int cmd_reduce_uses_avx2(void) { return has_avx2(); }

int cmd_reduce_rows(const uint8_t *pixels, uint32_t width, uint32_t height, uint32_t channels,
                    const cmd_target *target, int loops, cmd_image *out, char *err, size_t errlen) {
  if (pixels == NULL || target == NULL || out == NULL || width == 0 || height == 0 || target->width == 0 ||
      target->height == 0 || target->width > CMD_MAX_TARGET_SIDE || target->height > CMD_MAX_TARGET_SIDE ||
      loops < CMD_LOOPS_FASTEST || loops > CMD_LOOPS_SSE2) {
    cmd_set_error(err, errlen, "bad arguments");
    return CMD_ERR_ARGUMENT;
  }
  memset(out, 0, sizeof *out);
  if (loops == CMD_LOOPS_PORTABLE)
    return cmd_reduce_rows_portable(pixels, width, height, channels, target, out, err, errlen);
  return reduce_rows(pixels, width, height, channels, target, loops == CMD_LOOPS_FASTEST, out, err, errlen);
}
#endif

/* Where decoded rows go: a full copy (cmd_decode) or an area-averaging reducer.
 *
 * The reducer is plain portable C: each source row is summed per output column (the columns'
 * spans, weighted in 1/256 of a pixel), and those sums are added, weighted by the row's share,
 * into the output rows the source row touches; an output row is finished (rounded means) once
 * no later row can touch it. Rows that come out of order (an interlaced PNG's passes) keep
 * every output row open. The decoders give it rows already scaled down where the library can
 * (libjpeg's DCT scaling), so the reducer's work is a few adds a decoded pixel. */
#include "cmd_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

cmd_sink *cmd_sink_reducer(const cmd_target *target, const cmd_limits *limits) {
  cmd_sink *sink = calloc(1, sizeof *sink);
  if (sink == NULL) return NULL;
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
  free(sink);
}

int cmd_sink_is_full(const cmd_sink *sink) { return sink->full; }

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
  for (uint32_t j = from; j < sink->oh; j++) finish_row(sink, j);
  sink->next_emit = sink->oh;
  out->pixels = sink->out;
  out->byte_count = (size_t)sink->ow * sink->oh * 3;
  out->width = sink->ow;
  out->height = sink->oh;
  out->channels = 3;
  sink->out = NULL;
  return CMD_OK;
}

int cmd_reduce_rows(const uint8_t *pixels, uint32_t width, uint32_t height, uint32_t channels,
                    const cmd_target *target, cmd_image *out, char *err, size_t errlen) {
  if (pixels == NULL || target == NULL || out == NULL || width == 0 || height == 0 || target->width == 0 ||
      target->height == 0 || target->width > CMD_MAX_TARGET_SIDE || target->height > CMD_MAX_TARGET_SIDE) {
    cmd_set_error(err, errlen, "bad arguments");
    return CMD_ERR_ARGUMENT;
  }
  memset(out, 0, sizeof *out);
  cmd_limits limits;
  memset(&limits, 0, sizeof limits);
  cmd_sink *sink = cmd_sink_reducer(target, &limits);
  if (sink == NULL) {
    cmd_set_error(err, errlen, "no memory for the reducer");
    return CMD_ERR_NO_MEMORY;
  }
  int status = cmd_sink_begin(sink, width, height, channels, 1, err, errlen);
  for (uint32_t y = 0; status == CMD_OK && y < height; y++)
    cmd_sink_row(sink, y, 0, 1, pixels + (size_t)y * width * channels, width);
  if (status == CMD_OK) status = cmd_sink_finish(sink, out, err, errlen);
  cmd_sink_free(sink);
  return status;
}

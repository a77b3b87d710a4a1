/* The reducer once more without SSE2 (cmd_reduce_rows, for tests): the portable loops that
 * machines without SSE2 run are compiled on every machine, so the tests compare their pixels
 * with the SSE2 and AVX2 loops' here too (cmd_sink.c's AVX2 loops need __SSE2__, so this copy
 * has none). Every function of the sink gets a name of its own. */
#undef __SSE2__
#define CMD_SINK_PORTABLE 1
#define cmd_sink_full cmd_sink_portable_full
#define cmd_sink_reducer cmd_sink_portable_reducer
#define cmd_sink_free cmd_sink_portable_free
#define cmd_sink_is_full cmd_sink_portable_is_full
#define cmd_sink_avx2 cmd_sink_portable_avx2
#define cmd_sink_without_avx2 cmd_sink_portable_without_avx2
#define cmd_sink_need cmd_sink_portable_need
#define cmd_sink_begin cmd_sink_portable_begin
#define cmd_sink_rows cmd_sink_portable_rows
#define cmd_sink_columns cmd_sink_portable_columns
#define cmd_sink_row cmd_sink_portable_row
#define cmd_sink_finish cmd_sink_portable_finish
#include "cmd_sink.c"

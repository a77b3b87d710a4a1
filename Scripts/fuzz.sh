#!/usr/bin/env bash
# In-process fuzzing with libFuzzer (see README, "Fuzzing").
#
#   Scripts/fuzz.sh build                       build .build/fuzz/…/unterm-fuzz (ASan + libFuzzer)
#   Scripts/fuzz.sh TARGET [SECONDS] [OPTION…]  fuzz one target (default 60 s; 0 = until stopped)
#   Scripts/fuzz.sh all [SECONDS]               every target in turn, SECONDS each (CI: 30)
#   Scripts/fuzz.sh list                        the targets
#
# Seeds are read from Fuzz/corpus/TARGET (checked in, never written); what the fuzzer finds goes
# to .build/fuzz/corpus/TARGET, crashes to .build/fuzz/artifacts/. Exits non-zero on any crash,
# leak, timeout or out-of-memory. Each run appends "date target runs seconds" to
# .build/fuzz/stats.tsv. FUZZ_OPTIONS adds libFuzzer options to every run.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

scratch=.build/fuzz
configuration=${FUZZ_CONFIGURATION:-release}
# FUZZ_BINARY runs a copy elsewhere (a long run keeps its binary while the tree is rebuilt).
binary=${FUZZ_BINARY:-"$scratch/$configuration/unterm-fuzz"}

build() {
  # --sanitize fuzzer links libFuzzer; -sanitize=fuzzer on every Swift compile adds the coverage
  # instrumentation it steers by, and -fsanitize=fuzzer-no-link does the same for the C shim.
  swift build -c "$configuration" --product unterm-fuzz --scratch-path "$scratch" \
    --sanitize fuzzer --sanitize address \
    -Xswiftc -sanitize=fuzzer -Xswiftc -DUNTERM_LIBFUZZER -Xcc -fsanitize=fuzzer-no-link \
    2>&1 | grep -v 'warning: Cannot export local symbol' >&2
  [ -x "$binary" ] || { echo "fuzz.sh: the build did not produce $binary" >&2; exit 1; }
}

targets() { grep -o '^  case [a-z]*$' Sources/unterm-fuzz/FuzzTarget.swift | awk '{print $2}'; }

run() {
  local target=$1 seconds=$2
  shift 2
  [ -d "Fuzz/corpus/$target" ] || { echo "fuzz.sh: unknown target '$target'; targets: $(targets | xargs)" >&2; exit 2; }
  mkdir -p "$scratch/corpus/$target" "$scratch/artifacts"
  local dict
  case "$target" in
    payload | render | categories | descriptor | theme) dict=Fuzz/json.dict ;;
    *) dict="Fuzz/$target.dict" ;;
  esac
  local log="$scratch/$target.log"
  local start status=0
  start=$(date +%s)
  # libFuzzer reports crashes itself: the Swift runtime's backtracer would only slow it down.
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}" \
    "$binary" "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -print_final_stats=1 -artifact_prefix="$scratch/artifacts/$target-" -dict="$dict" ${FUZZ_OPTIONS:-} "$@" \
    "$scratch/corpus/$target" "Fuzz/corpus/$target" >"$log" 2>&1 || status=$?
  local runs elapsed
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  elapsed=$(($(date +%s) - start))
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ)	$target	${runs:-0}	$elapsed" >>"$scratch/stats.tsv"
  if [ "$status" -ne 0 ]; then
    echo "== $target: FAILED (exit $status) after ${runs:-?} runs; the end of $log:" >&2
    grep -v '^#[0-9]' "$log" | tail -40 >&2
    return 1
  fi
  total_runs=$((total_runs + ${runs:-0}))
  total_seconds=$((total_seconds + elapsed))
  echo "== $target: ${runs:-0} runs in ${elapsed}s, no crash, leak or timeout"
}

total_runs=0
total_seconds=0

command=${1:-}
case "$command" in
  build) build ;;
  list) targets ;;
  all)
    seconds=${2:-30}
    build
    failures=()
    for target in $(targets); do run "$target" "$seconds" || failures+=("$target"); done
    echo "== fuzz: $total_runs runs in ${total_seconds}s over $(targets | wc -l) targets;" \
      "${#failures[@]} failed${failures[*]:+ (${failures[*]})}"
    [ ${#failures[@]} -eq 0 ]
    ;;
  "" | -h | --help)
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
    ;;
  *)
    seconds=${2:-60}
    shift $(($# < 2 ? $# : 2))
    [ -x "$binary" ] || build
    run "$command" "$seconds" "$@"
    ;;
esac

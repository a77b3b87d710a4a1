#!/usr/bin/env bash
# Builds unterm, the floor program and the benchmark the way unterm is installed (statically, in
# release: Scripts/build-release.sh), then prints every figure of the performance goals beside its
# floor and goal, with a summary table at the end.
#
# Usage: Scripts/bench.sh [startup|images|store|list|sheet|watch|scripts] [COUNT ...]
# A release build takes several minutes on a small machine; the benchmark itself about one.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/build-release.sh unterm unterm-floor unterm-image-floor unterm-peak unterm-bench
exec .build/release/unterm-bench "$@"

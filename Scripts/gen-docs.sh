#!/usr/bin/env bash
# Writes the pages made from UNTerm's declarations: Docs/reference/*.md (options, keys, the
# session language, lint codes, exit codes) and README's picture, Docs/demo.svg, which
# `unterm run --svg` records from SamplePayloads/Scripts/demo-tour.session. A test fails when a
# checked-in page differs from what the code makes, so run this after changing a declaration.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product unterm >/dev/null
unterm=.build/debug/unterm
for topic in options keys script lint-codes exit-codes; do
  "$unterm" help reference "$topic" > "Docs/reference/$topic.md"
done
if [ -f SamplePayloads/Scripts/demo-tour.session ]; then
  "$unterm" run --svg Docs/demo.svg SamplePayloads/Scripts/demo-tour.session >/dev/null
fi
echo "wrote Docs/reference/*.md and Docs/demo.svg"

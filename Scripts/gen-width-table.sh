#!/usr/bin/env bash
# Regenerates Sources/UNTermRender/Text/DisplayWidth+Tables.swift from this machine's glibc
# wcwidth(), so UNTerm's column counts match ncurses and the terminal on the target platform.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
gcc -o "$tmp/wcwidth-dump" "$here/wcwidth-dump.c"
"$tmp/wcwidth-dump" > "$tmp/ranges.txt"
python3 - "$tmp/ranges.txt" "$here/../Sources/UNTermRender/Text/DisplayWidth+Tables.swift" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
def ranges(width):
    return [(int(a, 16), int(b, 16)) for w, a, b in rows if w == width]
def fmt(r):
    out, line = [], "   "
    for a, b in r:
        item = f" (0x{a:X}, 0x{b:X}),"
        if len(line) + len(item) > 98:
            out.append(line)
            line = "   "
        line += item
    out.append(line)
    return "\n".join(out)
src = f"""// Generated from glibc 2.36 wcwidth() in the C.UTF-8 locale (Debian 12), the table ncurses
// and tmux use on this platform, so the grid's column count matches what the terminal draws.
// Regenerate with Scripts/gen-width-table.sh when the platform's glibc changes.

extension DisplayWidth {{
  /// Code points glibc gives width 0 (combining marks, viramas, format characters).
  static let zeroWidthRanges: [(UInt32, UInt32)] = [
{fmt(ranges('0'))}
  ]

  /// Code points glibc gives width 2 (East Asian wide and fullwidth, emoji presentation).
  static let wideRanges: [(UInt32, UInt32)] = [
{fmt(ranges('2'))}
  ]

  /// Code points above U+009F glibc calls unprintable: unassigned in its Unicode version, so
  /// terminals disagree on their width; the sanitizer shows U+FFFD instead.
  static let unprintableRanges: [(UInt32, UInt32)] = [
{fmt(ranges('-1'))}
  ]
}}
"""
open(sys.argv[2], "w").write(src)
PY
rm -rf "$tmp"

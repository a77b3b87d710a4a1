#!/usr/bin/env bash
# Builds release products the way `unterm` is installed: the Swift runtime and Foundation linked
# in (--static-swift-stdlib), and the C libraries too (ncursesw, tinfo, libpng, zlib and
# libjpeg-turbo, from the static archives of Debian's -dev packages, which the image has), so a
# start loads only the C and C++ runtimes: each shared library costs a start about 0.1 ms of
# loading and symbol binding. libcurl and FriBidi stay out: they are opened the first time an
# http(s) attachment is downloaded or right-to-left text is laid out.
#
# Usage: Scripts/build-release.sh [PRODUCT ...]   (default: unterm; the binaries go to .build/release/)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

# SwiftPM links `-lpng16` and so on; a folder searched before the system's that holds only the
# static archives makes the linker take those.
libs=.build/static-libs
mkdir -p "$libs"
for name in ncursesw tinfo png16 z jpeg; do
  archive=$(clang -print-file-name="lib$name.a")
  if [ ! -f "$archive" ]; then
    echo "build-release.sh: lib$name.a not found (Debian: libncurses-dev, libpng-dev, zlib1g-dev, libjpeg62-turbo-dev)" >&2
    exit 1
  fi
  ln -sf "$archive" "$libs/lib$name.a"
done

# -disable-concrete-type-metadata-mangled-name-accessors: the compiler otherwise gets the type of
# a generic value such as `[GroupKey: Int32]` by its mangled name, and the runtime then checks
# each conformance the type needs (`GroupKey: Hashable`) by scanning every conformance record in
# the binary (Foundation's included: about 0.35 million instructions a type). With the flag it
# calls the type's metadata function with the conformances the compiler already knows: `unterm
# render` started with about a quarter fewer instructions.
products=("$@")
[ ${#products[@]} -eq 0 ] && products=(unterm)
for product in "${products[@]}"; do
  # The archives' own dependencies (ncursesw needs tinfo, libpng needs zlib) come after them.
  swift build -c release --product "$product" --static-swift-stdlib \
    -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
    -Xlinker -L"$PWD/$libs" -Xlinker -ltinfo -Xlinker -lz
done

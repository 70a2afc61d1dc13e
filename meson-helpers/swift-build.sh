#!/usr/bin/env bash
# Called by meson.build: builds a product with SwiftPM and copies the binary to OUTPUT.
#   swift-build.sh PACKAGE_ROOT debug|release|prebuilt SCRATCH_FOLDER PRODUCT OUTPUT [BIN_DIR]
#
# release:  a self-contained binary (Swift runtime linked in statically), built in SCRATCH_FOLDER
#           inside the meson build folder, so it never disturbs the development build.
# debug:    the development build in PACKAGE_ROOT/.build, shared with `swift build` and the tests
#           (the CI install check uses it, so it costs no extra compilation).
# prebuilt: the binary already built in BIN_DIR (meson-helpers/build-debs.sh builds it first).
set -euo pipefail
package_root=$(cd "$1" && pwd -P)  # one spelling of the path, so SwiftPM reuses its build
configuration=$2
scratch=$3
product=$4
output=$5

if [ "$configuration" = prebuilt ]; then
  cp "$6/$product" "$output"
  exit 0
fi
arguments=(--package-path "$package_root" -c "$configuration")
if [ "$configuration" = release ]; then
  arguments+=(--scratch-path "$scratch" --static-swift-stdlib)
fi
swift build "${arguments[@]}" --product "$product"
cp "$(swift build "${arguments[@]}" --show-bin-path)/$product" "$output"

#!/usr/bin/env bash
# Called by meson.build: builds the quire product with SwiftPM and copies the binary to OUTPUT.
#   swift-build.sh PACKAGE_ROOT debug|release OUTPUT
set -euo pipefail
package_root=$1
configuration=$2
output=$3
swift build --package-path "$package_root" -c "$configuration" --product quire
cp "$(swift build --package-path "$package_root" -c "$configuration" --show-bin-path)/quire" "$output"

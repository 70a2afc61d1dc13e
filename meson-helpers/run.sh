#!/usr/bin/env bash
# README's first command: installs the Debian packages Quire needs (if missing), builds Quire in
# release mode and starts it. Arguments are passed on to quire (`run.sh --help`, a verb, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
. meson-helpers/packages.sh
ensure_packages "${APP_PACKAGES[@]}"

swift build -c release --product quire

# An uninstalled Quire finds its GSettings schema (window size) through GSETTINGS_SCHEMA_DIR;
# the installed one finds it under the prefix.
schemas=.build/schemas
mkdir -p "$schemas"
glib-compile-schemas --strict --targetdir "$schemas" data
export GSETTINGS_SCHEMA_DIR="$PWD/$schemas${GSETTINGS_SCHEMA_DIR:+:$GSETTINGS_SCHEMA_DIR}"

exec .build/release/quire "$@"

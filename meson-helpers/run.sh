#!/usr/bin/env bash
# README's first command: installs the Debian packages Quire needs (if missing), builds Quire in
# release mode and starts it. Arguments are passed on to quire (`run.sh --help`, a verb, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
. meson-helpers/packages.sh
ensure_swift
ensure_packages "${APP_PACKAGES[@]}"

swift build -c release --product quire

# An uninstalled Quire finds its GSettings schema (window size) through GSETTINGS_SCHEMA_DIR;
# the installed one finds it under the prefix.
schemas=.build/schemas
mkdir -p "$schemas"
glib-compile-schemas --strict --targetdir "$schemas" data
export GSETTINGS_SCHEMA_DIR="$PWD/$schemas${GSETTINGS_SCHEMA_DIR:+:$GSETTINGS_SCHEMA_DIR}"

# Its translations, likewise: compiled into .build/locale, found through QUIRE_LOCALE_DIR.
meson-helpers/compile-translations.sh .build/locale
export QUIRE_LOCALE_DIR="$PWD/.build/locale"

# A newcomer's first start: without a library yet, make one with demo articles to look at. The path
# is the one Quire uses by default (XDG_DATA_HOME when set to an absolute path, else ~/.local/share).
data_home="${XDG_DATA_HOME:-}"
[[ "$data_home" == /* ]] || data_home="$HOME/.local/share"
if [ $# -eq 0 ] && [ ! -e "$data_home/quire/library.quire" ]; then
  .build/release/quire demo --articles 200
fi

exec .build/release/quire "$@"

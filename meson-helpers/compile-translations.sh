#!/usr/bin/env bash
# Compiles po/LANG.po for every language of po/LINGUAS into OUT_DIR/LANG/LC_MESSAGES/quire.mo, the
# layout of an installed locale folder, for a Quire run uninstalled: `QUIRE_LOCALE_DIR=OUT_DIR`
# points it there (run.sh and the tests do; the installed quire finds PREFIX/share/locale itself).
#   compile-translations.sh OUT_DIR
set -euo pipefail
out=$1
cd "$(dirname "$0")/.."
for language in $(cat po/LINGUAS); do
  mkdir -p "$out/$language/LC_MESSAGES"
  msgfmt --check --output-file="$out/$language/LC_MESSAGES/quire.mo" "po/$language.po"
done

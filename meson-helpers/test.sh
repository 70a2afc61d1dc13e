#!/usr/bin/env bash
# README's test command: installs what the tests need on Debian 12, builds, runs the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
. meson-helpers/packages.sh
ensure_packages "${APP_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
ensure_packages_without_starting "${SERVICE_TEST_PACKAGES[@]}"

# A real PostgreSQL on loopback for the server's storage tests.
QUIRE_TEST_POSTGRES_URL=$(meson-helpers/start-postgres.sh)
export QUIRE_TEST_POSTGRES_URL

swift build --build-tests

# meson setup + meson install into a staging folder; the installed quire must run from there.
meson-helpers/install-check.sh debug

# The Debian packages: built, checked with lintian, installed here, served and synced, removed.
if [ "$(id -u)" -eq 0 ]; then
  meson-helpers/deb-check.sh
else
  echo "deb check: SKIPPED (installing packages needs root; the README's test command runs as root)"
fi

# GTK tests need a display and a session bus; the settings below keep them deterministic.
# Swift Testing runs one test at a time: with every test at once (and even eight), runs on two
# cores sometimes stalled for good with all threads idle and unrelated tests waiting; one at a time
# never did, and the whole suite still takes under two minutes.
exec xvfb-run -a -s "-screen 0 1280x1024x24" dbus-run-session -- \
  env SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=1 GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1 GSETTINGS_BACKEND=memory \
  swift test --skip-build

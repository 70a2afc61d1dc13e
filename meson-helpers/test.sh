#!/usr/bin/env bash
# README's test command: installs what the tests need on Debian 12, builds, runs the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
. meson-helpers/packages.sh
ensure_swift
ensure_packages "${APP_PACKAGES[@]}" "${TEST_PACKAGES[@]}"

# A real PostgreSQL on loopback for the server's storage tests.
QUIRE_TEST_POSTGRES_URL=$(meson-helpers/start-postgres.sh)
export QUIRE_TEST_POSTGRES_URL

swift build --build-tests

# meson setup + meson install into a staging folder; the installed quire must run from there.
meson-helpers/install-check.sh debug

# Every benchmark suite once at a small size: each must finish and print a valid report.
meson-helpers/bench-smoke.sh .build/debug

exec meson-helpers/suite.sh

#!/usr/bin/env bash
# Runs the whole test suite once, as the test command does after building: XCTest (the GTK tests,
# which must run on the main thread) and Swift Testing, under Xvfb with a private session bus.
# Needs `swift build --build-tests` done and QUIRE_TEST_POSTGRES_URL set (start-postgres.sh).
# Ends with the tests that were skipped, counted, so that none is skipped unnoticed.
set -euo pipefail
cd "$(dirname "$0")/.."

output=$(mktemp)
# Data, settings and caches of their own: no test may read or write the user's own library.
xdg=$(mktemp -d)
trap 'rm -rf "$output" "$xdg"' EXIT

# The settings keep GTK deterministic under Xvfb. Swift Testing runs two tests per core at once:
# its default starts every test together, and on two cores the tests that wait (for a server, a
# child process, a condition within its deadline) then starved one another (seven failed in a
# run); two per core keeps the cores busy while one test waits. A suite whose tests cannot share
# the machine with each other says so with .serialized.
status=0
xvfb-run -a -s "-screen 0 1600x1200x24" dbus-run-session -- \
  env GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1 GSETTINGS_BACKEND=memory \
  XDG_DATA_HOME="$xdg/data" XDG_CONFIG_HOME="$xdg/config" XDG_CACHE_HOME="$xdg/cache" \
  SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="$((2 * $(nproc)))" \
  swift test --skip-build 2>&1 | tee "$output" || status=$?

# Swift Testing prints `➜ Test NAME skipped: "why"`, XCTest `NAME : Test skipped - why`. Entry
# points that run only inside a child process a test starts (or as a tool) say so in their reason.
skipped=$(grep -E -a '^➜ Test .* skipped|: Test skipped - ' "$output" || true)
entry_points=$(grep -c -a 'entry point of ' <<<"$skipped" || true)
others=$(grep -v -a 'entry point of ' <<<"$skipped" | sed '/^$/d' || true)
echo "Skipped: $(grep -c . <<<"$others" || true) tests, besides $entry_points entry points of child processes and tools (they run only when started)."
[ -z "$others" ] || sed 's/^/  /' <<<"$others"
exit "$status"

#!/usr/bin/env bash
# Hunts flaky tests: builds, then runs the whole suite (suite.sh, as the test command runs it)
# K times while stress-ng keeps every core busy, and lists every test that failed at least once,
# in how many runs, with its first failure. Exits 1 if any run failed.
#   flake-hunt.sh [K]     K runs (5 by default); the logs stay in .build/flake-hunt/
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
. meson-helpers/packages.sh
ensure_swift
ensure_packages "${APP_PACKAGES[@]}" "${TEST_PACKAGES[@]}" "${FLAKE_HUNT_PACKAGES[@]}"

QUIRE_TEST_POSTGRES_URL=$(meson-helpers/start-postgres.sh)
export QUIRE_TEST_POSTGRES_URL
swift build --build-tests

logs=.build/flake-hunt
rm -rf "$logs"
mkdir -p "$logs"

# One CPU hog per core for the whole hunt, stopped however the hunt ends (and by its own
# timeout should this script be killed outright).
stress-ng --cpu "$(nproc)" --quiet --timeout "$((runs * 3600))s" &
stress=$!
trap 'kill "$stress" 2>/dev/null || true; wait "$stress" 2>/dev/null || true' EXIT

echo "Flake hunt: $runs runs of the whole suite, stress-ng on $(nproc) cores; logs in $logs"
for run in $(seq 1 "$runs"); do
  start=$(date +%s)
  status=0
  # A run that hangs is stopped (timeout signals the run's whole process group) and reported.
  timeout --kill-after=30s 20m meson-helpers/suite.sh >"$logs/run-$run.log" 2>&1 || status=$?
  seconds=$(($(date +%s) - start))
  echo "$run $seconds $status" >>"$logs/runs"
  echo "run $run of $runs: $seconds s, exit status $status"
done

python3 meson-helpers/flake-report.py "$logs"

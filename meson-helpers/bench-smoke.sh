#!/usr/bin/env bash
# Runs every quire-bench suite once at a small size and checks that each prints one valid JSON
# report (DESIGN.md's shape), so that no suite can rot unnoticed. Times are not judged here: the
# debug build on a loaded CI machine says nothing about speed. Usage: bench-smoke.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
bench="${1:-.build/debug}/quire-bench"
[ -x "$bench" ] || { echo "bench-smoke: $bench is not built (swift build --build-tests builds it)" >&2; exit 1; }

# suite and the --rows that keeps it to seconds
suites=(
  "objectgraph 2000"
  "frc 2000"
  "server 200"
  "export 40"
  "migrate 300"
  "sync 200"
  "app-start 300"
  "editor 300"
  "tags 2000"
  "ux 300"
  "spelling 500"
  "attachments 6"
)
for entry in "${suites[@]}"; do
  read -r suite rows <<<"$entry"
  started=$SECONDS
  report=$("$bench" "$suite" --rows "$rows" --json) || { echo "bench-smoke: $suite failed" >&2; exit 1; }
  python3 - "$suite" "$rows" "$report" <<'PY'
import json, math, sys
suite, rows, text = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = [line for line in text.splitlines() if line.strip()]
assert len(lines) == 1, f"{suite}: expected exactly one line of JSON, got {len(lines)}"
report = json.loads(lines[0])
assert report["suite"] == suite and report["rows"] == rows, f"{suite}: wrong suite or rows in {report}"
results = report["results"]
assert results, f"{suite}: no results"
names = [result["name"] for result in results]
assert len(names) == len(set(names)), f"{suite}: a result name repeats: {names}"
# What one step adds, as the median difference of paired runs with and without it, comes out
# below zero when the step costs less than the runs' noise: still a measurement, not an error.
differences = ("version_record_",)
for result in results:
    assert isinstance(result["value"], (int, float)) and math.isfinite(result["value"]), result
    assert result["value"] >= 0 or result["name"].startswith(differences), result
    assert result["unit"] in ("ms", "s", "MB", "per_s"), result
    if "baseline" in result:
        assert math.isfinite(result["baseline_value"]) and result["baseline_value"] > 0, result
        # Each figure is printed to six significant digits, the ratio from the exact figures.
        assert math.isclose(result["ratio"], result["value"] / result["baseline_value"], rel_tol=1e-4), result
    # The median of the rounds' ratios, for figures measured in alternation with their baseline.
    if "paired_ratio" in result:
        assert "baseline" in result and math.isfinite(result["paired_ratio"]) and result["paired_ratio"] > 0, result
PY
  echo "bench-smoke: $suite ok ($((SECONDS - started)) s): $(python3 -c 'import json,sys; print(", ".join(r["name"] for r in json.loads(sys.argv[1])["results"]))' "$report")"
done

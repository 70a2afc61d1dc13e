#!/usr/bin/env python3
"""Reads the logs of a flake hunt (flake-hunt.sh) and tells, per run, how long it took and what
failed, then every test that failed at least once with its first failure. Exits 1 if any run
failed. A run that ended badly without a failing test (a crash, a hang stopped by the timeout)
is reported as such, with the tests it had started and not finished."""

import re
import sys
from pathlib import Path

# XCTest: `/path/File.swift:12: error: Class.testName : message`
XCTEST_ISSUE = re.compile(r"^\S*:\d+: error: (\S+) : (.*)$")
XCTEST_FAILED = re.compile(r"^Test Case '(\S+)' failed")
XCTEST_STARTED = re.compile(r"^Test Case '(\S+)' started")
XCTEST_ENDED = re.compile(r"^Test Case '(\S+)' (passed|failed|skipped)")
# Swift Testing: `✘ Test name() recorded an issue [with N arguments ...] at File.swift:3:5: message`
SWIFT_ISSUE = re.compile(r"^✘ Test (.+?) recorded an issue(?: with .*?)? at (\S+?):\d+:\d+: (.*)$")
SWIFT_FAILED = re.compile(r"^✘ Test (?!run with )(.+?) failed after ")
SWIFT_STARTED = re.compile(r"^◇ Test (.+?) started\.$")
SWIFT_ENDED = re.compile(r"^(?:✔|✘|➜) Test (?!run with )(.+?) (?:passed|failed|skipped)")
STATUS_MEANING = {124: "stopped by the timeout (a hang)", 137: "killed after the timeout (a hang)"}


def read_run(log: Path):
    """The failing tests of one run (name -> first message), and the tests left unfinished."""
    failures: dict[str, str] = {}
    started: dict[str, None] = {}
    ended: set[str] = set()
    lines = log.read_text(errors="replace").splitlines()
    for line in lines:
        if m := XCTEST_ISSUE.match(line):
            failures.setdefault(m[1], m[2])
        elif m := XCTEST_FAILED.match(line):
            failures.setdefault(m[1], "(no message)")
        elif m := SWIFT_ISSUE.match(line):
            failures.setdefault(f"{m[2]}: {m[1]}", m[3])
        elif m := SWIFT_FAILED.match(line):
            if not any(name.endswith(": " + m[1]) for name in failures):
                failures.setdefault(m[1], "(no message)")
        if m := XCTEST_STARTED.match(line) or SWIFT_STARTED.match(line):
            started[m[1]] = None
        if m := XCTEST_ENDED.match(line) or SWIFT_ENDED.match(line):
            ended.add(m[1])
    unfinished = [name for name in started if name not in ended]
    return failures, unfinished, lines


def main() -> int:
    folder = Path(sys.argv[1])
    runs = [line.split() for line in (folder / "runs").read_text().splitlines() if line.strip()]
    seen: dict[str, list] = {}
    print(f"\n{'run':>4} {'seconds':>8} {'status':>7}  failed tests")
    for number, seconds, status in runs:
        failures, unfinished, lines = read_run(folder / f"run-{number}.log")
        status = int(status)
        if status != 0 and not failures:
            what = STATUS_MEANING.get(status, f"ended with status {status} without a failing test")
            last = [line for line in lines if line.strip()][-3:]
            failures[f"(the run itself: {what})"] = (
                f"unfinished tests: {', '.join(unfinished) or 'none'}; last lines: {' | '.join(last)}")
        for name, message in failures.items():
            seen.setdefault(name, []).append((number, message))
        print(f"{number:>4} {seconds:>8} {status:>7}  {', '.join(failures) or '-'}")
    if not seen:
        print(f"\nNo test failed in {len(runs)} runs.")
        return 0
    print("\nTests that failed at least once:")
    for name, occurrences in sorted(seen.items(), key=lambda item: -len(item[1])):
        first_run, message = occurrences[0]
        print(f"  {name}: {len(occurrences)} of {len(runs)} runs")
        print(f"    first, in run {first_run}: {message[:600]}")
    return 1


if __name__ == "__main__":
    sys.exit(main())

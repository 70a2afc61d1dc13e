import Foundation

/// One measured figure of a suite, in the shape DESIGN.md fixes for every `quire-bench` suite.
struct BenchmarkResult: Encodable, Sendable {
    /// The name the issue that asked for the figure gave it, such as `fetch_materialized`.
    var name: String
    /// `ms`, `s`, `MB` or `per_s`.
    var unit: String
    var value: Double
    /// What `value` is compared with, measured in the same run (`raw_sqlite`, for example).
    var baseline: String?
    var baselineValue: Double?
    /// For a figure measured in alternation with its baseline, round by round: the median of the
    /// rounds' own ratios (each round's figure over the baseline's in the same round).
    ///
    /// A slow stretch of a shared machine (another build, the disk writing back) swells both
    /// sides of the rounds it falls on and leaves their ratios nearly as they were, while it moves
    /// each side's median on its own. In three runs of `objectgraph` at 100,000 rows on a busy
    /// machine, `insert_save`'s ratio of medians read 1.46, 1.34 and 1.30, its paired ratio 1.28,
    /// 1.33 and 1.32.
    var pairedRatio: Double?

    var ratio: Double? {
        guard let baselineValue, baselineValue != 0 else { return nil }
        return value / baselineValue
    }

    init(name: String, unit: String, value: Double, baseline: String? = nil, baselineValue: Double? = nil) {
        self.name = name
        self.unit = unit
        self.value = value
        self.baseline = baseline
        self.baselineValue = baselineValue
    }

    /// A figure measured in alternation with its baseline (``measureAlternating``): the medians of
    /// both sides' samples, and the median of the rounds' ratios.
    init(name: String, unit: String, samples: [Double], baseline: String, baselineSamples: [Double]) {
        precondition(samples.count == baselineSamples.count, "one sample of each side per round")
        self.init(name: name, unit: unit, value: median(samples), baseline: baseline, baselineValue: median(baselineSamples))
        if !baselineSamples.contains(0) {
            pairedRatio = median(zip(samples, baselineSamples).map { $0 / $1 })
        }
    }

    private enum CodingKeys: String, CodingKey {
        case name, unit, value, baseline, baselineValue = "baseline_value", ratio, pairedRatio = "paired_ratio"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(unit, forKey: .unit)
        try container.encode(value.roundedToSignificantDigits, forKey: .value)
        try container.encodeIfPresent(baseline, forKey: .baseline)
        try container.encodeIfPresent(baselineValue?.roundedToSignificantDigits, forKey: .baselineValue)
        try container.encodeIfPresent(ratio?.roundedToSignificantDigits, forKey: .ratio)
        try container.encodeIfPresent(pairedRatio?.roundedToSignificantDigits, forKey: .pairedRatio)
    }
}

/// Everything one suite measured in one run.
struct SuiteReport: Encodable, Sendable {
    var suite: String
    var rows: Int
    var results: [BenchmarkResult]

    /// Exactly one JSON object, as `--json` promises.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// A table for people reading a terminal.
    func table() -> String {
        var lines = ["\(suite) (rows: \(rows))"]
        // The paired ratio's column only for suites that measure in alternation.
        let showsPairedRatio = results.contains { $0.pairedRatio != nil }
        let header = ["name", "value", "unit", "baseline", "baseline value", "ratio"] + (showsPairedRatio ? ["paired ratio"] : [])
        var rowsText = results.map { result in
            [result.name, format(result.value), result.unit, result.baseline ?? "",
             result.baselineValue.map(format) ?? "", result.ratio.map(formatRatio) ?? ""]
                + (showsPairedRatio ? [result.pairedRatio.map(formatRatio) ?? ""] : [])
        }
        rowsText.insert(header, at: 0)
        let widths = header.indices.map { column in rowsText.map { $0[column].count }.max() ?? 0 }
        for row in rowsText {
            lines.append(zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  "))
        }
        return lines.joined(separator: "\n")
    }

    private func format(_ value: Double) -> String { String(format: "%.3f", value) }

    /// Four significant digits: a change against a refetch is a ratio near 0.001.
    private func formatRatio(_ ratio: Double) -> String { String(format: "%.4g", ratio) }
}

/// Options every suite understands.
struct BenchmarkOptions: Sendable {
    var rows: Int
    /// Timed repetitions after the warm-up; the reported value is their median. At least five.
    var repetitions: Int = 5
    /// A scratch folder the suite may fill; removed after the run.
    var workDirectory: URL
}

/// A group of measurements run by `quire-bench NAME`.
protocol BenchmarkSuite {
    static var name: String { get }
    static var summary: String { get }
    static var defaultRows: Int { get }
    static func run(_ options: BenchmarkOptions) async throws -> [BenchmarkResult]
}

/// Measures `body` once to warm up and then `repetitions` times, and returns the median in milliseconds.
///
/// `setUp` runs before each repetition, untimed, and hands its value to `body`:
///
///     let ms = try measureMilliseconds(repetitions: 5, setUp: { try makeEmptyStore() }) { store in
///         try insertRows(into: store)
///     }
func measureMilliseconds<Fixture>(
    repetitions: Int, setUp: () throws -> Fixture, _ body: (Fixture) throws -> Void
) rethrows -> Double {
    precondition(repetitions >= 5, "DESIGN.md asks for the median of at least five repetitions")
    var samples: [Double] = []
    for run in 0...repetitions {
        let fixture = try setUp()
        let elapsed = try timeMilliseconds { try body(fixture) }
        if run > 0 { samples.append(elapsed) }
    }
    return median(samples)
}

/// The median of `repetitions` runs of `body` after one warm-up, where `body` times itself and
/// returns milliseconds: for work interleaved with untimed steps too small to be set-ups of their
/// own (emptying a context before each of many quick fetches, say).
func medianOfSelfTimed(repetitions: Int, _ body: () throws -> Double) rethrows -> Double {
    precondition(repetitions >= 5, "DESIGN.md asks for the median of at least five repetitions")
    var samples: [Double] = []
    for run in 0...repetitions {
        let elapsed = try body()
        if run > 0 { samples.append(elapsed) }
    }
    return median(samples)
}

/// Milliseconds `body` takes once.
@inline(__always)
func timeMilliseconds(_ body: () throws -> Void) rethrows -> Double {
    let marked = TimedBlockMarks.timedBlockStarts()
    let start = BenchmarkClock.nanoseconds()
    try body()
    let elapsed = BenchmarkClock.milliseconds(since: start)
    TimedBlockMarks.timedBlockEnds(startedAt: marked)
    return elapsed
}

/// The asynchronous form of `timeMilliseconds`, run in the caller's isolation; `processorTime`
/// picks the clock.
@inline(__always)
func timeMilliseconds(
    processorTime: Bool = BenchmarkClock.measuresProcessorTime, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Void
) async rethrows -> Double {
    let marked = TimedBlockMarks.timedBlockStarts()
    let start = BenchmarkClock.nanoseconds(processorTime: processorTime)
    try await body()
    let elapsed = BenchmarkClock.milliseconds(since: start, processorTime: processorTime)
    TimedBlockMarks.timedBlockEnds(startedAt: marked)
    return elapsed
}

/// `measureMilliseconds` for work that needs no per-repetition set-up.
func measureMilliseconds(repetitions: Int, _ body: () throws -> Void) rethrows -> Double {
    try measureMilliseconds(repetitions: repetitions, setUp: {}, body)
}

/// Measures two pieces of work in alternation after one warm-up of each, and returns the
/// milliseconds of each side, round by round: both then run with the disk and the page cache in
/// the same state, which measuring one after the other does not give, and a round's two samples
/// meet the same load. Which side goes first changes from round to round (first, second; second,
/// first; ...): the side that runs second in a round pays for the other's writes and frees, and
/// with a fixed order the same side always did (raw SQLite's 100,000-row insert against itself, in
/// the place of `batch_insert`: a median paired ratio of 1.07 over eight runs, 1.03 with the order
/// changing). An odd number of repetitions is rounded up, so that each side goes first in as many
/// rounds as the other: with five, the second side went first three times, and where going second
/// cost more (`batch_insert` in one profiled run here: 0.95-0.99 in the rounds the batch insert
/// went first, 1.24-1.30 in those it went second) the median favoured it. Either side may await
/// (an export); both run in the caller's isolation. `processorTime` reads both on the processor
/// clock whatever `QUIRE_BENCH_CLOCK` says.
func measureAlternating<First, Second>(
    repetitions: Int, processorTime: Bool = BenchmarkClock.measuresProcessorTime,
    setUpFirst: () throws -> First, first: (First) async throws -> Void,
    setUpSecond: () throws -> Second, second: (Second) async throws -> Void,
    isolation: isolated (any Actor)? = #isolation
) async throws -> ([Double], [Double]) {
    precondition(repetitions >= 5, "DESIGN.md asks for the median of at least five repetitions")
    var firstSamples: [Double] = []
    var secondSamples: [Double] = []
    func measureFirst() async throws -> Double {
        let fixture = try setUpFirst()
        return try await timeMilliseconds(processorTime: processorTime) { try await first(fixture) }
    }
    func measureSecond() async throws -> Double {
        let fixture = try setUpSecond()
        return try await timeMilliseconds(processorTime: processorTime) { try await second(fixture) }
    }
    for run in 0...(repetitions + repetitions % 2) {
        let firstTime: Double
        let secondTime: Double
        if run % 2 == 0 {
            firstTime = try await measureFirst()
            secondTime = try await measureSecond()
        } else {
            secondTime = try await measureSecond()
            firstTime = try await measureFirst()
        }
        if run > 0 {
            firstSamples.append(firstTime)
            secondSamples.append(secondTime)
        }
    }
    return (firstSamples, secondSamples)
}

/// The one output of a benchmark kept on disk at a time: each set-up names the next and removes
/// the last, untimed, so that the disk never holds two and neither side of an alternation finds
/// the other's files.
final class LatestOutput {
    private var url: URL?

    /// Removes the last output and returns `next`, which becomes the last.
    func replace(with next: URL) throws -> URL {
        try remove()
        url = next
        return next
    }

    /// Removes the last output, if any.
    func remove() throws {
        if let url { try FileManager.default.removeItem(at: url) }
        url = nil
    }
}

/// The asynchronous form of `measureMilliseconds`, for suites that talk to a server.
func measureMilliseconds<Fixture>(
    repetitions: Int, setUp: () async throws -> Fixture, _ body: (Fixture) async throws -> Void
) async rethrows -> Double {
    precondition(repetitions >= 5, "DESIGN.md asks for the median of at least five repetitions")
    var samples: [Double] = []
    for run in 0...repetitions {
        let fixture = try await setUp()
        let elapsed = try await timeMilliseconds { try await body(fixture) }
        if run > 0 { samples.append(elapsed) }
    }
    return median(samples)
}

/// The clock every timed figure is read on: wall-clock time, or with `QUIRE_BENCH_CLOCK=processor`
/// the processor time of the whole process (every thread), which a busy machine's wait for a core
/// or for its disk does not swell. Compare builds under load on processor time; the writer waits
/// wall-clock time.
enum BenchmarkClock {
    /// Whether figures are processor time (`QUIRE_BENCH_CLOCK=processor`).
    static let measuresProcessorTime = ProcessInfo.processInfo.environment["QUIRE_BENCH_CLOCK"] == "processor"

    /// Now, in nanoseconds, on the chosen clock (processor time when `processorTime`).
    @inline(__always)
    static func nanoseconds(processorTime: Bool = measuresProcessorTime) -> Int64 {
        processorTime ? processorNanoseconds() : Int64(DispatchTime.now().uptimeNanoseconds)
    }

    /// Milliseconds on the chosen clock since `start` (a value of ``nanoseconds(processorTime:)``
    /// on the same clock).
    @inline(__always)
    static func milliseconds(since start: Int64, processorTime: Bool = measuresProcessorTime) -> Double {
        Double(nanoseconds(processorTime: processorTime) - start) / 1_000_000
    }

    /// The processor time of every thread of the process so far.
    static func processorNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}

/// Where each timed block starts and ends, so that a profile can be cut to the timed work: with
/// `QUIRE_BENCH_MARKS_FILE=PATH`, each block appends a line `timed START END` to the file PATH, in
/// seconds on `CLOCK_MONOTONIC`, the clock `perf record -k CLOCK_MONOTONIC` stamps its samples
/// with. The lines come in the order the suite times its blocks, the warm-up of each figure first.
/// (A count of instructions would not move with the load, but this machine's virtual processor
/// has no counters for `perf stat -e instructions`, and valgrind stops with an internal error in
/// the suites that run Swift's asynchronous main.)
enum TimedBlockMarks {
    /// `QUIRE_BENCH_MARKS_FILE` opened for appending, or -1 when the variable is not set. A file
    /// that cannot be opened stops the run: a profile cut to no blocks would read as no work.
    private static let descriptor: Int32 = {
        guard let path = ProcessInfo.processInfo.environment["QUIRE_BENCH_MARKS_FILE"] else { return -1 }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard descriptor >= 0 else { fail("cannot open QUIRE_BENCH_MARKS_FILE \(path): \(String(cString: strerror(errno)))") }
        return descriptor
    }()

    /// Called before a block's clock starts; returns what `timedBlockEnds` writes as its start.
    static func timedBlockStarts() -> Double {
        descriptor < 0 ? 0 : monotonicSeconds()
    }

    /// Called after a block's clock stopped.
    static func timedBlockEnds(startedAt start: Double) {
        guard descriptor >= 0 else { return }
        let line = "timed \(start) \(monotonicSeconds())\n"
        _ = line.withCString { write(descriptor, $0, strlen($0)) }
    }

    private static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }
}

func median(_ samples: [Double]) -> Double {
    precondition(!samples.isEmpty)
    let sorted = samples.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Memory figures of this process from `/proc/self/status`, in megabytes.
enum ProcessMemory {
    /// The resident set size now (`VmRSS`).
    static func residentMegabytes() -> Double { statusField("VmRSS:") }
    /// The peak resident set size so far (`VmHWM`).
    static func peakResidentMegabytes() -> Double { statusField("VmHWM:") }

    private static func statusField(_ field: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return .nan }
        return kilobytes / 1024
    }
}

extension Double {
    /// Six significant digits: enough for any figure here, from a fraction of a millisecond to
    /// thousands per second, without printing binary noise.
    fileprivate var roundedToSignificantDigits: Double {
        Double(String(format: "%.6g", self)) ?? self
    }
}

import Foundation
import Library

/// The app as a writer meets it, the real `quire` binary under Xvfb:
/// - `first_frame_100k`: from starting the process to the main window's first frame, over a
///   library of `--rows` articles (100,000 by default), against `first_frame_empty` over an empty
///   library (target: at most 1.5×);
/// - `typing_max_stall`: the longest main-thread stall (ms) while a writer types a new article in
///   that library in bursts, with the autosave running in every pause (target: under 16 ms).
///
/// Needs `quire` built beside `quire-bench` (`swift build -c release --product quire`), `Xvfb` and
/// `xdotool`; a display of its own is started when `DISPLAY` is not set.
enum AppStartSuite: BenchmarkSuite {
    static let name = "app-start"
    static let summary = "quire's first frame over a large library, and main-thread stalls while typing"
    static let defaultRows = 100_000

    static func run(_ options: BenchmarkOptions) async throws -> [BenchmarkResult] {
        let quire = try AppDriver.quireExecutable()
        let display = try DisplayServer()
        defer { display.stop() }
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display.name
        environment["GSK_RENDERER"] = "cairo"
        environment["GTK_A11Y"] = "none"
        environment["NO_AT_BRIDGE"] = "1"
        environment["GSETTINGS_BACKEND"] = "memory"
        // No session bus: every start is an instance of its own.
        environment["DBUS_SESSION_BUS_ADDRESS"] = "disabled:"

        let empty = options.workDirectory.appendingPathComponent("empty.quire")
        let full = options.workDirectory.appendingPathComponent("full.quire")
        _ = try Library(url: empty)
        let library = try Library(url: full)
        try await library.addDemoArticles(count: options.rows, batchSize: 5000)

        var launch = environment
        launch["QUIRE_REPORT_FIRST_FRAME"] = "1"
        // A warm-up start of each, so both read a file in the page cache.
        for library in [empty, full] { try startToFirstFrame(quire, library: library, environment: launch).waitForExit(timeout: 60) }
        let emptyFrame = try timeToFirstFrame(quire, library: empty, environment: launch, repetitions: options.repetitions)
        let fullFrame = try timeToFirstFrame(quire, library: full, environment: launch, repetitions: options.repetitions)

        var typing = environment
        typing["QUIRE_REPORT_STALLS"] = "1"
        var stalls: [Double] = []
        for _ in 0..<options.repetitions { stalls.append(try longestStallWhileTyping(quire, library: full, environment: typing)) }
        stalls.sort()

        return [
            BenchmarkResult(name: "first_frame_empty", unit: "ms", value: emptyFrame),
            BenchmarkResult(
                name: "first_frame_100k", unit: "ms", value: fullFrame, baseline: "first_frame_empty", baselineValue: emptyFrame),
            BenchmarkResult(name: "typing_max_stall", unit: "ms", value: stalls[stalls.count / 2]),
        ]
    }

    /// The median time from starting `quire` to its `first-frame` line. The time it takes to
    /// close its window and end is left out: each start waits for the previous one to end first.
    private static func timeToFirstFrame(_ quire: URL, library: URL, environment: [String: String], repetitions: Int) throws -> Double {
        var ending: ChildProcess?
        let time = try measureMilliseconds(repetitions: repetitions, setUp: {
            try ending?.waitForExit(timeout: 60)
            ending = nil
        }) {
            ending = try startToFirstFrame(quire, library: library, environment: environment)
        }
        try ending?.waitForExit(timeout: 60)
        return time
    }

    /// Starts `quire` and returns once it has printed `first-frame`.
    private static func startToFirstFrame(_ quire: URL, library: URL, environment: [String: String]) throws -> ChildProcess {
        let process = try ChildProcess(
            quire.path, arguments: ["--library", library.path], environment: environment, capturesOutput: true, capturesErrors: true)
        try process.readOutput(until: "first-frame\n", timeout: 60)
        return process
    }

    /// Starts `quire`, creates an article and types into it in three bursts of about a second,
    /// each followed by a pause in which the autosave runs; returns the longest stall the app
    /// measured from the first keystroke on.
    private static func longestStallWhileTyping(_ quire: URL, library: URL, environment: [String: String]) throws -> Double {
        let process = try ChildProcess(
            quire.path, arguments: ["--library", library.path], environment: environment, capturesOutput: true, capturesErrors: true)
        let window = try AppDriver.mainWindow(of: process, environment: environment)
        try AppDriver.xdotool(["windowfocus", "--sync", window], environment: environment)
        try AppDriver.xdotool(["key", "ctrl+n"], environment: environment)
        try AppDriver.xdotool(["type", "--delay", "25", "Typing in a large library"], environment: environment)
        try AppDriver.xdotool(["key", "Return"], environment: environment)
        Thread.sleep(forTimeInterval: 1.5)
        // Measure from here: the start-up is first_frame's business.
        kill(process.identifier, SIGUSR1)
        for burst in 0..<3 {
            try AppDriver.xdotool(["type", "--delay", "25", "Burst \(burst): the quick brown fox jumps over the lazy dog. "], environment: environment)
            Thread.sleep(forTimeInterval: 1.5)
        }
        try AppDriver.xdotool(["key", "ctrl+q"], environment: environment)
        let text = try process.readOutput(timeout: 60)
        let status = try process.waitForExit(timeout: 30)
        guard status == 0, let line = text.split(separator: "\n").first(where: { $0.hasPrefix("max-stall-ms ") }),
              let value = Double(line.dropFirst("max-stall-ms ".count)) else { throw AppStartError.noStallReport(status: status, text) }
        return value
    }
}

/// An X server for the suite: the one in `DISPLAY`, or an `Xvfb` started on a free display number.
struct DisplayServer {
    let name: String
    private let process: ChildProcess?

    init() throws {
        if let display = ProcessInfo.processInfo.environment["DISPLAY"], !display.isEmpty {
            name = display
            process = nil
            return
        }
        // Xvfb picks a free display number itself and writes it on its standard output once it
        // accepts connections (-displayfd): choosing the number here by looking for lock files
        // raced with other X servers starting at the same moment (another suite run's).
        let xvfb = try ChildProcess(
            "/usr/bin/Xvfb", arguments: ["-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            environment: ProcessInfo.processInfo.environment, capturesOutput: true)
        let announced = try? xvfb.readOutput(until: "\n", timeout: 10)
        guard let number = announced.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
            xvfb.terminate()
            throw AppStartError.noDisplay
        }
        name = ":\(number)"
        process = xvfb
    }

    /// Ends the `Xvfb` this started, if any.
    func stop() {
        process?.terminate()
    }
}

enum AppStartError: Error, CustomStringConvertible {
    case missing(String)
    case noDisplay
    case noStallReport(status: Int32, String)
    case tool(String, Int32)

    var description: String {
        switch self {
        case .missing(let path): "\(path) is missing: build it with swift build -c release --product quire"
        case .noDisplay: "Xvfb started no display"
        case .noStallReport(let status, let output): "quire (exit status \(status)) printed no stall measurement: \(output)"
        case .tool(let command, let status): "\(command) exited with \(status)"
        }
    }
}

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
        let quire = try quireExecutable()
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
        _ = try timeToFirstFrame(quire, library: empty, environment: launch)
        _ = try timeToFirstFrame(quire, library: full, environment: launch)
        let emptyFrame = try measureMilliseconds(repetitions: options.repetitions) {
            _ = try timeToFirstFrame(quire, library: empty, environment: launch)
        }
        let fullFrame = try measureMilliseconds(repetitions: options.repetitions) {
            _ = try timeToFirstFrame(quire, library: full, environment: launch)
        }

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

    /// `quire` beside this program.
    private static func quireExecutable() throws -> URL {
        let me = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let quire = me.deletingLastPathComponent().appendingPathComponent("quire")
        guard FileManager.default.isExecutableFile(atPath: quire.path) else { throw AppStartError.missing(quire.path) }
        return quire
    }

    /// Starts `quire`, waits for the `first-frame` line and for the process to end.
    private static func timeToFirstFrame(_ quire: URL, library: URL, environment: [String: String]) throws -> Double {
        let process = Process()
        process.executableURL = quire
        process.arguments = ["--library", library.path]
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard text.contains("first-frame") else { throw AppStartError.noFirstFrame(status: process.terminationStatus) }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }

    /// Starts `quire`, creates an article and types into it in three bursts of about a second,
    /// each followed by a pause in which the autosave runs; returns the longest stall the app
    /// measured from the first keystroke on.
    private static func longestStallWhileTyping(_ quire: URL, library: URL, environment: [String: String]) throws -> Double {
        let process = Process()
        process.executableURL = quire
        process.arguments = ["--library", library.path]
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let window = try xdotool(["search", "--sync", "--onlyvisible", "--name", "^Quire$"], environment: environment)
            .split(separator: "\n").last.map(String.init) ?? ""
        _ = try xdotool(["windowfocus", "--sync", window], environment: environment)
        _ = try xdotool(["key", "ctrl+n"], environment: environment)
        _ = try xdotool(["type", "--delay", "25", "Typing in a large library"], environment: environment)
        _ = try xdotool(["key", "Return"], environment: environment)
        Thread.sleep(forTimeInterval: 1.5)
        // Measure from here: the start-up is first_frame's business.
        kill(process.processIdentifier, SIGUSR1)
        for burst in 0..<3 {
            _ = try xdotool(
                ["type", "--delay", "25", "Burst \(burst): the quick brown fox jumps over the lazy dog. "], environment: environment)
            Thread.sleep(forTimeInterval: 1.5)
        }
        _ = try xdotool(["key", "ctrl+q"], environment: environment)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("max-stall-ms ") }),
              let value = Double(line.dropFirst("max-stall-ms ".count)) else { throw AppStartError.noStallReport(text) }
        return value
    }

    private static func xdotool(_ arguments: [String], environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw AppStartError.tool("xdotool " + arguments.joined(separator: " "), process.terminationStatus) }
        return text
    }
}

/// An X server for the suite: the one in `DISPLAY`, or an `Xvfb` started on a free display number.
struct DisplayServer {
    let name: String
    private let process: Process?

    init() throws {
        if let display = ProcessInfo.processInfo.environment["DISPLAY"], !display.isEmpty {
            name = display
            process = nil
            return
        }
        guard let number = (90..<140).first(where: { !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") }) else {
            throw AppStartError.noDisplay
        }
        let xvfb = Process()
        xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        xvfb.arguments = [":\(number)", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"]
        xvfb.standardError = FileHandle.nullDevice
        try xvfb.run()
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") {
            Thread.sleep(forTimeInterval: 0.05)
        }
        name = ":\(number)"
        process = xvfb
    }

    func stop() {
        process?.terminate()
        process?.waitUntilExit()
    }
}

enum AppStartError: Error, CustomStringConvertible {
    case missing(String)
    case noDisplay
    case noFirstFrame(status: Int32)
    case noStallReport(String)
    case tool(String, Int32)

    var description: String {
        switch self {
        case .missing(let path): "\(path) is missing: build it with swift build -c release --product quire"
        case .noDisplay: "no free X display number for Xvfb"
        case .noFirstFrame(let status): "quire ended (status \(status)) without reporting its first frame"
        case .noStallReport(let output): "quire printed no stall measurement: \(output)"
        case .tool(let command, let status): "\(command) exited with \(status)"
        }
    }
}

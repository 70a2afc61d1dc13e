import Foundation
import Library

/// The app as a writer meets it, the real `quire` binary under Xvfb, on its real start path
/// (sync worker started, recovered drafts looked for):
/// - `first_rows_100k`: from starting the process to the first frame that shows the article
///   list's first screen of rows, over a library of `--rows` articles (100,000 by default),
///   against `first_rows_empty` over an empty library (target: at most 1.3×);
/// - `typing_max_stall`: the longest main-thread stall (ms) while a writer types a new article in
///   that library in bursts, with the autosave running in every pause (target: under 16 ms);
/// - `typing_max_stall_150k_words`: the same while typing into a book-length article of 150,000
///   words (target: under 16 ms, like the short article);
/// - `typing_max_main_cpu_ms` and `typing_max_main_cpu_ms_150k_words`: for the same runs, the
///   most CPU time the main thread spent between two turns of its loop (``TypingStall``): the
///   app's own work in a stall, which the machine's load does not change.
/// Every run checks afterwards that the library holds exactly what was typed.
///
/// Needs `quire` built beside `quire-bench` (`swift build -c release --product quire`), `Xvfb` and
/// `xdotool`; a display of its own is started when `DISPLAY` is not set.
enum AppStartSuite: BenchmarkSuite {
    static let name = "app-start"
    static let summary = "quire's first rows over a large library, and main-thread stalls while typing"
    static let defaultRows = 100_000

    static func run(_ options: BenchmarkOptions) async throws -> [BenchmarkResult] {
        let quire = try AppDriver.quireExecutable()
        let display = try DisplayServer()
        defer { display.stop() }
        let environment = try AppDriver.sessionEnvironment(display: display.name, in: options.workDirectory, showsPreview: false)

        let empty = options.workDirectory.appendingPathComponent("empty.quire")
        let full = options.workDirectory.appendingPathComponent("full.quire")
        _ = try Library(url: empty)
        let library = try Library(url: full)
        try await library.addDemoArticles(count: options.rows, batchSize: 5000)
        // The newest article, at the top of the list.
        let book = try await library.createArticle(ArticleContent(title: "A book", body: EditorSuite.longArticle(words: 150_000)))

        var launch = environment
        launch["QUIRE_REPORT_FIRST_ROWS"] = "1"
        // A warm-up start of each, so both read a file in the page cache. The two are measured
        // one after the other, not in alternation: an empty library's start right after a full
        // one's took longer (median 412 against 364 ms, same build, 100,000 rows; the ratio read
        // 1.01 against 1.23), which would flatter the full library against a slower baseline.
        for library in [empty, full] { try startToFirstRows(quire, library: library, environment: launch).waitForExit(timeout: 60) }
        let emptyRows = try timeToFirstRows(quire, library: empty, environment: launch, repetitions: options.repetitions)
        let fullRows = try timeToFirstRows(quire, library: full, environment: launch, repetitions: options.repetitions)

        var typing = environment
        typing["QUIRE_REPORT_STALLS"] = "1"
        typing["QUIRE_REPORT_FELT_SPEED"] = "1"
        // The book first: each run's saves keep it the newest article, at the top of the list,
        // where a new article would push it down.
        var bookStalls: [TypingStall] = []
        for run in 0..<options.repetitions {
            bookStalls.append(try await longestStallWhileTypingInto(book.id, quire, library: library, run: run, environment: typing))
        }
        var stalls: [TypingStall] = []
        for run in 0..<options.repetitions {
            stalls.append(try await longestStallWhileTypingANewArticle(quire, library: library, run: run, environment: typing))
        }
        library.close()

        return [
            BenchmarkResult(name: "first_rows_empty", unit: "ms", value: emptyRows),
            BenchmarkResult(
                name: "first_rows_100k", unit: "ms", value: fullRows, baseline: "first_rows_empty", baselineValue: emptyRows),
            BenchmarkResult(name: "typing_max_stall", unit: "ms", value: median(stalls.map(\.wall))),
            BenchmarkResult(name: "typing_max_stall_150k_words", unit: "ms", value: median(bookStalls.map(\.wall))),
            BenchmarkResult(name: "typing_max_main_cpu_ms", unit: "ms", value: median(stalls.map(\.mainCPU))),
            BenchmarkResult(name: "typing_max_main_cpu_ms_150k_words", unit: "ms", value: median(bookStalls.map(\.mainCPU))),
        ]
    }

    /// The median time from starting `quire` to its `first-rows` line. The time it takes to
    /// close its window and end is left out: each start waits for the previous one to end first.
    private static func timeToFirstRows(_ quire: URL, library: URL, environment: [String: String], repetitions: Int) throws -> Double {
        var ending: ChildProcess?
        let time = try measureMilliseconds(repetitions: repetitions, setUp: {
            try ending?.waitForExit(timeout: 60)
            ending = nil
        }) {
            ending = try startToFirstRows(quire, library: library, environment: environment)
        }
        try ending?.waitForExit(timeout: 60)
        return time
    }

    /// Starts `quire` and returns once it has printed `first-rows`.
    private static func startToFirstRows(_ quire: URL, library: URL, environment: [String: String]) throws -> ChildProcess {
        let process = try ChildProcess(
            quire.path, arguments: ["--library", library.path], environment: environment, capturesOutput: true, capturesErrors: true)
        try process.readOutput(until: "first-rows\n", timeout: 60)
        return process
    }

    /// Starts `quire`, creates an article and types into it in three bursts of about a second,
    /// each followed by a pause in which the autosave runs; returns the longest stall the app
    /// measured from the first burst on, once the library holds the article as typed.
    private static func longestStallWhileTypingANewArticle(
        _ quire: URL, library: Library, run: Int, environment: [String: String]
    ) async throws -> TypingStall {
        let title = "Typing in a large library \(run)"
        let bursts = (0..<3).map { "Burst \($0): the quick brown fox jumps over the lazy dog. " }
        let stall = try typeInApp(quire, library: library.url, environment: environment, bursts: bursts) { _, _ in
            try AppDriver.xdotool(["key", "ctrl+n"], environment: environment)
            try AppDriver.xdotool(["type", "--delay", "25", title], environment: environment)
            try AppDriver.xdotool(["key", "Return"], environment: environment)
            Thread.sleep(forTimeInterval: 1.5)
        }
        var query = ArticleQuery()
        query.searchText = "typing large library"
        let typed = try await library.articles(matching: query).filter { $0.title == title }
        guard typed.count == 1, try await library.article(typed[0].id).body == bursts.joined() else {
            throw AppStartError.textLost("a new article titled “\(title)”")
        }
        return stall
    }

    /// Starts `quire`, opens the article `id` (the top row of the list), clicks into its text
    /// and types three bursts there as above; returns the longest stall, once the article holds
    /// the typed text (the spelling suite types into its long article the same way).
    static func longestStallWhileTypingInto(
        _ id: UUID, _ quire: URL, library: Library, run: Int, environment: [String: String]
    ) async throws -> TypingStall {
        let before = try await library.article(id).body
        let bursts = (0..<3).map { "Burst \($0) of run \(run) in the book. " }
        let stall = try typeInApp(quire, library: library.url, environment: environment, bursts: bursts) { window, process in
            _ = try AppDriver.openRow(0, of: window, in: process, report: "article-shown-ms ", environment: environment)
            // Highlighting a long text runs in idle time after it is shown: not typing's cost.
            Thread.sleep(forTimeInterval: 3)
            try AppDriver.xdotool(["mousemove", "--window", window, "700", "400", "click", "1"], environment: environment)
            Thread.sleep(forTimeInterval: 0.5)
        }
        let after = try await library.article(id).body
        guard after.contains(bursts.joined()), after.utf8.count == before.utf8.count + bursts.joined().utf8.count else {
            throw AppStartError.textLost("the long article \(id)")
        }
        return stall
    }

    /// Starts `quire`, runs `prepare` with its window, restarts the stall measurement, types
    /// `bursts` each followed by a pause of 1.5 s (the autosave runs after one second), quits
    /// and returns the longest stall the app reported.
    private static func typeInApp(
        _ quire: URL, library: URL, environment: [String: String], bursts: [String],
        prepare: (String, ChildProcess) throws -> Void
    ) throws -> TypingStall {
        let (process, window) = try AppDriver.start(quire, library: library, environment: environment)
        defer { if (try? process.waitForExit(timeout: 30)) == nil { process.terminate() } }
        try prepare(window, process)
        // Measure from here: the start-up is first_rows' business.
        kill(process.identifier, SIGUSR1)
        for burst in bursts {
            try AppDriver.xdotool(["type", "--delay", "25", burst], environment: environment)
            Thread.sleep(forTimeInterval: 1.5)
        }
        try AppDriver.xdotool(["key", "ctrl+q"], environment: environment)
        let text = try process.readOutput(timeout: 60)
        let status = try process.waitForExit(timeout: 30)
        return try TypingStall(reportedBy: text, status: status)
    }
}

/// What `QUIRE_REPORT_STALLS=1` makes the app report when it quits: its main thread's longest
/// stall (wall-clock time between two turns of its main loop) and its longest CPU burst (the
/// thread's own CPU time between two turns). On a loaded machine the first is mostly time spent
/// waiting for a core; the second is the app's own work, which is what a change to the app moves.
struct TypingStall {
    /// `max-stall-ms`.
    var wall: Double
    /// `max-main-cpu-ms`.
    var mainCPU: Double

    /// Reads both from the app's output; throws when it printed neither or failed.
    init(reportedBy output: String, status: Int32) throws {
        guard status == 0, let wall = AppDriver.lines("max-stall-ms ", in: output).last,
              let mainCPU = AppDriver.lines("max-main-cpu-ms ", in: output).last
        else { throw AppStartError.noStallReport(status: status, output) }
        self.wall = wall
        self.mainCPU = mainCPU
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
    case textLost(String)
    case tool(String, Int32)

    var description: String {
        switch self {
        case .missing(let path): "\(path) is missing: build it with swift build -c release --product quire"
        case .noDisplay: "Xvfb started no display"
        case .noStallReport(let status, let output): "quire (exit status \(status)) printed no stall measurement: \(output)"
        case .textLost(let article): "the library does not hold what was typed into \(article)"
        case .tool(let command, let status): "\(command) exited with \(status)"
        }
    }
}

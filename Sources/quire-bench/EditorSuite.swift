import Foundation
import Library

/// The writing surface as a writer meets it, the real `quire` binary under Xvfb with the preview
/// beside the text (a 1280-pixel window):
/// - `open_article_ms`: from clicking an article in the list of a library of `--rows` articles
///   (100,000 by default) until its text and its preview are on screen (the app measures from
///   the selection to the preview's next frame): median, and `open_article_max_ms`, the slowest;
/// - `preview_update_ms`: from the last keystroke of a burst of typing in a 5,000-word article
///   until the preview shows it (target: at most 150 ms at the median);
/// - `typing_max_stall`: the longest main-thread stall while typing there with the preview
///   visible (target: under 16 ms), median over the runs, and `typing_max_main_cpu_ms`, the
///   longest main-thread CPU burst of the same runs (``TypingStall``).
///
/// Each of `--repetitions` runs starts `quire`, opens eight articles, then types six bursts into
/// the long one. Needs `quire` built beside `quire-bench`, `Xvfb` and `xdotool`.
enum EditorSuite: BenchmarkSuite {
    static let name = "editor"
    static let summary = "opening an article, the live preview's updates and stalls while typing beside it"
    static let defaultRows = 100_000

    static func run(_ options: BenchmarkOptions) async throws -> [BenchmarkResult] {
        let quire = try AppDriver.quireExecutable()
        let display = try DisplayServer()
        defer { display.stop() }
        var environment = try AppDriver.sessionEnvironment(display: display.name, in: options.workDirectory, showsPreview: true)
        environment["QUIRE_REPORT_PREVIEW"] = "1"
        environment["QUIRE_REPORT_STALLS"] = "1"

        let url = options.workDirectory.appendingPathComponent("library.quire")
        let library = try Library(url: url)
        try await library.addDemoArticles(count: options.rows, batchSize: 5000)
        // The newest article, at the top of the list.
        _ = try await library.createArticle(ArticleContent(title: "A long article", body: longArticle(words: 5000)))

        var opens: [Double] = []
        var updates: [Double] = []
        var stalls: [TypingStall] = []
        for _ in 0..<options.repetitions {
            let run = try session(quire, library: url, environment: environment)
            opens += run.opens
            updates += run.updates
            stalls.append(run.stall)
        }
        return [
            BenchmarkResult(name: "open_article_ms", unit: "ms", value: median(opens)),
            BenchmarkResult(name: "open_article_max_ms", unit: "ms", value: opens.max() ?? 0),
            BenchmarkResult(name: "preview_update_ms", unit: "ms", value: median(updates)),
            BenchmarkResult(name: "typing_max_stall", unit: "ms", value: median(stalls.map(\.wall))),
            BenchmarkResult(name: "typing_max_main_cpu_ms", unit: "ms", value: median(stalls.map(\.mainCPU))),
        ]
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// One run of the app: eight articles opened by a click each, then six bursts of typing in
    /// the long article, then quit.
    private static func session(
        _ quire: URL, library: URL, environment: [String: String]
    ) throws -> (opens: [Double], updates: [Double], stall: TypingStall) {
        let (process, window) = try AppDriver.start(quire, library: library, environment: environment)
        defer { if (try? process.waitForExit(timeout: 30)) == nil { process.terminate() } }
        let openRow = { (row: Int) throws -> String in
            try AppDriver.openRow(row, of: window, in: process, report: "open-article-ms ", environment: environment)
        }

        var opens: [Double] = []
        // Rows 1 to 9 are demo articles; the first open warms the web process up.
        for row in 1...9 {
            let text = try openRow(row)
            if row > 1 { opens.append(AppDriver.lines("open-article-ms ", in: text).last ?? 0) }
        }

        // The long article, then a click in its text (the left half of the editor pane).
        _ = try openRow(0)
        try AppDriver.xdotool(["mousemove", "--window", window, "700", "400", "click", "1"], environment: environment)
        kill(process.identifier, SIGUSR1)
        var updates: [Double] = []
        for burst in 0..<6 {
            let shown = AppDriver.lines("preview-update-ms ", in: process.text).count
            try AppDriver.xdotool(["type", "--delay", "40", "tide \(burst) "], environment: environment)
            let text = try process.readOutput(timeout: 60) { AppDriver.lines("preview-update-ms ", in: $0).count > shown }
            updates.append(AppDriver.lines("preview-update-ms ", in: text).last ?? 0)
            Thread.sleep(forTimeInterval: 0.3)
        }
        // The autosave after the pause, as a writer's pause would have it, before quitting.
        Thread.sleep(forTimeInterval: 1.5)
        try AppDriver.xdotool(["key", "ctrl+q"], environment: environment)
        let text = try process.readOutput(timeout: 60)
        let status = try process.waitForExit(timeout: 30)
        return (opens, updates, try TypingStall(reportedBy: text, status: status))
    }

    /// A Markdown article of about `words` words: headings, paragraphs, a list and a table in turn.
    static func longArticle(words: Int) -> String {
        let sentence = "The tide came in early and the boats sat high against the harbour wall while the gulls argued."
        let perSection = 18 * 3 + 12
        var sections: [String] = []
        for index in 0..<max(1, words / perSection) {
            sections.append("""
                ## Section \(index + 1)

                \(sentence) \(sentence) \(sentence)

                - Check the charts for section \(index + 1)
                - Call the harbour master

                | Port | High water |
                |------|-----------:|
                | Brest | 06:\(10 + index % 50) |

                """)
        }
        return sections.joined(separator: "\n")
    }
}

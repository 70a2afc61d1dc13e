import CSQLite
import Foundation
import Library
import Transfer

/// `quire-bench export`: every export format of a demo library of N articles (10,000 by default),
/// read from the store a batch at a time as the app and `quire export` do. Each format reports its
/// time (the median of the repetitions) and the process's peak resident memory while it ran. The
/// baseline of the times is reading the same articles' rows with the SQLite C API, the least any
/// export must do; that of the memory figures is the resident size before the export.
enum ExportSuite: BenchmarkSuite {
    static let name = "export"
    static let summary = "Markdown, HTML, PDF and JSON exports of a demo library from the store"
    static let defaultRows = 10_000

    static func run(_ options: BenchmarkOptions) async throws -> [BenchmarkResult] {
        let url = options.workDirectory.appendingPathComponent("library.quire")
        let library = try Library(url: url)
        try await library.addDemoArticles(count: options.rows)
        // Every article, trashed ones included, so that each export covers all N.
        let everything = try await library.articles(matching: ArticleQuery()).map(\.id)
            + (try await library.articles(matching: ArticleQuery(filter: .trash)).map(\.id))
        let source = try await library.exportSource(for: .selected(everything))
        guard try await source.articleCount() == options.rows else {
            throw BenchmarkFailure.wrongCount(try await source.articleCount())
        }

        let rawRead = try measureMilliseconds(repetitions: options.repetitions) {
            let count = try readRows(url)
            guard count == options.rows else { throw BenchmarkFailure.wrongCount(count) }
        }

        let suffix = options.rows == 10_000 ? "10k" : "\(options.rows)"
        let formats: [(String, ExportFormat, String)] = [
            ("md", .markdown, ""),
            ("html", .html(.filePerArticle), ""),
            ("pdf", .pdf(.filePerArticle, paper: .a4), ""),
            ("json", .jsonArchive(try await library.archiveOptions()), ".json"),
        ]
        var results: [BenchmarkResult] = []
        for (name, format, fileExtension) in formats {
            var run = 0
            var destination: URL?
            try resetPeakMemory()
            let before = ProcessMemory.residentMegabytes()
            let milliseconds = try await measureMilliseconds(repetitions: options.repetitions, setUp: { () -> URL in
                // The previous repetition's files go first, untimed, so the disk never holds more than one.
                if let destination { try FileManager.default.removeItem(at: destination) }
                run += 1
                let next = options.workDirectory.appendingPathComponent("\(name)-\(run)\(fileExtension)")
                destination = next
                return next
            }) { destination in
                let result = try await ExportJob(format: format, destination: destination).run(from: source)
                guard result.articleCount == options.rows else { throw BenchmarkFailure.wrongCount(result.articleCount) }
            }
            if let destination { try FileManager.default.removeItem(at: destination) }
            results.append(BenchmarkResult(
                name: "export_\(name)_\(suffix)", unit: "s", value: milliseconds / 1000, baseline: "raw_sqlite_read",
                baselineValue: rawRead / 1000))
            results.append(BenchmarkResult(
                name: "export_\(name)_\(suffix)_rss", unit: "MB", value: ProcessMemory.peakResidentMegabytes(),
                baseline: "rss_before", baselineValue: before))
        }
        return results
    }

    /// Reads every article's exported columns with the C API, as the floor an export cannot beat.
    private static func readRows(_ url: URL) throws -> Int {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            sqlite3_close(handle)
            throw ExportBenchmarkError.sqlite("cannot open \(url.path)")
        }
        defer { sqlite3_close(handle) }
        var statement: OpaquePointer?
        let sql = "SELECT id, title, body, status, favorite, created, updated, trashed, folder FROM Article"
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw ExportBenchmarkError.sqlite(String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        var count = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            // Reading the text is what costs; the values are not kept.
            _ = sqlite3_column_text(statement, 1)
            _ = sqlite3_column_text(statement, 2)
            count += 1
        }
        return count
    }

    /// Resets the process's peak resident size (VmHWM), so that each export's peak is its own.
    private static func resetPeakMemory() throws {
        // Hand freed heap back first, so that an earlier phase's garbage cannot stand in for growth.
        typealias MallocTrim = @convention(c) (Int) -> Int32
        if let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(trim, to: MallocTrim.self)(0)
        }
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }
}

/// A failure of the export benchmark's own SQLite reads.
enum ExportBenchmarkError: Error {
    case sqlite(String)
}


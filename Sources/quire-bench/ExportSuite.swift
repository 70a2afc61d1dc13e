import CSQLite
import Foundation
import Library
import Transfer

/// `quire-bench export`: every export format of a demo library of N articles (10,000 by default),
/// read from the store a batch at a time as the app and `quire export` do. Each format reports its
/// time (the median of the repetitions) and the process's peak resident memory while it ran.
///
/// The baseline of the times, `raw_read_and_write`, is the least an export of the same shape does,
/// in alternation with it, repetition by repetition, each side first in every other round: the
/// same articles' rows read with the SQLite C API, and each body written as it is into the files
/// the format makes, with the same guarantees (``RawExportFiles``: a file per article, or one file
/// for JSON). The ratio is what the export adds: front matter, rendering, layout or encoding,
/// names from titles, batches read through the library. (Until 2026-12-03 the baseline was the
/// reading alone, which made the ratios 140–3,100 and showed nothing of the files.) The memory
/// figures' baseline is the resident size before the export.
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

        let suffix = options.rows == 10_000 ? "10k" : "\(options.rows)"
        let formats: [(String, ExportFormat, String, RawExportFiles.Shape)] = [
            ("md", .markdown, "", .filesWithAssets),
            ("html", .html(.filePerArticle), "", .filesWithAssets),
            ("pdf", .pdf(.filePerArticle, paper: .a4), "", .filesHoldingImages),
            ("json", .jsonArchive(try await library.archiveOptions()), ".json", .oneFile),
        ]
        var results: [BenchmarkResult] = []
        for (name, format, fileExtension, shape) in formats {
            try resetPeakMemory()
            let before = ProcessMemory.residentMegabytes()
            let output = LatestOutput()
            let (rawTimes, exportTimes) = try await measureAlternating(
                repetitions: options.repetitions,
                setUpFirst: { try output.replace(with: options.workDirectory.appendingPathComponent("raw-\(name)\(fileExtension)")) },
                first: { raw in
                    let count = try writeRaw(from: url, shape, to: raw)
                    guard count == options.rows else { throw BenchmarkFailure.wrongCount(count) }
                },
                setUpSecond: { try output.replace(with: options.workDirectory.appendingPathComponent("\(name)\(fileExtension)")) },
                second: { destination in
                    let result = try await ExportJob(format: format, destination: destination).run(from: source)
                    guard result.articleCount == options.rows else { throw BenchmarkFailure.wrongCount(result.articleCount) }
                })
            try output.remove()
            let rawSamples = rawTimes.map { $0 / 1000 }
            let exportSamples = exportTimes.map { $0 / 1000 }
            results.append(BenchmarkResult(
                name: "export_\(name)_\(suffix)", unit: "s", samples: exportSamples, baseline: "raw_read_and_write",
                baselineSamples: rawSamples))
            results.append(BenchmarkResult(
                name: "export_\(name)_\(suffix)_rss", unit: "MB", value: ProcessMemory.peakResidentMegabytes(),
                baseline: "rss_before", baselineValue: before))
        }
        return results
    }

    /// Reads every article's exported columns with the C API and writes each body into the files
    /// of `shape` at `destination`; returns how many articles it wrote.
    private static func writeRaw(from url: URL, _ shape: RawExportFiles.Shape, to destination: URL) throws -> Int {
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
        let files = try RawExportFiles(shape, destination: destination)
        var count = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            // The title is read, as every export reads it; the body is what goes into the files.
            _ = sqlite3_column_text(statement, 1)
            let body = sqlite3_column_text(statement, 2)
            try files.add(text: UnsafeRawBufferPointer(start: body, count: Int(sqlite3_column_bytes(statement, 2))))
            count += 1
        }
        try files.commit()
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


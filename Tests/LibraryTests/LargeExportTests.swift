import Foundation
import Testing
@testable import Library
@testable import Transfer
import QuireTestSupport

/// A source that makes articles on demand, as a store would fetch them, so that the test itself
/// holds no more than a batch.
struct SyntheticSource: ArticleSource {
    let count: Int
    let bodyBytes: Int

    func articleCount() async throws -> Int { count }

    func articles(in range: Range<Int>) async throws -> [ArticleSnapshot] {
        range.map { index in
            let paragraph = "Paragraph of article \(index) with *some* emphasis and a [link](https://example.com/\(index)).\n\n"
            let body = "# Article \(index)\n\n" + String(repeating: paragraph, count: max(1, bodyBytes / paragraph.utf8.count))
            return ArticleSnapshot(
                id: UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, UInt8(index >> 24 & 0xFF), UInt8(index >> 16 & 0xFF), UInt8(index >> 8 & 0xFF), UInt8(index & 0xFF))),
                title: "Article \(index % 2000)", body: body, folder: "Folder \(index % 10)", tags: ["tag \(index % 7)"],
                created: Date(timeIntervalSince1970: 1_600_000_000 + Double(index)), updated: Date(timeIntervalSince1970: 1_700_000_000))
        }
    }
}

/// Peak resident memory of this process, which the tests reset before a job and read after it.
enum PeakMemory {
    /// Returns freed heap to the system (so that memory an earlier test freed cannot hide growth),
    /// then resets the peak (VmHWM) to the current resident size.
    static func reset() throws {
        typealias MallocTrim = @convention(c) (Int) -> Int32
        if let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(trim, to: MallocTrim.self)(0)
        }
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// The peak resident size since the last reset, in bytes.
    static func peak() throws -> Int { try field("VmHWM") }

    /// The current resident size, in bytes.
    static func current() throws -> Int { try field("VmRSS") }

    private static func field(_ name: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(name + ":") })
        let kilobytes = try #require(Int(line.split(separator: " ")[1]))
        return kilobytes * 1024
    }
}

/// Ten thousand articles: progress, cancellation, bounded memory. Serialized so that one heavy test
/// does not inflate another's memory reading.
@Suite(.serialized) struct LargeExportTests {
    static let count = 10_000
    /// 16 KB bodies: 160 MB of text in all, far more than the bound below, so an exporter that held
    /// on to articles or rendered files could not pass.
    static let bodyBytes = 16_384
    static let memoryBound = 64 << 20

    /// Set in the child process that runs ``memoryProbe(format:)`` alone.
    static let probeVariable = "QUIRE_LIBRARY_MEMORY_PROBE"
    static var isProbe: Bool { ProcessInfo.processInfo.environment[probeVariable] != nil }

    /// Peak memory is a property of the whole process, and other suites run in parallel with this
    /// one; so the measuring test runs in a test process of its own, which runs nothing else.
    @Test(.enabled(if: !isProbe)) func tenThousandArticlesExportInBoundedMemory() throws {
        let (status, output) = try TestBinary.run(
            filter: "LargeExportTests/memoryProbe", environment: [Self.probeVariable: "1"])
        #expect(status == 0, "the memory probe failed:\n\(output)")
        #expect(output.contains("memoryProbe(format:) with 2 test cases passed"), "the probe did not run:\n\(output)")
    }

    @Test(.enabled(if: isProbe, "entry point of the child process that tenThousandArticlesExportInBoundedMemory measures"), arguments: [ExportFormat.markdown, .jsonArchive(.init(schemaVersion: 1))])
    func memoryProbe(format: ExportFormat) async throws {
        let folder = try TemporaryFolder()
        let destination = format.writesFilePerArticle ? folder.appending("export") : folder.appending("library.json")
        let recorder = ProgressRecorder()
        let source = SyntheticSource(count: Self.count, bodyBytes: Self.bodyBytes)
        try PeakMemory.reset()
        let before = try PeakMemory.current()
        let result = try await ExportJob(format: format, destination: destination, batchSize: 100)
            .run(from: source) { recorder.record($0) }
        let growth = try PeakMemory.peak() - before
        #expect(growth < Self.memoryBound, "peak resident memory grew by \(growth >> 20) MB")

        #expect(result.articleCount == Self.count)
        let progress = recorder.values
        #expect(progress.count == Self.count + 1)
        #expect(progress.map(\.completed) == Array(0...Self.count))
        #expect(progress.allSatisfy { $0.total == Self.count })
        if format.writesFilePerArticle {
            #expect(result.files.count == Self.count)
            #expect(try FileManager.default.contentsOfDirectory(atPath: destination.path).count == Self.count)
            let sample = try String(contentsOf: destination.appendingPathComponent("Article 1999 5.md"), encoding: .utf8)
            #expect(sample.contains("# Article 9999"))
        } else {
            let archive = try LibraryArchive.read(from: Data(contentsOf: destination), path: destination.path)
            #expect(archive.articles.count == Self.count)
            #expect(archive.folders.count == 10 && archive.tags.count == 7)
        }
    }

    @Test func cancellingAOneFilePerArticleExportLeavesNoFiles() async throws {
        let folder = try TemporaryFolder()
        try "unrelated".write(to: folder.appending("mine.txt"), atomically: true, encoding: .utf8)
        let recorder = ProgressRecorder()
        let job = ExportJob(format: .html(.filePerArticle), destination: folder.url)
        let outcome = await Self.runCancelling(job, source: SyntheticSource(count: Self.count, bodyBytes: 512), at: Self.count / 2) {
            recorder.record($0)
        }
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(recorder.values.last?.completed == Self.count / 2)
        // The files written before the cancel are gone too: only what was there before remains.
        #expect(try folder.contents() == ["mine.txt"])
    }

    @Test func cancellingACombinedExportLeavesNoFile() async throws {
        let folder = try TemporaryFolder()
        for format in [ExportFormat.pdf(.combined(title: "All"), paper: .a4), .html(.combined(title: "All")),
                       .jsonArchive(.init(schemaVersion: 1))] {
            let job = ExportJob(format: format, destination: folder.appending("combined"))
            let outcome = await Self.runCancelling(job, source: SyntheticSource(count: 300, bodyBytes: 256), at: 250)
            #expect(throws: CancellationError.self) { try outcome.get() }
        }
        #expect(try folder.contents().isEmpty)
    }

    /// Runs `job` in a task of its own and cancels that task, as the dialog's Cancel button would,
    /// when progress reaches `step`.
    private static func runCancelling(
        _ job: ExportJob, source: some ArticleSource, at step: Int,
        progress: @escaping @Sendable (ExportProgress) -> Void = { _ in }
    ) async -> Result<ExportResult, any Error> {
        let task = Task {
            try await job.run(from: source) { value in
                progress(value)
                // The progress callback runs in the job's task, so this cancels exactly that task.
                if value.completed == step { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
        return await task.result
    }
}

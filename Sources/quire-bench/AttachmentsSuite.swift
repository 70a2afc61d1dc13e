import Foundation

/// `quire-bench attachments`: attachments through the layers. On this branch only the export
/// figure (``AttachmentExportFigure``); the insert and first-sync figures come with their own
/// functions.
enum AttachmentsSuite: BenchmarkSuite {
    static let name = "attachments"
    static let summary = "Exports of articles with images"
    static let defaultRows = 1_000

    static func run(_ options: BenchmarkOptions) async throws -> [BenchmarkResult] {
        try await AttachmentExportFigure.results(options)
    }
}

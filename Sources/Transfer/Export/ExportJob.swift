import Foundation
import Library

/// One export: a format, a destination, and whether existing files may be replaced.
///
/// ```swift
/// let job = ExportJob(format: .html(.filePerArticle), destination: folderURL)
/// let task = Task {
///     try await job.run(from: source) { progress in
///         Task { @MainActor in progressBar.fraction = progress.fractionCompleted }
///     }
/// }
/// // Cancel button: task.cancel()
/// ```
///
/// The job reads the source a batch at a time and writes as it goes, so memory stays bounded by
/// one batch and one rendered article. Output appears all at once or not at all:
/// - a one-file-per-article export writes into a hidden staging folder inside the destination folder
///   and renames every file into place only after the last article (``StagingFolder``);
/// - a combined document or archive is one temporary file renamed over the destination at the end
///   (``AtomicFile``).
///
/// Cancelling the task (checked before every article) or any error discards what was written, so a
/// cancelled or failed export leaves the destination exactly as it was — also for files already
/// completed in a one-file-per-article export. Once the final renames have begun the job finishes
/// them. An existing file is replaced only with `overwritesExisting` (the command line's `--force`);
/// otherwise the job fails with ``ExportError/destinationExists(path:)`` before anything appears.
public struct ExportJob: Sendable {
    /// What to write.
    public var format: ExportFormat
    /// A folder for one-file-per-article output (created if missing), a file otherwise.
    public var destination: URL
    /// Whether existing files at the destination may be replaced.
    public var overwritesExisting: Bool
    /// How many articles to ask the source for at once.
    public var batchSize: Int

    /// A job that writes `format` to `destination`.
    public init(format: ExportFormat, destination: URL, overwritesExisting: Bool = false, batchSize: Int = 100) {
        self.format = format
        self.destination = destination
        self.overwritesExisting = overwritesExisting
        self.batchSize = max(1, batchSize)
    }

    /// Runs the export, reporting progress after every article. Throws `CancellationError` when
    /// the task is cancelled, ``ExportError`` for its own failures, and the source's errors as they are.
    @discardableResult
    public func run(
        from source: some ArticleSource, progress: @escaping @Sendable (ExportProgress) -> Void = { _ in }
    ) async throws -> ExportResult {
        try Task.checkCancellation()
        let count = try await source.articleCount()
        let writer = try makeWriter()
        do {
            let total = count * writer.passes
            var completed = 0
            progress(ExportProgress(completed: 0, total: total))
            for pass in 0..<writer.passes {
                for start in stride(from: 0, to: count, by: batchSize) {
                    try Task.checkCancellation()
                    let batch = try await source.articles(in: start..<min(count, start + batchSize))
                    for article in batch {
                        try Task.checkCancellation()
                        try writer.add(article, pass: pass)
                        completed += 1
                        progress(ExportProgress(completed: completed, total: total))
                    }
                }
            }
            try Task.checkCancellation()
            let files = try writer.commit()
            let folder = format.writesFilePerArticle ? destination : destination.deletingLastPathComponent()
            return ExportResult(files: files, articleCount: completed / writer.passes, folder: folder.standardizedFileURL)
        } catch {
            writer.discard()
            throw error
        }
    }

    private func makeWriter() throws -> any ExportWriter {
        switch format {
        case .markdown:
            return try FilePerArticleExport(destination: destination, replacing: overwritesExisting, fileExtension: format.fileExtension) {
                try $1.write(MarkdownFile.text(for: $0))
            }
        case .html(.filePerArticle):
            return try FilePerArticleExport(destination: destination, replacing: overwritesExisting, fileExtension: format.fileExtension) {
                try $1.write(HTMLDocument.standalone($0))
            }
        case .html(.combined(let title)):
            return try CombinedHTMLExport(destination: destination, replacing: overwritesExisting, title: title)
        case .pdf(.filePerArticle, let paper):
            let fonts = PDFFontMap()
            return try FilePerArticleExport(destination: destination, replacing: overwritesExisting, fileExtension: format.fileExtension) {
                try PDFDocumentWriter.writeArticle($0, paper: paper, fonts: fonts, to: $1)
            }
        case .pdf(.combined(let title), let paper):
            return try CombinedPDFExport(destination: destination, replacing: overwritesExisting, title: title, paper: paper)
        case .jsonArchive(let options):
            return try ArchiveExport(destination: destination, replacing: overwritesExisting, options: options)
        }
    }
}

/// What an export wrote.
public struct ExportResult: Sendable, Hashable {
    /// The files written, in article order (one file for combined formats).
    public var files: [URL]
    /// How many articles went into them.
    public var articleCount: Int
    /// The folder that holds the output, to open when the export is done ("Open Folder").
    public var folder: URL
}

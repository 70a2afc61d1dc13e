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
///
/// Attachments (``AttachmentFile``, from the source) go with the articles: Markdown and HTML write
/// them into one `assets/` folder beside the files, with relative references (HTML embeds them as
/// `data:` URIs with `embedsAttachments`), PDF draws the images, and a JSON archive holds their bytes.
/// An attachment whose bytes cannot be read never stops an export: its reference stays as it was
/// (a PDF prints a line naming the file instead), and ``ExportResult/unavailableAttachments`` says
/// which and why.
public struct ExportJob: Sendable {
    /// What to write.
    public var format: ExportFormat
    /// A folder for one-file-per-article output (created if missing), a file otherwise.
    public var destination: URL
    /// Whether existing files at the destination may be replaced.
    public var overwritesExisting: Bool
    /// How many articles to ask the source for at once.
    public var batchSize: Int
    /// HTML only: attachments go into the pages as `data:` URIs (one self-contained file per page)
    /// instead of into an `assets/` folder beside them.
    public var embedsAttachments: Bool

    /// A job that writes `format` to `destination`.
    public init(
        format: ExportFormat, destination: URL, overwritesExisting: Bool = false, embedsAttachments: Bool = false,
        batchSize: Int = 100
    ) {
        self.format = format
        self.destination = destination
        self.overwritesExisting = overwritesExisting
        self.embedsAttachments = embedsAttachments
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
            var unavailable: [String] = []
            let lastAttachmentPass = (0..<writer.passes).last { writer.usesAttachments(pass: $0) }
            progress(ExportProgress(completed: 0, total: total))
            for pass in 0..<writer.passes {
                for start in stride(from: 0, to: count, by: batchSize) {
                    try Task.checkCancellation()
                    let batch = try await source.articles(in: start..<min(count, start + batchSize))
                    let usesAttachments = writer.usesAttachments(pass: pass)
                    let holders = usesAttachments ? try await source.articlesWithAttachments(among: batch) : []
                    for article in batch {
                        try Task.checkCancellation()
                        var attachments: [AttachmentFile] = []
                        if usesAttachments && (holders.contains(article.id) || !AttachmentReference.all(in: article.body).isEmpty) {
                            attachments = try await source.attachments(of: article)
                            if pass == lastAttachmentPass {
                                unavailable += attachments.compactMap { file in
                                    file.problem.map { "\(file.fileName) in “\(DisplayTitle.of(article.title))”: \($0)" }
                                }
                            }
                        }
                        try writer.add(article, attachments: attachments, pass: pass)
                        completed += 1
                        progress(ExportProgress(completed: completed, total: total))
                    }
                }
            }
            try Task.checkCancellation()
            let files = try writer.commit()
            let folder = format.writesFilePerArticle ? destination : destination.deletingLastPathComponent()
            return ExportResult(
                files: files, articleCount: completed / writer.passes, folder: folder.standardizedFileURL,
                unavailableAttachments: unavailable)
        } catch {
            writer.discard()
            throw error
        }
    }

    private func makeWriter() throws -> any ExportWriter {
        switch format {
        case .markdown:
            return try FilePerArticleExport(
                destination: destination, replacing: overwritesExisting, fileExtension: format.fileExtension,
                attachments: .assetsFolder
            ) { article, _, targets, file in
                var article = article
                if let targets { article.body = targets.markdown(article.body) }
                try file.write(MarkdownFile.text(for: article))
            }
        case .html(.filePerArticle):
            return try FilePerArticleExport(
                destination: destination, replacing: overwritesExisting, fileExtension: format.fileExtension,
                attachments: embedsAttachments ? .embedded : .assetsFolder
            ) { article, _, targets, file in
                let page = HTMLDocument.standalone(article)
                try file.write(targets?.html(page) ?? page)
            }
        case .html(.combined(let title)):
            return try CombinedHTMLExport(
                destination: destination, replacing: overwritesExisting, title: title, embedsAttachments: embedsAttachments)
        case .pdf(.filePerArticle, let paper):
            let fonts = PDFFontMap()
            return try FilePerArticleExport(
                destination: destination, replacing: overwritesExisting, fileExtension: format.fileExtension, attachments: .drawn
            ) { article, attachments, _, file in
                try PDFDocumentWriter.writeArticle(article, attachments: attachments, paper: paper, fonts: fonts, to: file)
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
    /// The attachments whose bytes could not be read, each as a sentence naming the file, its
    /// article and why; their references stay as they were.
    public var unavailableAttachments: [String] = []
}

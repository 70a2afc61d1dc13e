import Foundation
import Library

/// The library's export source is the one export jobs read from.
extension LibraryArticleSource: ArticleSource {}

/// Export and import of a library, through the store side Library keeps (the library is the only
/// writer of articles): Transfer reads and writes the files, Library reads and saves the articles.
extension Library {
    /// Archive options for this library: its schema version, every folder and tag name, and its
    /// personal dictionary.
    public func archiveOptions(includingSyncMetadata: Bool = true) async throws -> ArchiveExportOptions {
        ArchiveExportOptions(
            schemaVersion: LibrarySchema.current.version, includesSyncMetadata: includingSyncMetadata,
            folders: try await folders().map(\.name), tags: try await tagNames(), personalWords: try await personalWords())
    }

    /// Exports `scope` with `job`, reporting progress as the job does; a JSON archive holds each
    /// article's version history when `includingHistory`.
    @discardableResult
    public func export(
        _ scope: ExportScope, with job: ExportJob, includingHistory: Bool = false,
        progress: @escaping @Sendable (ExportProgress) -> Void = { _ in }
    ) async throws -> ExportResult {
        try await job.run(from: try await exportSource(for: scope, includingHistory: includingHistory), progress: progress)
    }

    /// The library's articles with the IDs the scan brings, and every folder and tag name.
    public func importContents(for scan: ImportScan) async throws -> LibraryContents {
        try await importContents(forArticles: scan.articles.filter(\.hasStoredID).map(\.article.id))
    }

    /// Carries out `plan`: adds its personal dictionary's words, creates its folders and tags, then
    /// saves every article it writes, `batchSize` articles per save
    /// (``Library/applyImport(creatingFolders:tags:writes:batchSize:)``).
    @discardableResult
    public func apply(_ plan: ImportPlan, batchSize: Int = 200) async throws -> ImportResult {
        try await addPersonalWords(plan.personalWords)
        let writes = plan.writes.compactMap { item -> ImportWrite? in
            switch item.action {
            case .create: ImportWrite(.create, item.article, attachments: item.imported.attachments)
            case .replace: ImportWrite(.replace, item.article, attachments: item.imported.attachments)
            case .copy: ImportWrite(.copy, item.article, attachments: item.imported.attachments)
            case .skip, .unchanged: nil
            }
        }
        var result = try await applyImport(creatingFolders: plan.foldersToCreate, tags: plan.tagsToCreate, writes: writes, batchSize: batchSize)
        result.restoredAttachments += try await restoreAttachments(of: plan.items.filter { $0.action == .unchanged })
        return result
    }

    /// Gives articles the library has as they are imported the attachments they lack, and writes
    /// back those whose file is missing or damaged, from the bytes the import brings
    /// (``Library/restoreAttachments(_:to:)``: one save per article, no edit of it). Answers how
    /// many attachments were added or written back.
    private func restoreAttachments(of items: [ImportPlan.Item]) async throws -> Int {
        var restored = 0
        for item in items {
            restored += try await restoreAttachments(item.imported.attachments, to: item.article.id)
        }
        return restored
    }
}

import Foundation
import ObjectGraph

/// The articles of an export scope, read from the library a batch at a time: the IDs are fixed
/// when the source is made (``Library/exportSource(for:)``), and each batch is one fetch, so an
/// export of 10,000 articles holds one batch in memory and sees the same articles on every pass.
public struct LibraryArticleSource: ArticleSource {
    /// The library read from.
    public let library: Library
    /// The articles, in export order.
    public let ids: [UUID]

    public func articleCount() async throws -> Int { ids.count }

    public func articles(in range: Range<Int>) async throws -> [ArticleSnapshot] {
        let wanted = Array(ids[range.clamped(to: ids.indices)])
        return try await library.read { context in
            var request = FetchRequest<StoredArticle>(predicate: .in(\.id, wanted))
            request.prefetch(\.folder)
            request.prefetch(\.tags)
            let found = Dictionary(
                try context.fetch(request).map { ($0.id, $0.snapshot) }, uniquingKeysWith: { first, _ in first })
            // Articles deleted since the job started are left out.
            return wanted.compactMap { found[$0] }
        }
    }
}

/// The store side of export.
extension Library {
    /// The articles of `scope` (as ``ExportScope/includes(_:)`` defines it), fixed now: selected
    /// articles in the order given, the others by title.
    public func exportSource(for scope: ExportScope) async throws -> LibraryArticleSource {
        let ids: [UUID] = try await read { context in
            let predicate: FetchPredicate<StoredArticle>
            switch scope {
            case .selected(let ids):
                let existing = Set(try context.fetchDictionaries(
                    FetchRequest<StoredArticle>(predicate: .in(\.id, ids)), propertiesToFetch: ["id"]
                ).compactMap { $0["id"] as? UUID })
                var seen = Set<UUID>()
                return ids.filter { existing.contains($0) && seen.insert($0).inserted }
            case .folder(let name): predicate = \.folder?.name == name && .isNil(\.trashed)
            case .drafts: predicate = \.status == .draft && .isNil(\.trashed)
            case .unsynced: predicate = \.syncState != .synced && .isNil(\.trashed)
            case .library: predicate = .isNil(\.trashed)
            }
            let request = FetchRequest<StoredArticle>(
                predicate: predicate, sortDescriptors: [.ascending(\.sortTitle), .ascending(\.created)])
            return try context.fetchDictionaries(request, propertiesToFetch: ["id"]).compactMap { $0["id"] as? UUID }
        }
        return LibraryArticleSource(library: self, ids: ids)
    }

    /// Archive options for this library: its schema version and every folder and tag name.
    public func archiveOptions(includingSyncMetadata: Bool = true) async throws -> ArchiveExportOptions {
        ArchiveExportOptions(
            schemaVersion: LibrarySchema.current.version, includesSyncMetadata: includingSyncMetadata,
            folders: try await folders().map(\.name), tags: try await tagNames())
    }

    /// Exports `scope` with `job`, reporting progress as the job does.
    @discardableResult
    public func export(
        _ scope: ExportScope, with job: ExportJob, progress: @escaping @Sendable (ExportProgress) -> Void = { _ in }
    ) async throws -> ExportResult {
        try await job.run(from: try await exportSource(for: scope), progress: progress)
    }
}

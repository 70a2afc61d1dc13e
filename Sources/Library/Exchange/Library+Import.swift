import Foundation
import ObjectGraph

/// The store side of import (Transfer reads the files and plans the import): what the library
/// holds for a plan, and carrying a plan's writes out as ordinary local edits (each article saved
/// with its outbox operation), so that the library stays the only writer of articles.
extension Library {
    /// The library's articles with these IDs (those it has), and every folder and tag name.
    public func importContents(forArticles ids: [UUID]) async throws -> LibraryContents {
        try await read { context in
            var articles: [ArticleSnapshot] = []
            for start in stride(from: 0, to: ids.count, by: 500) {
                var request = FetchRequest<StoredArticle>(predicate: .in(\.id, Array(ids[start..<min(ids.count, start + 500)])))
                request.prefetch(\.folder)
                request.prefetch(\.tags)
                articles += try context.fetch(request).map(\.snapshot)
            }
            let folders = Set(try context.fetch(FetchRequest<Folder>()).map(\.name))
            let tags = Set(try context.fetch(FetchRequest<Tag>()).map(\.name))
            return LibraryContents(articles: articles, folders: folders, tags: tags)
        }
    }

    /// Carries out an import: creates `folders` and `tags`, then saves every article of `writes`,
    /// `batchSize` articles per save. New articles and copies start as local articles never synced
    /// (the server learns of them through their outbox operations); replaced ones keep their sync
    /// metadata. Dates come from the snapshots.
    @discardableResult
    public func applyImport(
        creatingFolders folders: [String], tags: [String], writes items: [ImportWrite], batchSize: Int = 200
    ) async throws -> ImportResult {
        try await write { context, now in
            for name in folders { _ = try LibraryNames.folder(named: name, creatingIn: context, at: now) }
            for name in tags { _ = try LibraryNames.tag(named: name, creatingIn: context) }
        }
        var result = ImportResult()
        for start in stride(from: 0, to: items.count, by: max(1, batchSize)) {
            try Task.checkCancellation()
            let batch = Array(items[start..<min(items.count, start + max(1, batchSize))])
            result = result + (try await write { context, now in try Self.save(batch, in: context, at: now) })
        }
        return result
    }

    /// One batch of an import.
    private static func save(_ items: [ImportWrite], in context: ManagedObjectContext, at now: Date) throws -> ImportResult {
        var result = ImportResult()
        var places = LibraryNames.Places(in: context)
        for item in items {
            let imported = item.article
            let article: StoredArticle
            switch item.kind {
            case .replace:
                article = try LibraryNames.article(imported.id, in: context)
                try VersionHistory.record(article, source: .beforeImport, at: now, in: context)
                result.replaced += 1
            case .create, .copy:
                article = StoredArticle(context: context)
                article.id = imported.id
                article.created = imported.created
                if item.kind == .copy { result.copied += 1 } else { result.created += 1 }
            }
            try article.setContent(imported.content, at: now, places: &places)
            if let history = imported.history {
                try VersionHistory.add(history, to: article.id, freshIDs: item.kind == .copy, in: context)
            }
            let (_, repaired) = try importAttachments(item.attachments, to: article.id, in: context, at: now)
            result.restoredAttachments += repaired
            if article.updated != imported.updated { article.updated = imported.updated }
            if article.trashed != imported.trashed { article.trashed = imported.trashed }
        }
        try LocalChanges.record(in: context, at: now)
        return result
    }
}

/// One article an import saves: the article as it will be stored, and how.
public struct ImportWrite: Sendable, Hashable {
    /// How the article is saved.
    public enum Kind: Sendable, Hashable {
        /// A new article with the snapshot's ID.
        case create
        /// The existing article with the snapshot's ID gets its content (its earlier text is kept
        /// as a version).
        case replace
        /// A new article beside an existing one: its history, if any, gets fresh version IDs.
        case copy
    }

    /// How the article is saved.
    public var kind: Kind
    /// The article to save.
    public var article: ArticleSnapshot
    /// Files the import brings for the article (those it holds already are not added twice).
    public var attachments: [AttachmentFile]

    /// Saves `article` as `kind` says, with `attachments`.
    public init(_ kind: Kind, _ article: ArticleSnapshot, attachments: [AttachmentFile] = []) {
        self.kind = kind
        self.article = article
        self.attachments = attachments
    }
}

/// What the library already holds, as far as an import plan needs to know: the articles whose IDs
/// the files name, and every folder and tag name.
public struct LibraryContents: Sendable {
    /// The library's articles with IDs that the files bring (others may be left out).
    public var articles: [UUID: ArticleSnapshot]
    /// Every folder name in the library.
    public var folders: Set<String>
    /// Every tag name in the library.
    public var tags: Set<String>

    /// The library's contents as far as an import needs them.
    public init(articles: [ArticleSnapshot], folders: Set<String>, tags: Set<String>) {
        self.articles = Dictionary(articles.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.folders = folders
        self.tags = tags
    }
}

/// What an import saved.
public struct ImportResult: Sendable, Hashable {
    /// New articles.
    public var created = 0
    /// Existing articles given the imported content.
    public var replaced = 0
    /// Articles imported as copies beside existing ones.
    public var copied = 0
    /// Attachments given back to articles the library had (lost, or never downloaded), and
    /// attachments whose missing or damaged file was written again from the import's bytes.
    public var restoredAttachments = 0

    static func + (lhs: ImportResult, rhs: ImportResult) -> ImportResult {
        ImportResult(created: lhs.created + rhs.created, replaced: lhs.replaced + rhs.replaced, copied: lhs.copied + rhs.copied,
                     restoredAttachments: lhs.restoredAttachments + rhs.restoredAttachments)
    }
}

import Foundation
import Library

/// What an import would do to the library, worked out before anything is written, for the preview
/// and then for the store to carry out.
///
/// The store applies a plan as ordinary local edits: create ``foldersToCreate`` and
/// ``tagsToCreate``, then for every item whose ``Item/action`` writes, save ``Item/article`` (a new
/// article, or the existing one with new content) together with its outbox operation. Skipped and
/// unchanged items are for the preview only.
///
/// ```swift
/// let scan = try await ImportScan.read(urls)
/// let library = try await store.importContents(for: scan)   // existing articles, folders, tags
/// let plan = ImportPlan(scan: scan, library: library, onExisting: .skip)
/// // show plan.summary and plan.failures; the writer may pick another policy:
/// let replacing = ImportPlan(scan: scan, library: library, onExisting: .replace)
/// ```
public struct ImportPlan: Sendable {
    /// One imported article and what happens to it.
    public struct Item: Sendable, Hashable {
        /// The article as read from its file.
        public var imported: ImportedArticle
        /// What the import does with it.
        public var action: Action
        /// The article to save for ``Action/create``, ``Action/replace(changes:)`` and
        /// ``Action/copy(of:)``; the existing article, untouched, for the others.
        public var article: ArticleSnapshot
        /// The library's article with the same ID, if there is one.
        public var existing: ArticleSnapshot?
    }

    /// What happens to one imported article.
    public enum Action: Sendable, Hashable {
        /// A new article with the imported ID (or a fresh one, for files without an ID).
        case create
        /// The existing article with this ID gets the imported content; `changes` lists the fields
        /// that differ, for the preview.
        case replace(changes: Set<ArticleField>)
        /// A new article with a fresh ID, beside the existing one with the imported ID.
        case copy(of: UUID)
        /// An article with this ID exists and the writer chose to skip such articles.
        case skip
        /// An article with this ID exists with exactly this content: nothing to do.
        case unchanged

        /// Whether the store saves anything for this action.
        public var writes: Bool {
            switch self {
            case .create, .replace, .copy: true
            case .skip, .unchanged: false
            }
        }
    }

    /// Counts for the preview.
    public struct Summary: Sendable, Hashable {
        /// Articles that will be new.
        public var created = 0
        /// Existing articles that will get the imported content.
        public var replaced = 0
        /// Articles that will be imported as copies beside existing ones.
        public var copied = 0
        /// Articles left out because the library has them.
        public var skipped = 0
        /// Articles the library already has exactly so.
        public var unchanged = 0
        /// Files or articles that could not be read.
        public var failed = 0
    }

    /// Every imported article and its action, in import order.
    public var items: [Item]
    /// Folder names the import brings that the library lacks.
    public var foldersToCreate: [String]
    /// Tag names the import brings that the library lacks.
    public var tagsToCreate: [String]
    /// The words of the archives' personal dictionaries, by language (words the library has
    /// already are left alone).
    public var personalWords: [String: [String]]
    /// Files or articles that could not be imported.
    public var failures: [ImportError]
    /// The policy the plan was made with.
    public var policy: ExistingArticlePolicy

    /// Compares `scan` with `library` and decides each article's action; articles whose IDs the
    /// library already has are treated by `policy`. `makeID` gives IDs for copies.
    public init(
        scan: ImportScan, library: LibraryContents, onExisting policy: ExistingArticlePolicy,
        makeID: () -> UUID = UUID.init
    ) {
        self.policy = policy
        failures = scan.failures
        foldersToCreate = scan.folders.filter { !library.folders.contains($0) }
        tagsToCreate = scan.tags.filter { !library.tags.contains($0) }
        personalWords = scan.personalWords
        items = scan.articles.map { imported in
            guard imported.hasStoredID, let existing = library.articles[imported.article.id] else {
                return Item(imported: imported, action: .create, article: imported.article, existing: nil)
            }
            let changes = ArticleField.differences(between: existing, and: imported.article)
            if changes.isEmpty {
                return Item(imported: imported, action: .unchanged, article: existing, existing: existing)
            }
            switch policy {
            case .skip:
                return Item(imported: imported, action: .skip, article: existing, existing: existing)
            case .replace:
                // The existing article keeps its identity, creation date and sync metadata (the base
                // its outbox operation will name); everything the writer edits comes from the file.
                var replacement = existing
                replacement.content = imported.article.content
                replacement.updated = imported.article.updated
                replacement.trashed = imported.article.trashed
                replacement.history = imported.article.history
                return Item(imported: imported, action: .replace(changes: changes), article: replacement, existing: existing)
            case .copy:
                var copy = imported.article
                copy.id = makeID()
                copy.serverRevision = nil
                copy.localRevision = 0
                copy.syncState = .localOnly
                return Item(imported: imported, action: .copy(of: existing.id), article: copy, existing: existing)
            }
        }
    }

    /// The items the store must save.
    public var writes: [Item] { items.filter { $0.action.writes } }

    /// How many articles each action covers.
    public var summary: Summary {
        var summary = Summary()
        for item in items {
            switch item.action {
            case .create: summary.created += 1
            case .replace: summary.replaced += 1
            case .copy: summary.copied += 1
            case .skip: summary.skipped += 1
            case .unchanged: summary.unchanged += 1
            }
        }
        summary.failed = failures.count
        return summary
    }
}

/// What to do with an imported article whose ID the library already has; chosen once per import.
public enum ExistingArticlePolicy: String, Sendable, Hashable, CaseIterable {
    /// Keep the library's article; ignore the imported one.
    case skip
    /// Give the library's article the imported content.
    case replace
    /// Import the article as a new one, beside the library's.
    case copy
}

/// A field of an article that an import can change, for the preview's list of differences.
public enum ArticleField: String, Sendable, Hashable, CaseIterable {
    /// The title.
    case title
    /// The body.
    case body
    /// The folder.
    case folder
    /// The tags.
    case tags
    /// The status.
    case status
    /// The favorite flag.
    case favorite
    /// Whether, and since when, the article is in the trash.
    case trashed

    /// The fields in which `imported` differs from `existing`.
    static func differences(between existing: ArticleSnapshot, and imported: ArticleSnapshot) -> Set<ArticleField> {
        var fields: Set<ArticleField> = []
        // Text compares by exact bytes: a change of normalisation is still a change.
        if !existing.title.utf8.elementsEqual(imported.title.utf8) { fields.insert(.title) }
        if !existing.body.utf8.elementsEqual(imported.body.utf8) { fields.insert(.body) }
        if existing.folder != imported.folder { fields.insert(.folder) }
        if existing.tags != imported.tags { fields.insert(.tags) }
        if existing.status != imported.status { fields.insert(.status) }
        if existing.isFavorite != imported.isFavorite { fields.insert(.favorite) }
        if existing.trashed != imported.trashed { fields.insert(.trashed) }
        return fields
    }
}

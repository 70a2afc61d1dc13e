import Foundation
import ObjectGraph
import Synchronization
import SyncProtocol

/// The sidebar's counts (``LibraryCounts``) kept up to date change by change instead of read
/// again in full: at 100,000 articles a full count takes longer than a frame, while a change
/// moves an article or a few between places.
///
/// It remembers, for every article, the places it counts in (favorite, status, trash, folder,
/// tags). A change (``CountChange``) names the articles that may have moved; their places are
/// read again from the store and the counts adjusted by the difference between what was
/// remembered and what is stored now. Since the old places are its own, it needs no old values
/// from the change, which works the same for a context's own save, a merge of another
/// context's save and a batch operation's change set.
///
/// Reading every article's places (through the indexes, IDs only) takes much longer than one
/// full count, so until they are read (the first call, a change that invalidates everything or
/// names more than ``largestAppliedChange`` articles) a call counts in full and starts reading
/// them in the background, outside the lock; the changes seen meanwhile are applied to them
/// before they are used. ``prepare()`` reads them now.
///
/// The counts are always the sum over what it remembers, so they stay exact as long as every
/// change reaches it: an article read again takes its stored places whatever happened before.
/// Calls are applied one at a time, in order; each returns the counts with a ``Reading/generation``
/// so that a caller showing readings that finish out of order can keep the latest.
public final class RunningCounts: Sendable {
    /// Counts after a change, and how many changes had been applied when they were read.
    public struct Reading: Sendable {
        /// The counts.
        public let counts: LibraryCounts
        /// Increases with each call: a reading with a lower generation is older.
        public let generation: Int
    }

    /// A change touching more articles than this is counted again in full, so that a batch over
    /// much of the library reads it once through the indexes rather than article by article (a
    /// bound chosen, not tuned by measurement).
    public static let largestAppliedChange = 2_000

    private struct State {
        /// Every article's places, once read.
        var ledger: CountLedger?
        var generation = 0
        /// Whether the places are being read in the background.
        var isReading = false
        /// The changes seen while there were no places to apply them to.
        var missed = CountChange()
    }

    private let library: Library
    private let state = Mutex(State())

    /// Counts for `library`; nothing is read until the first ``counts(after:)``.
    public init(library: Library) {
        self.library = library
    }

    /// The counts once `change` is applied.
    public func counts(after change: CountChange) async throws -> Reading {
        let (reading, startsReading) = try await library.read { [self] context in
            try self.state.withLock { state -> (Reading, Bool) in
                state.generation += 1
                if var ledger = state.ledger, !change.everything, change.articles.count <= Self.largestAppliedChange {
                    // Taken out, so that its dictionaries change in place instead of being copied.
                    state.ledger = nil
                    try ledger.apply(change, in: context)
                    state.ledger = ledger
                    return (Reading(counts: ledger.counts, generation: state.generation), false)
                }
                state.ledger = nil
                state.missed.formUnion(change)
                let startsReading = !state.isReading
                state.isReading = true
                return (Reading(counts: try LibraryCounts.read(in: context), generation: state.generation), startsReading)
            }
        }
        if startsReading {
            Task.detached { [self] in try? await readPlaces() }
        }
        return reading
    }

    /// Reads every article's places now unless they are remembered already, so that the next
    /// change is applied without a full count.
    public func prepare() async throws {
        guard state.withLock({ $0.ledger == nil }) else { return }
        try await readPlaces()
    }

    /// Reads every article's places outside the lock, then applies the changes seen meanwhile and
    /// keeps them (unless another reading was kept first).
    private func readPlaces() async throws {
        do {
            try await library.read { [self] context in
                var ledger = try CountLedger(reading: context, stoppingIf: library.stopIfClosing)
                try self.state.withLock { state in
                    guard state.ledger == nil else { return }
                    try ledger.apply(state.missed, in: context)
                    state.missed = CountChange()
                    state.ledger = ledger
                    state.isReading = false
                }
            }
        } catch {
            state.withLock { $0.isReading = false }
            throw error
        }
    }
}

/// The places each article counts in and the counts they add up to (``RunningCounts``).
struct CountLedger {
    /// Where one article counts.
    struct Places: Hashable {
        var trashed = false
        var favorite = false
        var status: ArticleStatus?
        var folder: ManagedObjectID?
        var tags: Set<ManagedObjectID> = []
    }

    private var places: [ManagedObjectID: Places] = [:]
    private var folders: [(id: ManagedObjectID, name: String)] = []
    private var tags: [(id: ManagedObjectID, name: String)] = []
    private var all = 0
    private var favorites = 0
    private var unfiled = 0
    private var trash = 0
    private var statuses: [ArticleStatus: Int] = [:]
    private var inFolder: [ManagedObjectID: Int] = [:]
    private var withTag: [ManagedObjectID: Int] = [:]

    /// Every article's places as `context` reads the store, each property through the index
    /// that serves its count (IDs only: no article row is read). `stop` is called before each
    /// index is read and every 65,536 articles, and gives the reading up by throwing (a library
    /// closing: the whole reading takes seconds at a million articles).
    init(reading context: ManagedObjectContext, stoppingIf stop: () throws -> Void = {}) throws {
        func forEach(_ predicate: FetchPredicate<StoredArticle>?, _ body: (ManagedObjectID) -> Void) throws {
            try stop()
            let ids = try context.fetchObjectIDs(FetchRequest<StoredArticle>(predicate: predicate))
            for (index, id) in ids.enumerated() {
                if index & 0xFFFF == 0xFFFF { try stop() }
                body(id)
            }
        }
        try readPlaces(in: context)
        try stop()
        let all = try context.fetchObjectIDs(FetchRequest<StoredArticle>())
        places.reserveCapacity(all.count)
        for (index, id) in all.enumerated() {
            if index & 0xFFFF == 0xFFFF { try stop() }
            places[id] = Places()
        }
        try forEach(.isNotNil(\.trashed)) { places[$0]?.trashed = true }
        try forEach(\.isFavorite == true) { places[$0]?.favorite = true }
        for status in ArticleStatus.allCases {
            try forEach(\.status == status) { places[$0]?.status = status }
        }
        for folder in try context.fetch(FetchRequest<Folder>()) {
            try forEach(\.folder == folder) { places[$0]?.folder = folder.objectID }
        }
        for tag in try context.fetch(FetchRequest<Tag>()) {
            try forEach(.any(\.tags, \.name == tag.name)) { places[$0]?.tags.insert(tag.objectID) }
        }
        try stop()
        for article in places.values { count(article, 1) }
    }

    /// Reads again the places of the articles `change` names and the folders and tags, and
    /// adjusts the counts by the difference.
    mutating func apply(_ change: CountChange, in context: ManagedObjectContext) throws {
        try readPlaces(in: context)
        for id in change.articles where !id.isTemporaryID {
            let stored = try Self.places(of: id, in: context)
            let remembered = places[id]
            guard stored != remembered else { continue }
            if let remembered { count(remembered, -1) }
            if let stored { count(stored, 1) }
            places[id] = stored
        }
    }

    /// The counts, in ``LibraryCounts/read(in:)``'s form and order.
    var counts: LibraryCounts {
        var statuses = statuses
        for status in ArticleStatus.allCases where statuses[status] == nil { statuses[status] = 0 }
        return LibraryCounts(
            all: all, favorites: favorites, unfiled: unfiled, trash: trash, statuses: statuses,
            folders: folders.map { FolderSummary(name: $0.name, articleCount: inFolder[$0.id, default: 0]) },
            tags: tags.map { TagSummary(name: $0.name, articleCount: withTag[$0.id, default: 0]) })
    }

    /// An article as stored now; nil when it no longer exists.
    private static func places(of id: ManagedObjectID, in context: ManagedObjectContext) throws -> Places? {
        let article: StoredArticle
        do {
            article = try context.existingObject(with: id, as: StoredArticle.self)
        } catch ObjectGraphError.objectNotFound {
            return nil
        }
        return Places(
            trashed: article.trashed != nil, favorite: article.isFavorite, status: article.status,
            folder: article.folder?.objectID, tags: Set(article.tags.map(\.objectID)))
    }

    /// Reads the folders and tags with their names, in the sidebar's order. An article filed in a
    /// folder or carrying a tag that is gone no longer counts there (deleting a folder files its
    /// articles nowhere, whether or not the change named them).
    private mutating func readPlaces(in context: ManagedObjectContext) throws {
        folders = try context.fetch(FetchRequest<Folder>(sortDescriptors: [.ascending(\.name, order: .localized)]))
            .map { ($0.objectID, $0.name) }
        tags = try context.fetch(FetchRequest<Tag>(sortDescriptors: [.ascending(\.name, order: .localized)]))
            .map { ($0.objectID, $0.name) }
        let folderIDs = Set(folders.map(\.id)), tagIDs = Set(tags.map(\.id))
        let goneFolders = inFolder.keys.filter { !folderIDs.contains($0) }
        let goneTags = withTag.keys.filter { !tagIDs.contains($0) }
        guard !goneFolders.isEmpty || !goneTags.isEmpty else { return }
        for (id, article) in places {
            guard article.folder.map(goneFolders.contains) == true || article.tags.contains(where: goneTags.contains) else { continue }
            var now = article
            if let folder = now.folder, goneFolders.contains(folder) { now.folder = nil }
            now.tags.subtract(goneTags)
            count(article, -1)
            count(now, 1)
            places[id] = now
        }
        for id in goneFolders { inFolder[id] = nil }
        for id in goneTags { withTag[id] = nil }
    }

    /// Adds (`sign` 1) or takes away (-1) an article's places from the counts.
    private mutating func count(_ article: Places, _ sign: Int) {
        if article.trashed {
            trash += sign
            return
        }
        all += sign
        if article.favorite { favorites += sign }
        if let status = article.status { statuses[status, default: 0] += sign }
        if let folder = article.folder {
            inFolder[folder, default: 0] += sign
        } else {
            unfiled += sign
        }
        for tag in article.tags { withTag[tag, default: 0] += sign }
    }
}

import Foundation
import ObjectGraph
import SyncProtocol

/// Turns the writer's changes to articles in a context into what the store keeps with them, so
/// that the next save commits each changed article together with its outbox operation.
///
/// For every article inserted or changed in the context (and those in `alsoChanged`, whose
/// synced content changed without a change of their own, such as the articles of a renamed
/// folder), ``record(in:at:alsoChanged:)``:
/// - refreshes the derived fields (sort title, excerpt, word count) when the title or body changed;
/// - sets `updated` to now when the title, body or status changed and the caller did not set it
///   (moving, tagging, starring and trashing do not reorder the list by date);
/// - bumps `localRevision`, and marks a synced article modified;
/// - writes its outbox operation: a `put` of the whole content, or a `delete` for an article moved
///   to the trash (an article that stays in the trash gets none). A put holds no copy of the
///   content: until it is first sent it sends the article as stored (``SyncOperation/contentToSend()``),
///   so that saving a book writes its text once, not twice. When the article's latest operation
///   was never sent it takes the change instead (the outbox's one coalescing rule,
///   ``SyncOperation/absorbs(_:namingItsBase:into:)``), so an hour of autosaves offline leaves one
///   operation, not thousands; it then moves to the end of the outbox (a new sequence), so that
///   its row changes with every save.
/// - re-reads the article's open conflict, whose local side is the live article: the change is
///   part of "mine" (an edit, a restore that turns "deleted here" into an edit conflict, a move to
///   the trash that turns an edit conflict into "deleted here"), and a conflict whose sides now
///   agree (equal, merged cleanly, both deleted) is closed in the same save
///   (``Conflict/settleIfAgreed(at:)``). Every local write of an article comes through here, so no
///   change of the writer's can slip past an open conflict.
///
/// Call it on the context's queue, then save the context. Every ``Library`` operation does; the
/// editor does it before saving its draft context. If the save fails with a merge conflict (the
/// sync worker took the pending operation meanwhile), refresh and record again: the operation is
/// then written anew.
public enum LocalChanges {
    /// Records the context's article changes; returns how many articles were recorded.
    @discardableResult
    public static func record(
        in context: ManagedObjectContext, at now: Date = Library.now(), alsoChanged: [StoredArticle] = []
    ) throws -> Int {
        var articles: [StoredArticle] = []
        var seen = Set<ObjectIdentifier>()
        for object in Array(context.insertedObjects) + Array(context.updatedObjects) + alsoChanged {
            guard let article = object as? StoredArticle, !article.isDeleted,
                  seen.insert(ObjectIdentifier(article)).inserted else { continue }
            articles.append(article)
        }
        guard !articles.isEmpty else { return 0 }
        // Sets have no order; this one makes operation sequences follow creation, then the ID (a
        // UUID's `<` compares its bytes in order, so its text's order). Each key is read once.
        articles = articles.map { (key: ($0.created, $0.id), article: $0) }.sorted { $0.key < $1.key }.map(\.article)

        var writer = try OperationWriter(context: context, now: now, articles: articles.filter { !$0.isInserted })
        for article in articles {
            let changed: Set<String> = article.isInserted ? [] : Set(article.changedValues().keys)
            if article.isInserted || changed.contains("title") || changed.contains("body") { article.refreshDerivedFields() }
            if !article.isInserted, !changed.contains("updated"), !changed.isDisjoint(with: ["title", "body", "status"]) {
                article.updated = now
            }
            try checkSyncable(article)
            article.localRevision += 1
            // An article that stays in the trash needs no operation: the server holds its tombstone
            // (or will), and restoring it sends everything.
            if article.trashed != nil && !article.isInserted && !changed.contains("trashed") { continue }
            if article.syncState == .synced { article.syncState = .modified }
            writer.enqueue(for: article)
        }
        try Conflict.settleOpenConflicts(of: articles, in: context, at: now)
        return articles.count
    }

    /// Refuses content the server would refuse for good, before it is saved.
    static func checkSyncable(_ article: StoredArticle) throws {
        if let violation = article.payload.violation() {
            throw LibraryError.invalidContent(article: article.id, violation: violation)
        }
    }
}

/// Writes outbox operations for one recording: finds each article's latest operation and the next
/// sequence number with one query each, however many articles change.
struct OperationWriter {
    private let context: ManagedObjectContext
    private let now: Date
    private var latest: [UUID: SyncOperation]
    private var nextSequence: Int64

    /// Reads the latest operation of each of `articles` (saved ones; new articles have none).
    init(context: ManagedObjectContext, now: Date, articles: [StoredArticle]) throws {
        self.context = context
        self.now = now
        latest = [:]
        let ids = articles.map(\.id)
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = Array(ids[start..<min(ids.count, start + 500)])
            let request = FetchRequest<SyncOperation>(predicate: .in(\.articleID, chunk), sortDescriptors: [.ascending(\.sequence)])
            for operation in try context.fetch(request) { latest[operation.articleID] = operation }
        }
        let request = FetchRequest<SyncOperation>(sortDescriptors: [.descending(\.sequence)], fetchLimit: 1)
        let last = try context.fetch(request).first
        // A context that read the row earlier (the view context) may hold an older sequence: each
        // save of a waiting operation moves it to the end.
        if let last, !last.hasChanges { try context.refresh(last, mergeChanges: true) }
        nextSequence = (last?.sequence ?? 0) + 1
    }

    /// The article's current state as its outbox operation: the latest one when it takes the change
    /// (``SyncOperation/absorbs(_:namingItsBase:into:)``), or a new one.
    mutating func enqueue(for article: StoredArticle) {
        let change: SyncOperationChange = article.trashed == nil ? .put : .delete
        if let operation = latest[article.id], SyncOperation.absorbs(.pending, namingItsBase: false, into: operation.state) {
            operation.change = change
            // A copy an earlier version of Quire kept goes: the article is what the put sends.
            operation.payload = nil
            // The row must change with every save even when the change stays a put: a save that
            // races the worker starting to send this operation then fails on the row's version
            // (and records its change again, in a new operation) instead of leaving it behind a
            // send that carries the text from before it. The article's latest operation is this
            // one, so a later place keeps the article's order.
            operation.sequence = takeSequence()
            return
        }
        latest[article.id] = insert(article.id, change, precondition: nil)
    }

    /// A new pending operation; a conflict resolution names the base it resolved against. A put
    /// sends its article as stored when it is first sent (``SyncOperation/contentToSend()``).
    @discardableResult
    mutating func insert(_ articleID: UUID, _ change: SyncOperationChange, precondition: WriteBase?) -> SyncOperation {
        let operation = SyncOperation(context: context)
        operation.operationID = UUID().uuidString
        operation.articleID = articleID
        operation.sequence = takeSequence()
        operation.change = change
        switch precondition {
        case nil:
            break
        case .absent?:
            operation.precondition = .absent
        case .revision(let revision)?:
            operation.precondition = .revision
            operation.baseRevision = revision
        }
        operation.state = .pending
        operation.created = now
        return operation
    }

    /// The next place at the end of the outbox.
    private mutating func takeSequence() -> Int64 {
        defer { nextSequence += 1 }
        return nextSequence
    }

    /// The base a resolution's operation is sent against.
    enum WriteBase {
        case absent
        case revision(Int64)
    }
}

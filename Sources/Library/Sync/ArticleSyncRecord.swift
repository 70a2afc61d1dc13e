import Foundation
import ObjectGraph

/// What the store holds about one article for sync, read in the worker's transaction: the
/// article (nil when gone from the library), its base, its outbox operations and its open conflict.
/// ``Reconciler`` writes through it; the worker reads it to decide what to do.
public struct ArticleSyncRecord {
    /// The article's ID.
    public let id: UUID
    /// The article; nil when it was deleted for good (or never came to this library).
    public let article: StoredArticle?
    /// The last synced content and its revision; nil when the server holds no live version the
    /// library knows of.
    public let base: ArticleBase?
    /// Every outbox operation of the article, in sequence order.
    public let operations: [SyncOperation]
    /// The conflict waiting for the writer, if any.
    public let openConflict: Conflict?

    /// This device's version: the article's content, nil when it is deleted here (in the trash or
    /// gone).
    public var localContent: ArticleContent? {
        guard let article, article.trashed == nil else { return nil }
        return article.content.normalized
    }

    /// Operations the writer's edits wait in that were never sent or met a conflict: the ones a
    /// conflict resolution or a clean merge replaces.
    public var unsent: [SyncOperation] { operations.filter { $0.state == .pending || $0.state == .conflicted } }

    /// Whether the server may hold, or be about to get, a write of this article whose outcome the
    /// worker does not know yet: an operation sent (or waiting to be sent again) against a fixed
    /// base. A remote change of the article waits until it settles: its acknowledgement or its 412
    /// decides what the change means.
    public var hasWriteInFlight: Bool {
        operations.contains { operation in
            switch operation.state {
            case .sending, .waitingRetry, .unknownOutcome, .lookingUp: return true
            case .pending: return operation.precondition != nil
            case .acknowledged, .conflicted, .terminalFailure: return false
            }
        }
    }

    /// Whether local content waits to reach the server: unsent or conflicted operations, or one
    /// the server refused (its content is still only here).
    public var hasLocalEdits: Bool {
        operations.contains { $0.state == .pending || $0.state == .conflicted || $0.state == .terminalFailure }
    }

    /// The records of `ids`, read with a few queries per 500 articles.
    public static func load(_ ids: [UUID], in context: ManagedObjectContext) throws -> [UUID: ArticleSyncRecord] {
        var articles: [UUID: StoredArticle] = [:]
        var bases: [UUID: ArticleBase] = [:]
        var operations: [UUID: [SyncOperation]] = [:]
        var conflicts: [UUID: Conflict] = [:]
        let unique = Array(Set(ids))
        for start in stride(from: 0, to: unique.count, by: 500) {
            let chunk = Array(unique[start..<min(unique.count, start + 500)])
            for article in try context.fetch(FetchRequest<StoredArticle>(predicate: .in(\.id, chunk))) { articles[article.id] = article }
            for base in try context.fetch(FetchRequest<ArticleBase>(predicate: .in(\.articleID, chunk))) { bases[base.articleID] = base }
            let rows = FetchRequest<SyncOperation>(predicate: .in(\.articleID, chunk), sortDescriptors: [.ascending(\.sequence)])
            for operation in try context.fetch(rows) { operations[operation.articleID, default: []].append(operation) }
            let open = FetchRequest<Conflict>(predicate: .in(\.articleID, chunk) && .isNil(\.resolved))
            for conflict in try context.fetch(open) { conflicts[conflict.articleID] = conflict }
        }
        var records: [UUID: ArticleSyncRecord] = [:]
        for id in unique {
            records[id] = ArticleSyncRecord(
                id: id, article: articles[id], base: bases[id], operations: operations[id] ?? [], openConflict: conflicts[id])
        }
        return records
    }

    /// The record of one article.
    public static func load(_ id: UUID, in context: ManagedObjectContext) throws -> ArticleSyncRecord {
        try load([id], in: context)[id]!
    }
}

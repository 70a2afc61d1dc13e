import Foundation
import ObjectGraph
import SyncProtocol
import Testing
@testable import Library
import QuireTestSupport

/// A library in a temporary folder, for one test.
struct TemporaryLibrary {
    let folder: TemporaryFolder
    let library: Library

    init() throws {
        folder = try TemporaryFolder()
        library = try Library(url: folder.appending("library.quire"))
    }

    /// Runs `body` in a background context of the library, for looking at rows directly.
    func inspect<T>(_ body: (ManagedObjectContext) throws -> T) throws -> T {
        let context = library.container.newBackgroundContext()
        return try context.performAndWait { try body(context) }
    }

    /// Leaves the article as the sync worker does once the server acknowledged it at `revision`
    /// with `content`: no outbox operation, synced, its base at that revision.
    func markSynced(_ id: UUID, at revision: Int64, content: ArticleContent) throws {
        try inspect { context in
            for operation in try context.fetch(FetchRequest<SyncOperation>(predicate: \.articleID == id)) { context.delete(operation) }
            let article = try context.fetch(FetchRequest<StoredArticle>(predicate: \.id == id)).first
            article?.serverRevision = revision
            article?.syncState = .synced
            let base = ArticleBase(context: context)
            base.articleID = id
            base.revision = revision
            base.content = content
            try context.save()
        }
    }

    /// Does what the sync worker's first send of the article's first operation does in the store:
    /// the content it sends fixed in the row, the operation `sending` against no server revision.
    func startSending(operationOf id: UUID) throws {
        try inspect { context in
            let request = FetchRequest<SyncOperation>(predicate: \.articleID == id, sortDescriptors: [.ascending(\.sequence)])
            let operation = try #require(try context.fetch(request).first)
            operation.payload = try operation.contentToSend()
            operation.state = .sending
            operation.attempt = 1
            operation.precondition = .absent
            try context.save()
        }
    }

    /// The outbox, in sequence order, as values.
    func outbox() throws -> [OutboxRow] {
        try inspect { context in
            try context.fetch(FetchRequest<SyncOperation>(sortDescriptors: [.ascending(\.sequence)])).map { try OutboxRow($0) }
        }
    }

    /// The outbox operations of one article.
    func outbox(of id: UUID) throws -> [OutboxRow] { try outbox().filter { $0.articleID == id } }
}

/// An outbox row as a value, for comparing.
struct OutboxRow: Hashable {
    var operationID: String
    var articleID: UUID
    var sequence: Int64
    var change: SyncOperationChange
    /// What the operation sends (``SyncOperation/contentToSend()``): the content fixed at its
    /// first send, or its article as stored.
    var payload: ArticlePayload?
    /// Whether the row holds a copy of the content (from its first send on).
    var holdsContent: Bool
    var state: SyncOperationState

    init(_ operation: SyncOperation) throws {
        operationID = operation.operationID
        articleID = operation.articleID
        sequence = operation.sequence
        change = operation.change
        payload = try operation.contentToSend()
        holdsContent = operation.payload != nil
        state = operation.state
    }
}

import Foundation
import ObjectGraph
import SyncProtocol

/// One operation of the outbox: a write of one article waiting for the server. The sync worker
/// maps it to SyncClient's `OutboxEntry` and back, field for field:
///
/// | `OutboxEntry` | column |
/// |---|---|
/// | `id` (idempotency key) | ``operationID`` |
/// | `articleID` | ``articleID`` (its `uuidString`) |
/// | `sequence` | ``sequence`` |
/// | `change` `.put(payload)` / `.delete` | ``change``, and the put's ``contentToSend()``: ``payload`` once sent, the article as stored before |
/// | `precondition` `nil` / `.absent` / `.revision(r)` | ``precondition`` and ``baseRevision`` |
/// | `state.kind` | ``state`` |
/// | attempt of `sending`, `waitingRetry`, `unknownOutcome`, `lookingUp` | ``attempt`` |
/// | `next` / `nextLookup` | ``nextAttempt`` |
/// | revision of `acknowledged(revision:)` | ``acknowledgedRevision`` |
/// | the `RequestRejection` of `terminalFailure` | ``failure`` (its JSON) |
///
/// Local edits write `pending` operations (``LocalChanges``) and coalesce them by the outbox's one
/// rule (``absorbs(_:namingItsBase:into:)``); everything after that is the sync worker's. The lease
/// columns let one process claim an operation while it is on the wire.
///
/// A put keeps no copy of its content while it waits: the article is what it sends, read when the
/// worker first sends it, which then fixes that content in ``payload`` for every resend under the
/// operation's key. Each save of the article gives its waiting operation a new ``sequence``, so the
/// row changes with every save and a save racing that first send fails on the row's version.
public final class SyncOperation: ManagedObject {
    /// The operation ID, sent as `Idempotency-Key`: a UUID string, never changed.
    @Attribute("operationID") public var operationID: String
    /// The article written.
    @Attribute("articleID") public var articleID: UUID
    /// The position in the outbox: grows with every save (a waiting operation that takes an
    /// article's next change moves to the end).
    @Attribute("sequence") public var sequence: Int64
    /// Put or delete.
    @Attribute("change") public var change: SyncOperationChange
    /// The content a put sent, fixed at its first send; nil before it (the put then sends the
    /// article as stored: ``contentToSend()``) and for a delete.
    @CodableAttribute("payload") public var payload: ArticlePayload?
    /// The precondition fixed at the first send; nil before it.
    @Attribute("precondition") public var precondition: SyncOperationPrecondition?
    /// The revision of a `revision` precondition.
    @Attribute("baseRevision") public var baseRevision: Int64?
    /// The name of the operation's state (SyncClient's `OperationState` adds each state's values).
    @Attribute("state") public var state: SyncOperationState
    /// Tries made so far, in the states that count them.
    @Attribute("attempt") public var attempt: Int
    /// When to retry (`waitingRetry`) or look the key up (`unknownOutcome`).
    @Attribute("nextAttempt") public var nextAttempt: Date?
    /// The revision an `acknowledged` operation produced (nil for a delete the server did not hold).
    @Attribute("acknowledgedRevision") public var acknowledgedRevision: Int64?
    /// The JSON of the refusal that made the operation a terminal failure.
    @Attribute("failure") public var failure: String?
    /// The process that holds the operation, while it does.
    @Attribute("leaseOwner") public var leaseOwner: String?
    /// When that hold expires.
    @Attribute("leaseExpires") public var leaseExpires: Date?
    /// When the edit was saved.
    @Attribute("created") public var created: Date
}

/// What an outbox operation asks the server to do.
public enum SyncOperationChange: String, Sendable, Hashable, CaseIterable, AttributeValue {
    /// Replace the article's whole content (`PUT`).
    case put
    /// Delete it, leaving a tombstone (`DELETE`).
    case delete
}

/// The kind of precondition an operation was first sent with.
public enum SyncOperationPrecondition: String, Sendable, Hashable, CaseIterable, AttributeValue {
    /// `If-None-Match: *`.
    case absent
    /// `If-Match` with ``SyncOperation/baseRevision``.
    case revision
}

/// The states of an outbox operation: the one list of them. SyncClient's `OperationState` is this
/// with each state's values (attempt, next time, revision, refusal), and its `kind` is one of these.
public enum SyncOperationState: String, Sendable, Hashable, CaseIterable, AttributeValue {
    /// Saved, never sent.
    case pending
    /// A send is on the wire.
    case sending
    /// Waiting to be sent again.
    case waitingRetry
    /// Sent, answer lost; waiting to look it up.
    case unknownOutcome
    /// A lookup is on the wire.
    case lookingUp
    /// The server holds the write.
    case acknowledged
    /// The server's version moved away; a ``Conflict`` holds both sides.
    case conflicted
    /// Refused for good.
    case terminalFailure

    /// Whether nothing more happens to the operation.
    public var isFinal: Bool { self == .acknowledged || self == .conflicted || self == .terminalFailure }
}

extension SyncOperation {
    /// The outbox's one coalescing rule: whether an article's operation in state `earlier` takes
    /// the article's next change, in state `later`, in its place instead of a new operation after
    /// it. Only an operation never sent does (`pending`: a sent one's request is fixed under its
    /// key), and only for a change that is itself unsent and names no base of its own (a conflict
    /// resolution's precondition starts a new operation).
    ///
    /// The operation then keeps its ID and precondition and takes the later change, which is
    /// exact: a put replaces the whole content and a delete ends it (put+put is the later put,
    /// put+delete a delete, delete+put a put). Local edits apply it as they save (``LocalChanges``),
    /// so an hour of autosaves offline leaves one operation; the sync worker applies it to the
    /// operations it is about to send (SyncClient's `Outbox.coalesce`).
    public static func absorbs(_ later: SyncOperationState, namingItsBase: Bool, into earlier: SyncOperationState) -> Bool {
        earlier == .pending && later == .pending && !namingItsBase
    }
}

extension SyncOperation {
    /// What a put sends: the content fixed in the row at its first send or, until then, the
    /// article as stored now, with its folder's and tags' names. They are read after this row, so
    /// they are never older than it: a save of the article changes the row too, so a send started
    /// from text older than a save fails on the row's version. Nil for a delete, and for a put
    /// whose article is no longer in the library. Call it on the context's queue.
    public func contentToSend() throws -> ArticlePayload? {
        guard change == .put else { return nil }
        if let payload { return payload }
        guard let context = managedObjectContext else { throw ObjectGraphError.objectDetached(objectID) }
        let request = FetchRequest<StoredArticle>(predicate: \.id == articleID, fetchLimit: 1)
        guard let article = try context.fetch(request).first else { return nil }
        // The context may hold these from an earlier read; an object it changed is checked
        // against its row when the context saves instead.
        if !article.hasChanges { try context.refresh(article, mergeChanges: true) }
        let related: [ManagedObject] = [article.folder].compactMap { $0 } + Array(article.tags)
        for object in related where !object.hasChanges { try context.refresh(object, mergeChanges: true) }
        return article.payload
    }
}

import Foundation
import ObjectGraph
import SyncProtocol

extension SyncOperation {
    /// Writes a new pending outbox operation of the article after every existing one, in the
    /// caller's transaction: a put of `payload`, or a delete when it is nil. Its precondition is
    /// left open, so the sync worker sends it against the article's base at its first send.
    ///
    /// For the sync worker, which writes the content of a clean automatic merge this way; local
    /// edits go through ``LocalChanges``.
    @discardableResult
    public static func enqueue(
        articleID: UUID, payload: ArticlePayload?, in context: ManagedObjectContext, at now: Date
    ) throws -> SyncOperation {
        var writer = try OperationWriter(context: context, now: now, articles: [])
        return writer.insert(articleID, payload == nil ? .delete : .put, payload, precondition: nil)
    }
}

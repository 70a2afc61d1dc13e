import Foundation
import ObjectGraph

extension Conflict {
    /// Records, in the caller's transaction, that the sync worker merged both sides of an article
    /// cleanly: a conflict closed as ``ConflictResolution/Kind/mergedAutomatically`` that keeps the
    /// base and both sides, so that the writer can see what was merged. The article is not marked
    /// conflicted.
    @discardableResult
    static func recordAutomaticMerge(
        articleID: UUID, base: ArticleContent?, local: ArticleContent, remote: ArticleContent,
        baseRevision: Int64?, remoteRevision: Int64, at now: Date, in context: ManagedObjectContext
    ) -> Conflict {
        let record = Conflict(context: context)
        record.id = UUID()
        record.articleID = articleID
        record.base = base
        record.local = local
        record.remote = remote
        record.baseRevision = baseRevision
        record.remoteRevision = remoteRevision
        record.detected = now
        record.resolution = .mergedAutomatically
        record.resolved = now
        return record
    }
}

extension Library {
    /// The automatic merges of an article, newest first: each keeps the base and both sides, for
    /// "merged automatically — show both sides".
    public func automaticMerges(of articleID: UUID) async throws -> [ConflictSnapshot] {
        try await read { context in
            let request = FetchRequest<Conflict>(
                predicate: \.articleID == articleID && \.resolution == ConflictResolution.Kind.mergedAutomatically,
                sortDescriptors: [.descending(\.detected)])
            return try context.fetch(request).map { $0.snapshot(article: nil) }
        }
    }
}

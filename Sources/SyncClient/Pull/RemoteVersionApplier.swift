import Foundation
import Library
import ObjectGraph

/// Applies server versions of articles (a page of the change feed, a page of a resync snapshot) in
/// the worker's transaction, in order, each exactly once: a version at or below the article's
/// base revision is one the library already has, so applying a page twice changes nothing.
///
/// It stops at the first version of an article with a write in flight (see
/// ``ArticleSyncRecord/hasWriteInFlight``): that write's answer decides what the version means, so
/// the feed continues from there once it has settled.
struct RemoteVersionApplier {
    let context: ManagedObjectContext
    let now: Date

    /// How far a run of versions got.
    struct Progress: Sendable, Hashable {
        /// How many of the versions were applied (all of them unless one was blocked).
        var applied = 0
        /// The article whose write in flight stopped the run.
        var blockedBy: UUID?
        /// What the applied versions did.
        var tally = RemoteChangeTally()
    }

    /// Applies `versions` (article ID, version) in order.
    func apply(_ versions: [(id: String, version: RemoteVersion)]) throws -> Progress {
        let ids = versions.compactMap { UUID(uuidString: $0.id) }
        var records = try ArticleSyncRecord.load(ids, in: context)
        var touched = Set<UUID>()
        var progress = Progress()
        let reconciler = Reconciler(context: context, now: now)
        // Only an article's last version in the run counts: it is the article as the run leaves it.
        var last: [String: Int] = [:]
        for (index, entry) in versions.enumerated() { last[entry.id] = index }
        for (index, (text, version)) in versions.enumerated() {
            // Articles are this library's UUIDs; another kind of ID is no article of a Quire library.
            guard let id = UUID(uuidString: text) else {
                progress.applied += 1
                progress.tally.unchanged += 1
                continue
            }
            // A second version of one article in the run: read what the first one left.
            let record = touched.contains(id) ? try ArticleSyncRecord.load(id, in: context) : records[id]!
            if record.hasWriteInFlight {
                progress.blockedBy = id
                return progress
            }
            guard last[text] == index else {
                progress.applied += 1
                progress.tally.unchanged += 1
                continue
            }
            progress.tally.count(try apply(version, to: record, reconciler))
            progress.applied += 1
            touched.insert(id)
            records[id] = nil
        }
        return progress
    }

    private func apply(_ version: RemoteVersion, to record: ArticleSyncRecord, _ reconciler: Reconciler) throws -> Reconciler.Outcome {
        if let revision = version.revision, let base = record.base, base.revision >= revision { return .unchanged }
        if let conflict = record.openConflict { return try reconciler.update(conflict, with: version) }
        if record.hasLocalEdits { return try reconciler.reconcile(version, with: record) }
        return try reconciler.take(version, for: record)
    }
}

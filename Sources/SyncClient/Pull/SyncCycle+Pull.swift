import Foundation
import Library
import ObjectGraph
import SyncProtocol

extension SyncCycle {
    /// How a pull ended.
    enum PullEnd: Sendable, Hashable {
        /// The feed was read to its end.
        case caughtUp
        /// A change of an article with a write in flight stopped the feed there; it goes on once
        /// the write settles.
        case waitingForPush(UUID)
        /// The server asked to wait (429, 503): try again after the advice.
        case retryLater(RetryAdvice)
    }

    /// What a pull did.
    struct PullReport: Sendable, Hashable {
        var end: PullEnd = .caughtUp
        /// What the server's versions did to the library.
        var tally = RemoteChangeTally()
        /// Pages read (feed and snapshot).
        var pages = 0
        /// Whether a resync from the snapshot ran.
        var resynced = false
        /// Pulled articles whose bodies refer to blobs (``BlobReference``).
        var referringToBlobs: Set<UUID> = []

        mutating func note(_ articles: [Article]) {
            for article in articles where !BlobReference.digests(in: article.content.body).isEmpty {
                if let id = UUID(uuidString: article.id) { referringToBlobs.insert(id) }
            }
        }
    }

    /// Reads the change feed from the stored cursor to its end. Each page and the new cursor commit
    /// in one transaction; a 410 makes it resync from the snapshot first. Throws `TransportError`
    /// when the server cannot be reached.
    func pull() async throws -> PullReport {
        var report = PullReport()
        let feed = configuration.feedName
        while true {
            let cursor = try await store.read { context in try Self.cursorRow(feed, in: context)?.cursor ?? 0 }
            let answer = try await transport.changes(since: cursor, limit: configuration.pageSize)
            switch answer {
            case let .success(page):
                report.pages += 1
                report.note(page.changes.compactMap(\.article))
                let versions = page.changes.map { (id: $0.id, version: RemoteVersion($0)) }
                let progress = try await store.write("apply a page of the change feed") { context, now in
                    // The page is for the cursor read before the request; a worker holds the lease,
                    // so nothing else moved it meanwhile.
                    let progress = try RemoteVersionApplier(context: context, now: now).apply(versions)
                    let row = try Self.cursorRow(feed, creatingIn: context)
                    let next = progress.blockedBy == nil ? page.nextCursor
                        : progress.applied > 0 ? page.changes[progress.applied - 1].cursor : cursor
                    if row.cursor != next { row.cursor = next }
                    if progress.blockedBy == nil && !page.hasMore { row.lastSynced = now }
                    return progress
                }
                report.tally = report.tally + progress.tally
                if let article = progress.blockedBy {
                    report.end = .waitingForPush(article)
                    return report
                }
                if !page.hasMore { return report }
            case .resyncRequired:
                guard try await resync(into: &report) else { return report }
            case let .retry(advice):
                report.end = .retryLater(advice)
                return report
            case let .rejected(rejection):
                throw Stop.rejected(rejection)
            case let .accountRejected(detail):
                throw Stop.accountRejected(detail)
            }
        }
    }

    /// After 410 `resyncRequired`: reads every page of the snapshot and applies it like feed
    /// changes (pending local edits are merged or become conflicts, never overwritten), takes
    /// articles the snapshot no longer lists as deleted on the server, and sets the cursor to the
    /// snapshot's, from which the feed replays what changed while the pages were read. Waits
    /// (answers false, with `report.end` saying why) while a write is in flight: its answer must
    /// settle first, since the feed will not show changes before the snapshot's cursor again.
    private func resync(into report: inout PullReport) async throws -> Bool {
        let inFlight = try await store.read { context in
            try context.fetch(FetchRequest<SyncOperation>(predicate: .in(\.state, [
                SyncOperationState.sending, .waitingRetry, .unknownOutcome, .lookingUp,
            ]))).first?.articleID
        }
        if let inFlight {
            report.end = .waitingForPush(inFlight)
            return false
        }
        report.resynced = true
        var after: String?
        var snapshotCursor: Int64?
        var listed = Set<UUID>()
        while true {
            let answer = try await transport.snapshot(after: after, limit: configuration.pageSize)
            switch answer {
            case let .success(page):
                report.pages += 1
                snapshotCursor = snapshotCursor ?? page.cursor
                report.note(page.articles)
                let versions = page.articles.map { (id: $0.id, version: RemoteVersion($0)) }
                let progress = try await store.write("apply a page of the snapshot") { context, now in
                    try RemoteVersionApplier(context: context, now: now).apply(versions)
                }
                report.tally = report.tally + progress.tally
                if let article = progress.blockedBy {
                    report.end = .waitingForPush(article)
                    return false
                }
                listed.formUnion(page.articles.compactMap { UUID(uuidString: $0.id) })
                guard page.hasMore, let last = page.articles.last else {
                    let feed = configuration.feedName
                    let cursor = snapshotCursor ?? 0
                    let listedArticles = listed
                    let progress = try await store.write("finish the resync") { context, now in
                        let gone = try context.fetch(FetchRequest<ArticleBase>())
                            .map(\.articleID).filter { !listedArticles.contains($0) }
                        let versions = gone.map { (id: $0.uuidString, version: RemoteVersion.nothing) }
                        let progress = try RemoteVersionApplier(context: context, now: now).apply(versions)
                        if progress.blockedBy == nil { try Self.cursorRow(feed, creatingIn: context).cursor = cursor }
                        return progress
                    }
                    report.tally = report.tally + progress.tally
                    if let article = progress.blockedBy {
                        report.end = .waitingForPush(article)
                        return false
                    }
                    return true
                }
                after = last.id
            case .resyncRequired:
                throw Stop.rejected(RequestRejection(reason: .unexpectedStatus, status: 410, detail: "the snapshot asked for a resync"))
            case let .retry(advice):
                report.end = .retryLater(advice)
                return false
            case let .rejected(rejection):
                throw Stop.rejected(rejection)
            case let .accountRejected(detail):
                throw Stop.accountRejected(detail)
            }
        }
    }

    /// The cursor row of `feed`.
    static func cursorRow(_ feed: String, in context: ManagedObjectContext) throws -> SyncCursor? {
        try context.fetch(FetchRequest<SyncCursor>(predicate: \.server == feed, fetchLimit: 1)).first
    }

    /// The cursor row of `feed`, created at 0 when missing.
    static func cursorRow(_ feed: String, creatingIn context: ManagedObjectContext) throws -> SyncCursor {
        if let row = try cursorRow(feed, in: context) { return row }
        let row = SyncCursor(context: context)
        row.server = feed
        row.cursor = 0
        return row
    }
}

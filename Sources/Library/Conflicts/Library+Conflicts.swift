import Foundation
import Platform
import ObjectGraph
import SyncProtocol

extension Conflict {
    /// Records a conflict in `context`, as part of the transaction that found it (the sync
    /// worker's), and marks the article conflicted. `local` or `remote` is nil for a deletion.
    @discardableResult
    static func record(
        articleID: UUID, base: ArticleContent?, local: ArticleContent?, remote: ArticleContent?,
        baseRevision: Int64?, remoteRevision: Int64?, detected: Date, in context: ManagedObjectContext
    ) throws -> Conflict {
        let conflict = Conflict(context: context)
        conflict.id = UUID()
        conflict.articleID = articleID
        conflict.base = base
        conflict.local = local
        conflict.remote = remote
        conflict.baseRevision = baseRevision
        conflict.remoteRevision = remoteRevision
        conflict.detected = detected
        let article = try ConflictResolver.article(articleID, in: context)
        article?.syncState = .conflicted
        return conflict
    }

    /// Re-reads this open conflict against the live article and its server side, in the caller's
    /// transaction, and closes it when the sides agree without the writer: both deleted, equal, or
    /// merged cleanly (the merge becomes the article's content and is pushed unless it is the
    /// server's version), recorded as ``ConflictResolution/Kind/mergedAutomatically``.
    ///
    /// Local changes do this in the save that makes them (``LocalChanges``); the sync worker does it
    /// after giving the conflict a newer server version.
    @discardableResult
    func settleIfAgreed(at now: Date) throws -> ConflictSettlement {
        guard resolved == nil else { return .open }
        guard let context = managedObjectContext else { throw ObjectGraphError.objectDetached(objectID) }
        return try ConflictResolver(context: context, now: now).settle(self, article: try ConflictResolver.article(articleID, in: context))
    }

    /// Settles the open conflicts of `articles` whose sides now agree (``settleIfAgreed(at:)``).
    /// Only articles marked conflicted, or new in the context, can have one.
    static func settleOpenConflicts(of articles: [StoredArticle], in context: ManagedObjectContext, at now: Date) throws {
        let candidates = articles.filter { $0.syncState == .conflicted || $0.isInserted }
        guard !candidates.isEmpty else { return }
        var byID: [UUID: StoredArticle] = [:]
        for article in candidates { byID[article.id] = article }
        let ids = Array(byID.keys)
        let resolver = ConflictResolver(context: context, now: now)
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = Array(ids[start..<min(ids.count, start + 500)])
            let open = FetchRequest<Conflict>(predicate: .in(\.articleID, chunk) && .isNil(\.resolved), sortDescriptors: [.ascending(\.detected)])
            for conflict in try context.fetch(open) {
                try resolver.settle(conflict, article: byID[conflict.articleID])
            }
        }
    }
}

/// Conflict records: the sync worker records them, the writer resolves them. A resolution is one
/// save: the article, its outbox operation (sent against the server revision it resolved) and the
/// closed conflict. While a conflict is open, this device's side is the live article.
extension Library {
    /// Records a conflict (see ``Conflict/record(articleID:base:local:remote:baseRevision:remoteRevision:detected:in:)``
    /// for the form that joins a transaction of the caller's).
    @discardableResult
    public func recordConflict(
        articleID: UUID, base: ArticleContent?, local: ArticleContent?, remote: ArticleContent?,
        baseRevision: Int64?, remoteRevision: Int64?
    ) async throws -> ConflictSnapshot {
        try await write { context, now in
            let conflict = try Conflict.record(
                articleID: articleID, base: base, local: local, remote: remote, baseRevision: baseRevision,
                remoteRevision: remoteRevision, detected: now, in: context)
            return conflict.snapshot(article: try ConflictResolver.article(articleID, in: context))
        }
    }

    /// The conflicts waiting for the writer, oldest first, each with this device's side as the
    /// article stands now.
    public func openConflicts() async throws -> [ConflictSnapshot] {
        try await read { context in
            let conflicts = try context.fetch(FetchRequest<Conflict>(predicate: .isNil(\.resolved), sortDescriptors: [.ascending(\.detected)]))
            var articles: [UUID: StoredArticle] = [:]
            let ids = Array(Set(conflicts.map(\.articleID)))
            for start in stride(from: 0, to: ids.count, by: 500) {
                let chunk = Array(ids[start..<min(ids.count, start + 500)])
                for article in try context.fetch(FetchRequest<StoredArticle>(predicate: .in(\.id, chunk))) { articles[article.id] = article }
            }
            return conflicts.map { $0.snapshot(article: articles[$0.articleID]) }
        }
    }

    /// One conflict, open (with this device's side as the article stands now) or resolved.
    public func conflict(_ id: UUID) async throws -> ConflictSnapshot {
        try await read { context in
            guard let conflict = try context.fetch(FetchRequest<Conflict>(predicate: \.id == id, fetchLimit: 1)).first else {
                throw LibraryError.conflictNotFound(id)
            }
            return conflict.snapshot(article: try ConflictResolver.article(conflict.articleID, in: context))
        }
    }

    /// Carries out the writer's decision in one save, against the article as it stands then:
    /// the article gets the chosen content, its unsent and conflicted operations give way to one
    /// operation based on the server revision the conflict holds (none when the server's version
    /// is taken), the base becomes the server's version, and the conflict is closed. Keep Theirs
    /// or a merged version over text of this device they would drop keeps it as a copy first
    /// (``ConflictSides/keepsCopy(replacingWith:)``).
    ///
    /// `ifKind` is the kind of conflict the writer decided against (what the dialog or
    /// `quire conflicts` showed). Keep Mine deletes an article deleted here but sends the text of
    /// one restored since, so when the conflict is about something else by the time the decision
    /// is saved, nothing is changed and ``LibraryError/conflictChanged(conflict:decidedAgainst:now:)``
    /// is thrown: show it again.
    @discardableResult
    public func resolveConflict(_ id: UUID, _ resolution: ConflictResolution, ifKind: ConflictKind? = nil) async throws -> ConflictOutcome {
        try await write { context, now in
            try ConflictResolver(context: context, now: now).resolve(id, resolution, ifKind: ifKind)
        }
    }
}

/// What a resolution did.
public struct ConflictOutcome: Sendable, Hashable {
    /// The conflict resolved.
    public var conflictID: UUID
    /// The article concerned.
    public var articleID: UUID
    /// The resolution carried out.
    public var resolution: ConflictResolution.Kind
    /// What the conflict was about when it was resolved (from the live article).
    public var kind: ConflictKind
    /// The article's title when it was resolved (this device's, else the server's).
    public var title: String
    /// The article after the resolution (nil when this device's deletion was kept and it is gone).
    public var article: ArticleSnapshot?
    /// The new article holding this device's version: for ``ConflictResolution/keepBoth``, and for
    /// Keep Theirs or a merged version over text they would drop (``ConflictSides/keepsCopy(replacingWith:)``).
    /// It sits where the article was: in the library, or in the trash.
    public var copy: ArticleSnapshot?
    /// What the next sync sends for the article: its content, its deletion, or nothing.
    public var sends: SyncOperationChange?

    /// What happened, in a sentence for the writer (the app's toast, `quire resolve`; `--json`
    /// carries its English).
    public var summary: TranslatableText {
        let title = DisplayTitle.of(self.title)
        let done: TranslatableText
        switch (resolution, sends) {
        case (.keepMine, .delete?):
            done = TranslatableText("Kept this device's deletion of “%s”: it stays in the Trash, and the next sync deletes it on the server.", title)
        case (.keepMine, _):
            done = TranslatableText("Kept this device's version of “%s”; the next sync sends it to the server.", title)
        case (.restoreMine, _):
            done = TranslatableText("Restored this device's version of “%s”; the next sync puts it back on the server.", title)
        case (.merged, _), (.mergedAutomatically, _):
            done = TranslatableText("Saved the merged version of “%s”; the next sync sends it to the server.", title)
        case (.keepTheirs, _), (.acceptDelete, _), (.keepBoth, _):
            done = kind == .deletedOnServer || kind == .deletedOnBothSides
                ? TranslatableText("Accepted the server's deletion of “%s”: it is in the Trash.", title)
                : TranslatableText("Took the server's version of “%s”.", title)
        }
        guard let copy else { return done }
        let copyTitle = DisplayTitle.of(copy.title)
        let kept: TranslatableText
        switch (resolution == .keepBoth, copy.trashed == nil) {
        case (true, true): kept = TranslatableText("This device's version is kept as “%s”.", copyTitle)
        case (true, false): kept = TranslatableText("This device's version is kept as “%s” in the Trash.", copyTitle)
        case (false, true): kept = TranslatableText("This device's text, which it would have dropped, is kept as “%s”.", copyTitle)
        case (false, false): kept = TranslatableText("This device's text, which it would have dropped, is kept as “%s” in the Trash.", copyTitle)
        }
        return TranslatableText(sentences: [done, kept])
    }
}

import Foundation
import ObjectGraph
import Testing
@testable import Library

/// Which saves make the window recount its sidebar: the ones that can move a count, never an
/// autosave while typing (its outbox operation and version rows move none).
@Suite struct CountChangeTests {
    /// Runs `edit` in a context of the library and saves it; returns what the save and the
    /// context's own change notification each say about the counts.
    private func verdicts(of store: TemporaryLibrary, _ edit: @escaping (ManagedObjectContext, Date) throws -> Void) throws -> (save: Bool, change: Bool) {
        try store.inspect { context in
            var change = false
            let observation = context.addObserver { notification in
                if case .objectsDidChange(let objects) = notification, LibraryCounts.mayChange(with: objects) { change = true }
            }
            defer { observation.cancel() }
            try edit(context, Date())
            let save = LibraryCounts.mayChange(with: try context.save())
            return (save, change)
        }
    }

    @Test func typingAndRecordingVersionsDoNotRecountWhileTaggingFilingAndStarringDo() async throws {
        let store = try TemporaryLibrary()
        try await store.library.createFolder(named: "Essays")
        let article = try await store.library.createArticle(ArticleContent(title: "Tide", body: "Low at six.\n", tags: ["sea"]))
        let id = article.id

        // An autosave: title and body with the article's outbox operation, then a version.
        let typing = try verdicts(of: store) { context, now in
            let stored = try LibraryNames.article(id, in: context)
            stored.title = "Tides"
            stored.body += "High at noon.\n"
            try LocalChanges.record(in: context, at: now)
        }
        #expect(!typing.save && !typing.change)
        let version = try verdicts(of: store) { context, now in
            _ = try VersionHistory.record(try LibraryNames.article(id, in: context), source: .edited, at: now, in: context)
        }
        #expect(!version.save && !version.change)

        let changes: [(String, (ManagedObjectContext, Date) throws -> Void)] = [
            ("tag", { try ArticleEdits.tag([id], with: "coast", in: $0, at: $1) }),
            ("untag", { try ArticleEdits.untag([id], from: "sea", in: $0, at: $1) }),
            ("status", { try ArticleEdits.setStatus(.ready, for: [id], in: $0, at: $1) }),
            ("favorite", { try ArticleEdits.setFavorite(true, for: [id], in: $0, at: $1) }),
            ("folder", { try ArticleEdits.move([id], toFolder: "Essays", in: $0, at: $1) }),
            ("new folder", { try ArticleEdits.createFolder(named: "Letters", in: $0, at: $1) }),
            ("folder deleted", { _ = try ArticleEdits.deleteFolder(named: "Letters", in: $0, at: $1) }),
            ("tag renamed", { context, _ in try LibraryNames.tag(named: "coast", creatingIn: context).name = "shore" }),
            ("trash", { context, _ in try LibraryNames.article(id, in: context).trashed = Date() }),
        ]
        for (name, change) in changes {
            let verdict = try verdicts(of: store, change)
            #expect(verdict.save && verdict.change, "\(name)")
        }
        let created = try verdicts(of: store) { context, now in
            let new = StoredArticle(context: context)
            new.id = UUID()
            new.created = now
            new.updated = now
            try new.setContent(ArticleContent(title: "New", body: ""), at: now)
            try LocalChanges.record(in: context, at: now)
        }
        #expect(created.save && created.change)
    }
}

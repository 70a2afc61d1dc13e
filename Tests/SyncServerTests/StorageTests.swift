import Foundation
@testable import SyncServer
import SyncProtocol
import Testing

/// The one suite both storage engines must pass.
@Suite struct StorageTests {
    /// Opens a fresh database of `kind`, runs `body`, and removes the database.
    func withStorage(_ kind: StorageKind, _ body: (any SyncStorage) throws -> Void) throws {
        let database = try TestDatabase(kind)
        defer { database.remove() }
        let storage = try database.open()
        defer { storage.close() }
        try body(storage)
    }

    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    func account(_ storage: any SyncStorage, _ name: String = "alice") throws -> AccountID {
        try storage.addAccount(name: name, tokenHash: AccountToken.generate().hash, at: Self.start).id
    }

    func content(_ title: String) -> ArticlePayload { ArticlePayload(title: title, body: "body of \(title)", tags: ["t"]) }

    /// Applies a write without an idempotency key and answers its status and the revision of the
    /// answer (the new one on success, the server's current one on 412).
    @discardableResult
    func write(_ storage: any SyncStorage, _ account: AccountID, _ id: String, _ action: ArticleCommand.Action,
               at date: Date = start) throws -> (status: Int, revision: Int64?) {
        let answer = try #require(try storage.apply(ArticleCommand(articleID: id, action: action), account: account, claim: nil, now: date))
        let decoder = SyncJSON.decoder()
        if answer.isSuccess { return (answer.status, RevisionTag.parse(answer.eTag)) }
        return (answer.status, try decoder.decode(Problem.self, from: Data(answer.body)).current?.revision)
    }

    func allChanges(_ storage: any SyncStorage, _ account: AccountID, since: Int64 = 0, limit: Int = 1000) throws -> [ArticleChange] {
        guard case let .page(page) = try storage.changes(account: account, since: since, limit: limit) else {
            Issue.record("resync required from \(since)")
            return []
        }
        return page.changes
    }

    @Test(arguments: StorageKind.allCases)
    func accountsAreAddedListedAndRevoked(_ kind: StorageKind) throws {
        try withStorage(kind) { storage in
            let bobToken = AccountToken.generate()
            let bob = try storage.addAccount(name: "bob", tokenHash: bobToken.hash, at: Self.start)
            let alice = try storage.addAccount(name: "alice", tokenHash: AccountToken.generate().hash, at: Self.start)
            #expect(throws: StorageError.self) {
                try storage.addAccount(name: "bob", tokenHash: AccountToken.generate().hash, at: Self.start)
            }
            #expect(try storage.accounts().map(\.name) == ["alice", "bob"])
            #expect(try storage.account(tokenHash: bobToken.hash) == bob.id)
            #expect(try storage.account(tokenHash: AccountToken.generate().hash) == nil)
            #expect(alice.id != bob.id)

            #expect(try storage.revokeAccount(name: "bob", at: Self.start + 60))
            #expect(try !storage.revokeAccount(name: "bob", at: Self.start + 61))
            #expect(try !storage.revokeAccount(name: "carol", at: Self.start))
            #expect(try storage.account(tokenHash: bobToken.hash) == nil)
            let listed = try storage.accounts()
            #expect(listed.first { $0.name == "bob" }?.revokedAt == Self.start + 60)
            #expect(listed.first { $0.name == "alice" }?.revokedAt == nil)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func writesFollowTheirPreconditionsAndRevisionsNeverRepeat(_ kind: StorageKind) throws {
        try withStorage(kind) { storage in
            let alice = try account(storage)
            let created = try write(storage, alice, "a", .put(content("one"), .absent))
            #expect(created.status == 201)
            let first = try #require(created.revision)
            let updated = try write(storage, alice, "a", .put(content("two"), .revision(first)))
            #expect(updated.status == 200)
            let second = try #require(updated.revision)
            #expect(second > first)

            #expect(try write(storage, alice, "a", .put(content("lost"), .revision(first))) == (412, second))
            #expect(try write(storage, alice, "a", .put(content("dup"), .absent)) == (412, second))
            #expect(try storage.article("a", account: alice)?.article?.content == content("two"))

            let deleted = try write(storage, alice, "a", .delete(.revision(second)))
            #expect(deleted.status == 200)
            let tombstone = try #require(deleted.revision)
            #expect(tombstone > second)
            #expect(try storage.article("a", account: alice)?.deleted == true)
            #expect(try write(storage, alice, "a", .put(content("late"), .revision(second))) == (412, tombstone))
            #expect(try write(storage, alice, "a", .put(content("late"), .revision(tombstone))) == (412, tombstone))
            #expect(try write(storage, alice, "a", .delete(.revision(tombstone))).status == 404)
            #expect(try write(storage, alice, "never", .delete(.revision(1))).status == 404)
            #expect(try write(storage, alice, "never", .put(content("x"), .revision(1))) == (412, nil))

            let restored = try write(storage, alice, "a", .put(content("back"), .absent))
            #expect(restored.status == 201)
            #expect(try #require(restored.revision) > tombstone)
            let current = try #require(try storage.article("a", account: alice))
            #expect(!current.deleted && current.article?.content == content("back") && current.revision == restored.revision)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func theFeedListsEveryChangeOnceInCommitOrder(_ kind: StorageKind) throws {
        try withStorage(kind) { storage in
            let alice = try account(storage)
            var expected: [(String, Int64)] = []
            var revisions: [String: Int64] = [:]
            for round in 0..<4 {
                for id in ["c", "a", "b"] {
                    let action: ArticleCommand.Action = revisions[id].map { .put(content("\(id)\(round)"), .revision($0)) }
                        ?? .put(content("\(id)\(round)"), .absent)
                    let revision = try #require(try write(storage, alice, id, action).revision)
                    revisions[id] = revision
                    expected.append((id, revision))
                }
            }
            let deleted = try #require(try write(storage, alice, "b", .delete(.revision(revisions["b"]!))).revision)
            expected.append(("b", deleted))

            var paged: [ArticleChange] = []
            var cursor: Int64 = 0
            var pages = 0
            while true {
                guard case let .page(page) = try storage.changes(account: alice, since: cursor, limit: 5) else {
                    Issue.record("resync required")
                    return
                }
                pages += 1
                paged += page.changes
                #expect(page.nextCursor == page.changes.last?.cursor ?? cursor)
                cursor = page.nextCursor
                if !page.hasMore { break }
            }
            #expect(pages == 3)
            #expect(paged.map(\.id) == expected.map(\.0))
            #expect(paged.map(\.revision) == expected.map(\.1))
            #expect(zip(paged, paged.dropFirst()).allSatisfy { $0.cursor < $1.cursor })
            #expect(paged.last?.deleted == true && paged.last?.article == nil)
            #expect(paged.first?.article?.content == content("c0"))

            guard case let .page(empty) = try storage.changes(account: alice, since: cursor, limit: 5) else {
                Issue.record("resync required at the head")
                return
            }
            #expect(empty.changes.isEmpty && !empty.hasMore && empty.nextCursor == cursor)
            #expect(try storage.changes(account: alice, since: cursor + 1, limit: 5) == .resyncRequired)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func snapshotPagesLiveArticlesByIDAtAFeedPosition(_ kind: StorageKind) throws {
        try withStorage(kind) { storage in
            let alice = try account(storage)
            for id in ["c", "a", "d", "b"] { try write(storage, alice, id, .put(content(id), .absent)) }
            let b = try #require(try storage.article("b", account: alice)?.revision)
            try write(storage, alice, "b", .delete(.revision(b)))
            let head = try allChanges(storage, alice).last!.cursor

            let first = try storage.snapshot(account: alice, after: nil, limit: 2)
            #expect(first.articles.map(\.id) == ["a", "c"] && first.hasMore && first.cursor == head)
            let second = try storage.snapshot(account: alice, after: "c", limit: 2)
            #expect(second.articles.map(\.id) == ["d"] && !second.hasMore)
            #expect(second.articles.first?.content == content("d"))
            #expect(try storage.snapshot(account: alice, after: "d", limit: 2).articles.isEmpty)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func purgeRemovesOnlyWhatIsPastRetentionAndMovesTheHorizon(_ kind: StorageKind) throws {
        try withStorage(kind) { storage in
            let alice = try account(storage)
            let old = Self.start
            let recent = Self.start + 1000
            let kept1 = try #require(try write(storage, alice, "kept", .put(content("k1"), .absent), at: old).revision)
            let kept2 = try #require(try write(storage, alice, "kept", .put(content("k2"), .revision(kept1)), at: old).revision)
            let gone = try #require(try write(storage, alice, "gone", .put(content("g"), .absent), at: old).revision)
            let tombstone = try #require(try write(storage, alice, "gone", .delete(.revision(gone)), at: old).revision)
            let fresh = try #require(try write(storage, alice, "fresh", .put(content("f"), .absent), at: recent).revision)
            let freshGone = try #require(try write(storage, alice, "fresh", .delete(.revision(fresh)), at: recent).revision)

            let report = try storage.purge(before: old + 500, unwantedBlobsBefore: old)
            #expect(report.tombstones == 1)
            #expect(report.supersededRevisions == 1)
            #expect(try storage.article("gone", account: alice) == nil)
            #expect(try storage.article("kept", account: alice)?.revision == kept2)
            #expect(try storage.article("fresh", account: alice)?.revision == freshGone)

            #expect(try storage.changes(account: alice, since: 0, limit: 10) == .resyncRequired)
            #expect(try storage.changes(account: alice, since: tombstone - 1, limit: 10) == .resyncRequired)
            #expect(try allChanges(storage, alice, since: tombstone).map(\.revision) == [fresh, freshGone])
            #expect(try storage.snapshot(account: alice, after: nil, limit: 10).articles.map(\.id) == ["kept"])
            #expect(try storage.purge(before: old + 500, unwantedBlobsBefore: old) == PurgeReport())
        }
    }

    @Test(arguments: StorageKind.allCases)
    func aClaimIsExclusiveAndItsAnswerIsStoredWithTheWrite(_ kind: StorageKind) throws {
        try withStorage(kind) { storage in
            let alice = try account(storage)
            let command = ArticleCommand(articleID: "a", action: .put(content("a"), .absent))
            let claim = OperationClaim(key: "k1", fingerprint: try command.fingerprint(), method: "PUT", articleID: "a",
                                       leaseUntil: Self.start + 30)
            #expect(try storage.claimOperation(claim, account: alice, now: Self.start) == .claimed)
            #expect(try storage.operation(key: "k1", account: alice)?.state == .running(leaseUntil: Self.start + 30))
            let rival = OperationClaim(key: "k1", fingerprint: claim.fingerprint, method: "PUT", articleID: "a",
                                       leaseUntil: Self.start + 31)
            guard case let .existing(running) = try storage.claimOperation(rival, account: alice, now: Self.start + 1),
                  case .running = running.state
            else {
                Issue.record("a second claim of a running key was not refused")
                return
            }

            let answer = try #require(try storage.apply(command, account: alice, claim: claim, now: Self.start + 2))
            #expect(answer.status == 201)
            let stored = try #require(try storage.operation(key: "k1", account: alice))
            #expect(stored.state == .completed(answer))
            #expect(stored.fingerprint == claim.fingerprint && stored.method == "PUT" && stored.articleID == "a")
            #expect(try storage.claimOperation(rival, account: alice, now: Self.start + 3) == .existing(stored))
            #expect(try storage.operation(key: "other", account: alice) == nil)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func anExpiredClaimIsTakenOverAndItsFirstHolderCannotComplete(_ kind: StorageKind) throws {
        try withStorage(kind) { storage in
            let alice = try account(storage)
            let command = ArticleCommand(articleID: "a", action: .put(content("a"), .absent))
            let fingerprint = try command.fingerprint()
            let dead = OperationClaim(key: "k", fingerprint: fingerprint, method: "PUT", articleID: "a", leaseUntil: Self.start + 30)
            #expect(try storage.claimOperation(dead, account: alice, now: Self.start) == .claimed)

            let other = OperationClaim(key: "k", fingerprint: "another request", method: "PUT", articleID: "a", leaseUntil: Self.start + 90)
            guard case .existing = try storage.claimOperation(other, account: alice, now: Self.start + 60) else {
                Issue.record("a different request took over the key")
                return
            }
            let retry = OperationClaim(key: "k", fingerprint: fingerprint, method: "PUT", articleID: "a", leaseUntil: Self.start + 90)
            #expect(try storage.claimOperation(retry, account: alice, now: Self.start + 60) == .claimed)

            #expect(try storage.apply(command, account: alice, claim: dead, now: Self.start + 61) == nil)
            #expect(try storage.article("a", account: alice) == nil)
            #expect(try storage.apply(command, account: alice, claim: retry, now: Self.start + 62)?.status == 201)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func anAbandonedClaimFreesItsKey(_ kind: StorageKind) throws {
        try withStorage(kind) { storage in
            let alice = try account(storage)
            let claim = OperationClaim(key: "k", fingerprint: "f", method: "PUT", articleID: "a", leaseUntil: Self.start + 30)
            #expect(try storage.claimOperation(claim, account: alice, now: Self.start) == .claimed)
            try storage.abandonOperation(claim, account: alice)
            #expect(try storage.operation(key: "k", account: alice) == nil)
            #expect(try storage.claimOperation(claim, account: alice, now: Self.start) == .claimed)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func accountsNeverSeeEachOthersArticlesKeysOrCursors(_ kind: StorageKind) throws {
        try withStorage(kind) { storage in
            let alice = try account(storage, "alice")
            let bob = try account(storage, "bob")
            let command = ArticleCommand(articleID: "shared-id", action: .put(content("alice's"), .absent))
            let claim = OperationClaim(key: "key", fingerprint: try command.fingerprint(), method: "PUT", articleID: "shared-id",
                                       leaseUntil: Self.start + 30)
            #expect(try storage.claimOperation(claim, account: alice, now: Self.start) == .claimed)
            let aliceRevision = try #require(RevisionTag.parse(try storage.apply(command, account: alice, claim: claim, now: Self.start)?.eTag))
            for round in 0..<3 { try write(storage, alice, "more\(round)", .put(content("m"), .absent)) }

            #expect(try storage.article("shared-id", account: bob) == nil)
            #expect(try storage.operation(key: "key", account: bob) == nil)
            #expect(try storage.changes(account: bob, since: 0, limit: 10) == .page(ChangesPage(changes: [], nextCursor: 0, hasMore: false)))
            #expect(try storage.changes(account: bob, since: aliceRevision, limit: 10) == .resyncRequired)
            #expect(try storage.snapshot(account: bob, after: nil, limit: 10).articles.isEmpty)
            #expect(try write(storage, bob, "shared-id", .put(content("x"), .revision(aliceRevision))) == (412, nil))
            #expect(try write(storage, bob, "shared-id", .delete(.revision(aliceRevision))).status == 404)

            let bobClaim = OperationClaim(key: "key", fingerprint: "bob's own", method: "PUT", articleID: "shared-id",
                                          leaseUntil: Self.start + 30)
            #expect(try storage.claimOperation(bobClaim, account: bob, now: Self.start) == .claimed)
            #expect(try write(storage, bob, "shared-id", .put(content("bob's"), .absent)).status == 201)
            #expect(try storage.article("shared-id", account: alice)?.article?.content == content("alice's"))
            #expect(try storage.article("shared-id", account: bob)?.article?.content == content("bob's"))
            #expect(try allChanges(storage, bob).count == 1)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func concurrentWritersGetOneSuccessPerBaseAndOrderedCursors(_ kind: StorageKind) throws {
        try withStorage(kind) { storage in
            let alice = try account(storage)
            try write(storage, alice, "hot", .put(content("0"), .absent))
            let successes = LockedList<(base: Int64, revision: Int64)>()
            let errors = LockedList<any Error>()
            let group = DispatchGroup()
            for worker in 0..<6 {
                group.enter()
                Thread {
                    defer { group.leave() }
                    do {
                        var base: Int64 = 0
                        for step in 0..<25 {
                            let command = ArticleCommand(articleID: "hot", action: .put(content("\(worker).\(step)"), .revision(base)))
                            let answer = try storage.apply(command, account: alice, claim: nil, now: Self.start)
                            if let answer, answer.isSuccess, let revision = RevisionTag.parse(answer.eTag) {
                                successes.append((base, revision))
                                base = revision
                            } else if let answer {
                                base = try SyncJSON.decoder().decode(Problem.self, from: Data(answer.body)).current?.revision ?? 0
                            }
                        }
                    } catch {
                        errors.append(error)
                    }
                }.start()
            }
            group.wait()
            #expect(errors.all.isEmpty, "\(errors.all)")
            let chain = successes.all.sorted { $0.revision < $1.revision }
            #expect(chain.count >= 25)
            #expect(Set(chain.map(\.base)).count == chain.count)
            #expect(zip(chain, chain.dropFirst()).allSatisfy { $1.base == $0.revision })
            let feed = try allChanges(storage, alice).dropFirst()
            #expect(feed.map(\.revision) == chain.map(\.revision))
        }
    }

    @Test(arguments: StorageKind.allCases)
    func reopenedStorageHoldsEverythingAndRefusesANewerSchema(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        defer { database.remove() }
        var storage = try database.open()
        let alice = try account(storage)
        try write(storage, alice, "a", .put(content("a"), .absent))
        storage.close()
        storage = try database.open()
        #expect(try storage.article("a", account: alice)?.article?.content == content("a"))
        _ = try #require(storage as? any SQLBackedStorage).withConnection(for: .writer) { connection in
            try connection.execute("UPDATE schema_info SET version = 99")
        }
        storage.close()
        #expect {
            try database.open()
        } throws: { error in
            guard case StorageError.incompatibleSchema(found: 99, supported: StorageSchema.version) = error else { return false }
            return true
        }
    }

    @Test func sqliteServesFromOneProcessAndDropsClaimsOfADeadOne() throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        let first = try database.open(serving: true)
        let alice = try account(first)
        let claim = OperationClaim(key: "k", fingerprint: "f", method: "PUT", articleID: "a", leaseUntil: .distantFuture)
        #expect(try first.claimOperation(claim, account: alice, now: Self.start) == .claimed)
        #expect {
            try database.open(serving: true)
        } throws: { error in
            guard case StorageError.dataDirectoryInUse = error else { return false }
            return true
        }
        let beside = try database.open()
        #expect(try beside.accounts().count == 1)
        beside.close()
        first.close()
        let second = try database.open(serving: true)
        defer { second.close() }
        #expect(try second.operation(key: "k", account: alice) == nil)
    }
}

/// A list that threads append to.
final class LockedList<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var elements: [Element] = []

    func append(_ element: Element) {
        lock.lock()
        elements.append(element)
        lock.unlock()
    }

    var all: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return elements
    }
}

/// The statement batch both engines use for a write: all or nothing inside a transaction, and the
/// connection stays usable after a failure (PostgreSQL runs it as one pipeline).
@Suite struct StatementBatchTests {
    @Test(arguments: StorageKind.allCases)
    func aFailingBatchRollsBackAndLeavesTheConnectionUsable(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        defer { database.remove() }
        let storage = try database.open()
        defer { storage.close() }
        let sqlStorage = try #require(storage as? any SQLBackedStorage)
        try sqlStorage.withConnection(for: .writer) { connection in
            try connection.execute("CREATE TABLE batch_test (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            let insert = "INSERT INTO batch_test (id, name) VALUES ($1, $2)"
            #expect(try connection.executeBatch([
                SQLStatement(insert, [.integer(1), .text("one")]), SQLStatement(insert, [.integer(2), .text("two")]),
                SQLStatement("UPDATE batch_test SET name = $1", [.text("all")]),
            ]) == [1, 1, 2])
            #expect(throws: StorageError.self) {
                try connection.transaction(.write) {
                    try connection.executeBatch([
                        SQLStatement(insert, [.integer(3), .text("three")]), SQLStatement(insert, [.integer(1), .text("again")]),
                        SQLStatement(insert, [.integer(4), .text("four")]),
                    ])
                }
            }
            #expect(try connection.all("SELECT id, name FROM batch_test ORDER BY id", []) { "\(try $0.integer(0)) \($0.text(1))" }
                == ["1 all", "2 all"])
        }
        // The pool hands the same connection out again; it must work.
        #expect(try storage.accounts().isEmpty)
        let count = try sqlStorage.withConnection(for: .writer) { connection in
            try connection.first("SELECT COUNT(*) FROM batch_test", []) { try $0.integer(0) }
        }
        #expect(count == 2)
    }
}

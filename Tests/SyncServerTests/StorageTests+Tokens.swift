import Foundation
@testable import SyncServer
import SyncProtocol
import Testing

extension StorageTests {
    @Test(arguments: StorageKind.allCases)
    func eachDeviceHasItsOwnTokenAndRevokingOneLeavesTheOthers(_ kind: StorageKind) throws {
        try withStorage(kind) { storage in
            let first = AccountToken.generate()
            let alice = try storage.addAccount(name: "alice", tokenHash: first.hash, tokenName: "desktop", at: Self.start).id
            let laptop = AccountToken.generate()
            let phone = AccountToken.generate()
            try storage.addToken(account: "alice", name: "laptop", tokenHash: laptop.hash, at: Self.start + 10)
            try storage.addToken(account: "alice", name: "phone", tokenHash: phone.hash, at: Self.start + 20)
            #expect(throws: StorageError.self) {
                try storage.addToken(account: "alice", name: "phone", tokenHash: AccountToken.generate().hash, at: Self.start)
            }
            #expect(throws: StorageError.self) {
                try storage.addToken(account: "nobody", name: "x", tokenHash: AccountToken.generate().hash, at: Self.start)
            }
            for token in [first, laptop, phone] { #expect(try storage.authenticate(tokenHash: token.hash, at: Self.start + 30) == alice) }

            #expect(try storage.revokeToken(account: "alice", name: "laptop", at: Self.start + 40))
            #expect(try !storage.revokeToken(account: "alice", name: "laptop", at: Self.start + 41))
            #expect(try storage.authenticate(tokenHash: laptop.hash, at: Self.start + 50) == nil)
            #expect(try storage.authenticate(tokenHash: phone.hash, at: Self.start + 50) == alice)
            // A revoked token's name is free again.
            try storage.addToken(account: "alice", name: "laptop", tokenHash: AccountToken.generate().hash, at: Self.start + 60)

            let listed = try storage.tokens(account: "alice")
            #expect(listed.map(\.name) == ["desktop", "laptop", "phone", "laptop"])
            #expect(listed[1].revokedAt == Self.start + 40 && listed[0].revokedAt == nil)
            #expect(listed[0].createdAt == Self.start && listed[0].lastUsedAt == Self.start + 30)
            #expect(listed[3].lastUsedAt == nil)

            #expect(try storage.revokeAccount(name: "alice", at: Self.start + 70))
            #expect(try storage.authenticate(tokenHash: phone.hash, at: Self.start + 80) == nil)
            #expect(throws: StorageError.self) { try storage.tokens(account: "alice") }
        }
    }

    @Test(arguments: StorageKind.allCases)
    func lastUseIsNotedAtMostOnceAMinute(_ kind: StorageKind) throws {
        try withStorage(kind) { storage in
            let token = AccountToken.generate()
            _ = try storage.addAccount(name: "alice", tokenHash: token.hash, at: Self.start)
            for offset in [0.0, 30, 59] { _ = try storage.authenticate(tokenHash: token.hash, at: Self.start + offset) }
            #expect(try storage.tokens(account: "alice")[0].lastUsedAt == Self.start)
            _ = try storage.authenticate(tokenHash: token.hash, at: Self.start + 61)
            #expect(try storage.tokens(account: "alice")[0].lastUsedAt == Self.start + 61)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func deletingAnAccountRemovesAllItsDataAndNothingElse(_ kind: StorageKind) throws {
        try withStorage(kind) { storage in
            let alice = try account(storage, "alice")
            let bob = try account(storage, "bob")
            for id in ["a", "b", "c"] { try write(storage, alice, id, .put(content(id), .absent)) }
            let c = try #require(try storage.article("c", account: alice)?.revision)
            try write(storage, alice, "c", .delete(.revision(c)))
            try write(storage, bob, "a", .put(content("bob's"), .absent))
            let claim = OperationClaim(key: "k", fingerprint: "f", method: "PUT", articleID: "a", leaseUntil: Self.start + 30)
            _ = try storage.claimOperation(claim, account: alice, now: Self.start)
            try storage.addToken(account: "alice", name: "phone", tokenHash: AccountToken.generate().hash, at: Self.start)

            let removed = try #require(try storage.deleteAccount(name: "alice"))
            #expect(removed == {
                var expected = AccountDeletion(articles: 2)
                expected.revisions = 4
                expected.idempotencyRecords = 1
                expected.tokens = 2
                return expected
            }())
            #expect(try storage.deleteAccount(name: "alice") == nil)
            #expect(try storage.accounts().map(\.name) == ["bob"])
            #expect(try storage.article("a", account: alice) == nil)
            #expect(try storage.article("a", account: bob)?.article?.content == content("bob's"))
            #expect(try allChanges(storage, bob).count == 1)
            // The name may be used again, by a new account.
            _ = try account(storage, "alice")
        }
    }

    @Test(arguments: StorageKind.allCases)
    func aVersionOneDatabaseKeepsItsTokensWhenUpgraded(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        defer { database.remove() }
        let token = AccountToken.generate()
        do {
            let storage = try database.open()
            defer { storage.close() }
            let alice = try storage.addAccount(name: "alice", tokenHash: token.hash, at: Self.start).id
            try write(storage, alice, "a", .put(content("a"), .absent))
            _ = try storage.addAccount(name: "gone", tokenHash: AccountToken.generate().hash, at: Self.start)
            _ = try storage.revokeAccount(name: "gone", at: Self.start + 1)
            // What a version 1 server left: no tokens, no rate buckets, the token hash on the account.
            try #require(storage as? any SQLBackedStorage).withConnection(for: .writer) { connection in
                for statement in ["DROP TABLE rate_buckets", "DROP TABLE tokens", "UPDATE schema_info SET version = 1"] {
                    try connection.execute(statement)
                }
            }
        }
        let storage = try database.open()
        defer { storage.close() }
        let alice = try #require(try storage.authenticate(tokenHash: token.hash, at: Self.start + 5))
        #expect(try storage.article("a", account: alice)?.article?.content == content("a"))
        #expect(try storage.tokens(account: "alice").map(\.name) == ["default"])
        let version = try #require(storage as? any SQLBackedStorage).withConnection(for: .reader) { connection in
            try connection.first("SELECT version FROM schema_info", []) { try $0.integer(0) }
        }
        #expect(version == Int64(StorageSchema.version))
    }
}

import Foundation
import Platform
@testable import SyncServer
import SyncProtocol
import Testing

/// The purge collects blobs no article refers to any more, on both storages, and never one a
/// stored revision still refers to or one within its grace: just uploaded for an article whose
/// push has not arrived yet, or just asked for with `HEAD` by a client about to send an article
/// that needs it (a 424 after a `HEAD` said "held" would refuse that article for good).
@Suite struct BlobCollectionTests {
    static let day: TimeInterval = 24 * 3600

    @Test(arguments: StorageKind.allCases)
    func onlyBlobsNoRevisionRefersToAndNobodyWantedWithinTheGraceAreCollected(_ kind: StorageKind) throws {
        let server = try TestServer(kind) { $0.blobQuotaBytes = 20_000 }
        defer { server.stop() }
        let token = AccountToken.generate()
        let alice = try server.storage.addAccount(name: "alice", tokenHash: token.hash, at: Date()).id
        let client = server.client(token.text)
        let bob = server.client(try server.addAccount("bob"))
        let longAgo = Date() - 3 * Self.day
        func stored(_ seed: UInt8, at date: Date = longAgo) throws -> String {
            let bytes = BlobRequestTests.bytes(3000, seed: seed)
            #expect(try server.storage.storeBlob(SHA256.hex(bytes), bytes: bytes, account: alice, quota: nil, at: date) == .stored)
            return SHA256.hex(bytes)
        }
        func head(_ digest: String, _ who: LoopbackClient? = nil) throws -> Int { try (who ?? client).send("HEAD", SyncPath.blob(digest)).status }
        let current = try stored(1)
        let superseded = try stored(2)
        let forgotten = try stored(3)
        let askedFor = try stored(4)
        let fresh = BlobRequestTests.bytes(3000, seed: 5)
        #expect(try client.send("PUT", SyncPath.blob(SHA256.hex(fresh)), headers: [SyncHeader.contentType: SyncMediaType.octetStream],
                                body: fresh).status == 201)
        // Bob holds the same bytes as alice's forgotten blob: collecting hers leaves his.
        let bobsCopy = BlobRequestTests.bytes(3000, seed: 3)
        #expect(try bob.send("PUT", SyncPath.blob(forgotten), headers: [SyncHeader.contentType: SyncMediaType.octetStream],
                             body: bobsCopy).status == 201)

        let first = try #require(try client.create("a", ArticlePayload(
            title: "A", body: "![one](attachment:\(current)/one.png) ![two](attachment:\(superseded)/two.png)")).revision)
        #expect(try client.update("a", ArticlePayload(title: "A", body: "![one](attachment:\(current)/one.png)"), base: first).status == 200)
        // A client about to push an article referring to this one asks first; the answer starts its grace.
        #expect(try head(askedFor) == 200)
        // Five blobs of 3,000 bytes: a sixth does not fit under the quota.
        let sixth = BlobRequestTests.bytes(6000, seed: 6)
        func putSixth() throws -> Int {
            try client.send("PUT", SyncPath.blob(SHA256.hex(sixth)), headers: [SyncHeader.contentType: SyncMediaType.octetStream],
                            body: sixth).status
        }
        #expect(try putSixth() == 507)

        // Revisions are kept (30 days): only the blob nothing refers to and nobody wanted goes.
        let now = Date()
        let report = try server.storage.purge(before: now - 30 * Self.day, unwantedBlobsBefore: now - Self.day)
        #expect(report.blobs == 1 && report.blobBytes == 3000)
        #expect(try head(forgotten) == 404)
        #expect(try [current, superseded, askedFor, SHA256.hex(fresh)].map { try head($0) } == [200, 200, 200, 200])
        #expect(try head(forgotten, bob) == 200)
        // Its room is the account's again.
        #expect(try putSixth() == 201)
        // An article referring to it now is refused until a client uploads it again.
        let refused = try client.create("b", ArticlePayload(title: "B", body: "![x](attachment:\(forgotten)/x.png)"))
        #expect(refused.status == 424 && refused.problem?.missingBlobs == [forgotten])

        // With every grace over, the blobs nothing refers to go (bob's too); those the stored
        // revisions refer to, the current one and the superseded one, stay.
        let graceOver = Date() + Self.day
        let unwanted = try server.storage.purge(before: now - 30 * Self.day, unwantedBlobsBefore: graceOver)
        #expect(unwanted.blobs == 4 && unwanted.blobBytes == 3000 + 3000 + 6000 + 3000)
        #expect(try [askedFor, SHA256.hex(fresh), SHA256.hex(sixth)].map { try head($0) } == [404, 404, 404])
        #expect(try [current, superseded].map { try head($0) } == [200, 200])

        // Once the superseded revision itself is purged, its blob goes; the current article's stays.
        let superseding = try server.storage.purge(before: graceOver, unwantedBlobsBefore: graceOver)
        #expect(superseding.supersededRevisions == 1 && superseding.blobs == 1)
        #expect(try head(superseded) == 404)
        let read = try client.send("GET", SyncPath.blob(current))
        #expect(read.status == 200 && SHA256.hex(read.body) == current)
    }

    /// A version 4 database has no `wanted_at`: its blobs count as wanted when uploaded.
    @Test(arguments: StorageKind.allCases)
    func aVersionFourDatabaseGetsWantedTimesFromItsUploads(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        defer { database.remove() }
        let bytes = BlobRequestTests.bytes(1000, seed: 9)
        let uploaded = Date(timeIntervalSince1970: 1_800_000_000)
        let alice: AccountID
        do {
            let storage = try database.open()
            defer { storage.close() }
            alice = try storage.addAccount(name: "alice", tokenHash: AccountToken.generate().hash, at: uploaded).id
            #expect(try storage.storeBlob(SHA256.hex(bytes), bytes: bytes, account: alice, quota: nil, at: uploaded) == .stored)
            try #require(storage as? any SQLBackedStorage).withConnection(for: .writer) { connection in
                try connection.execute("ALTER TABLE blobs DROP COLUMN wanted_at")
                try connection.execute("UPDATE schema_info SET version = 4")
            }
        }
        let storage = try database.open()
        defer { storage.close() }
        #expect(try storage.purge(before: uploaded - Self.day, unwantedBlobsBefore: uploaded).blobs == 0)
        #expect(try storage.purge(before: uploaded - Self.day, unwantedBlobsBefore: uploaded + 1).blobs == 1)
        #expect(try storage.blob(SHA256.hex(bytes), account: alice) == nil)
    }
}

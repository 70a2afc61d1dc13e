import Foundation
import Platform
@testable import SyncServer
import SyncProtocol
import Testing

/// Blobs over loopback on both storages: upload, dedup, reads, the checks that refuse an upload,
/// the isolation of accounts, and articles that refer to blobs.
@Suite struct BlobRequestTests {
    /// Bytes that differ per test and are not all zero (a PNG header, then a counter).
    static func bytes(_ count: Int, seed: UInt8 = 1) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47] + (0..<max(0, count - 4)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    func withServer(_ kind: StorageKind, configure: (inout ServerConfiguration) -> Void = { _ in },
                    _ body: (TestServer, LoopbackClient) throws -> Void) throws {
        let server = try TestServer(kind) { configure(&$0) }
        defer { server.stop() }
        try body(server, server.client(try server.addAccount("alice")))
    }

    func put(_ client: LoopbackClient, _ bytes: [UInt8], as digest: String? = nil) throws -> TestResponse {
        try client.send("PUT", SyncPath.blob(digest ?? SHA256.hex(bytes)),
                        headers: [SyncHeader.contentType: SyncMediaType.octetStream], body: bytes)
    }

    @Test(arguments: StorageKind.allCases)
    func anUploadIsStoredOnceAndReadBackByteForByte(_ kind: StorageKind) throws {
        try withServer(kind) { _, client in
            let image = Self.bytes(300_000)
            let digest = SHA256.hex(image)
            #expect(try client.send("HEAD", SyncPath.blob(digest)).status == 404)
            let first = try put(client, image)
            #expect(first.status == 201 && first.header(SyncHeader.location) == SyncPath.blob(digest))
            #expect(try put(client, image).status == 200)
            let head = try client.send("HEAD", SyncPath.blob(digest))
            #expect(head.status == 200 && head.header(SyncHeader.blobSize) == String(image.count))
            let read = try client.send("GET", SyncPath.blob(digest))
            #expect(read.status == 200 && read.header(SyncHeader.contentType) == SyncMediaType.octetStream)
            #expect(SHA256.hex(read.body) == digest && read.body == image)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func bytesThatDoNotHashToTheirNameAreRefusedAndNothingIsStored(_ kind: StorageKind) throws {
        try withServer(kind) { _, client in
            let image = Self.bytes(1000)
            let claimed = SHA256.hex(Self.bytes(1000, seed: 2))
            let refused = try put(client, image, as: claimed)
            #expect(refused.status == 422 && refused.problem?.type == .blobDigestMismatch)
            #expect(refused.problem?.detail?.contains(SHA256.hex(image)) == true)
            #expect(try client.send("HEAD", SyncPath.blob(claimed)).status == 404)
            #expect(try client.send("HEAD", SyncPath.blob(SHA256.hex(image))).status == 404)
            let badName = try put(client, image, as: "ABC")
            #expect(badName.status == 400 && badName.problem?.field == "sha256")
        }
    }

    @Test(arguments: StorageKind.allCases)
    func oneAccountCannotReadDetectOrOverwriteAnothersBlob(_ kind: StorageKind) throws {
        try withServer(kind) { server, alice in
            let bob = server.client(try server.addAccount("bob"))
            let secret = Self.bytes(5000, seed: 9)
            let digest = SHA256.hex(secret)
            #expect(try put(alice, secret).status == 201)

            let unknown = SHA256.hex(Self.bytes(5000, seed: 10))
            for (method, path) in [("HEAD", SyncPath.blob(digest)), ("GET", SyncPath.blob(digest))] {
                let theirs = try bob.send(method, path)
                let nobodys = try bob.send(method, SyncPath.blob(unknown))
                // The same answer as for a blob nobody has: status, headers but the date, body.
                #expect(theirs.status == 404 && nobodys.status == 404)
                #expect(theirs.body == nobodys.body)
                #expect(theirs.headers.filter { $0.key != "date" } == nobodys.headers.filter { $0.key != "date" })
            }
            // Bob's article may not refer to it until bob uploads the bytes himself.
            let refused = try bob.create("b1", ArticlePayload(title: "B", body: "![x](attachment:\(digest)/x.png)"))
            #expect(refused.status == 424 && refused.problem?.missingBlobs == [digest])
            // Bob's own upload is his own copy (201, counted for him); bytes that do not match
            // cannot replace alice's.
            #expect(try put(bob, Self.bytes(5000, seed: 11), as: digest).status == 422)
            #expect(try put(bob, secret).status == 201)
            #expect(try alice.send("GET", SyncPath.blob(digest)).body == secret)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func theQuotaAndTheSizeLimitRefuseWithASentence(_ kind: StorageKind) throws {
        try withServer(kind, configure: {
            $0.blobQuotaBytes = 10_000
            $0.maximumBlobBytes = 8_000
        }) { _, client in
            #expect(try put(client, Self.bytes(6000)).status == 201)
            let full = try put(client, Self.bytes(6000, seed: 3))
            #expect(full.status == 507 && full.problem?.type == .quotaExceeded)
            #expect(full.problem?.detail?.contains("6000 of its 10000 bytes") == true)
            #expect(try client.send("HEAD", SyncPath.blob(SHA256.hex(Self.bytes(6000, seed: 3)))).status == 404)
            // The same bytes again take no more room: still 200.
            #expect(try put(client, Self.bytes(6000)).status == 200)
            #expect(try put(client, Self.bytes(4000, seed: 4)).status == 201)

            let large = try put(client, Self.bytes(8001, seed: 5))
            #expect(large.status == 413 && large.problem?.detail?.contains("at most 8000 bytes") == true)
        }
    }

    /// Only the headers are sent: without the screen before the body, the server would wait
    /// for 5 MB it reads into memory before looking at the token, and answer nothing here.
    @Test func anUploadWithoutAKnownTokenIsRefusedBeforeItsBodyIsRead() throws {
        try withServer(.sqlite) { server, _ in
            let digest = SHA256.hex(Self.bytes(5_000_000))
            for token in [nil, "not-a-token"] {
                var lines = ["PUT \(SyncPath.blob(digest)) HTTP/1.1", "Host: 127.0.0.1",
                             "Content-Type: \(SyncMediaType.octetStream)", "Content-Length: 5000000"]
                if let token { lines.append("Authorization: Bearer \(token)") }
                let head = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
                let answer = try #require(try server.client(nil).raw(head))
                #expect(answer.status == 401 && answer.header("connection")?.lowercased() == "close")
            }
        }
    }

    @Test(arguments: StorageKind.allCases)
    func anArticleIsTakenOnlyWhenTheAccountHoldsEveryBlobItRefersTo(_ kind: StorageKind) throws {
        try withServer(kind) { _, client in
            let first = Self.bytes(2000, seed: 6)
            let second = Self.bytes(2000, seed: 7)
            let body = "![a](attachment:\(SHA256.hex(first))/a.png) and `attachment:\(SHA256.hex(second))/b.gif`"
            let draft = ArticlePayload(title: "Pictures", body: body)
            #expect(try put(client, first).status == 201)
            let refused = try client.create("p1", draft, key: "k1")
            #expect(refused.status == 424 && refused.problem?.missingBlobs == [SHA256.hex(second)])
            #expect(try client.send("GET", SyncPath.article("p1")).status == 404)
            #expect(try put(client, second).status == 201)
            // The same write under the same key goes through: the refusal was not stored under it.
            #expect(try client.create("p1", draft, key: "k1").status == 201)
        }
    }

    @Test func healthNamesTheBlobLimitAndAnOlderServerKeepsNoBlobs() throws {
        try withServer(.sqlite) { _, client in
            let health = try client.send("GET", SyncPath.health).decode(HealthStatus.self)
            #expect(health.protocolVersion >= ProtocolVersion.blobs && health.maximumBlobBytes == 25 * 1024 * 1024)
        }
        try withServer(.sqlite, configure: { $0.protocolVersion = ProtocolVersion.blobs - 1 }) { _, client in
            let health = try client.send("GET", SyncPath.health).decode(HealthStatus.self)
            #expect(health.maximumBlobBytes == nil)
            let digest = SHA256.hex(Self.bytes(10))
            #expect(try client.create("o1", ArticlePayload(title: "Old", body: "![a](attachment:\(digest)/a.png)")).status == 201)
        }
    }
}

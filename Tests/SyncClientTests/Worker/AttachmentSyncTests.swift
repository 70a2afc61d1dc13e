import Foundation
import Library
import Platform
import SyncProtocol
import SyncTestSupport
import Testing
@testable import SyncClient

/// Attachments between two libraries through a real server: the blobs go up before the article
/// that refers to them, whatever the network does, and come down into the other library with the
/// same bytes.
@Suite struct AttachmentSyncTests {
    /// An image-like blob of `count` bytes that differs per `seed`.
    static func image(_ count: Int, seed: UInt8) -> Data {
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<(count - 8)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ Int(seed)) })
    }

    /// An article on `device` with an attachment of `bytes` that its body refers to.
    static func articleWithImage(on device: ClientLibrary, _ bytes: Data, name: String) async throws -> (UUID, AttachmentReference) {
        let article = try await device.library.createArticle(ArticleContent(title: "With a picture", body: "Before.\n"))
        let attachment = try await device.library.addAttachment(to: article.id, fileName: name, data: bytes)
        try await device.library.editArticle(article.id, body: "Before.\n\n" + attachment.reference.markdown(mediaType: attachment.mediaType) + "\n")
        return (article.id, attachment.reference)
    }

    /// Syncs `device` until `done` holds (a cycle may end early under faults), at most 30 cycles.
    static func sync(_ worker: SyncWorker, until done: () async throws -> Bool) async throws {
        for _ in 0..<30 {
            _ = try? await worker.synchronize(settling: 2)
            if try await done() { return }
        }
        Issue.record("did not converge in 30 cycles")
    }

    @Test(.timeLimit(.minutes(2)))
    func anImageReachesTheOtherLibraryWithIdenticalBytesThroughFaults() async throws {
        let server = try TestServer()
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop(); server.stop() }
        let token = try server.addAccount()
        let a = try ClientLibrary("attach-a")
        let b = try ClientLibrary("attach-b")
        defer { a.remove(); b.remove() }
        let bytes = Self.image(600_000, seed: 3)
        let (articleID, reference) = try await Self.articleWithImage(on: a, bytes, name: "photo 1.png")

        // Every kind of fault on the blob's HEAD and PUT and on the article's PUT (the health
        // check before them goes through).
        proxy.script([.none, .dropRequest, .dropResponse, .cutRequestMidBody, .cutResponseMidBody, .answer(status: 503, retryAfter: "1"),
                      .duplicateRequest, .dropResponse, .cutRequestMidBody])
        let workerA = a.worker(server, token: token, port: proxy.port, timeout: 2)
        try await Self.sync(workerA) { try await server.articles(token: token)[articleID] != nil }
        let blobRequests = proxy.log.filter { $0.request.contains(SyncPath.blob(reference.sha256)) }.count
        let articleRequests = proxy.log.map(\.request).filter { $0.hasPrefix("PUT " + SyncPath.article(articleID.uuidString)) }
        #expect(blobRequests >= 2 && !articleRequests.isEmpty)
        // The article never reached the server before its blob: the server would have said 424.
        #expect(try await a.waitingOperations() == 0)
        #expect(try await server.transport(token: token).blob(reference.sha256) == .success(bytes))

        proxy.script([.none, .cutResponseMidBody, .dropResponse, .cutResponseMidBody])
        let workerB = b.worker(server, token: token, port: proxy.port, timeout: 2)
        try await Self.sync(workerB) { (try? await b.library.attachments(of: articleID))?.isEmpty == false }
        let downloaded = try #require(try await b.library.attachmentData(sha256: reference.sha256, of: articleID))
        #expect(SHA256.hex(downloaded) == SHA256.hex(bytes) && downloaded == bytes)
        #expect(try await b.library.attachments(of: articleID).map(\.fileName) == ["photo 1.png"])
        #expect(try await b.articles()[articleID]?.body.contains(reference.uri) == true)
    }

    @Test(.timeLimit(.minutes(1)))
    func largeImagesAndOtherFilesWaitUntilFirstUse() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let token = try server.addAccount()
        let a = try ClientLibrary("lazy-a")
        let b = try ClientLibrary("lazy-b")
        defer { a.remove(); b.remove() }
        let big = Self.image(300_000, seed: 5)
        let (articleID, reference) = try await Self.articleWithImage(on: a, big, name: "big.png")
        try await a.sync(server, token: token)

        let workerB = b.worker(server, token: token) { $0.eagerAttachmentBytes = 200_000 }
        let summary = try await workerB.synchronize(settling: 2)
        #expect(summary.attachmentsDownloaded == 0)
        #expect(try await b.library.attachments(of: articleID).isEmpty)
        #expect(try await workerB.fetchAttachment(reference, of: articleID) == .bytes(big))
        #expect(try await b.library.attachments(of: articleID).map(\.sha256) == [reference.sha256])
    }

    @Test(.timeLimit(.minutes(1)))
    func whatAPullLeftIsFetchedWhenAskedForAndWhatStaysUnavailableIsNamedWithWhy() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let token = try server.addAccount()
        let a = try ClientLibrary("fetch-a")
        let b = try ClientLibrary("fetch-b")
        defer { a.remove(); b.remove() }
        let poster = Self.image(300_000, seed: 8)
        let (pulledID, reference) = try await Self.articleWithImage(on: a, poster, name: "poster.png")
        try await a.sync(server, token: token)
        let workerB = b.worker(server, token: token) { $0.eagerAttachmentBytes = 100_000 }
        _ = try await workerB.synchronize(settling: 2)
        #expect(try await b.library.attachments(of: pulledID).isEmpty)
        // A reference typed by hand, to bytes nobody has.
        let typed = AttachmentReference(sha256: SHA256.hex(Data("nobody has these".utf8)), fileName: "typed.png")
        let local = try await b.library.createArticle(ArticleContent(title: "Typed", body: "![t](\(typed.uri))\n"))

        // Offline (nothing listens on the port any more): each is named, nothing waits for long.
        let gone = try TestServer()
        let offline = b.worker(server, token: token, port: gone.port)
        gone.stop()
        let whileOffline = try await offline.fetchMissingAttachments(in: [pulledID, local.id])
        #expect(whileOffline.map(\.missing.reference) == [reference, typed])
        #expect(try whileOffline.map { try $0.fetch.get() } == [.unreachable, .unreachable])
        #expect(try await offline.fetchAttachment(reference, of: pulledID) == .unreachable)
        let checkedOffline = try await offline.checkMissingAttachments(in: [pulledID, local.id])
        #expect(try checkedOffline.map(\.missing.reference) == [reference, typed] && checkedOffline.map { try $0.fetch.get() } == [.unreachable, .unreachable])

        // Asked with HEAD only: the typed one is not on the server, the image is, and stays there.
        let checked = try await workerB.checkMissingAttachments(in: [pulledID, local.id])
        #expect(try checked.map(\.missing.reference) == [typed] && checked.map { try $0.fetch.get() } == [.notOnServer])
        #expect(try await b.library.attachments(of: pulledID).isEmpty)

        // Online: the image comes down with its bytes; the typed one is not on the server.
        let online = try await workerB.fetchMissingAttachments(in: [pulledID, local.id])
        #expect(try online.map(\.missing.reference) == [typed] && online.map { try $0.fetch.get() } == [.notOnServer])
        #expect(try await b.library.attachmentData(sha256: reference.sha256, of: pulledID) == poster)
        #expect(try await b.library.attachments(of: pulledID).map(\.mediaType) == [AttachmentMediaType.png])
        #expect(try await workerB.fetchMissingAttachments(in: [pulledID]).isEmpty)
    }

    @Test(.timeLimit(.minutes(1)))
    func anOlderServerGetsTheArticleAndNoBlobRequest() async throws {
        let server = try TestServer { $0.protocolVersion = ProtocolVersion.blobs - 1 }
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop(); server.stop() }
        let token = try server.addAccount()
        let a = try ClientLibrary("old-a")
        defer { a.remove() }
        let (articleID, _) = try await Self.articleWithImage(on: a, Self.image(1000, seed: 7), name: "a.png")
        let summary = try await a.worker(server, token: token, port: proxy.port).synchronize(settling: 2)
        #expect(summary.pushed == 1 && summary.refused == 0)
        #expect(summary.status.serverKeepsNoAttachments)
        #expect(try await server.articles(token: token)[articleID] != nil)
        #expect(!proxy.log.contains { $0.request.contains("/v1/blobs/") })
    }
}

import Foundation
import Library
import Platform
import SyncTestSupport
import Testing
@testable import SyncClient

/// `SyncWorker.checkMissingAttachments`: what an export could not have, learnt from a real server
/// with `HEAD` alone (the requests read through a proxy), nothing downloaded.
@Suite struct AttachmentCheckTests {
    @Test(.timeLimit(.minutes(1)))
    func theServerIsAskedOncePerDigestAndNothingIsDownloaded() async throws {
        let server = try TestServer()
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop(); server.stop() }
        let token = try server.addAccount()
        let a = try ClientLibrary("check-a")
        let b = try ClientLibrary("check-b")
        defer { a.remove(); b.remove() }
        let poster = AttachmentSyncTests.image(300_000, seed: 9)
        let (pulledID, reference) = try await AttachmentSyncTests.articleWithImage(on: a, poster, name: "poster.png")
        try await a.sync(server, token: token)
        _ = try await b.worker(server, token: token) { $0.eagerAttachmentBytes = 100_000 }.synchronize(settling: 2)
        // The poster referred to a second time, and a reference typed by hand to bytes nobody has.
        let typed = AttachmentReference(sha256: SHA256.hex(Data("nobody has these".utf8)), fileName: "typed.png")
        let local = try await b.library.createArticle(
            ArticleContent(title: "Typed", body: "![t](\(typed.uri))\n\n![again](\(reference.uri))\n"))

        let found = try await b.worker(server, token: token, port: proxy.port).checkMissingAttachments(in: [pulledID, local.id])
        #expect(try found.map(\.missing.reference) == [typed] && found.map { try $0.fetch.get() } == [.notOnServer])
        #expect(try await b.library.attachments(of: pulledID).isEmpty, "nothing was downloaded")
        let blobRequests = proxy.log.map { $0.request.split(separator: " ").prefix(2).joined(separator: " ") }
            .filter { $0.contains("/v1/blobs/") }
        #expect(blobRequests.sorted() == ["HEAD /v1/blobs/\(reference.sha256)", "HEAD /v1/blobs/\(typed.sha256)"].sorted())

        // Offline (nothing listens on the port any more): every reference is named, none waits.
        let gone = try TestServer()
        let offline = b.worker(server, token: token, port: gone.port)
        gone.stop()
        let whileOffline = try await offline.checkMissingAttachments(in: [pulledID, local.id])
        #expect(try whileOffline.count == 3 && whileOffline.allSatisfy { try $0.fetch.get() == .unreachable })
        #expect(Set(whileOffline.map(\.missing.reference)) == [reference, typed])
    }
}

import Foundation
import Library
import QuireTestSupport
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing
@testable import SyncClient

/// What the client lets through to a server: no unencrypted HTTP to another computer unless the
/// writer allows it, and HTTPS to a self-signed server through a CA file of the writer's.
@Suite struct SecureConnectionTests {
    @Test func unencryptedHTTPIsForThisComputerUnlessTheWriterAllowsIt() async throws {
        for safe in ["http://127.0.0.1:7740", "http://127.0.0.2", "http://localhost:7740", "http://[::1]:7740", "https://sync.example.org"] {
            #expect(SyncAccount.insecurity(of: URL(string: safe)!) == nil, "\(safe)")
        }
        let remote = URL(string: "http://192.0.2.7:7740")!
        let explanation = try #require(SyncAccount.insecurity(of: remote))
        #expect(explanation.contains("unencrypted") && explanation.contains("--allow-insecure"))

        // The settings refuse to keep such an account, and keep it once allowed.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-insecure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let settings = AccountSettings(libraryURL: folder.appendingPathComponent("library.quire"), keyring: nil)
        #expect(throws: AccountError.insecureServer(explanation)) { try settings.save(SyncAccount(server: remote, token: "qtk_x")) }
        #expect(try settings.load() == nil)
        try settings.save(SyncAccount(server: remote, token: "qtk_x", allowsInsecureHTTP: true))
        #expect(try settings.load()?.account.allowsInsecureHTTP == true)

        // A transport not told otherwise refuses before connecting (192.0.2.0/24 is unroutable:
        // an attempt would time out instead).
        let transport = URLSessionTransport(configuration: .init(server: remote, token: "qtk_x", requestTimeout: 30))
        do {
            _ = try await transport.changes(since: 0, limit: nil)
            Issue.record("the request went out")
        } catch {
            guard case let .notSent(failure) = error else { Issue.record("\(error)"); return }
            #expect(failure.reason == explanation)
        }
    }

    @Test func aCertificateAuthorityFileLetsTheClientSyncWithASelfSignedServer() async throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let server = try TestServer { $0.tlsFiles = certificates.files() }
        defer { server.stop() }
        let token = try server.addAccount()

        // Through libcurl with the CA file: every kind of request.
        let trusting = server.transport(token: token, authority: certificates.authority)
        guard case .success = try await trusting.health() else { Issue.record("no health over TLS"); return }
        let device = try ClientLibrary("tls")
        defer { device.remove() }
        let article = try await device.library.createArticle(ArticleContent(title: "Over TLS", body: "Encrypted.\n"))
        let worker = SyncWorker(library: device.library, transport: trusting, configuration: .forTests(server: server.url(https: true)))
        let summary = try await worker.synchronize(settling: 5)
        #expect(summary.pushed == 1)
        guard case let .success(page) = try await trusting.changes(since: 0, limit: 10) else { Issue.record("no page"); return }
        #expect(page.changes.map(\.id) == [article.id.uuidString.lowercased()] || page.changes.map(\.id) == [article.id.uuidString])

        // libcurl with another authority refuses the certificate before anything is sent;
        // URLSession with the system's authorities refuses it too (FoundationNetworking reports
        // that as an unknown error, which the transport counts as a maybe-sent request).
        let other = try TestCertificates()
        defer { other.remove() }
        await #expect {
            _ = try await server.transport(token: token, authority: other.authority).changes(since: 0, limit: nil)
        } throws: { error in
            guard case let .notSent(failure) = error as? TransportError else { return false }
            return failure.urlErrorCode == URLError.serverCertificateUntrusted.rawValue
        }
        await #expect(throws: TransportError.self) {
            _ = try await URLSessionTransport(configuration: .init(server: server.url(https: true), token: token))
                .changes(since: 0, limit: nil)
        }

        // The command line: --ca-file, and a clear refusal of http:// to another computer.
        let quire = try #require(QuireCommand())
        let cli = try ClientLibrary("tls-cli")
        defer { cli.remove() }
        let synced = try await quire.run(["sync", "--server", server.url(https: true).absoluteString, "--token", token,
                                          "--ca-file", certificates.authority.path], library: cli.library.url)
        #expect(synced.status == 0, "\(synced.error)")
        #expect(try await cli.articles()[article.id]?.title == "Over TLS")
        let refused = try await quire.run(["sync", "--server", "http://192.0.2.7:7740", "--token", token], library: cli.library.url)
        #expect(refused.status != 0 && refused.error.contains("--allow-insecure"))
    }
}

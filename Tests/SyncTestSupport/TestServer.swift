import Foundation
import SyncClient
import SyncServer

/// A `QuireServer` in the test process on an ephemeral loopback port, with a SQLite database in
/// a temporary folder, for the tests of its clients (SyncClientTests, QuireUITests), through
/// SyncServer's public interface only. (SyncServerTests has its own, on SQLite or PostgreSQL and
/// with a log the test reads.)
public final class TestServer: Sendable {
    /// The folder holding the server's data.
    public let folder: URL
    /// The server's storage, for accounts and for what a test checks on the server's side.
    public let storage: any SyncStorage
    /// The server.
    public let server: QuireServer

    /// The port it listens on.
    public var port: UInt16 { server.address.port }

    /// A server on a new folder and a free port, or on `folder` and `port` when it restarts.
    public init(folder existing: URL? = nil, port: UInt16 = 0, configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        folder = existing ?? FileManager.default.temporaryDirectory.appendingPathComponent("quire-syncclient-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = ServerConfiguration()
        configuration.listen = ListenAddress(host: "127.0.0.1", port: port)
        configuration.threads = 4
        configuration.rateLimit = nil
        configuration.purgeInterval = 0
        // Requests a fault cut in half would hold a longer shutdown for the whole grace.
        configuration.shutdownGrace = 0.2
        configure(&configuration)
        storage = try Self.location(folder).open(serving: true, connections: 4)
        server = try QuireServer(configuration: configuration, storage: storage, log: .discarding)
    }

    /// Adds an account and answers its token.
    public func addAccount(_ name: String = "alice") throws -> String {
        let token = AccountToken.generate()
        _ = try storage.addAccount(name: name, tokenHash: token.hash, at: Date())
        return token.text
    }

    /// A transport straight to the server (or to `port`, a proxy in front of it); with
    /// `authority`, over HTTPS trusting that CA file.
    public func transport(token: String, port: UInt16? = nil, timeout: TimeInterval = 10, maximumAnswerBytes: Int = 64 << 20,
                   authority: URL? = nil) -> URLSessionTransport
    {
        URLSessionTransport(configuration: .init(
            server: URL(string: "\(authority == nil ? "http" : "https")://127.0.0.1:\(port ?? self.port)")!, token: token,
            requestTimeout: timeout, maximumAnswerBytes: maximumAnswerBytes, certificateAuthority: authority))
    }

    /// The server's base URL.
    public func url(https: Bool = false) -> URL { URL(string: "\(https ? "https" : "http")://127.0.0.1:\(port)")! }

    /// Where a server on `folder` keeps its data.
    public static func location(_ folder: URL) -> StorageLocation { .sqlite(directory: folder.appendingPathComponent("data")) }

    /// Stops serving and keeps the data, for a restart on the same folder and port.
    public func shutDown() { server.shutdown() }

    /// Stops serving and removes the data.
    public func stop() {
        server.shutdown()
        try? FileManager.default.removeItem(at: folder)
    }
}

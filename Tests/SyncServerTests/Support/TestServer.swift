import Foundation
import Synchronization
@testable import SyncServer

/// A `QuireServer` in the test process on an ephemeral loopback port, with its own database and
/// a log the test can read.
final class TestServer: Sendable {
    let database: TestDatabase
    let storage: any SyncStorage
    let server: QuireServer
    private let lines = LogLines()

    var port: UInt16 { server.address.port }

    /// A server of `kind` that logs to `log` (by default to `log`'s lines, for the test to read).
    init(_ kind: StorageKind = .sqlite, log: ServerLog? = nil, configure: (inout ServerConfiguration) throws -> Void = { _ in }) throws {
        database = try TestDatabase(kind)
        var configuration = ServerConfiguration()
        configuration.listen = ListenAddress(host: "127.0.0.1", port: 0)
        configuration.threads = 4
        configuration.rateLimit = nil
        configuration.purgeInterval = 0
        try configure(&configuration)
        storage = try database.open(serving: true)
        server = try QuireServer(configuration: configuration, storage: storage, log: log ?? ServerLog { [lines] line in
            lines.append(line)
        })
    }

    /// Adds an account and answers its token.
    func addAccount(_ name: String) throws -> String {
        let token = AccountToken.generate()
        _ = try storage.addAccount(name: name, tokenHash: token.hash, at: Date())
        return token.text
    }

    func client(_ token: String?) -> LoopbackClient { LoopbackClient(port: port, token: token) }

    var log: [String] { lines.all }

    func stop() {
        server.shutdown()
        database.remove()
    }
}

/// The lines a test server logged.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    var all: [String] { lines.withLock { $0 } }
}

import Foundation
import SyncClient
import SyncServer

/// `quire-server` in this process on a free port of 127.0.0.1, on a SQLite database in `folder`,
/// with no rate limit and no purge: the server the suites that sync measure against.
struct LoopbackServer {
    let server: QuireServer
    let storage: any SyncStorage
    /// `http://127.0.0.1:PORT`.
    let url: URL

    init(folder: URL, configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        var configuration = ServerConfiguration()
        configuration.listen = ListenAddress(host: "127.0.0.1", port: 0)
        configuration.rateLimit = nil
        configuration.purgeInterval = 0
        configure(&configuration)
        storage = try StorageLocation.sqlite(directory: folder).open(serving: true, connections: configuration.threads)
        server = try QuireServer(configuration: configuration, storage: storage, log: .discarding)
        url = URL(string: "http://127.0.0.1:\(server.address.port)")!
    }

    /// A transport for a new account named `name`.
    func transport(forNewAccount name: String, requestTimeout: TimeInterval = 120) throws -> URLSessionTransport {
        let token = AccountToken.generate()
        _ = try storage.addAccount(name: name, tokenHash: token.hash, at: Date())
        return URLSessionTransport(configuration: .init(server: url, token: token.text, requestTimeout: requestTimeout))
    }
}

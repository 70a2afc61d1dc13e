import SyncClient
import SyncProtocol

/// A test transport that wraps another: everything but `send`, which each one makes its own,
/// goes to `inner`.
protocol ForwardingTransport: SyncTransport {
    var inner: any SyncTransport { get }
}

extension ForwardingTransport {
    func lookUp(_ write: WriteRequest) async throws(TransportError) -> WriteLookup { try await inner.lookUp(write) }

    func changes(since cursor: Int64, limit: Int?) async throws(TransportError) -> ReadAnswer<ChangesPage> {
        try await inner.changes(since: cursor, limit: limit)
    }

    func snapshot(after articleID: String?, limit: Int?) async throws(TransportError) -> ReadAnswer<ArticlesPage> {
        try await inner.snapshot(after: articleID, limit: limit)
    }

    func health() async throws(TransportError) -> ReadAnswer<HealthStatus> { try await inner.health() }
}

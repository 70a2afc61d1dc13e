import Foundation
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

    func hasBlob(_ sha256: String) async throws(TransportError) -> ReadAnswer<Int64?> { try await inner.hasBlob(sha256) }

    func putBlob(_ sha256: String, bytes: Data) async throws(TransportError) -> ReadAnswer<Bool> {
        try await inner.putBlob(sha256, bytes: bytes)
    }

    func blob(_ sha256: String) async throws(TransportError) -> ReadAnswer<Data?> { try await inner.blob(sha256) }
}

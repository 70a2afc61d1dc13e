import Foundation
import SyncProtocol

/// The sync protocol's requests, as the worker makes them. `URLSessionTransport` speaks HTTP;
/// tests and the worker's own tests use fakes.
///
/// Every method answers with what the server said, checked and classified (`AnswerClass`), or
/// throws `TransportError` when no usable answer came. Requests that break the protocol's rules
/// (an identifier outside `SyncIdentifier`, content with a `violation()`) are not sent: they
/// answer `.rejected` with `refusedBeforeSending`.
public protocol SyncTransport: Sendable {
    /// `PUT` or `DELETE` the write, with its precondition and `Idempotency-Key`.
    func send(_ write: WriteRequest) async throws(TransportError) -> WriteAnswer

    /// `GET /v1/operations/{key}` for a write whose answer was lost. The write is passed whole
    /// so that the stored outcome can be checked against it (same article, same method).
    func lookUp(_ write: WriteRequest) async throws(TransportError) -> WriteLookup

    /// `GET /v1/changes?since=<cursor>&limit=N` (`limit` nil: the server's default).
    func changes(since cursor: Int64, limit: Int?) async throws(TransportError) -> ReadAnswer<ChangesPage>

    /// `GET /v1/articles?after=<id>&limit=N`: one snapshot page (`after` nil: the first).
    func snapshot(after articleID: String?, limit: Int?) async throws(TransportError) -> ReadAnswer<ArticlesPage>

    /// `GET /v1/health`, which needs no token.
    func health() async throws(TransportError) -> ReadAnswer<HealthStatus>

    /// `HEAD /v1/blobs/{sha256}`: the size of the account's blob, or nil when it holds none (404).
    func hasBlob(_ sha256: String) async throws(TransportError) -> ReadAnswer<Int64?>

    /// `PUT /v1/blobs/{sha256}` with `bytes`: true when the server stored it now, false when it
    /// held it already. 413 (too large), 422 (digest mismatch) and 507 (quota) are `rejected`.
    func putBlob(_ sha256: String, bytes: Data) async throws(TransportError) -> ReadAnswer<Bool>

    /// `GET /v1/blobs/{sha256}`: the bytes, checked against the digest; nil on 404.
    func blob(_ sha256: String) async throws(TransportError) -> ReadAnswer<Data?>
}

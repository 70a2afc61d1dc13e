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
}

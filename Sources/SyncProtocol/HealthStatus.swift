/// The answer to `GET /v1/health`: 200 when the server and its storage answer, 503 otherwise.
/// It tells nothing about accounts and needs no token.
public struct HealthStatus: Codable, Hashable, Sendable {
    /// `ok`, or `unavailable` with 503.
    public var status: String
    /// The server's ``ProtocolVersion`` within the `/v1` paths: 1 for servers from before
    /// article languages, which refuse `language`.
    public var protocolVersion: Int
    /// The largest request body the server accepts, in bytes.
    public var maximumBodyBytes: Int
    /// The largest page `changes` and `articles` return.
    public var maximumPageSize: Int
    /// The largest blob the server accepts, in bytes; absent from servers before
    /// ``ProtocolVersion/blobs``.
    public var maximumBlobBytes: Int?

    /// A health answer as the server gives it.
    public init(status: String, protocolVersion: Int, maximumBodyBytes: Int, maximumPageSize: Int, maximumBlobBytes: Int? = nil) {
        self.status = status
        self.protocolVersion = protocolVersion
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumPageSize = maximumPageSize
        self.maximumBlobBytes = maximumBlobBytes
    }
}

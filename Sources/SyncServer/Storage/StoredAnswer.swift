/// An answer to a write, as it is sent and as it is stored for replays of its idempotency key.
public struct StoredAnswer: Hashable, Sendable {
    /// The HTTP status.
    public var status: Int
    /// The `ETag` header, on a success.
    public var eTag: String?
    /// The JSON body: an `Article` (PUT), an `ArticleChange` (DELETE) or a `Problem`.
    public var body: [UInt8]

    /// An answer of `status` with `body`.
    public init(status: Int, eTag: String?, body: [UInt8]) {
        self.status = status
        self.eTag = eTag
        self.body = body
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}

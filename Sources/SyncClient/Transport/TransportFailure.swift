/// The context of a `TransportError`: which request, what happened. Never holds the token or
/// article text.
public struct TransportFailure: Sendable, Hashable, CustomStringConvertible {
    /// `GET`, `PUT` or `DELETE`.
    public var method: String
    /// The request's path and query (`/v1/changes?since=4`).
    public var path: String
    /// The answer's HTTP status, when one arrived.
    public var status: Int?
    /// The `URLError` code, when URLSession reported one.
    public var urlErrorCode: Int?
    /// What went wrong, for logs and the writer's error details.
    public var reason: String

    /// A failure of `method path`.
    public init(method: String, path: String, status: Int? = nil, urlErrorCode: Int? = nil, reason: String) {
        self.method = method
        self.path = path
        self.status = status
        self.urlErrorCode = urlErrorCode
        self.reason = reason
    }

    /// `PUT /v1/articles/a1 (status 200): revision 3 is not after the base 5`.
    public var description: String {
        var text = "\(method) \(path)"
        if let status { text += " (status \(status))" }
        if let urlErrorCode { text += " (URLError \(urlErrorCode))" }
        return text + ": " + reason
    }
}

/// A complete request as the daemon received it.
struct HTTPRequest: Sendable {
    var method: String
    /// The path and query as sent, split but not decoded (see `RequestTarget`).
    var target: RequestTarget
    /// Header values by lowercase name; a header sent twice holds both values joined by ", ".
    var headers: [String: String]
    var body: [UInt8]
    /// The client's address: the peer's, or behind a trusted proxy the one it names.
    var clientAddress: String

    init(method: String, target: String, headers: [String: String] = [:], body: [UInt8] = [], clientAddress: String = "") {
        self.method = method
        self.target = RequestTarget(raw: target)
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { "\($0), \($1)" })
        self.body = body
        self.clientAddress = clientAddress
    }

    /// Query parameters, decoded; a parameter given without a value maps to "".
    var query: [String: String] { target.query }

    /// The value of the header `name`, in any case.
    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

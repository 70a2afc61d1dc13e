/// A complete request as the daemon received it.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The decoded path, without the query.
    public var path: String
    /// Query parameters; a parameter given without a value maps to "".
    public var query: [String: String]
    /// Header values by lowercase name; a header sent twice holds both values joined by ", ".
    public var headers: [String: String]
    public var body: [UInt8]

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
                body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { "\($0), \($1)" })
        self.body = body
    }

    /// The value of the header `name`, in any case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A complete request as the daemon received it.
struct HTTPRequest: Sendable {
    var method: String
    /// The decoded path, without the query.
    var path: String
    /// Query parameters; a parameter given without a value maps to "".
    var query: [String: String]
    /// Header values by lowercase name; a header sent twice holds both values joined by ", ".
    var headers: [String: String]
    var body: [UInt8]

    init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
                body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { "\($0), \($1)" })
        self.body = body
    }

    /// The value of the header `name`, in any case.
    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

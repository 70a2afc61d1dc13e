import SyncProtocol

/// An answer to send: status, headers and body.
struct HTTPResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    /// Words for the access log beside method, path and status (the account, a replay); never
    /// article text or tokens. Not sent.
    var logNote: String?
    /// The route template it answers (`/v1/articles/{id}`), for metrics; nil when the request
    /// was refused before it was routed. Not sent.
    var route: String?

    init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], logNote: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.logNote = logNote
    }

    /// `value` as `application/json`.
    static func json<Value: Encodable>(_ status: Int, _ value: Value, headers: [(name: String, value: String)] = []) throws -> HTTPResponse {
        HTTPResponse(status: status, headers: [(SyncHeader.contentType, SyncMediaType.json)] + headers,
                     body: Array(try SyncJSON.encoder().encode(value)))
    }

    /// `problem` as `application/problem+json`.
    static func problem(_ problem: Problem, headers: [(name: String, value: String)] = [], logNote: String? = nil) -> HTTPResponse {
        // A Problem holds strings, integers, booleans and dates: JSONEncoder cannot fail on it.
        let body = Array(try! SyncJSON.encoder().encode(problem))
        return HTTPResponse(status: problem.status, headers: [(SyncHeader.contentType, SyncMediaType.problem)] + headers,
                            body: body, logNote: logNote)
    }
}

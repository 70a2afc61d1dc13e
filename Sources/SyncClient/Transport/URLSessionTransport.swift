import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SyncProtocol

/// `SyncTransport` over HTTP with URLSession (FoundationNetworking, libcurl underneath).
///
///     let transport = URLSessionTransport(configuration: .init(
///         server: URL(string: "https://sync.example.org")!, token: token))
///     let answer = try await transport.send(entry.request!)
///
/// Every request but `health` carries `Authorization: Bearer <token>`; writes carry their
/// precondition and `Idempotency-Key`. A request that has not finished within `requestTimeout`
/// ends as `outcomeUnknown`, as does a connection cut after it was written; only a connection
/// that could not be made at all is `notSent`. Answers over `maximumAnswerBytes` are refused
/// (`invalidAnswer`); ask for smaller pages when a page hits the limit.
///
/// libcurl may resend a request by itself when a kept-alive connection dies before any answer
/// byte; under an idempotency key that is harmless, which is one more reason every write has one.
public final class URLSessionTransport: SyncTransport {
    /// Where and how to connect.
    public struct Configuration: Sendable {
        /// The server's base URL (`http://127.0.0.1:7740`); the protocol's paths go after it.
        public var server: URL
        /// The account's bearer token.
        public var token: String
        /// How long a request may take in all, rounded up to whole seconds (at least 1):
        /// FoundationNetworking on Linux truncates the interval to whole seconds and does not
        /// restart it as bytes arrive, so it bounds the whole request. Leave room for the largest
        /// page asked for.
        public var requestTimeout: TimeInterval
        /// The largest answer body read; larger ones are refused.
        public var maximumAnswerBytes: Int
        /// A PEM file of certificate authorities to trust for this server instead of the system's
        /// (a self-signed server); requests then go through libcurl itself (`CurlLoader`).
        public var certificateAuthority: URL?
        /// Whether `http://` may be used to a host that is not this computer (see
        /// `SyncAccount.insecurity`); without it such requests are refused before sending.
        public var allowsInsecureHTTP: Bool

        /// A configuration; the defaults suit a desktop client.
        public init(
            server: URL, token: String, requestTimeout: TimeInterval = 60, maximumAnswerBytes: Int = 64 * 1024 * 1024,
            certificateAuthority: URL? = nil, allowsInsecureHTTP: Bool = false
        ) {
            self.server = server
            self.token = token
            self.requestTimeout = requestTimeout
            self.maximumAnswerBytes = maximumAnswerBytes
            self.certificateAuthority = certificateAuthority
            self.allowsInsecureHTTP = allowsInsecureHTTP
        }
    }

    /// The configuration it was made with.
    public let configuration: Configuration
    private let session: URLSession
    private let loader: AnswerLoader
    /// Used instead of `session` when a CA file is configured.
    private let curl: CurlLoader?
    /// `requestTimeout` as FoundationNetworking can honour it: whole seconds, at least one.
    private let timeout: TimeInterval

    /// A transport with its own URLSession (no cookies, no cache, no redirects).
    public init(configuration: Configuration) {
        self.configuration = configuration
        timeout = max(1, configuration.requestTimeout.rounded(.up))
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = timeout
        sessionConfiguration.timeoutIntervalForResource = timeout
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.httpCookieAcceptPolicy = .never
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        loader = AnswerLoader(maximumBytes: configuration.maximumAnswerBytes)
        let timeout = self.timeout
        curl = configuration.certificateAuthority.map {
            CurlLoader(certificateAuthority: $0, maximumBytes: configuration.maximumAnswerBytes, timeout: timeout)
        }
        session = URLSession(configuration: sessionConfiguration, delegate: loader, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    // MARK: SyncTransport

    public func send(_ write: WriteRequest) async throws(TransportError) -> WriteAnswer {
        if let rejection = refusal(of: write) { return .rejected(rejection) }
        guard let token = bearer else { return .accountRejected(detail: Self.tokenProblem) }
        var headers = [(SyncHeader.authorization, token), (SyncHeader.idempotencyKey, write.idempotencyKey)]
        var body: Data?
        switch write.action {
        case let .put(content, precondition):
            switch precondition {
            case .absent: headers.append((SyncHeader.ifNoneMatch, "*"))
            case let .revision(base): headers.append((SyncHeader.ifMatch, RevisionTag.format(base)))
            }
            headers.append((SyncHeader.contentType, SyncMediaType.json))
            do {
                body = try SyncJSON.encoder().encode(content)
            } catch {
                return .rejected(RequestRejection(reason: .refusedBeforeSending, status: nil, detail: "the content does not encode as JSON"))
            }
        case let .delete(base):
            headers.append((SyncHeader.ifMatch, RevisionTag.format(base)))
        }
        let path = SyncPath.article(write.articleID)
        let answer = try await load(write.method, path, headers: headers, body: body)
        return try AnswerReader(method: write.method, path: path).write(answer, for: write)
    }

    public func lookUp(_ write: WriteRequest) async throws(TransportError) -> WriteLookup {
        if let rejection = refusal(of: write) { return .rejected(rejection) }
        guard let token = bearer else { return .accountRejected(detail: Self.tokenProblem) }
        let path = SyncPath.operation(write.idempotencyKey)
        let answer = try await load("GET", path, headers: [(SyncHeader.authorization, token)])
        return try AnswerReader(method: "GET", path: path).lookup(answer, for: write)
    }

    public func changes(since cursor: Int64, limit: Int?) async throws(TransportError) -> ReadAnswer<ChangesPage> {
        guard cursor >= 0, limit.map({ $0 >= 1 }) ?? true else {
            return .rejected(RequestRejection(reason: .refusedBeforeSending, status: nil,
                                              detail: "since must be ≥ 0 and limit ≥ 1 (since \(cursor), limit \(limit ?? 0))"))
        }
        guard let token = bearer else { return .accountRejected(detail: Self.tokenProblem) }
        var query = [(SyncPath.Query.since, String(cursor))]
        if let limit { query.append((SyncPath.Query.limit, String(limit))) }
        let path = Self.path(SyncPath.changes, query: query)
        let answer = try await load("GET", path, headers: [(SyncHeader.authorization, token)])
        return try AnswerReader(method: "GET", path: path).changes(answer, since: cursor)
    }

    public func snapshot(after articleID: String?, limit: Int?) async throws(TransportError) -> ReadAnswer<ArticlesPage> {
        guard articleID.map(SyncIdentifier.isValid) ?? true, limit.map({ $0 >= 1 }) ?? true else {
            return .rejected(RequestRejection(reason: .refusedBeforeSending, status: nil,
                                              detail: "after must be an identifier and limit ≥ 1"))
        }
        guard let token = bearer else { return .accountRejected(detail: Self.tokenProblem) }
        var query: [(String, String)] = []
        if let articleID { query.append((SyncPath.Query.after, articleID)) }
        if let limit { query.append((SyncPath.Query.limit, String(limit))) }
        let path = Self.path(SyncPath.articles, query: query)
        let answer = try await load("GET", path, headers: [(SyncHeader.authorization, token)])
        return try AnswerReader(method: "GET", path: path).snapshot(answer, after: articleID)
    }

    public func health() async throws(TransportError) -> ReadAnswer<HealthStatus> {
        let answer = try await load("GET", SyncPath.health, headers: [])
        return try AnswerReader(method: "GET", path: SyncPath.health).health(answer)
    }

    // MARK: Requests

    static let tokenProblem = "the token is not a bearer token (letters, digits, - . _ ~ + / and trailing =)"

    /// `Bearer <token>`, or nil when the token could not travel in a header unchanged.
    var bearer: String? {
        let token = configuration.token
        let body = token.utf8.reversed().drop(while: { $0 == UInt8(ascii: "=") })
        guard !body.isEmpty, body.allSatisfy({ byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                return true
            default:
                return false
            }
        }) else { return nil }
        return "Bearer \(token)"
    }

    /// Why `write` must not be sent, when it breaks the protocol's rules.
    private func refusal(of write: WriteRequest) -> RequestRejection? {
        func refuse(_ detail: String, field: String) -> RequestRejection {
            RequestRejection(reason: .refusedBeforeSending, status: nil, detail: detail, field: field)
        }
        guard SyncIdentifier.isValid(write.articleID) else { return refuse("the article ID is not an identifier", field: "id") }
        guard SyncIdentifier.isValid(write.idempotencyKey) else {
            return refuse("the operation ID is not an identifier", field: SyncHeader.idempotencyKey)
        }
        switch write.action {
        case let .put(content, precondition):
            if case let .revision(base) = precondition, base < 1 { return refuse("base revision \(base) is not positive", field: SyncHeader.ifMatch) }
            if let violation = content.violation() { return refuse(violation.description, field: violation.field) }
        case let .delete(base):
            if base < 1 { return refuse("base revision \(base) is not positive", field: SyncHeader.ifMatch) }
        }
        return nil
    }

    private static func path(_ path: String, query: [(String, String)]) -> String {
        query.isEmpty ? path : path + "?" + query.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// Sends one request and reads its answer, mapping URLSession's failures onto `TransportError`.
    func load(_ method: String, _ path: String, headers: [(String, String)], body: Data? = nil) async throws(TransportError) -> HTTPAnswer {
        let base = configuration.server.absoluteString
        guard let url = URL(string: (base.hasSuffix("/") ? String(base.dropLast()) : base) + path),
              url.scheme == "http" || url.scheme == "https" else {
            throw .notSent(TransportFailure(method: method, path: path, reason: "the server URL \(base) is not an http(s) URL"))
        }
        if !configuration.allowsInsecureHTTP, let insecurity = SyncAccount.insecurity(of: configuration.server) {
            throw .notSent(TransportFailure(method: method, path: path, reason: insecurity))
        }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.setValue(SyncMediaType.json, forHTTPHeaderField: "Accept")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let outcome = if let curl { await curl.load(request) } else { await loader.load(session.dataTask(with: request)) }
        switch outcome {
        case let .success(answer):
            return answer
        case let .failure(.tooLarge(limit)):
            throw .invalidAnswer(TransportFailure(method: method, path: path, reason: "the answer is larger than \(limit) bytes"))
        case .failure(.noResponse):
            throw .outcomeUnknown(TransportFailure(method: method, path: path, reason: "the request ended without an answer"))
        case let .failure(.network(error)):
            let failure = TransportFailure(method: method, path: path, urlErrorCode: error.code.rawValue, reason: error.localizedDescription)
            throw Self.nothingWasSent(error.code) ? .notSent(failure) : .outcomeUnknown(failure)
        }
    }

    /// Whether URLSession failed before any byte of the request could reach a server. Everything
    /// else, timeouts included (libcurl reports a connect timeout and an answer timeout alike),
    /// counts as maybe sent: a needless lookup costs one request, a lost write costs the writer.
    private static func nothingWasSent(_ code: URLError.Code) -> Bool {
        switch code {
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet, .badURL, .unsupportedURL,
             .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
             .clientCertificateRequired:
            return true
        default:
            return false
        }
    }
}

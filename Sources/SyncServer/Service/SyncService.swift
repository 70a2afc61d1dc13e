import Foundation
import SyncProtocol
import Synchronization

/// Answers sync requests: authentication, rate limit, routing, the idempotent write path, reads.
///
/// It holds no state but rate limits; everything else is in `storage`. The accounts' request
/// limits live in the process for SQLite (one process serves it) and in the database for
/// PostgreSQL, so that N processes do not allow N times the rate. Failed authentications are
/// counted per client address in the process.
final class SyncService: Sendable {
    let storage: any SyncStorage
    let configuration: ServerConfiguration
    /// The request and authentication limits, which SIGHUP may change (`updateLimits`).
    private let limits: Mutex<Limits>
    private let log: ServerLog
    private let metrics: Metrics
    /// The text of `/metrics`, with the connection counts of the moment.
    private let exposition: @Sendable () -> String

    init(storage: any SyncStorage, configuration: ServerConfiguration, log: ServerLog, metrics: Metrics = Metrics(),
         exposition: @escaping @Sendable () -> String = { "" }) {
        self.storage = storage
        self.configuration = configuration
        self.log = log
        self.metrics = metrics
        self.exposition = exposition
        limits = Mutex(Limits())
        updateLimits(rate: configuration.rateLimit, authenticationFailuresPerMinute: configuration.authenticationFailuresPerMinute)
    }

    /// The limits in force: requests per second per account and failed authentications a minute
    /// per client address, each with the buckets it has counted so far.
    private struct Limits {
        var rate: Double? = nil
        /// Requests per account, when they are not counted in shared storage.
        var requests: RateLimiter<AccountID>? = nil
        var failuresPerMinute: Int? = nil
        /// Failed authentications per client address (`AddressRange.clientKey`).
        var authenticationFailures: RateLimiter<String>? = nil
    }

    /// Puts new limits in force for the requests that come next. A limit that did not change
    /// keeps what it counted; one that changed starts with full buckets.
    func updateLimits(rate: Double?, authenticationFailuresPerMinute: Int?) {
        let shared = storage.isShared
        limits.withLock { limits in
            if limits.rate != rate {
                limits.rate = rate
                limits.requests = shared ? nil : rate.map { RateLimiter(rate: $0, burst: Self.burst($0)) }
            }
            if limits.failuresPerMinute != authenticationFailuresPerMinute {
                limits.failuresPerMinute = authenticationFailuresPerMinute
                limits.authenticationFailures = authenticationFailuresPerMinute.map {
                    RateLimiter(rate: Double($0) / 60, burst: Double($0))
                }
            }
        }
    }

    /// Failed authentications per client address, when limited.
    private var authenticationFailures: RateLimiter<String>? { limits.withLock { $0.authenticationFailures } }

    /// Bursts of twice the rate, and at least one request.
    private static func burst(_ rate: Double) -> Double { max(1, rate * 2) }

    /// The answer to `request`. Storage failures become 500, or 503 when the storage is
    /// unreachable or busy, and are logged with their SQL and codes, never with article text.
    ///
    /// A method a route does not accept gets 405 before authentication, like an unknown path's
    /// 404 after it: neither tells anything about accounts. `HEAD` is answered as `GET`, and
    /// libmicrohttpd sends the headers without the body.
    func respond(to request: HTTPRequest) -> HTTPResponse {
        let route = Route(request.target)
        var response = answer(request, route: route)
        response.route = route?.template ?? "unknown"
        return response
    }

    /// The answer to a request whose body is not read yet, when its headers already decide it:
    /// an unknown or missing token (401, or 429 after too many failures). The daemon asks this of
    /// blob uploads only, whose bodies may be far larger than any other; a storage failure here
    /// leaves the request to ``respond(to:)``.
    func answerBeforeBody(of request: HTTPRequest) -> HTTPResponse? {
        do {
            _ = try authenticate(request)
            return nil
        } catch let rejection as Rejection {
            var response = rejection.response
            response.route = Route(request.target)?.template ?? "unknown"
            return response
        } catch {
            return nil
        }
    }

    private func answer(_ request: HTTPRequest, route: Route?) -> HTTPResponse {
        let method = request.method == "HEAD" ? "GET" : request.method
        do {
            if let route, !route.methods.contains(request.method) {
                return .problem(.methodNotAllowed(request.method, allowed: route.methods),
                                headers: [(SyncHeader.allow, route.methods.joined(separator: ", "))])
            }
            if route == .health { return health() }
            if route == .metrics { return try metricsAnswer(request) }
            let account = try authenticate(request)
            let response: HTTPResponse
            do {
                response = try handle(request, method: method, route: route, account: account)
            } catch let rejection as Rejection {
                response = rejection.response
            }
            return response.noting(account)
        } catch let rejection as Rejection {
            return rejection.response
        } catch {
            log.write("\(request.method) \(route?.template ?? "(unknown path)"): \(error)", level: .error)
            let transient = (error as? StorageError)?.isTransient == true
            metrics.observeStorageError(transient: transient)
            if transient {
                return .problem(.unavailable("the storage is unreachable or busy"), headers: [(SyncHeader.retryAfter, "5")])
            }
            return .problem(.internalError)
        }
    }

    private func handle(_ request: HTTPRequest, method: String, route: Route?, account: AccountID) throws -> HTTPResponse {
        if let retryAfter = try takeRequest(account) {
            return .problem(.rateLimited(retryAfter: retryAfter), headers: [(SyncHeader.retryAfter, String(retryAfter))])
        }
        guard let route else { return .problem(.notFound("no route \(ServerLog.escaped(request.target.path))")) }
        switch (route, method) {
        case let (.article(id), "GET"): return try readArticle(id, account: account)
        case let (.article(id), "PUT"): return try put(id, request, account: account)
        case let (.article(id), "DELETE"): return try delete(id, request, account: account)
        case (.articles, "GET"): return try snapshot(request, account: account)
        case (.changes, "GET"): return try changes(request, account: account)
        case let (.operation(key), "GET"): return try operation(key, account: account)
        case let (.blob(sha256), "GET"): return try readBlob(sha256, sizeOnly: request.method == "HEAD", account: account)
        case let (.blob(sha256), "PUT"): return try putBlob(sha256, request, account: account)
        default:
            return .problem(.methodNotAllowed(request.method, allowed: route.methods),
                            headers: [(SyncHeader.allow, route.methods.joined(separator: ", "))])
        }
    }

    /// `/metrics` on the sync address, for a scraper that sends the metrics token; without a
    /// token configured there is no such route (a separate `metrics-listen` address serves it).
    private func metricsAnswer(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let token = configuration.metricsToken else {
            return .problem(.notFound("no route \(request.target.path)"))
        }
        let sent = request.header(SyncHeader.authorization).map { $0.split(separator: " ", maxSplits: 1) }
        guard let sent, sent.count == 2, sent[0].lowercased() == "bearer",
              AccountToken(text: String(sent[1])).hash == AccountToken(text: token).hash
        else {
            let client = AddressRange.clientKey(request.clientAddress)
            if let authenticationFailures, let retryAfter = authenticationFailures.waitBeforeAdmitting(client) {
                return .problem(.rateLimited(retryAfter: retryAfter), headers: [(SyncHeader.retryAfter, String(retryAfter))])
            }
            authenticationFailures?.charge(client)
            return .problem(.unauthorized("send Authorization: Bearer <metrics token>"),
                            headers: [(SyncHeader.wwwAuthenticate, "Bearer realm=\"quire-metrics\"")])
        }
        return Self.metricsResponse(exposition())
    }

    /// The exposition as Prometheus expects it.
    static func metricsResponse(_ text: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [(SyncHeader.contentType, "text/plain; version=0.0.4; charset=utf-8")],
                     body: Array(text.utf8))
    }

    // MARK: Authentication and limits

    /// The account of the request's token. A client address with too many recent failures gets
    /// 429 without its token being looked at, so that guessing stays slow whatever the guesses;
    /// the writer's other addresses are not affected.
    private func authenticate(_ request: HTTPRequest) throws -> AccountID {
        let challenge = "Bearer realm=\"quire\""
        guard let header = request.header(SyncHeader.authorization) else {
            throw Rejection(.problem(.unauthorized("send Authorization: Bearer <token>"),
                                     headers: [(SyncHeader.wwwAuthenticate, challenge)]))
        }
        let client = AddressRange.clientKey(request.clientAddress)
        if let authenticationFailures, let retryAfter = authenticationFailures.waitBeforeAdmitting(client) {
            throw Rejection(.problem(.rateLimited(retryAfter: retryAfter), headers: [(SyncHeader.retryAfter, String(retryAfter))],
                                     logNote: "auth-failures-limited"))
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].isEmpty,
              let account = try storage.authenticate(tokenHash: AccountToken(text: String(parts[1])).hash, at: Date())
        else {
            authenticationFailures?.charge(client)
            throw Rejection(.problem(.unauthorized("the token is unknown or revoked"),
                                     headers: [(SyncHeader.wwwAuthenticate, challenge + ", error=\"invalid_token\"")]))
        }
        return account
    }

    /// Takes a request from the account's limit: nil when admitted, else the seconds to wait.
    private func takeRequest(_ account: AccountID) throws -> Int? {
        let (rate, requestLimiter) = limits.withLock { ($0.rate, $0.requests) }
        guard let rate else { return nil }
        if let requestLimiter { return requestLimiter.admit(account) }
        return try storage.takeRequestToken(account: account, rate: rate, burst: Self.burst(rate), at: Date())
    }

    // MARK: Writes

    private func put(_ id: String, _ request: HTTPRequest, account: AccountID) throws -> HTTPResponse {
        try checkIdentifier(id, field: "id")
        let contentType = request.header(SyncHeader.contentType)
        let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard mediaType == SyncMediaType.json else { throw Rejection(.problem(.unsupportedMediaType(contentType))) }
        let precondition: ArticleCommand.Precondition
        switch (request.header(SyncHeader.ifMatch), request.header(SyncHeader.ifNoneMatch)) {
        case (nil, nil):
            throw Rejection(.problem(.preconditionRequired))
        case (_?, _?):
            throw invalid(SyncHeader.ifNoneMatch, "cannot be sent with If-Match")
        case let (ifMatch?, nil):
            precondition = try base(ifMatch)
        case let (nil, ifNoneMatch?):
            guard ifNoneMatch.trimmingCharacters(in: .whitespaces) == "*" else { throw invalid(SyncHeader.ifNoneMatch, "must be *") }
            precondition = .absent
        }
        switch ArticlePayloadDecoder.decode(request.body, protocolVersion: configuration.protocolVersion) {
        case let .failure(problem):
            return .problem(problem)
        case let .success(content):
            if let refused = try missingBlobs(of: content, account: account) { return refused }
            return try perform(ArticleCommand(articleID: id, action: .put(content, precondition)), request, account: account)
        }
    }

    private func delete(_ id: String, _ request: HTTPRequest, account: AccountID) throws -> HTTPResponse {
        try checkIdentifier(id, field: "id")
        if request.header(SyncHeader.ifNoneMatch) != nil { throw invalid(SyncHeader.ifNoneMatch, "is not allowed on DELETE") }
        guard let ifMatch = request.header(SyncHeader.ifMatch) else { throw Rejection(.problem(.preconditionRequired)) }
        let command = ArticleCommand(articleID: id, action: .delete(try base(ifMatch)))
        return try perform(command, request, account: account)
    }

    /// Applies a checked write. With an idempotency key it claims the key first, answering 422,
    /// 409 or the stored answer when the key is known, and the write stores its answer under the
    /// key in its own transaction.
    private func perform(_ command: ArticleCommand, _ request: HTTPRequest, account: AccountID) throws -> HTTPResponse {
        let now = Date()
        var claim: OperationClaim?
        if let header = request.header(SyncHeader.idempotencyKey) {
            let key = Self.idempotencyKey(header)
            try checkIdentifier(key, field: SyncHeader.idempotencyKey)
            let candidate = OperationClaim(key: key, fingerprint: try command.fingerprint(), method: command.method,
                                           articleID: command.articleID, leaseUntil: now + configuration.operationLease)
            switch try storage.claimOperation(candidate, account: account, now: now) {
            case let .existing(stored) where stored.fingerprint != candidate.fingerprint:
                return .problem(.idempotencyKeyReused(key))
            case let .existing(stored):
                guard case let .completed(answer) = stored.state else { return operationInProgress(key) }
                return response(answer, for: command, replayed: true)
            case .claimed:
                claim = candidate
            }
        }
        do {
            // Nil when the claim's lease ran out and a retry took the key over meanwhile.
            guard let answer = try storage.apply(command, account: account, claim: claim, now: now) else {
                return operationInProgress(claim?.key ?? "")
            }
            return response(answer, for: command, replayed: false)
        } catch {
            if let claim {
                do {
                    try storage.abandonOperation(claim, account: account)
                } catch let abandonError {
                    log.write("releasing idempotency key after a failed write (its lease will end): \(abandonError)",
                              level: .error)
                }
            }
            throw error
        }
    }

    private func operationInProgress(_ key: String) -> HTTPResponse {
        .problem(.operationInProgress(key), headers: [(SyncHeader.retryAfter, "1")])
    }

    private func response(_ answer: StoredAnswer, for command: ArticleCommand, replayed: Bool) -> HTTPResponse {
        var headers = [(SyncHeader.contentType, answer.isSuccess ? SyncMediaType.json : SyncMediaType.problem)]
        if let eTag = answer.eTag { headers.append((SyncHeader.eTag, eTag)) }
        if answer.status == 201 { headers.append((SyncHeader.location, SyncPath.article(command.articleID))) }
        if replayed { headers.append((SyncHeader.idempotentReplayed, "true")) }
        return HTTPResponse(status: answer.status, headers: headers, body: answer.body, logNote: replayed ? "replayed" : nil)
    }

    // MARK: Reads

    private func health() -> HTTPResponse {
        var status = HealthStatus(status: "ok", protocolVersion: configuration.protocolVersion,
                                  maximumBodyBytes: configuration.maximumBodyBytes,
                                  maximumPageSize: configuration.maximumPageSize,
                                  maximumBlobBytes: configuration.protocolVersion >= ProtocolVersion.blobs
                                      ? configuration.maximumBlobBytes : nil)
        do {
            try storage.checkHealth()
            return try .json(200, status)
        } catch {
            log.write("health check: \(error)", level: .error)
            status.status = "unavailable"
            // HealthStatus holds strings and integers: JSONEncoder cannot fail on it.
            return try! .json(503, status, headers: [(SyncHeader.retryAfter, "5")])
        }
    }

    private func readArticle(_ id: String, account: AccountID) throws -> HTTPResponse {
        try checkIdentifier(id, field: "id")
        let current = try storage.article(id, account: account)
        guard let current, let article = current.article else { return .problem(.articleNotFound(id, current: current)) }
        return try .json(200, article, headers: [(SyncHeader.eTag, RevisionTag.format(article.revision))])
    }

    private func changes(_ request: HTTPRequest, account: AccountID) throws -> HTTPResponse {
        var since: Int64 = 0
        if let text = request.query[SyncPath.Query.since] {
            guard let value = Int64(text), value >= 0 else { throw invalid(SyncPath.Query.since, "must be a cursor (an integer ≥ 0)") }
            since = value
        }
        switch try storage.changes(account: account, since: since, limit: try pageLimit(request),
                                     maximumBytes: configuration.maximumPageBytes) {
        case let .page(page):
            if let oldest = page.changes.first { metrics.observeFeedLag(seconds: Date().timeIntervalSince(oldest.changedAt)) }
            return try .json(200, page)
        case .resyncRequired: return .problem(.resyncRequired)
        }
    }

    private func snapshot(_ request: HTTPRequest, account: AccountID) throws -> HTTPResponse {
        let after = request.query[SyncPath.Query.after]
        if let after { try checkIdentifier(after, field: SyncPath.Query.after) }
        return try .json(200, try storage.snapshot(account: account, after: after, limit: try pageLimit(request),
                                                        maximumBytes: configuration.maximumPageBytes))
    }

    private func operation(_ key: String, account: AccountID) throws -> HTTPResponse {
        try checkIdentifier(key, field: "key")
        guard let stored = try storage.operation(key: key, account: account) else {
            return .problem(.notFound("no operation with this key"))
        }
        var outcome = OperationOutcome(key: key, state: .running, method: stored.method, articleID: stored.articleID)
        if case let .completed(answer) = stored.state {
            outcome.state = .completed
            outcome.status = answer.status
            outcome.eTag = answer.eTag
            let decoder = SyncJSON.decoder()
            let body = Data(answer.body)
            switch (answer.isSuccess, stored.method) {
            case (true, "DELETE"): outcome.change = try decoder.decode(ArticleChange.self, from: body)
            case (true, _): outcome.article = try decoder.decode(Article.self, from: body)
            case (false, _): outcome.problem = try decoder.decode(Problem.self, from: body)
            }
        }
        return try .json(200, outcome)
    }

    // MARK: Checks

    private func pageLimit(_ request: HTTPRequest) throws -> Int {
        guard let text = request.query[SyncPath.Query.limit] else { return configuration.defaultPageSize }
        guard let value = Int(text), value >= 1 else { throw invalid(SyncPath.Query.limit, "must be an integer ≥ 1") }
        return min(value, configuration.maximumPageSize)
    }

    /// The write's base from `If-Match`: a revision, or a well-formed entity tag that names none
    /// (`"013"`, `W/"7"`, `"draft"`), which can never match (RFC 9110 §13.1.1: 412, not 400).
    /// Lists and `*` name no single base and get 400.
    private func base(_ ifMatch: String) throws -> ArticleCommand.Precondition {
        let tag = ifMatch.trimmingCharacters(in: .whitespaces)
        if let revision = RevisionTag.parse(tag) { return .revision(revision) }
        guard RevisionTag.isEntityTag(tag) else {
            throw invalid(SyncHeader.ifMatch, "must be one strong tag \"<revision>\"")
        }
        return .unmatchedTag(tag)
    }

    /// The key of an `Idempotency-Key` header, bare (`k-1`) or as the IETF draft's
    /// structured-field string (`"k-1"`); both name the same key. Keys hold no `"` or `\`, so
    /// the string needs no unescaping; anything else is left for `checkIdentifier` to refuse.
    static func idempotencyKey(_ header: String) -> String {
        let value = header.trimmingCharacters(in: .whitespaces)
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return value }
        return String(value.dropFirst().dropLast())
    }

    private func checkIdentifier(_ text: String, field: String) throws {
        guard SyncIdentifier.isValid(text) else {
            throw invalid(field, "must be 1 to \(SyncIdentifier.maximumLength) characters of A-Z a-z 0-9 - . _ ~, and not . or ..")
        }
    }

    func invalid(_ field: String, _ reason: String) -> Rejection {
        Rejection(.problem(.invalidField(FieldViolation(field: field, reason: reason))))
    }
}

/// A request refused before it reached storage; its answer travels up as an error.
struct Rejection: Error {
    let response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}

extension HTTPResponse {
    /// Adds the account to the access log line.
    fileprivate func noting(_ account: AccountID) -> HTTPResponse {
        var response = self
        response.logNote = "account=\(account)" + (logNote.map { " \($0)" } ?? "")
        return response
    }
}

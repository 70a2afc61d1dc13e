import Foundation
import Platform
import SyncProtocol

/// Reads HTTP answers into the transport's typed answers, and refuses what it cannot trust.
///
/// The status is classified first (`AnswerClass`); then the body the class needs is decoded and
/// checked against the request: the article it names, the revision it must have passed, the
/// order of cursors and IDs. Anything that fails becomes `TransportError.invalidAnswer` with the
/// request's method and path, never a crash and never a value passed on unchecked.
struct AnswerReader {
    /// The request's method, for errors.
    let method: String
    /// The request's path and query, for errors.
    let path: String

    // MARK: Writes

    /// The answer to `write`.
    func write(_ answer: HTTPAnswer, for write: WriteRequest) throws(TransportError) -> WriteAnswer {
        try writeAnswer(status: answer.status, eTag: answer.header(SyncHeader.eTag), replayed: answer.isReplayed,
                        retryAfter: answer.retryAfter, body: .http(answer.body), for: write)
    }

    /// What `GET /v1/operations/{key}` says about `write`.
    func lookup(_ answer: HTTPAnswer, for write: WriteRequest) throws(TransportError) -> WriteLookup {
        switch AnswerClass.of(status: answer.status, endpoint: .operation) {
        case .success where answer.status == 404:
            let problem = try strictProblem(.http(answer.body), status: 404)
            guard problem.type == .notFound else { throw defect(404, "404 names \(problem.type), not notFound") }
            return .neverApplied
        case .success:
            guard answer.status == 200 else { throw defect(answer.status, "a lookup answers 200 or 404") }
            let outcome = try decode(OperationOutcome.self, answer.body, status: 200)
            guard outcome.key == write.idempotencyKey, outcome.articleID == write.articleID, outcome.method == write.method else {
                throw defect(200, "the outcome is of \(outcome.method) \(outcome.articleID) under another key or article")
            }
            switch outcome.state {
            case .running:
                return .running(retryAfter: answer.retryAfter)
            case .completed:
                guard let status = outcome.status else { throw defect(200, "a completed outcome has no status") }
                return .completed(try writeAnswer(status: status, eTag: outcome.eTag, replayed: true, retryAfter: nil,
                                                  body: .stored(outcome), for: write))
            }
        case .retryable:
            return .retry(advice(answer))
        case .terminal:
            return .rejected(RequestRejection(status: answer.status, problem: lenientProblem(answer)))
        case .accountRejected:
            return .accountRejected(detail: lenientProblem(answer)?.detail)
        case .conflict, .resyncRequired, .unexpected:
            throw defect(answer.status, "status \(answer.status) is not an answer to a lookup")
        }
    }

    /// Where a write's body comes from: the HTTP answer, or the outcome a lookup found.
    private enum WriteBody {
        case http(Data)
        case stored(OperationOutcome)
    }

    private func writeAnswer(
        status: Int, eTag: String?, replayed: Bool, retryAfter: RetryAfter?, body: WriteBody, for write: WriteRequest
    ) throws(TransportError) -> WriteAnswer {
        switch AnswerClass.of(status: status, endpoint: write.endpoint) {
        case .success:
            return .applied(try appliedVersion(status: status, eTag: eTag, body: body, for: write), replayed: replayed)
        case .conflict:
            let problem = try strictProblem(body, status: status)
            guard problem.type == .staleRevision else { throw defect(status, "412 names \(problem.type), not staleRevision") }
            if let current = problem.current {
                try check(current, of: write.articleID, status: status)
                let currentIsLive = !current.deleted
                switch write.action {
                case .put(_, .absent) where !currentIsLive:
                    throw defect(status, "412 to a create although the server holds only a tombstone")
                case let .put(_, .revision(base)) where currentIsLive && current.revision == base,
                     let .delete(base) where currentIsLive && current.revision == base:
                    throw defect(status, "412 although the server's revision is the base \(base)")
                case .delete where !currentIsLive:
                    throw defect(status, "412 to a delete names a tombstone; a deleted article answers 404")
                default:
                    break
                }
            } else if case .put(_, .absent) = write.action {
                throw defect(status, "412 to a create names no current version")
            }
            return .conflict(current: problem.current)
        case .retryable:
            let problem = lenientProblem(body)
            return .retry(RetryAdvice(status: status, problemType: problem?.type, retryAfter: retryAfter))
        case .terminal:
            return .rejected(RequestRejection(status: status, problem: lenientProblem(body)))
        case .accountRejected:
            return .accountRejected(detail: lenientProblem(body)?.detail)
        case .resyncRequired, .unexpected:
            throw defect(status, "status \(status) is not an answer to \(write.method)")
        }
    }

    private func appliedVersion(status: Int, eTag: String?, body: WriteBody, for write: WriteRequest) throws(TransportError) -> ServerVersion {
        let eTagRevision = eTag.map(RevisionTag.parse)
        switch write.action {
        case let .put(_, precondition):
            guard status == 200 || status == 201 else { throw defect(status, "a PUT answers 200 or 201, not \(status)") }
            let article: Article
            switch body {
            case let .http(data): article = try decode(Article.self, data, status: status)
            case let .stored(outcome):
                guard let stored = outcome.article else { throw defect(status, "the completed PUT holds no article") }
                article = stored
            }
            try check(article, of: write.articleID, status: status)
            if let eTagRevision, eTagRevision != article.revision {
                throw defect(status, "ETag \(eTag ?? "") does not match revision \(article.revision)")
            }
            if case let .revision(base) = precondition, article.revision <= base {
                throw defect(status, "revision \(article.revision) is not after the base \(base)")
            }
            return .live(article)
        case let .delete(base):
            if status == 404 {
                let problem = try strictProblem(body, status: 404)
                guard problem.type == .notFound else { throw defect(404, "404 names \(problem.type), not notFound") }
                if let current = problem.current {
                    try check(current, of: write.articleID, status: 404)
                    guard current.deleted else { throw defect(404, "404 to a DELETE names a live article") }
                }
                return .deleted(tombstone: problem.current)
            }
            guard status == 200 else { throw defect(status, "a DELETE answers 200 or 404, not \(status)") }
            let change: ArticleChange
            switch body {
            case let .http(data): change = try decode(ArticleChange.self, data, status: status)
            case let .stored(outcome):
                guard let stored = outcome.change else { throw defect(status, "the completed DELETE holds no change") }
                change = stored
            }
            try check(change, of: write.articleID, status: status)
            guard change.deleted else { throw defect(status, "the answer to a DELETE is not a tombstone") }
            if let eTagRevision, eTagRevision != change.revision {
                throw defect(status, "ETag \(eTag ?? "") does not match revision \(change.revision)")
            }
            guard change.revision > base else { throw defect(status, "revision \(change.revision) is not after the base \(base)") }
            return .deleted(tombstone: change)
        }
    }

    // MARK: Reads

    /// A page of `GET /v1/changes?since=<since>`.
    func changes(_ answer: HTTPAnswer, since: Int64) throws(TransportError) -> ReadAnswer<ChangesPage> {
        try read(answer, endpoint: .changes) { () throws(TransportError) in
            let page = try decode(ChangesPage.self, answer.body, status: 200)
            var previous = since
            for change in page.changes {
                try check(change, status: 200)
                guard change.cursor > previous else {
                    throw defect(200, "cursor \(change.cursor) does not come after \(previous)")
                }
                previous = change.cursor
            }
            guard page.nextCursor == previous else {
                throw defect(200, "nextCursor \(page.nextCursor) is not the page's last cursor \(previous)")
            }
            guard !(page.changes.isEmpty && page.hasMore) else { throw defect(200, "an empty page says more follow") }
            return page
        }
    }

    /// A page of `GET /v1/articles?after=<after>`.
    func snapshot(_ answer: HTTPAnswer, after: String?) throws(TransportError) -> ReadAnswer<ArticlesPage> {
        try read(answer, endpoint: .snapshot) { () throws(TransportError) in
            let page = try decode(ArticlesPage.self, answer.body, status: 200)
            guard page.cursor >= 0 else { throw defect(200, "cursor \(page.cursor) is negative") }
            var previous = after
            for article in page.articles {
                try check(article, of: nil, status: 200)
                if let previous, !previous.utf8.lexicographicallyPrecedes(article.id.utf8) {
                    throw defect(200, "article \(article.id) does not come after \(previous)")
                }
                previous = article.id
            }
            guard !(page.articles.isEmpty && page.hasMore) else { throw defect(200, "an empty page says more follow") }
            return page
        }
    }

    /// `GET /v1/health`: 200 with `ok`, or 503 (retry).
    func health(_ answer: HTTPAnswer) throws(TransportError) -> ReadAnswer<HealthStatus> {
        try read(answer, endpoint: .health) { () throws(TransportError) in
            let health = try decode(HealthStatus.self, answer.body, status: 200)
            guard health.status == "ok", health.maximumBodyBytes > 0, health.maximumPageSize > 0 else {
                throw defect(200, "the health answer is not ok or names no limits")
            }
            return health
        }
    }

    /// `HEAD /v1/blobs/{sha256}`: 200 with the blob's size, or 404 (nil).
    func hasBlob(_ answer: HTTPAnswer) throws(TransportError) -> ReadAnswer<Int64?> {
        if answer.status == 404 { return .success(nil) }
        return try read(answer, endpoint: .readBlob) { () throws(TransportError) in
            guard let size = answer.header(SyncHeader.blobSize).flatMap({ Int64($0) }), size >= 0 else {
                throw defect(200, "the answer names no \(SyncHeader.blobSize)")
            }
            return size
        }
    }

    /// `GET /v1/blobs/{sha256}`: the bytes, which must hash to `sha256`; nil on 404.
    func blob(_ answer: HTTPAnswer, sha256: String) throws(TransportError) -> ReadAnswer<Data?> {
        if answer.status == 404 { return .success(nil) }
        return try read(answer, endpoint: .readBlob) { () throws(TransportError) in
            guard SHA256.hex(answer.body) == sha256 else { throw defect(200, "the bytes do not hash to \(sha256)") }
            return answer.body
        }
    }

    /// `PUT /v1/blobs/{sha256}`: 201 stored now, 200 held already; 413, 422 and 507 (quota) are
    /// refused for good.
    func putBlob(_ answer: HTTPAnswer) throws(TransportError) -> ReadAnswer<Bool> {
        switch answer.status {
        case 200: return .success(false)
        case 201: return .success(true)
        default: return try read(answer, endpoint: .putBlob) { () throws(TransportError) in false }
        }
    }

    /// The classified answer of a read; `success` reads the 200 body.
    private func read<Value>(
        _ answer: HTTPAnswer, endpoint: SyncEndpoint, success: () throws(TransportError) -> Value
    ) throws(TransportError) -> ReadAnswer<Value> {
        switch AnswerClass.of(status: answer.status, endpoint: endpoint) {
        case .success:
            guard answer.status == 200 else { throw defect(answer.status, "a read answers 200, not \(answer.status)") }
            return .success(try success())
        case .resyncRequired:
            let problem = try strictProblem(.http(answer.body), status: 410)
            guard problem.type == .resyncRequired else { throw defect(410, "410 names \(problem.type), not resyncRequired") }
            return .resyncRequired
        case .retryable:
            return .retry(advice(answer))
        case .terminal:
            return .rejected(RequestRejection(status: answer.status, problem: lenientProblem(answer)))
        case .accountRejected:
            return .accountRejected(detail: lenientProblem(answer)?.detail)
        case .conflict, .unexpected:
            throw defect(answer.status, "status \(answer.status) is not an answer to \(method)")
        }
    }

    // MARK: Checks

    /// An article the server sent: a valid ID (`expectedID` when given) and a positive revision.
    private func check(_ article: Article, of expectedID: String?, status: Int) throws(TransportError) {
        guard SyncIdentifier.isValid(article.id) else { throw defect(status, "an article ID is not an identifier") }
        if let expectedID, article.id != expectedID { throw defect(status, "the answer is about article \(article.id), not \(expectedID)") }
        guard article.revision >= 1 else { throw defect(status, "revision \(article.revision) is not positive") }
    }

    /// A change the server sent: consistent with itself, and about `expectedID` when given.
    private func check(_ change: ArticleChange, of expectedID: String? = nil, status: Int) throws(TransportError) {
        guard SyncIdentifier.isValid(change.id) else { throw defect(status, "a change's article ID is not an identifier") }
        if let expectedID, change.id != expectedID { throw defect(status, "the answer is about article \(change.id), not \(expectedID)") }
        guard change.revision >= 1, change.cursor >= 1 else {
            throw defect(status, "change of \(change.id) has revision \(change.revision) and cursor \(change.cursor)")
        }
        guard change.deleted == (change.article == nil) else {
            throw defect(status, "change of \(change.id) is \(change.deleted ? "a deletion with" : "an edit without") an article")
        }
        if let article = change.article, article.id != change.id || article.revision != change.revision {
            throw defect(status, "change of \(change.id) at \(change.revision) carries \(article.id) at \(article.revision)")
        }
    }

    private func decode<Value: Decodable>(_ type: Value.Type, _ data: Data, status: Int) throws(TransportError) -> Value {
        do {
            return try SyncJSON.decoder().decode(type, from: data)
        } catch {
            throw defect(status, "the body is not a valid \(type): \(Self.summary(of: error))")
        }
    }

    /// The problem a status requires (412, 410, a 404 that means something): it must decode and
    /// agree with the status.
    private func strictProblem(_ body: WriteBody, status: Int) throws(TransportError) -> Problem {
        let problem: Problem
        switch body {
        case let .http(data): problem = try decode(Problem.self, data, status: status)
        case let .stored(outcome):
            guard let stored = outcome.problem else { throw defect(status, "the completed write holds no problem") }
            problem = stored
        }
        guard problem.status == status else { throw defect(status, "the problem says status \(problem.status)") }
        return problem
    }

    /// The problem of an answer decided by its status alone; nil when the body is not one (a
    /// proxy's HTML page), since nothing in it is needed.
    private func lenientProblem(_ body: WriteBody) -> Problem? {
        switch body {
        case let .http(data): return try? SyncJSON.decoder().decode(Problem.self, from: data)
        case let .stored(outcome): return outcome.problem
        }
    }

    private func lenientProblem(_ answer: HTTPAnswer) -> Problem? { lenientProblem(.http(answer.body)) }

    private func advice(_ answer: HTTPAnswer) -> RetryAdvice {
        RetryAdvice(status: answer.status, problemType: lenientProblem(answer)?.type, retryAfter: answer.retryAfter)
    }

    private func defect(_ status: Int?, _ reason: String) -> TransportError {
        .invalidAnswer(TransportFailure(method: method, path: path, status: status, reason: reason))
    }

    /// A decoding error's gist: where in the JSON and what, without the values (they may be text).
    private static func summary(of error: any Error) -> String {
        func place(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "the top level" : path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case let DecodingError.typeMismatch(type, context): return "\(place(context.codingPath)) is not \(type)"
        case let DecodingError.valueNotFound(type, context): return "\(place(context.codingPath)) is null, not \(type)"
        case let DecodingError.keyNotFound(key, context): return "\(place(context.codingPath + [key])) is missing"
        case let DecodingError.dataCorrupted(context): return "\(place(context.codingPath)) is malformed"
        default: return "it does not decode"
        }
    }
}

import Foundation
import SyncClient
import SyncProtocol

/// quire-server's write semantics as a value, for the reducer's randomized runs: preconditions,
/// revisions, tombstones, idempotency keys (claim, running, stored answer, replay, 422) and
/// lookups. It counts how often each key and each edit was applied, which is what "applied at
/// most once" is checked against.
struct ModelServer {
    struct Version {
        var revision: Int64
        /// Nil for a tombstone.
        var content: ArticlePayload?
    }

    private enum Key {
        case running(WriteRequest)
        case completed(WriteRequest, WriteAnswer)
    }

    private(set) var articles: [String: Version] = [:]
    private var keys: [String: Key] = [:]
    private var revision: Int64 = 0
    /// How often a keyed write was applied, by key.
    private(set) var applications: [String: Int] = [:]
    /// How often each body was written, by any key or none: bodies are unique per edit.
    private(set) var bodies: [String: Int] = [:]
    /// The key of each article's last write; absent when another device (no key) wrote last.
    private(set) var lastWriters: [String: String] = [:]
    /// Bodies longer than this get 413, before the key is claimed (as the real server does).
    let maximumBodyLength: Int
    let time = Date(timeIntervalSince1970: 1_900_000_000)

    init(maximumBodyLength: Int) {
        self.maximumBodyLength = maximumBodyLength
    }

    /// The start of a keyed write: nil when the key is now claimed and `apply` must follow, or
    /// the answer decided at once (413, a replay, 409 while running, 422).
    mutating func claim(_ request: WriteRequest) -> WriteAnswer? {
        if case let .put(content, _) = request.action, content.body.count > maximumBodyLength {
            return .rejected(RequestRejection(reason: .tooLarge, status: 413))
        }
        switch keys[request.idempotencyKey] {
        case nil:
            keys[request.idempotencyKey] = .running(request)
            return nil
        case let .running(first)?:
            return first == request
                ? .retry(RetryAdvice(status: 409, problemType: .operationInProgress, retryAfter: .seconds(1)))
                : .rejected(RequestRejection(reason: .idempotencyKeyReused, status: 422))
        case let .completed(first, answer)?:
            guard first == request else { return .rejected(RequestRejection(reason: .idempotencyKeyReused, status: 422)) }
            if case let .applied(version, _) = answer { return .applied(version, replayed: true) }
            return answer
        }
    }

    /// Runs a claimed write and stores its answer under the key.
    mutating func apply(_ request: WriteRequest) -> WriteAnswer {
        let (answer, wrote) = execute(request)
        keys[request.idempotencyKey] = .completed(request, answer)
        if wrote { applications[request.idempotencyKey, default: 0] += 1 }
        return answer
    }

    /// What `GET /v1/operations/{key}` answers.
    func lookup(_ key: String) -> WriteLookup {
        switch keys[key] {
        case nil: return .neverApplied
        case .running?: return .running(retryAfter: nil)
        case let .completed(_, answer)?:
            if case let .applied(version, _) = answer { return .completed(.applied(version, replayed: true)) }
            return .completed(answer)
        }
    }

    /// Another device edits or deletes the article directly (no key).
    mutating func interfere(_ id: String, content: ArticlePayload?) {
        if content == nil, articles[id]?.content == nil { return }
        _ = commit(id, content, key: nil)
    }

    /// The article's current version as the protocol shows it.
    func change(_ id: String) -> ArticleChange? {
        articles[id].map { version in
            ArticleChange(cursor: version.revision, id: id, revision: version.revision, deleted: version.content == nil,
                          changedAt: time, article: version.content.map { Article(id: id, revision: version.revision, updatedAt: time, content: $0) })
        }
    }

    /// The answer to a claimed write, and whether it wrote.
    private mutating func execute(_ request: WriteRequest) -> (WriteAnswer, Bool) {
        let id = request.articleID
        let live = articles[id].flatMap { $0.content == nil ? nil : $0 }
        switch request.action {
        case let .put(content, .absent):
            if live != nil { return (.conflict(current: change(id)), false) }
            return (.applied(version(commit(id, content, key: request.idempotencyKey)), replayed: false), true)
        case let .put(content, .revision(base)):
            guard let live, live.revision == base else { return (.conflict(current: change(id)), false) }
            return (.applied(version(commit(id, content, key: request.idempotencyKey)), replayed: false), true)
        case let .delete(base):
            guard let live else { return (.applied(.deleted(tombstone: change(id)), replayed: false), false) }
            guard live.revision == base else { return (.conflict(current: change(id)), false) }
            return (.applied(version(commit(id, nil, key: request.idempotencyKey)), replayed: false), true)
        }
    }

    private mutating func commit(_ id: String, _ content: ArticlePayload?, key: String?) -> ArticleChange {
        revision += 1
        articles[id] = Version(revision: revision, content: content)
        lastWriters[id] = key
        if let content { bodies[content.body, default: 0] += 1 }
        return change(id)!
    }

    private func version(_ change: ArticleChange) -> ServerVersion {
        change.article.map { .live($0) } ?? .deleted(tombstone: change)
    }
}

import Foundation
import Platform
import SyncProtocol

/// A write a client asked for, already checked: what to do to which article, on what condition.
public struct ArticleCommand: Hashable, Sendable {
    /// The condition on the server's current version of the article.
    public enum Precondition: Hashable, Sendable {
        /// `If-None-Match: *`: no live article has the ID (it never existed, or is a tombstone).
        case absent
        /// `If-Match: "<revision>"`: the live article is at exactly this revision.
        case revision(Int64)
        /// `If-Match` with a well-formed entity tag that names no revision (`"013"`, `W/"7"`):
        /// it never holds, so the write gets 412 (or 404 for a `DELETE` of no live article).
        case unmatchedTag(String)
    }

    /// What the write does.
    public enum Action: Hashable, Sendable {
        /// `PUT`: replace the content, on the condition.
        case put(ArticlePayload, Precondition)
        /// `DELETE`, on `If-Match` (`.revision` or `.unmatchedTag`; `.absent` would mean "delete
        /// only what does not exist", which nothing sends).
        case delete(Precondition)
    }

    /// The article written, from the path.
    public var articleID: String
    /// What is done to it, on which condition.
    public var action: Action

    /// A command for the article `articleID`.
    public init(articleID: String, action: Action) {
        self.articleID = articleID
        self.action = action
    }

    /// `PUT` or `DELETE`, as the request said.
    public var method: String {
        switch action {
        case .put: return "PUT"
        case .delete: return "DELETE"
        }
    }

    /// The SHA-256 of the method, ID, precondition and content (as sorted-key JSON), so that a
    /// replay with other JSON spacing or key order is the same request, and any other is not.
    public func fingerprint() throws -> String {
        var text = "\(method)\n\(articleID)\n"
        switch action {
        case let .put(content, precondition):
            text += Self.fingerprintLine(precondition)
            return SHA256.hex(Array(text.utf8) + Array(try SyncJSON.encoder().encode(content)))
        case let .delete(precondition):
            text += Self.fingerprintLine(precondition)
            return SHA256.hex(text.utf8)
        }
    }

    /// The precondition's line of the fingerprint; a revision's line is the one stored by earlier
    /// servers, so that their keys keep matching.
    private static func fingerprintLine(_ precondition: Precondition) -> String {
        switch precondition {
        case .absent: return "If-None-Match: *\n"
        case let .revision(revision): return "If-Match: \(revision)\n"
        case let .unmatchedTag(tag): return "If-Match tag: \(tag)\n"
        }
    }

    /// The answer to this command given the server's `current` version of the article. When the
    /// precondition holds it calls `commit` once, with the new content or nil for a tombstone, and
    /// answers with the version `commit` returns.
    ///
    /// Preconditions follow RFC 9110: `If-Match` fails on a tombstone (it has no current
    /// representation) and `If-None-Match: *` succeeds on one, which is how a deleted article is
    /// restored. A `DELETE` of an article with no live version is 404, whatever its `If-Match`.
    func answer(current: ArticleChange?, commit: (ArticlePayload?) throws -> ArticleChange) throws -> StoredAnswer {
        let live = current.flatMap { $0.deleted ? nil : $0 }
        switch action {
        case let .put(content, .absent):
            if let live { return try Self.problem(.staleRevision(current: live)) }
            return try Self.success(201, commit(content), article: true)
        case let .put(content, .revision(base)):
            guard let live, live.revision == base else { return try Self.problem(.staleRevision(current: current)) }
            return try Self.success(200, commit(content), article: true)
        case .put(_, .unmatchedTag):
            return try Self.problem(.staleRevision(current: current))
        case let .delete(precondition):
            guard let live else { return try Self.problem(.articleNotFound(articleID, current: current)) }
            guard case let .revision(base) = precondition, live.revision == base else {
                return try Self.problem(.staleRevision(current: live))
            }
            return try Self.success(200, commit(nil), article: false)
        }
    }

    private static func success(_ status: Int, _ version: ArticleChange, article: Bool) throws -> StoredAnswer {
        let encoder = SyncJSON.encoder()
        let body = try article ? encoder.encode(version.article) : encoder.encode(version)
        return StoredAnswer(status: status, eTag: RevisionTag.format(version.revision), body: Array(body))
    }

    private static func problem(_ problem: Problem) throws -> StoredAnswer {
        StoredAnswer(status: problem.status, eTag: nil, body: Array(try SyncJSON.encoder().encode(problem)))
    }
}

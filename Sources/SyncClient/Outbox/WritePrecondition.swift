/// The condition a write puts on the server's current version of the article: the base it was
/// made on.
///
/// It is part of the idempotency key's fingerprint on the server, so once an entry was sent its
/// precondition never changes: a resend with another one would get 422.
public enum WritePrecondition: Sendable, Hashable, Codable {
    /// `If-None-Match: *`: the server holds no live article under the ID (it never did, or it holds
    /// a tombstone). Creates the article, or restores a deleted one.
    case absent
    /// `If-Match: "<revision>"`: the server's live article is at exactly this revision.
    case revision(Int64)
}

/// What storing a blob did.
public enum BlobStoring: Sendable, Hashable {
    /// The blob is new to the account.
    case stored
    /// The account held these bytes already; nothing changed (uploads are idempotent).
    case alreadyStored
    /// Storing it would take the account past its quota; nothing changed. `used` is what the
    /// account's blobs take now.
    case overQuota(used: Int64)
}

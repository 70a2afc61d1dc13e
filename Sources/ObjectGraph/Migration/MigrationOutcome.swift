import Foundation

/// What a finished migration did.
public struct MigrationOutcome: Sendable, Hashable {
    /// The schema the store had (nil when there was no store).
    public var from: SchemaVersion?
    /// The schema it has now.
    public var to: SchemaVersion
    /// The stages run (0 when the store was up to date).
    public var stagesRun: Int
    /// Whether an interrupted migration was resumed.
    public var resumed: Bool
    /// The original store, kept as the backup (nil when nothing was migrated).
    public var backup: URL?
}

import Foundation

/// Where a store lives and how it is opened.
///
///     StoreDescription.file(url)                      // WAL, synchronous=FULL
///     StoreDescription.inMemory                       // for fast tests only
///     var description = StoreDescription.file(url); description.isReadOnly = true
public struct StoreDescription: Sendable, Hashable {
    /// Where the store's data is kept.
    public enum Location: Sendable, Hashable {
        case file(URL)
        /// A private in-memory database, gone when the container is.
        case inMemory
    }

    /// SQLite's `synchronous` setting: how hard a commit waits for the disk.
    public enum Synchronous: String, Sendable, Hashable {
        /// Commits survive power loss. The default: a writer's only copy of a draft may be in the store.
        case full = "FULL"
        /// With WAL, never corrupts, but the last commits may be lost on power loss.
        case normal = "NORMAL"
        /// Like `full`, and also syncs the folder after deleting the journal.
        case extra = "EXTRA"
    }

    /// The file, or memory.
    public var location: Location
    /// How hard a commit waits for the disk; FULL unless chosen otherwise.
    public var synchronous: Synchronous = .full
    /// How long a write waits for another connection's lock before failing with `.busy`.
    public var busyTimeout: TimeInterval = 5
    /// Opens without writing anything; saves fail with `.readOnly`.
    public var isReadOnly = false
    /// With ``isReadOnly``: opens a store written with a newer schema (a higher version) when it
    /// still has every table and column this schema reads, as a newer version that only added
    /// things does. For showing and exporting what a newer program wrote; nothing is ever written.
    public var readsNewerSchema = false
    /// Records every save and batch operation in persistent history (see ``PersistentHistory``):
    /// needed to merge other processes' changes and for history consumers. Once a store has
    /// history it keeps recording it, whatever later descriptions say.
    public var recordsHistory = false

    /// A description with the default settings.
    public init(location: Location) {
        self.location = location
    }

    /// A store in a SQLite file, created if it does not exist.
    public static func file(_ url: URL) -> StoreDescription { StoreDescription(location: .file(url)) }

    /// A store in a SQLite file that records persistent history.
    public static func file(_ url: URL, recordsHistory: Bool) -> StoreDescription {
        var description = StoreDescription(location: .file(url))
        description.recordsHistory = recordsHistory
        return description
    }

    /// A store in memory.
    public static var inMemory: StoreDescription { StoreDescription(location: .inMemory) }

    /// The file, for file stores.
    public var url: URL? {
        if case .file(let url) = location { return url }
        return nil
    }
}

import Foundation

/// Where a migration works and how it measures free space.
public struct MigrationOptions: Sendable {
    /// The folder of the working copy; nil: `.NAME.migration` beside the store.
    public var workspace: URL?
    /// The folder backups go to; nil: `NAME backups` beside the store.
    public var backupFolder: URL?
    /// The free bytes of the file system holding a path; `statvfs` unless a test says otherwise.
    public var availableSpace: @Sendable (String) throws -> Int64

    /// Options; by default the workspace and backups sit beside the store.
    public init(
        workspace: URL? = nil, backupFolder: URL? = nil,
        availableSpace: @escaping @Sendable (String) throws -> Int64 = StoreFiles.availableSpace(at:)
    ) {
        self.workspace = workspace
        self.backupFolder = backupFolder
        self.availableSpace = availableSpace
    }
}

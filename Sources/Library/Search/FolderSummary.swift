import Foundation

/// A folder as the sidebar and `quire folders` show it.
public struct FolderSummary: Sendable, Hashable, Codable {
    /// The folder's name.
    public var name: String
    /// Articles in it, outside the trash.
    public var articleCount: Int
}

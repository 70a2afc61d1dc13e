import Foundation

/// What a store records about itself in its `og_metadata` table.
public struct StoreMetadata: Sendable, Hashable {
    /// Created with the store and never changed; part of every object URI.
    public var storeIdentifier: UUID
    /// The version and checksum of the schema the store's tables follow.
    public var schema: SchemaVersion
    /// The layout version of ObjectGraph's own tables (metadata, keys, row versions).
    public var formatVersion: Int

    /// The layout of ObjectGraph's own tables this build writes and reads.
    public static let currentFormatVersion = 1

    /// Metadata keys. Later features (migration state, history) add keys of their own.
    enum Key {
        static let storeIdentifier = "store_identifier"
        static let schemaVersion = "schema_version"
        static let schemaChecksum = "schema_checksum"
        static let formatVersion = "format_version"
    }
}

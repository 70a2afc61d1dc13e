import Foundation

/// One attribute of an entity: a name, a type and how the store treats it.
///
///     AttributeDescription("title", .string, default: "Untitled")
///     AttributeDescription("id", .uuid, unique: true)
///     AttributeDescription("subtitle", .string, optional: true)
///     AttributeDescription("modifiedAt", .date, indexed: true)
///     AttributeDescription("bytes", .binaryData, externalStorageThreshold: 64 * 1024)
public struct AttributeDescription: Sendable, Hashable {
    /// The property name, also the column name. Must not start with `_`.
    public var name: String
    /// What values it holds and how they are stored.
    public var type: AttributeType
    /// Whether nil is a valid value at save. Required attributes are checked by `save()`.
    public var isOptional: Bool
    /// The value a newly inserted object starts with.
    public var defaultValue: PrimitiveValue?
    /// Whether the store keeps an index on the column.
    public var isIndexed: Bool
    /// Whether no two objects of the entity may hold the same non-nil value.
    public var isUnique: Bool
    /// Kept in memory only: no column, not saved, reset when an object is refreshed.
    public var isTransient: Bool
    /// The name this attribute had in an earlier schema, for migrations. Not part of the checksum.
    public var renamingIdentifier: String?
    /// Whether persistent history keeps the attribute's value when its object is deleted (in the
    /// delete's tombstone), so that a history consumer knows what was deleted. Not part of the checksum.
    public var preservesValueInHistoryOnDeletion: Bool
    /// For a `.binaryData` attribute: values of at least this many bytes are kept in a file beside
    /// the store instead of in the row (as Core Data's "Allows External Storage"); nil keeps every
    /// value in the row. Whether it is set is part of the checksum; the number is not, since rows
    /// of either kind read the same. See ``ExternalBinaryFolder``.
    public var externalStorageThreshold: Int?

    /// An attribute; by default required, without default, index or uniqueness, and stored.
    public init(
        _ name: String, _ type: AttributeType, optional: Bool = false, default defaultValue: PrimitiveValue? = nil,
        indexed: Bool = false, unique: Bool = false, transient: Bool = false, renamingIdentifier: String? = nil,
        preservesValueInHistoryOnDeletion: Bool = false, externalStorageThreshold: Int? = nil
    ) {
        self.name = name
        self.type = type
        self.isOptional = optional
        self.defaultValue = defaultValue
        self.isIndexed = indexed
        self.isUnique = unique
        self.isTransient = transient
        self.renamingIdentifier = renamingIdentifier
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        self.externalStorageThreshold = externalStorageThreshold
    }
}

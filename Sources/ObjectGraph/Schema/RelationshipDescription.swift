/// One relationship of an entity. Every relationship names its inverse on the destination entity;
/// a schema whose inverses do not pair up is rejected when it is loaded.
///
///     RelationshipDescription.toOne("folder", "Folder", inverse: "articles")
///     RelationshipDescription.toMany("articles", "Article", inverse: "folder", deleteRule: .cascade)
///     RelationshipDescription.toMany("tags", "Tag", inverse: "articles")   // many-to-many
public struct RelationshipDescription: Sendable, Hashable {
    /// The property name (and, for a to-one that holds the key, the column name).
    public var name: String
    /// The entity at the other end.
    public var destination: String
    /// The relationship on `destination` that points back.
    public var inverse: String
    /// Whether the relationship holds a set of objects rather than one.
    public var isToMany: Bool
    /// For a to-one: whether nil is valid at save. A to-many is checked against its counts instead.
    public var isOptional: Bool
    /// For a to-many: the fewest objects it may hold at save.
    public var minCount: Int?
    /// For a to-many: the most objects it may hold at save.
    public var maxCount: Int?
    /// What deleting an object does to the objects this relationship holds.
    public var deleteRule: DeleteRule
    /// The name this relationship had in an earlier schema, for migrations. Not part of the checksum.
    public var renamingIdentifier: String?

    /// A relationship; `toOne` and `toMany` read better for most declarations.
    public init(
        _ name: String, destination: String, inverse: String, toMany: Bool, optional: Bool = true,
        minCount: Int? = nil, maxCount: Int? = nil, deleteRule: DeleteRule = .nullify,
        renamingIdentifier: String? = nil
    ) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = toMany
        self.isOptional = optional
        self.minCount = minCount
        self.maxCount = maxCount
        self.deleteRule = deleteRule
        self.renamingIdentifier = renamingIdentifier
    }

    /// A to-one relationship.
    public static func toOne(
        _ name: String, _ destination: String, inverse: String, optional: Bool = true,
        deleteRule: DeleteRule = .nullify, renamingIdentifier: String? = nil
    ) -> RelationshipDescription {
        RelationshipDescription(
            name, destination: destination, inverse: inverse, toMany: false, optional: optional,
            deleteRule: deleteRule, renamingIdentifier: renamingIdentifier)
    }

    /// A to-many relationship; with a to-many inverse it is many-to-many, kept in a join table.
    public static func toMany(
        _ name: String, _ destination: String, inverse: String, minCount: Int? = nil, maxCount: Int? = nil,
        deleteRule: DeleteRule = .nullify, renamingIdentifier: String? = nil
    ) -> RelationshipDescription {
        RelationshipDescription(
            name, destination: destination, inverse: inverse, toMany: true, optional: true,
            minCount: minCount, maxCount: maxCount, deleteRule: deleteRule, renamingIdentifier: renamingIdentifier)
    }
}

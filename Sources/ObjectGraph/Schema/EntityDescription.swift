/// One entity: its attributes, relationships, constraints, and the class its objects are made of.
///
///     EntityDescription("Article", class: Article.self,
///         attributes: [
///             AttributeDescription("id", .uuid, unique: true),
///             AttributeDescription("title", .string, default: ""),
///         ],
///         relationships: [.toOne("folder", "Folder", inverse: "articles")],
///         uniquenessConstraints: [["folder", "title"]])
public struct EntityDescription: Sendable {
    /// The entity name, also the table name. Must not start with `og_` or `_`.
    public var name: String
    /// The `ManagedObject` subclass instantiated for the entity's objects. An entity kept only for
    /// an old schema version can leave it as `ManagedObject` and use `value(forKey:)`.
    public var objectClass: ManagedObject.Type
    /// The entity's attributes, in column order.
    public var attributes: [AttributeDescription]
    /// The entity's relationships.
    public var relationships: [RelationshipDescription]
    /// Sets of attribute or to-one relationship names whose values together must be unique.
    /// (A single unique attribute can say `unique: true` instead.)
    public var uniquenessConstraints: [[String]]
    /// Compound indexes, each a list of attribute or to-one relationship names.
    public var indexes: [[String]]
    /// The name this entity had in an earlier schema, for migrations. Not part of the checksum.
    public var renamingIdentifier: String?
    /// A full-text index over some of the entity's string attributes, searched with
    /// ``FetchPredicate/matches(_:)``.
    public var fullTextIndex: FullTextIndex?

    /// An entity named `name`, whose objects are instances of `objectClass`.
    public init(
        _ name: String, class objectClass: ManagedObject.Type = ManagedObject.self,
        attributes: [AttributeDescription] = [], relationships: [RelationshipDescription] = [],
        uniquenessConstraints: [[String]] = [], indexes: [[String]] = [], renamingIdentifier: String? = nil,
        fullTextIndex: FullTextIndex? = nil
    ) {
        self.name = name
        self.objectClass = objectClass
        self.attributes = attributes
        self.relationships = relationships
        self.uniquenessConstraints = uniquenessConstraints
        self.indexes = indexes
        self.renamingIdentifier = renamingIdentifier
        self.fullTextIndex = fullTextIndex
    }

    /// The attribute with this name, if any.
    public func attribute(named name: String) -> AttributeDescription? {
        attributes.first { $0.name == name }
    }

    /// The relationship with this name, if any.
    public func relationship(named name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name }
    }
}

extension EntityDescription: Hashable {
    /// Entities are equal when their structure is; the object class is not compared, so an old
    /// schema declared without classes still compares with the current one.
    public static func == (lhs: EntityDescription, rhs: EntityDescription) -> Bool {
        lhs.name == rhs.name && lhs.attributes == rhs.attributes && lhs.relationships == rhs.relationships
            && lhs.uniquenessConstraints == rhs.uniquenessConstraints && lhs.indexes == rhs.indexes
            && lhs.renamingIdentifier == rhs.renamingIdentifier && lhs.fullTextIndex == rhs.fullTextIndex
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(attributes)
        hasher.combine(relationships)
        hasher.combine(uniquenessConstraints)
        hasher.combine(indexes)
        hasher.combine(fullTextIndex)
    }
}

import Foundation
import Platform

/// The object model of a store: its entities, declared in Swift as a value.
///
/// A schema carries a version number chosen by its author and a ``checksum`` derived from its
/// structure (names, types, optionality, relationships, constraints and indexes; not Swift class
/// names, defaults, delete rules or renaming identifiers). A store remembers both; opening a store
/// whose checksum differs fails with ``StoreError/Kind-swift.enum/incompatibleSchema(store:model:)``.
/// Keep every shipped schema in code: migrations compare two schema values.
///
///     let schema = Schema(version: 1, entities: [
///         EntityDescription("Folder", class: Folder.self,
///             attributes: [AttributeDescription("name", .string)],
///             relationships: [.toMany("articles", "Article", inverse: "folder", deleteRule: .cascade)]),
///         EntityDescription("Article", class: Article.self,
///             attributes: [AttributeDescription("title", .string, default: "")],
///             relationships: [.toOne("folder", "Folder", inverse: "articles")]),
///     ])
public struct Schema: Sendable, Hashable {
    /// The version the author gives this schema; stored with the checksum.
    public var version: Int
    /// The entities, in any order.
    public var entities: [EntityDescription]

    /// A schema of `entities`, which `validate()` or opening a store checks.
    public init(version: Int, entities: [EntityDescription]) {
        self.version = version
        self.entities = entities
    }

    /// The entity with this name, if any.
    public func entity(named name: String) -> EntityDescription? {
        entities.first { $0.name == name }
    }

    /// A SHA-256 of the schema's canonical structure, as 64 hexadecimal digits. Stable across
    /// builds, platforms and property order.
    public var checksum: String {
        SHA256.hex(canonicalText.utf8)
    }

    /// The structure the checksum covers, one line per fact, sorted.
    var canonicalText: String {
        var lines: [String] = ["objectgraph-schema 1"]
        for entity in entities.sorted(by: { $0.name < $1.name }) {
            lines.append("entity \(entity.name)")
            for attribute in entity.attributes.filter({ !$0.isTransient }).sorted(by: { $0.name < $1.name }) {
                var line = " attribute \(attribute.name) \(attribute.type.rawValue)"
                if attribute.isOptional { line += " optional" }
                if attribute.isIndexed { line += " indexed" }
                if attribute.isUnique { line += " unique" }
                if attribute.externalStorageThreshold != nil { line += " external" }
                lines.append(line)
            }
            for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) {
                var line = " relationship \(relationship.name) \(relationship.isToMany ? "to-many" : "to-one")"
                line += " \(relationship.destination).\(relationship.inverse)"
                if relationship.isOptional { line += " optional" }
                lines.append(line)
            }
            for keys in entity.uniquenessConstraints.map({ $0.sorted() }).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                lines.append(" unique \(keys.joined(separator: ","))")
            }
            for keys in entity.indexes.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                lines.append(" index \(keys.joined(separator: ","))")
            }
            if let fullTextIndex = entity.fullTextIndex { lines.append(fullTextIndex.canonicalLine) }
        }
        return lines.joined(separator: "\n")
    }

    /// Checks the structure: names, inverses, counts, defaults, constraints and classes. Every problem
    /// is reported at once.
    public func validate() throws {
        let problems = structuralProblems()
        if !problems.isEmpty { throw SchemaError(problems: problems) }
    }

    func structuralProblems() -> [SchemaError.Problem] {
        var problems: [SchemaError.Problem] = []
        func report(_ kind: SchemaError.Problem.Kind, _ entity: String, _ property: String?, _ message: String) {
            problems.append(SchemaError.Problem(kind: kind, entity: entity, property: property, message: message))
        }

        var entityNames = Set<String>()
        var classes: [ObjectIdentifier: String] = [:]
        for entity in entities {
            checkName(entity.name, entity: entity.name, property: nil, report: report)
            if !entityNames.insert(entity.name.lowercased()).inserted {
                report(.duplicateName, entity.name, nil, "another entity has this name")
            }
            if entity.objectClass != ManagedObject.self {
                let key = ObjectIdentifier(entity.objectClass)
                if let other = classes[key] {
                    report(.duplicateClass, entity.name, nil, "class \(entity.objectClass) is already used by \(other)")
                } else {
                    classes[key] = entity.name
                }
            }

            var propertyNames = Set<String>()
            for name in entity.attributes.map(\.name) + entity.relationships.map(\.name) {
                checkName(name, entity: entity.name, property: name, report: report)
                if !propertyNames.insert(name.lowercased()).inserted {
                    report(.duplicateName, entity.name, name, "another property of the entity has this name")
                }
            }

            for attribute in entity.attributes {
                if let defaultValue = attribute.defaultValue,
                   attribute.type.coerce(defaultValue) == nil || attribute.type.isOutOfRange(defaultValue) {
                    report(.invalidDefault, entity.name, attribute.name,
                           "default \(defaultValue) does not fit type \(attribute.type.rawValue)")
                }
                if attribute.isTransient && (attribute.isUnique || attribute.isIndexed) {
                    report(.transientConstraint, entity.name, attribute.name, "a transient attribute has no column to index")
                }
                if let threshold = attribute.externalStorageThreshold,
                   attribute.type != .binaryData || attribute.isTransient || attribute.isUnique || attribute.isIndexed || threshold < 0 {
                    report(.externalStorage, entity.name, attribute.name,
                           "only a stored, unindexed, non-unique binary attribute may be kept outside the database, from 0 bytes up")
                }
            }

            for relationship in entity.relationships {
                checkRelationship(relationship, of: entity, report: report)
            }

            let columnNames = Set(entity.attributes.filter { !$0.isTransient }.map(\.name)
                + entity.relationships.filter { ownsForeignKey($0, of: entity.name) }.map(\.name))
            for keys in entity.uniquenessConstraints + entity.indexes {
                if keys.isEmpty { report(.unknownKey, entity.name, nil, "an index or uniqueness constraint lists no keys") }
                for key in keys where !columnNames.contains(key) {
                    report(.unknownKey, entity.name, key,
                           "indexes and uniqueness constraints take stored attributes and to-one relationships that hold the key")
                }
            }
            problems += entity.fullTextIndex?.problems(in: entity) ?? []
        }
        return problems
    }

    private func checkName(
        _ name: String, entity: String, property: String?,
        report: (SchemaError.Problem.Kind, String, String?, String) -> Void
    ) {
        let scalars = Array(name.unicodeScalars)
        let isIdentifier = !scalars.isEmpty
            && scalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_") }
            && !CharacterSet.decimalDigits.contains(scalars[0])
        if !isIdentifier {
            report(.invalidName, entity, property, "'\(name)' is not a name of ASCII letters, digits and underscores")
        } else if name.hasPrefix("_") || name.lowercased().hasPrefix("og_") {
            report(.reservedName, entity, property, "names starting with '_' or 'og_' are kept for ObjectGraph")
        }
    }

    private func checkRelationship(
        _ relationship: RelationshipDescription, of entity: EntityDescription,
        report: (SchemaError.Problem.Kind, String, String?, String) -> Void
    ) {
        if relationship.isToMany {
            if let minCount = relationship.minCount, minCount < 0 {
                report(.invalidCount, entity.name, relationship.name, "minimum count \(minCount) is negative")
            }
            if let maxCount = relationship.maxCount, maxCount < 0 {
                report(.invalidCount, entity.name, relationship.name, "maximum count \(maxCount) is negative")
            }
            if let minCount = relationship.minCount, let maxCount = relationship.maxCount, minCount > maxCount {
                report(.invalidCount, entity.name, relationship.name, "minimum count \(minCount) exceeds maximum \(maxCount)")
            }
        } else if relationship.minCount != nil || relationship.maxCount != nil {
            report(.invalidCount, entity.name, relationship.name, "counts apply to to-many relationships only")
        }
        guard let destination = self.entity(named: relationship.destination) else {
            report(.unknownDestination, entity.name, relationship.name, "destination entity '\(relationship.destination)' does not exist")
            return
        }
        guard let inverse = destination.relationship(named: relationship.inverse) else {
            report(.missingInverse, entity.name, relationship.name,
                   "inverse '\(relationship.inverse)' does not exist on \(destination.name); every relationship needs one")
            return
        }
        if inverse.destination != entity.name || inverse.inverse != relationship.name {
            report(.inverseMismatch, entity.name, relationship.name,
                   "inverse \(destination.name).\(inverse.name) points to \(inverse.destination).\(inverse.inverse)")
        } else if destination.name == entity.name && inverse.name == relationship.name && relationship.isToMany {
            report(.selfInverseToMany, entity.name, relationship.name,
                   "a to-many relationship cannot be its own inverse; declare two relationships")
        }
    }

    /// Whether the relationship is stored as a foreign-key column in its own entity's table:
    /// every to-one whose inverse is to-many, and one side of a one-to-one (the side whose
    /// `entity.relationship` name sorts first, or a to-one that is its own inverse).
    func ownsForeignKey(_ relationship: RelationshipDescription, of entityName: String) -> Bool {
        guard !relationship.isToMany else { return false }
        guard let inverse = entity(named: relationship.destination)?.relationship(named: relationship.inverse) else {
            return true
        }
        if inverse.isToMany { return true }
        return (entityName, relationship.name) <= (relationship.destination, relationship.inverse)
    }
}

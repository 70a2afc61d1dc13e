/// A schema that cannot be loaded, with every problem found, each naming its entity and property.
public struct SchemaError: Error, Sendable, CustomStringConvertible {
    /// One thing wrong with a schema.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// What kind of mistake it is.
        public enum Kind: Sendable, Hashable {
            /// A name that is empty or not letters, digits and underscores starting with a letter.
            case invalidName
            /// Two entities, or two properties of one entity, share a name (ignoring case).
            case duplicateName
            /// A name starting with `_` or `og_`, which ObjectGraph keeps for its own columns and tables.
            case reservedName
            /// A relationship whose destination entity does not exist.
            case unknownDestination
            /// A relationship whose inverse does not exist on the destination.
            case missingInverse
            /// A relationship whose inverse points somewhere else.
            case inverseMismatch
            /// A relationship that is its own inverse while to-many (declare two relationships).
            case selfInverseToMany
            /// A default value that does not fit the attribute type.
            case invalidDefault
            /// Counts on a to-one, a negative count, or a minimum above the maximum.
            case invalidCount
            /// A uniqueness constraint or index naming something that has no column.
            case unknownKey
            /// A transient attribute marked unique or indexed.
            case transientConstraint
            /// Two entities declare the same object class.
            case duplicateClass
            /// The object class declares a property the entity does not have, or with another type.
            case classMismatch
            /// External storage on an attribute that is not a stored, unindexed, non-unique
            /// `.binaryData`, or a negative threshold.
            case externalStorage
        }

        /// What kind of mistake it is.
        public var kind: Kind
        /// The entity concerned.
        public var entity: String
        /// The attribute or relationship concerned, if the problem is about one.
        public var property: String?
        /// A sentence a developer can act on.
        public var message: String

        public var description: String {
            "\(entity)\(property.map { ".\($0)" } ?? ""): \(message)"
        }
    }

    /// Every problem found, in schema order.
    public var problems: [Problem]

    public var description: String {
        "invalid schema: " + problems.map(\.description).joined(separator: "; ")
    }
}

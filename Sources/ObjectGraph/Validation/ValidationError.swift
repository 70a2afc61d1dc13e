/// A save refused before anything was written, listing every failure of every object.
public struct ValidationError: Error, Sendable, CustomStringConvertible {
    /// One failure of one object.
    public struct Issue: Sendable, Hashable, CustomStringConvertible {
        /// Why the object cannot be saved.
        public enum Reason: Sendable, Hashable {
            /// A required attribute or to-one relationship is nil.
            case missingValue
            /// A to-many relationship holds fewer objects than its minimum.
            case tooFewObjects(minimum: Int, actual: Int)
            /// A to-many relationship holds more objects than its maximum.
            case tooManyObjects(maximum: Int, actual: Int)
            /// A deny rule refuses the delete while these objects are related.
            case deleteDenied(by: [ManagedObjectID])
            /// The values of `keys` are held by another object (nil when the other object is also
            /// being saved and got its ID in this save).
            case notUnique(keys: [String], conflictingObject: ManagedObjectID?)
            /// The object would keep pointing at an object deleted in this save (a relationship with
            /// `noAction` whose inverse was not cleared).
            case danglingReference(destination: String)
            /// The object's own validation (`validateForInsert` and the like) refused it.
            case custom(String)
        }

        /// The object's entity.
        public var entity: String
        /// The object (a temporary ID for an object not saved yet).
        public var objectID: ManagedObjectID
        /// The attribute or relationship concerned, when there is one.
        public var key: String?
        /// Why it cannot be saved.
        public var reason: Reason

        public var description: String {
            "\(entity)\(key.map { ".\($0)" } ?? "") of \(objectID): \(reason)"
        }
    }

    /// Every failure found.
    public var issues: [Issue]

    public var description: String {
        "validation failed: " + issues.map(\.description).joined(separator: "; ")
    }
}

/// The error an object's `validateForInsert`, `validateForUpdate` or `validateForDelete` throws to
/// refuse a save.
public struct ValidationFailure: Error, Sendable, Hashable {
    /// The attribute or relationship at fault, if it is one.
    public var key: String?
    /// A sentence for the writer or the developer.
    public var message: String

    /// A failure of `key` (or of the whole object when nil).
    public init(key: String? = nil, _ message: String) {
        self.key = key
        self.message = message
    }
}

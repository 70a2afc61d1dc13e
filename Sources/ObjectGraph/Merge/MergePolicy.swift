/// How a context resolves conflicts between its changes and changes made elsewhere since it read
/// its objects, with Core Data's semantics.
///
/// | policy | an updated object whose row changed | row deleted elsewhere | inserted object whose unique values exist |
/// |---|---|---|---|
/// | `.error` | the save fails with every conflict | fails | fails (`ValidationError`) |
/// | `.mergeByPropertyStoreTrump` | the store's values, plus the object's changes to properties the store did not change | the object is deleted | it becomes the existing object, with its values |
/// | `.mergeByPropertyObjectTrump` | the store's values, plus every change of the object | the object is written again | it becomes the existing object, with its own changes written over it (an upsert) |
/// | `.overwrite` | the object's whole state is written | written again | as object trump, every value |
/// | `.rollback` | the object's changes are dropped for the store's values | deleted | it becomes the existing object |
///
/// A delete always goes ahead under a non-error policy (its delete rules already ran in the
/// context). Conflicts a policy resolved are listed in ``ChangeSet/resolvedConflicts``.
///
/// A custom policy decides each conflict itself:
///
///     struct KeepLongerBody: MergeConflictResolver {
///         func resolve(_ conflict: MergeConflict) throws -> MergeResolution {
///             guard case .string(let mine)? = conflict.objectValues[attribute: "body"],
///                   case .string(let theirs)? = conflict.storeSnapshot?[attribute: "body"] else { return .mergeByProperty(.store) }
///             return mine.count >= theirs.count ? .mergeByProperty(.object) : .mergeByProperty(.store)
///         }
///     }
///     context.mergePolicy = .custom(KeepLongerBody())
public struct MergePolicy: Sendable, CustomStringConvertible {
    enum Rule: Sendable {
        case error
        case resolution(MergeResolution, name: String)
        case custom(any MergeConflictResolver)
    }

    let rule: Rule

    /// Conflicts fail the save with ``ObjectGraphError/mergeConflicts(_:)``; nothing is written.
    public static let error = MergePolicy(rule: .error)
    /// Per property, changes made elsewhere win over the context's.
    public static let mergeByPropertyStoreTrump = MergePolicy(rule: .resolution(.mergeByProperty(.store), name: "mergeByPropertyStoreTrump"))
    /// Per property, the context's changes win over changes made elsewhere.
    public static let mergeByPropertyObjectTrump = MergePolicy(rule: .resolution(.mergeByProperty(.object), name: "mergeByPropertyObjectTrump"))
    /// The context's whole object replaces what is stored, also properties it did not change.
    public static let overwrite = MergePolicy(rule: .resolution(.keepObject, name: "overwrite"))
    /// The context's changes to objects in conflict are dropped for what is stored.
    public static let rollback = MergePolicy(rule: .resolution(.keepStore, name: "rollback"))

    /// A policy that asks `resolver` about each conflict.
    public static func custom(_ resolver: some MergeConflictResolver) -> MergePolicy {
        MergePolicy(rule: .custom(resolver))
    }

    /// Whether conflicts fail the save.
    var isError: Bool {
        if case .error = rule { return true }
        return false
    }

    /// How `conflict` ends; nil under `.error`.
    func resolution(for conflict: MergeConflict) throws -> MergeResolution? {
        switch rule {
        case .error: return nil
        case .resolution(let resolution, _): return resolution
        case .custom(let resolver): return try resolver.resolve(conflict)
        }
    }

    public var description: String {
        switch rule {
        case .error: return "error"
        case .resolution(_, let name): return name
        case .custom(let resolver): return "custom(\(type(of: resolver)))"
        }
    }
}

/// Decides conflicts for a custom ``MergePolicy``. Called on the saving context's queue, inside the
/// save's transaction; throwing fails the save with that error and writes nothing.
public protocol MergeConflictResolver: Sendable {
    /// How `conflict` ends.
    func resolve(_ conflict: MergeConflict) throws -> MergeResolution
}

/// How one conflict ends.
public enum MergeResolution: Sendable, Hashable {
    /// Which side wins a property both changed.
    public enum Side: Sendable, Hashable {
        case store
        case object
    }

    /// The stored values, with the object's changes applied: all of them (`.object`), or only to
    /// properties the store did not change too (`.store`).
    case mergeByProperty(Side)
    /// The object's whole state, written over what is stored (or written again when its row is gone).
    case keepObject
    /// What is stored; the object's changes are dropped (it is deleted when its row is gone).
    case keepStore
    /// The stored values with these attribute values (by name) written over them.
    case values([String: PrimitiveValue])
}

import Foundation

/// Misuse of the object graph and objects that cannot be found: each case names the entity, key or
/// object concerned. Store failures are ``StoreError``, failed saves ``ValidationError``.
public enum ObjectGraphError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No entity has this name, or no entity uses this class.
    case unknownEntity(String)
    /// The entity has no attribute or relationship with this name.
    case unknownKey(entity: String, key: String)
    /// A value of the wrong type for an attribute or relationship.
    case wrongValueType(entity: String, key: String, expected: String, actual: String)
    /// An integer too wide for its attribute (`integer16`, `integer32`).
    case valueOutOfRange(entity: String, key: String, value: String)
    /// The object's row does not exist in the store (it was deleted elsewhere, or never saved).
    case objectNotFound(ManagedObjectID)
    /// A temporary ID used outside the context that inserted the object, or after it was saved.
    case temporaryIDNotResolvable(ManagedObjectID)
    /// An ID or URI from another store.
    case wrongStore(ManagedObjectID)
    /// A URI that is not an ObjectGraph object URI.
    case invalidURI(String)
    /// The object has no context any more (its context was reset or released, or it was deleted
    /// and saved), and its values are not loaded.
    case objectDetached(ManagedObjectID)
    /// An object of another context used in this one (pass object IDs between contexts instead).
    case objectInAnotherContext(ManagedObjectID)
    /// A key path that does not lead through the entity's properties as used.
    case invalidKeyPath(entity: String, keyPath: String, reason: String)
    /// A fetch request that cannot run as asked.
    case invalidFetchRequest(entity: String, reason: String)
    /// A batch request that cannot run as asked.
    case invalidBatchRequest(entity: String, reason: String)
    /// A `.json` attribute whose stored text does not decode to the requested type.
    case undecodableValue(entity: String, key: String, reason: String)
    /// A value set on a `.json` attribute that JSON cannot encode.
    case unencodableValue(entity: String, key: String, reason: String)
    /// A save found rows changed or deleted in the store (for a child context: objects changed in
    /// its parent) since this context read them, and the merge policy is `.error`. Nothing was written.
    case mergeConflicts([MergeConflict])
    /// Persistent history was asked for, but the store does not record it.
    case historyNotRecorded
    /// History after `after` was asked for, but history through `prunedThrough` was deleted: the
    /// reader missed transactions and must start over from the current state.
    case historyExpired(after: HistoryToken, prunedThrough: HistoryToken)
    /// The operation writes to the store, which a child context does not do (it saves into its parent).
    case unsupportedInChildContext(operation: String)
    /// The store was closed (``PersistentStore/close()``): nothing reads or writes it any more.
    case storeClosed(path: String?)

    public var description: String {
        switch self {
        case .unknownEntity(let name): return "no entity named or classed '\(name)'"
        case .unknownKey(let entity, let key): return "\(entity) has no property '\(key)'"
        case .wrongValueType(let entity, let key, let expected, let actual):
            return "\(entity).\(key) takes \(expected), not \(actual)"
        case .valueOutOfRange(let entity, let key, let value): return "\(value) does not fit \(entity).\(key)"
        case .objectNotFound(let id): return "no row for \(id) in the store (deleted elsewhere?)"
        case .temporaryIDNotResolvable(let id): return "temporary ID \(id) is not known to this context"
        case .wrongStore(let id): return "\(id) belongs to another store"
        case .invalidURI(let uri): return "'\(uri)' is not an ObjectGraph object URI"
        case .objectDetached(let id): return "\(id) has no context and its values are not loaded"
        case .objectInAnotherContext(let id): return "\(id) belongs to another context"
        case .invalidKeyPath(let entity, let keyPath, let reason): return "key path '\(keyPath)' on \(entity): \(reason)"
        case .invalidFetchRequest(let entity, let reason): return "fetch request for \(entity): \(reason)"
        case .invalidBatchRequest(let entity, let reason): return "batch request for \(entity): \(reason)"
        case .undecodableValue(let entity, let key, let reason): return "\(entity).\(key) does not decode: \(reason)"
        case .unencodableValue(let entity, let key, let reason): return "\(entity).\(key) cannot be encoded: \(reason)"
        case .mergeConflicts(let conflicts):
            return "save conflicts with changes in the store: " + conflicts.map(\.description).joined(separator: "; ")
        case .historyNotRecorded: return "the store does not record persistent history"
        case .historyExpired(let after, let prunedThrough):
            return "history after token \(after.rawValue) was deleted through token \(prunedThrough.rawValue)"
        case .unsupportedInChildContext(let operation): return "a child context cannot \(operation); use a context on the store"
        case .storeClosed(let path): return "the store \(path.map { "at \($0) " } ?? "")was closed"
        }
    }
}

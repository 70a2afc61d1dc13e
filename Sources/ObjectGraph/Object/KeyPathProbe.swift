import Foundation

/// Turns Swift key paths into property names, so predicates and sort descriptors are written as
/// `\.folder?.name` and still become SQL.
///
/// Swift keeps no names in key paths. A placeholder object of the root class is created whose
/// property wrappers record their key instead of reading a value; applying the key path to it
/// yields the names in order (`["folder", "name"]`). Results are cached per key path.
final class KeyPathProbe {
    private(set) var path: [String] = []

    func record(_ key: String) {
        path.append(key)
    }

    /// Records a to-one step and returns a placeholder of the destination class to continue on.
    func follow<Target: ManagedObject>(_ key: String, to type: Target.Type) -> Target {
        record(key)
        return Target(ObjectInitialization(probe: self, entity: EntityModel.placeholder))
    }

    private static let cache = KeyPathNameCache()

    /// The property names a key path reads, from the root object on.
    static func names<Root: ManagedObject, Value>(of keyPath: KeyPath<Root, Value>) -> [String] {
        if let names = cache[keyPath] { return names }
        let probe = KeyPathProbe()
        let root = Root(ObjectInitialization(probe: probe, entity: EntityModel.placeholder))
        _ = root[keyPath: keyPath]
        cache[keyPath] = probe.path
        return probe.path
    }
}

/// A lock-protected cache, shared by every thread that builds predicates.
private final class KeyPathNameCache: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [AnyKeyPath: [String]] = [:]

    subscript(keyPath: AnyKeyPath) -> [String]? {
        get { lock.withLock { names[keyPath] } }
        set { lock.withLock { names[keyPath] = newValue } }
    }
}

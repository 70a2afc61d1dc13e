import CGtk

/// A `GWeakRef`: points at an instance without keeping it alive and reads nil once it has been
/// disposed. Lets a ``SignalConnection`` outlive its instance without touching freed memory.
final class WeakObjectReference {
    // GWeakRef must not move once initialized, so it lives in its own allocation.
    private let storage: UnsafeMutablePointer<GWeakRef>

    init(_ object: UnsafeMutablePointer<GObject>) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: GWeakRef())
        g_weak_ref_init(storage, object)
    }

    deinit {
        g_weak_ref_clear(storage)
        storage.deallocate()
    }

    /// Runs `body` with a strong reference to the instance, or returns nil if it is gone.
    func withObject<Result>(_ body: (UnsafeMutablePointer<GObject>) -> Result) -> Result? {
        guard let object = g_weak_ref_get(storage)?.assumingMemoryBound(to: GObject.self) else { return nil }
        defer { g_object_unref(object) }
        return body(object)
    }
}

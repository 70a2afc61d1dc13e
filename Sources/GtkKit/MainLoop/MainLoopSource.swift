import CGtk

/// A GLib source attached to the main context with a Swift closure as its data: the closure is
/// boxed and retained by the source, and released when the source is removed (by ``remove()``,
/// or by GLib when its callback asks to stop).
@MainActor
struct MainLoopSource {
    /// The source's id, 0 once it is removed.
    private(set) var id: guint

    /// Attaches a source through `attach`, which gets the boxed `closure` and the notify that
    /// releases it, and returns the id (`g_timeout_add_full`, `g_unix_signal_add_full`).
    init<Closure>(_ closure: Closure, attach: (gpointer, GDestroyNotify) -> guint) {
        id = attach(Unmanaged.passRetained(SignalHandlerBox(closure)).toOpaque()) { data in
            Unmanaged<AnyObject>.fromOpaque(data!).release()
        }
    }

    /// Whether the source is still attached (as far as this handle knows).
    var isAttached: Bool { id != 0 }

    /// Notes that GLib removed the source itself (its callback returned `G_SOURCE_REMOVE`).
    mutating func forget() { id = 0 }

    /// Removes the source, if it is still attached.
    mutating func remove() {
        guard id != 0 else { return }
        g_source_remove(id)
        id = 0
    }
}

import CGtk
import Synchronization

/// A compiled GResource bundle (`glib-compile-resources`): the `.ui` files, CSS and icons a
/// module ships inside its binary.
///
/// Once registered, GTK finds its files by resource path: `Builder(resource:)`, icon lookups
/// under the application's `/org/.../icons`, `gtk/help-overlay.ui` for the shortcuts window.
/// GResource is immutable and reference-counted atomically, so a bundle may be shared freely;
/// registering takes a lock, so two threads registering one bundle register it once.
public final class ResourceBundle: Sendable {
    // The one value the compiler cannot check: GResource is immutable and thread-safe.
    private nonisolated(unsafe) let resource: OpaquePointer
    private let isRegistered = Mutex(false)

    /// Reads a bundle from base64 text, as the `CompileGResources` build plugin embeds it.
    public init(base64 encoded: String) throws(GLibError) {
        var length: gsize = 0
        let bytes = g_bytes_new_take(g_base64_decode(encoded, &length), length)
        defer { g_bytes_unref(bytes) }
        resource = try GLibError.check("reading an embedded GResource bundle") { error in
            g_resource_new_from_data(bytes, error)
        }
    }

    /// Reads a bundle file (`.gresource`).
    public init(contentsOfFile path: String) throws(GLibError) {
        resource = try GLibError.check("reading the GResource bundle \(path)") { error in
            g_resource_load(path, error)
        }
    }

    deinit {
        if isRegistered.withLock({ $0 }) { g_resources_unregister(resource) }
        g_resource_unref(resource)
    }

    /// Makes the bundle's files visible to GTK and every `resource://` lookup in the process.
    /// Later calls do nothing; the bundle stays registered while it exists.
    public func register() {
        isRegistered.withLock { isRegistered in
            guard !isRegistered else { return }
            g_resources_register(resource)
            isRegistered = true
        }
    }

    /// Whether ``register()`` has made the files visible.
    public var isVisible: Bool { isRegistered.withLock { $0 } }

    /// Whether the bundle holds a file at `path`, such as `/org/quire/Quire/gtk/help-overlay.ui`.
    public func contains(_ path: String) -> Bool {
        g_resource_get_info(resource, path, G_RESOURCE_LOOKUP_FLAGS_NONE, nil, nil, nil) != 0
    }

    /// The paths of every file in the bundle below `folder` (which ends in `/`), sorted.
    public func files(under folder: String) -> [String] {
        guard let names = g_resource_enumerate_children(resource, folder, G_RESOURCE_LOOKUP_FLAGS_NONE, nil) else {
            return []
        }
        defer { g_strfreev(names) }
        var files: [String] = []
        var index = 0
        while let name = names[index] {
            let path = folder + String(cString: name)
            files += path.hasSuffix("/") ? self.files(under: path) : [path]
            index += 1
        }
        return files.sorted()
    }
}

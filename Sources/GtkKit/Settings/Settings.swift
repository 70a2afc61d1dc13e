import CGtk
import GtkShim

/// A `GSettings` object for one schema: preferences and state that outlive the process.
///
/// `g_settings_new` aborts the program when the schema is not installed, which is the case for
/// an uninstalled build run without `GSETTINGS_SCHEMA_DIR`. ``lookup(schemaID:)`` looks the
/// schema up first and returns nil instead, so callers can carry on without saved state.
@MainActor
public final class Settings: Object {
    public override class var gType: GType { g_settings_get_type() }

    /// The settings of `schemaID` from the installed schemas (and `GSETTINGS_SCHEMA_DIR`), or
    /// nil if the schema cannot be found.
    public static func lookup(schemaID: String) -> Settings? {
        guard let source = g_settings_schema_source_get_default() else { return nil }
        return settings(schemaID: schemaID, source: source)
    }

    /// The settings of `schemaID` from the compiled schemas in `directory` (falling back to the
    /// installed ones), or nil if the schema is in neither. Throws if the directory cannot be read.
    public static func lookup(schemaID: String, inDirectory directory: String) throws(GLibError) -> Settings? {
        let source = try GLibError.check("reading GSettings schemas in \(directory)") { error in
            g_settings_schema_source_new_from_directory(directory, g_settings_schema_source_get_default(), 1, error)
        }
        defer { g_settings_schema_source_unref(source) }
        return settings(schemaID: schemaID, source: source)
    }

    /// The settings of `schemaID` from the compiled schemas in `directory`, kept in the key file
    /// at `keyFile` instead of the desktop's settings (what a restart reads back), or nil if the
    /// schema is not found.
    public static func lookup(schemaID: String, inDirectory directory: String, keyFile: String) throws(GLibError) -> Settings? {
        let source = try GLibError.check("reading GSettings schemas in \(directory)") { error in
            g_settings_schema_source_new_from_directory(directory, g_settings_schema_source_get_default(), 1, error)
        }
        defer { g_settings_schema_source_unref(source) }
        let backend = Object(owning: gtkshim_keyfile_settings_backend_new(keyFile)!)
        return settings(schemaID: schemaID, source: source, backend: backend)
    }

    private static func settings(schemaID: String, source: OpaquePointer, backend: Object? = nil) -> Settings? {
        guard let schema = g_settings_schema_source_lookup(source, schemaID, 1) else { return nil }
        defer { g_settings_schema_unref(schema) }
        return Settings(owning: g_settings_new_full(schema, backend?.opaquePointer, nil))
    }

    /// Writes changes still waiting to their backend (a key file, say) before returning.
    public static func sync() {
        g_settings_sync()
    }

    private var settingsPointer: UnsafeMutablePointer<GSettings> { pointer(as: GSettings.self) }

    /// The schema id, such as `org.quire.Quire`.
    public var schemaID: String { property("schema-id", as: String.self) }

    /// Whether the schema has `key`.
    public func hasKey(_ key: String) -> Bool {
        var value = GValue()
        g_value_init(&value, g_settings_schema_get_type())
        g_object_get_property(objectPointer, "settings-schema", &value)
        defer { g_value_unset(&value) }
        guard let schema = g_value_get_boxed(&value) else { return false }
        return g_settings_schema_has_key(OpaquePointer(schema), key) != 0
    }

    /// An `i` key.
    public func int(forKey key: String) -> Int32 {
        checkKey(key)
        return g_settings_get_int(settingsPointer, key)
    }

    /// Writes an `i` key. Returns false if the key is locked down (not writable).
    @discardableResult
    public func set(_ value: Int32, forKey key: String) -> Bool {
        checkKey(key)
        return g_settings_set_int(settingsPointer, key, value) != 0
    }

    /// A `b` key.
    public func bool(forKey key: String) -> Bool {
        checkKey(key)
        return g_settings_get_boolean(settingsPointer, key) != 0
    }

    /// Writes a `b` key. Returns false if the key is locked down (not writable).
    @discardableResult
    public func set(_ value: Bool, forKey key: String) -> Bool {
        checkKey(key)
        return g_settings_set_boolean(settingsPointer, key, value ? 1 : 0) != 0
    }

    /// A `d` key.
    public func double(forKey key: String) -> Double {
        checkKey(key)
        return g_settings_get_double(settingsPointer, key)
    }

    /// Writes a `d` key. Returns false if the key is locked down or the value is out of its range.
    @discardableResult
    public func set(_ value: Double, forKey key: String) -> Bool {
        checkKey(key)
        return g_settings_set_double(settingsPointer, key, value) != 0
    }

    /// Calls `handler` with the key's name after any key changed, here or in another process,
    /// until `connections` is released.
    public func onChange(storingIn connections: SignalConnections, _ handler: @escaping @MainActor (String) -> Void) {
        connect(Signal<(String) -> Void>("changed"), handler).store(in: connections)
    }

    /// An `s` key.
    public func string(forKey key: String) -> String {
        checkKey(key)
        let value = g_settings_get_string(settingsPointer, key)
        defer { g_free(value) }
        return value.map { String(cString: $0) } ?? ""
    }

    /// Writes an `s` key. Returns false if the key is locked down (not writable).
    @discardableResult
    public func set(_ value: String, forKey key: String) -> Bool {
        checkKey(key)
        return g_settings_set_string(settingsPointer, key, value) != 0
    }

    /// Resets a key to its schema default.
    public func reset(_ key: String) {
        checkKey(key)
        g_settings_reset(settingsPointer, key)
    }

    /// A key the schema lacks is a programming error (GLib would only log and return 0).
    private func checkKey(_ key: String) {
        precondition(hasKey(key), "the GSettings schema \(schemaID) has no key '\(key)'")
    }
}

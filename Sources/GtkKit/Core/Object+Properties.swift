import CGtk
import GtkShim

/// A Swift type that a GObject property can be read as and written from.
public protocol PropertyValue {
    /// The GType of the `GValue` that carries it; GLib converts to the property's own type
    /// where a transformation exists (an `Int32` for a `guint` property, for example).
    static var valueType: GType { get }
    /// Stores the value into an initialized `GValue` of ``valueType``.
    func store(in value: UnsafeMutablePointer<GValue>)
    /// Reads the value from a `GValue` of ``valueType``.
    static func load(from value: UnsafePointer<GValue>) -> Self
}

extension String: PropertyValue {
    public static var valueType: GType { gtkshim_type_string() }
    public func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_string(value, self) }
    public static func load(from value: UnsafePointer<GValue>) -> String {
        g_value_get_string(value).map { String(cString: $0) } ?? ""
    }
}

extension Bool: PropertyValue {
    public static var valueType: GType { gtkshim_type_boolean() }
    public func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_boolean(value, self ? 1 : 0) }
    public static func load(from value: UnsafePointer<GValue>) -> Bool { g_value_get_boolean(value) != 0 }
}

extension Int32: PropertyValue {
    public static var valueType: GType { gtkshim_type_int() }
    public func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_int(value, self) }
    public static func load(from value: UnsafePointer<GValue>) -> Int32 { g_value_get_int(value) }
}

extension UInt32: PropertyValue {
    public static var valueType: GType { gtkshim_type_uint() }
    public func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_uint(value, self) }
    public static func load(from value: UnsafePointer<GValue>) -> UInt32 { g_value_get_uint(value) }
}

extension Double: PropertyValue {
    public static var valueType: GType { gtkshim_type_double() }
    public func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_double(value, self) }
    public static func load(from value: UnsafePointer<GValue>) -> Double { g_value_get_double(value) }
}

extension Object {
    /// Sets a property by name, as `g_object_set` would:
    /// `aboutWindow.setProperty("version", Quire.version)`.
    ///
    /// A property the class does not have is a programming error and stops the program.
    public func setProperty<Value: PropertyValue>(_ name: String, _ newValue: Value) {
        checkProperty(name)
        var value = GValue()
        g_value_init(&value, Value.valueType)
        newValue.store(in: &value)
        g_object_set_property(objectPointer, name, &value)
        g_value_unset(&value)
    }

    /// Reads a property by name: `window.property("default-width", as: Int32.self)`.
    public func property<Value: PropertyValue>(_ name: String, as type: Value.Type = Value.self) -> Value {
        checkProperty(name)
        var value = GValue()
        g_value_init(&value, Value.valueType)
        g_object_get_property(objectPointer, name, &value)
        defer { g_value_unset(&value) }
        return Value.load(from: &value)
    }

    /// Keeps `targetProperty` of `target` equal to `property` of this object from now on (and the
    /// other way round when `bidirectional`), starting with this object's value, as
    /// `g_object_bind_property` does: `searchButton.bind("active", to: searchBar, "search-mode-enabled", bidirectional: true)`.
    /// The binding ends when either object is finalized.
    public func bind(_ property: String, to target: Object, _ targetProperty: String, bidirectional: Bool = false) {
        checkProperty(property)
        target.checkProperty(targetProperty)
        let flags = G_BINDING_SYNC_CREATE.rawValue | (bidirectional ? G_BINDING_BIDIRECTIONAL.rawValue : 0)
        g_object_bind_property(objectPointer, property, target.objectPointer, targetProperty, GBindingFlags(rawValue: flags))
    }

    fileprivate func checkProperty(_ name: String) {
        precondition(gtkshim_object_find_property(objectPointer, name) != nil, "\(typeName) has no property '\(name)'")
    }
}

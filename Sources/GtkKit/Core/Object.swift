import CGtk
import GtkShim

/// An owning reference to a GObject instance: the base of every GtkKit wrapper.
///
/// A wrapper holds exactly one strong reference for its whole life and drops it when it is
/// deinitialized. Floating references (new widgets) are sunk when wrapped, so the wrapper owns
/// the widget until it is added to a parent, which then holds its own reference.
///
/// Subclasses name the GType they stand for in ``gType``; wrapping checks the instance against
/// it, so a wrapper never lies about what it holds:
///
/// ```swift
/// let label = Widget(owning: gtk_label_new("Draft"))  // sinks the floating reference
/// let window = try builder.object("window", as: ApplicationWindow.self)
/// ```
///
/// Several wrappers may hold the same instance; each holds its own reference.
/// Toplevel windows are the exception to "the last reference closes it": GTK keeps every
/// toplevel until ``Window/destroy()``.
@MainActor
open class Object {
    /// The wrapped instance.
    public let objectPointer: UnsafeMutablePointer<GObject>

    /// The GType this wrapper class stands for. Subclasses override it.
    open class var gType: GType { gtkshim_type_object() }

    /// Wraps an instance whose reference the caller hands over: a `(transfer full)` result or a
    /// new floating object, such as the result of `gtk_label_new` or `g_simple_action_new`.
    public required init(owning pointer: UnsafeMutableRawPointer) {
        let object = pointer.assumingMemoryBound(to: GObject.self)
        // A floating reference becomes ours without a new one; a full reference already is.
        if g_object_is_floating(object) != 0 { g_object_ref_sink(object) }
        objectPointer = object
        Self.checkType(of: object, for: Self.self)
    }

    /// Wraps an instance someone else owns, such as a `(transfer none)` result or an object of a
    /// builder, adding a reference of the wrapper's own.
    public required init(retaining pointer: UnsafeMutableRawPointer) {
        let object = pointer.assumingMemoryBound(to: GObject.self)
        Self.checkType(of: object, for: Self.self)
        g_object_ref_sink(object)
        objectPointer = object
    }

    /// Wraps a `(transfer full)` or floating instance that Swift imports as `OpaquePointer`.
    public convenience init(owning pointer: OpaquePointer) {
        self.init(owning: UnsafeMutableRawPointer(pointer))
    }

    /// Wraps a `(transfer none)` instance that Swift imports as `OpaquePointer`.
    public convenience init(retaining pointer: OpaquePointer) {
        self.init(retaining: UnsafeMutableRawPointer(pointer))
    }

    isolated deinit {
        g_object_unref(objectPointer)
    }

    private static func checkType(of object: UnsafeMutablePointer<GObject>, for wrapper: Object.Type) {
        precondition(
            gtkshim_instance_is_a(object, wrapper.gType) != 0,
            "\(Object.typeName(of: object)) is not a \(String(cString: g_type_name(wrapper.gType)))")
    }

    /// The name of the instance's dynamic type, such as `AdwApplicationWindow`.
    public var typeName: String { Object.typeName(of: objectPointer) }

    static func typeName(of object: UnsafeMutableRawPointer) -> String {
        String(cString: g_type_name(gtkshim_instance_type(object)))
    }

    /// Whether the instance is of `type` (its class, a subclass or an implemented interface).
    public func isA(_ type: GType) -> Bool {
        gtkshim_instance_is_a(objectPointer, type) != 0
    }

    /// The instance as a pointer to one of its C struct types, for calling GTK directly.
    /// Only valid for the instance's own type or one of its ancestors.
    public func pointer<Struct>(as type: Struct.Type = Struct.self) -> UnsafeMutablePointer<Struct> {
        UnsafeMutableRawPointer(objectPointer).assumingMemoryBound(to: type)
    }

    /// The instance as an opaque pointer, for GTK types Swift imports as `OpaquePointer`
    /// (interfaces such as `GActionMap`, and `GtkLabel`, `GListModel`, ...).
    public var opaquePointer: OpaquePointer { OpaquePointer(objectPointer) }

    /// The current reference count. For tests and diagnostics only: other code may hold references.
    public var referenceCount: UInt32 { objectPointer.pointee.ref_count }
}

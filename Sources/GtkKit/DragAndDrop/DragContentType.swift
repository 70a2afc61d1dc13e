import CGtk
import GtkShim

/// A kind of drag-and-drop content that only this process makes and accepts: a string (an ID,
/// say) in a boxed GType registered under a name of its own.
///
/// GDK has no serializer for the type, so no other program can offer it, and text dragged from
/// an entry or a text view is not mistaken for it: a ``DropTarget`` for it reacts only to drags
/// that a ``DragSource`` of this process started with it.
///
/// ```swift
/// let articleDrag = DragContentType(named: "QuireArticleID")
/// DragSource(on: row.widget) { articleDrag.contentProvider(for: row.articleID.uuidString) }
/// DropTarget(on: folderRow, accepting: articleDrag) { id in move(id) }
/// ```
public struct DragContentType: Sendable, Hashable {
    /// The registered boxed type.
    public let gType: GType

    /// The type registered as `name` (a valid GType name, unique to the program), registering it
    /// the first time. A name taken by a type that is not a string of this kind stops the program.
    @MainActor
    public init(named name: String) {
        let existing = g_type_from_name(name)
        if existing != 0 {
            precondition(
                g_type_fundamental(existing) == gtkshim_type_boxed() && Self.registered.contains(existing),
                "the GType name '\(name)' is taken by another type")
            gType = existing
            return
        }
        gType = g_boxed_type_register_static(
            name,
            { string in UnsafeMutableRawPointer(g_strdup(string?.assumingMemoryBound(to: gchar.self))) },
            { string in g_free(string) })
        precondition(gType != 0, "'\(name)' is not a valid GType name")
        Self.registered.insert(gType)
    }

    /// The types registered here, so a name reused by other code is told apart from our own.
    @MainActor private static var registered: Set<GType> = []

    /// The type's name, as registered.
    public var name: String { String(cString: g_type_name(gType)) }

    /// A new `GdkContentProvider` holding `string` as a value of this type, for a drag.
    @MainActor
    public func contentProvider(for string: String) -> Object {
        var value = GValue()
        g_value_init(&value, gType)
        defer { g_value_unset(&value) }
        string.withCString { g_value_set_boxed(&value, $0) }
        return Object(owning: UnsafeMutableRawPointer(gdk_content_provider_new_for_value(&value)))
    }

    /// The string held by a `GValue`, or nil when the value is of another type.
    public func string(in value: UnsafePointer<GValue>) -> String? {
        guard value.pointee.g_type == gType, let string = g_value_get_boxed(value) else { return nil }
        return String(cString: string.assumingMemoryBound(to: CChar.self))
    }

    /// The string a content provider gives as a value of this type, as a drop in this process
    /// reads it. Throws GDK's error when the provider has no value of this type.
    @MainActor
    public func string(from provider: Object) throws(GLibError) -> String {
        var value = GValue()
        g_value_init(&value, gType)
        defer { g_value_unset(&value) }
        try read(provider, into: &value)
        guard let string = withUnsafePointer(to: &value, { string(in: $0) }) else {
            throw GLibError(domain: "gtkkit", code: 0, message: "the value holds no string", operation: "reading a \(name)")
        }
        return string
    }

    /// Fills `value` (initialized to this type) from the provider, as GDK does for a drop of a
    /// drag that started in this process.
    @MainActor
    func read(_ provider: Object, into value: inout GValue) throws(GLibError) {
        var error: UnsafeMutablePointer<GError>?
        let operation = "reading a \(name) from a \(provider.typeName)"
        guard gdk_content_provider_get_value(provider.pointer(as: GdkContentProvider.self), &value, &error) != 0 else {
            guard let error else { throw GLibError(domain: "gtkkit", code: 0, message: "no value", operation: operation) }
            throw GLibError(consuming: error, operation: operation)
        }
    }
}

import CGtk
import Platform

/// A `GtkBuilder` loaded from a `.ui` file, handing out its objects as typed wrappers.
///
/// UI structure lives in `.ui` files bundled as a GResource; code loads them and connects
/// behaviour:
///
/// ```swift
/// let builder = try Builder(resource: "/org/quire/Quire/window/main-window.ui")
/// let window = try builder.object("window", as: ApplicationWindow.self)
/// let menu = try builder.object("primary_menu", as: MenuModel.self)
/// ```
@MainActor
public final class Builder {
    private let builder: Object
    /// Where the definitions came from, for error messages.
    public let source: String

    /// Loads a `.ui` file from the registered resources.
    public init(resource path: String) throws(GLibError) {
        builder = Object(owning: gtk_builder_new())
        gtk_builder_set_translation_domain(builder.opaquePointer, Translation.domain)
        source = path
        try GLibError.check("loading \(path)") { error in
            gtk_builder_add_from_resource(builder.opaquePointer, path, error)
        }
    }

    /// Loads UI definitions from a string (for definitions generated at run time, and tests).
    public init(string: String) throws(GLibError) {
        builder = Object(owning: gtk_builder_new())
        gtk_builder_set_translation_domain(builder.opaquePointer, Translation.domain)
        source = "a UI string"
        try GLibError.check("loading \(source)") { error in
            gtk_builder_add_from_string(builder.opaquePointer, string, -1, error)
        }
    }

    /// The object with `id`, as the wrapper type `T`.
    ///
    /// Throws ``BuilderError`` if there is no such object or it is not a `T.gType`.
    public func object<T: Object>(_ id: String, as type: T.Type = T.self) throws(BuilderError) -> T {
        guard let object = gtk_builder_get_object(builder.opaquePointer, id) else {
            throw .missingObject(id: id, source: source)
        }
        guard g_type_check_instance_is_a(UnsafeMutableRawPointer(object).assumingMemoryBound(to: GTypeInstance.self), type.gType) != 0 else {
            throw .wrongType(
                id: id, expected: String(cString: g_type_name(type.gType)),
                actual: Object.typeName(of: object), source: source)
        }
        return T(retaining: object)
    }
}

/// Why ``Builder/object(_:as:)`` could not hand out an object.
public enum BuilderError: Error, CustomStringConvertible, Equatable {
    /// The UI definitions have no object with that id.
    case missingObject(id: String, source: String)
    /// The object exists but is not of the requested type.
    case wrongType(id: String, expected: String, actual: String, source: String)

    public var description: String {
        switch self {
        case let .missingObject(id, source):
            "\(source) has no object '\(id)'"
        case let .wrongType(id, expected, actual, source):
            "object '\(id)' in \(source) is a \(actual), not a \(expected)"
        }
    }
}

import CGtk

/// A `GError` reported by GLib or GTK, with the operation that failed.
///
/// GLib reports failures through `GError **` out-parameters; GtkKit turns each into this
/// value and frees the `GError`, so nothing is lost or leaked on the way to Swift.
public struct GLibError: Error, CustomStringConvertible, Sendable {
    /// The error domain, such as `g-file-error-quark` or `gtk-builder-error-quark`.
    public let domain: String
    /// The code within the domain.
    public let code: Int32
    /// GLib's human-readable message.
    public let message: String
    /// What GtkKit was doing, such as `loading /org/quire/Quire/window.ui`.
    public let operation: String

    /// Takes over a `GError` filled in by a GLib call (or returned with `transfer full`) and frees it.
    public init(consuming error: UnsafeMutablePointer<GError>, operation: String) {
        domain = String(cString: g_quark_to_string(error.pointee.domain))
        code = error.pointee.code
        message = String(cString: error.pointee.message)
        self.operation = operation
        g_error_free(error)
    }

    init(domain: String, code: Int32, message: String, operation: String) {
        self.domain = domain
        self.code = code
        self.message = message
        self.operation = operation
    }

    public var description: String { "\(operation): \(message) (\(domain) \(code))" }

    /// Runs a GLib call that reports failure through a `GError **`, throwing the error it set.
    /// A NULL result without an error is reported too, rather than trusted.
    @discardableResult
    public static func check<T>(
        _ operation: @autoclosure () -> String,
        _ call: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T?
    ) throws(GLibError) -> T {
        var error: UnsafeMutablePointer<GError>?
        let result = call(&error)
        if let error { throw GLibError(consuming: error, operation: operation()) }
        guard let result else {
            throw GLibError(domain: "gtkkit", code: 0, message: "failed without saying why", operation: operation())
        }
        return result
    }

    /// Runs a GLib call that reports failure through a `GError **` beside a result of its own (a
    /// count, a `gboolean`), throwing the error when it set one and returning the result otherwise.
    ///
    /// ```swift
    /// let replaced = try GLibError.catching("replacing every match") { error in
    ///     gtk_source_search_context_replace_all(context, replacement, -1, error)
    /// }
    /// ```
    @discardableResult
    public static func catching<T>(
        _ operation: @autoclosure () -> String, _ call: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T
    ) throws(GLibError) -> T {
        var error: UnsafeMutablePointer<GError>?
        let result = call(&error)
        if let error { throw GLibError(consuming: error, operation: operation()) }
        return result
    }
}

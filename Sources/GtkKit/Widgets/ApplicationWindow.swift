import CGtk

/// An `AdwApplicationWindow`: a window of an ``Application`` whose actions are `win.NAME`.
@MainActor
open class ApplicationWindow: Window, ActionMap {
    open override class var gType: GType { adw_application_window_get_type() }

    /// The application the window belongs to; setting it adds the window to the application,
    /// which keeps running while it has windows.
    public var application: Application? {
        get { gtk_window_get_application(windowPointer).map { Application(retaining: $0) } }
        set { gtk_window_set_application(windowPointer, newValue?.pointer(as: GtkApplication.self)) }
    }

    public var actionPrefix: String { "win" }
    public var actionMapPointer: OpaquePointer { opaquePointer }

    /// Sets the shortcuts of `win.NAME` through the application, so menus and the shortcuts
    /// window show them. The window must belong to an application.
    public func setAccelerators(_ accelerators: [String], forAction name: String) {
        guard let application else {
            preconditionFailure("add \(typeName) to an application before giving win.\(name) accelerators")
        }
        application.setAccelerators(accelerators, forDetailedAction: "win.\(name)")
    }
}

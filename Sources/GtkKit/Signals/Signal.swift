import CGtk

/// A signal of a GObject class, named as GObject knows it and typed by the Swift closure its
/// handlers are.
///
/// The handler type picks the C trampoline that calls the closure, and connecting checks it
/// against the signal's real signature (so `Signal<() -> Bool>("clicked")` stops the program at
/// `connect` instead of corrupting the stack when the signal fires).
///
/// Common signals are static members; a feature declares the ones it needs beside its code:
///
/// ```swift
/// extension Signal where Handler == (UInt32) -> Void {
///     static var positionActivated: Self { Self("activate") }  // GtkListView::activate(position)
/// }
/// button.connect(.clicked) { [weak self] in self?.save() }
/// ```
///
/// Supported handler types, each with an ``Object`` `connect` overload:
/// `() -> Void`, `() -> Bool`, `(UInt32) -> Void`, `(UInt32, UInt32) -> Void`,
/// `(UInt32, UInt32, UInt32) -> Void`, `(Double) -> Void`, `(Double, Double) -> Void`,
/// `(Double, Double) -> Bool`, `(Double, Double) -> UnsafeMutableRawPointer?` (an object returned
/// with a reference for GTK), `(UnsafeMutableRawPointer?, Double, Double) -> Bool`,
/// `(UnsafeMutableRawPointer?, Int32) -> Bool`, `(UnsafeMutableRawPointer?, String, Int32) -> Void`,
/// `(Int32) -> Void`, `(Int32, Int32) -> Void`, `(Int32, Double, Double) -> Void`,
/// `(Int32, Int32, Bool, UnsafeMutableRawPointer?) -> Bool`,
/// `(UInt32, UInt32, GdkModifierType) -> Bool`, `(String) -> Void`,
/// `(UnsafeMutableRawPointer?) -> Void` (an object, boxed, variant or param-spec argument) and
/// `(T?) -> Void` for an object argument wrapped as the ``Object`` subclass `T`.
/// `Bool` results are the signal's `gboolean` (true stops other handlers for event signals,
/// vetoes for `close-request`).
public struct Signal<Handler>: Sendable {
    /// The detailed signal name, such as `clicked` or `notify::default-width`.
    public let name: String

    /// A signal by its GObject name.
    public init(_ name: String) {
        self.name = name
    }
}

extension Signal where Handler == () -> Void {
    /// `GtkButton::clicked`.
    public static var clicked: Self { Self("clicked") }
    /// `GApplication::activate`, `GtkButton::activate` and other `activate` signals without arguments.
    public static var activate: Self { Self("activate") }
    /// `GApplication::startup`.
    public static var startup: Self { Self("startup") }
    /// `GApplication::shutdown`.
    public static var shutdown: Self { Self("shutdown") }
    /// `GtkWidget::destroy`, emitted while the widget is disposed.
    public static var destroy: Self { Self("destroy") }
    /// `GtkWidget::map`: the widget is about to become visible on screen.
    public static var map: Self { Self("map") }
    /// `GdkFrameClock::after-paint`.
    public static var afterPaint: Self { Self("after-paint") }
}

extension Signal where Handler == () -> Bool {
    /// `GtkWindow::close-request`: return true to keep the window open.
    public static var closeRequest: Self { Self("close-request") }
}

extension Signal where Handler == (UnsafeMutableRawPointer?) -> Void {
    /// `GObject::notify::PROPERTY`, emitted after the property changed. The argument is its
    /// `GParamSpec`.
    public static func notify(_ property: String) -> Self { Self("notify::\(property)") }
    /// `GSimpleAction::activate`; the argument is the `GVariant` parameter or nil.
    public static var activateAction: Self { Self("activate") }
    /// `GSimpleAction::change-state`; the argument is the requested `GVariant` state.
    public static var changeState: Self { Self("change-state") }
    /// `GtkApplication::window-removed`, when a window is destroyed or leaves the application;
    /// the argument is the `GtkWindow`.
    public static var windowRemoved: Self { Self("window-removed") }
}

extension Signal where Handler == (Int32, Int32, Bool, UnsafeMutableRawPointer?) -> Bool {
    /// `GtkWidget::query-tooltip(x, y, keyboard_mode, tooltip)`: fill the `GtkTooltip` and return
    /// true to show it.
    public static var queryTooltip: Self { Self("query-tooltip") }
}

extension Signal where Handler == (String) -> Void {
    /// `AdwMessageDialog::response`, with the response id.
    public static var response: Self { Self("response") }
}

extension Signal where Handler == (UInt32, UInt32) -> Void {
    /// `GtkSelectionModel::selection-changed(position, n_items)`: the selection of some rows in
    /// that range may have changed.
    public static var selectionChanged: Self { Self("selection-changed") }
}

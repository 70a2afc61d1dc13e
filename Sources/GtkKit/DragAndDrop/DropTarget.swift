import CGtk
import GtkShim

/// Lets a widget take drops of one ``DragContentType``: a `GtkDropTarget` on it. While a drag
/// of that type hovers over the widget, GTK gives it the `:drop(active)` state, which the theme
/// (or the app's CSS) draws as a highlight.
///
/// ```swift
/// DropTarget(on: folderRow, accepting: articleDrag) { id in window.move(id, to: folder) }
/// ```
///
/// The widget keeps the controller (and the drop closure) for its whole life; the closure
/// should not capture the widget strongly.
@MainActor
public final class DropTarget {
    /// The `GtkDropTarget`.
    public let controller: Object
    /// What the target accepts.
    public let contentType: DragContentType

    /// A drop target on `widget` for drags of `type` with one of `actions`. `drop` gets the
    /// dropped string and returns whether it took the drop (false tells the drag source it failed).
    public init(
        on widget: Widget, accepting type: DragContentType, actions: GdkDragAction = GDK_ACTION_MOVE,
        drop: @escaping @MainActor (String) -> Bool
    ) {
        contentType = type
        controller = Object(owning: UnsafeMutableRawPointer(gtk_drop_target_new(type.gType, actions)))
        controller.connect(.drop) { value, _, _ in
            guard let value, let string = type.string(in: value.assumingMemoryBound(to: GValue.self)) else { return false }
            return drop(string)
        }
        // gtk_widget_add_controller takes over a reference: give it one besides the wrapper's.
        g_object_ref(controller.objectPointer)
        gtk_widget_add_controller(widget.widgetPointer, controller.opaquePointer)
    }

    /// Drops the content of `provider` (a drag source's) at `x`, `y`, as GTK does when a drag
    /// of this process ends over the widget: reads its value of the accepted type and emits
    /// `drop`. Returns whether the target took it; throws when the provider has no such value.
    @discardableResult
    public func drop(_ provider: Object, x: Double = 0, y: Double = 0) throws(GLibError) -> Bool {
        var dropped = GValue()
        g_value_init(&dropped, contentType.gType)
        defer { g_value_unset(&dropped) }
        try contentType.read(provider, into: &dropped)
        return Self.emitDrop(on: controller, &dropped, x: x, y: y)
    }

    /// Emits `drop` on the `GtkDropTarget` `controller` with `dropped` at `x`, `y`, as GTK does
    /// when a drag ends over its widget; returns the handler's answer.
    static func emitDrop(on controller: Object, _ dropped: inout GValue, x: Double, y: Double) -> Bool {
        var values = [GValue](repeating: GValue(), count: 4)
        g_value_init(&values[0], gtk_drop_target_get_type())
        g_value_set_object(&values[0], controller.objectPointer)
        g_value_init(&values[1], g_value_get_type())
        g_value_init(&values[2], gtkshim_type_double())
        g_value_set_double(&values[2], x)
        g_value_init(&values[3], gtkshim_type_double())
        g_value_set_double(&values[3], y)
        var result = GValue()
        g_value_init(&result, gtkshim_type_boolean())
        defer {
            for index in values.indices { g_value_unset(&values[index]) }
            g_value_unset(&result)
        }
        withUnsafeMutablePointer(to: &dropped) { g_value_set_boxed(&values[1], $0) }
        g_signal_emitv(&values, g_signal_lookup("drop", gtk_drop_target_get_type()), 0, &result)
        return g_value_get_boolean(&result) != 0
    }
}

extension Signal where Handler == (UnsafeMutableRawPointer?, Double, Double) -> Bool {
    /// `GtkDropTarget::drop(value, x, y)`, with the dropped `GValue`: return whether the drop
    /// was taken.
    static var drop: Self { Self("drop") }
}

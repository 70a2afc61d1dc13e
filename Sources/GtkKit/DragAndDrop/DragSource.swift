import CGtk
import GtkShim

/// Makes a widget draggable: a `GtkDragSource` on it that asks for its content when a drag
/// begins (not before, so a list row can be bound to one item after another), and shows the
/// widget as it is drawn under the pointer while dragging.
///
/// ```swift
/// DragSource(on: row.widget) { [weak row] in row?.articleID.map { articleDrag.contentProvider(for: $0.uuidString) } }
/// ```
///
/// The widget keeps the controller (and the content closure) for its whole life; the closure
/// should not capture the widget strongly.
@MainActor
public final class DragSource {
    /// The `GtkDragSource`.
    public let controller: Object

    /// A drag source on `widget` offering `actions`; `content` gives the `GdkContentProvider` of
    /// a drag about to begin, or nil to refuse the drag.
    public init(
        on widget: Widget, actions: GdkDragAction = GDK_ACTION_MOVE, content: @escaping @MainActor () -> Object?
    ) {
        controller = Object(owning: gtk_drag_source_new())
        gtk_drag_source_set_actions(controller.opaquePointer, actions)
        let source = controller.opaquePointer
        // The handler lives on the controller, which lives on the widget: an unretained pointer
        // cannot outlive either.
        controller.connect(.prepare) { x, y in
            guard let provider = content() else { return nil }
            if let widget = gtk_event_controller_get_widget(source) {
                let icon = gtk_widget_paintable_new(widget)
                gtk_drag_source_set_icon(source, icon, gint(x), gint(y))
                g_object_unref(UnsafeMutableRawPointer(icon))
            }
            // The signal hands its caller a reference of its own.
            return UnsafeMutableRawPointer(g_object_ref(provider.objectPointer))
        }
        // gtk_widget_add_controller takes over a reference: give it one besides the wrapper's.
        g_object_ref(controller.objectPointer)
        gtk_widget_add_controller(widget.widgetPointer, OpaquePointer(controller.objectPointer))
    }

    /// The content a drag starting now would carry, asked for as GTK asks when a drag begins
    /// (the `prepare` signal); nil when the drag would be refused.
    public func prepare(atX x: Double = 0, y: Double = 0) -> Object? {
        var values = [GValue](repeating: GValue(), count: 3)
        g_value_init(&values[0], gtk_drag_source_get_type())
        g_value_set_object(&values[0], controller.objectPointer)
        g_value_init(&values[1], gtkshim_type_double())
        g_value_set_double(&values[1], x)
        g_value_init(&values[2], gtkshim_type_double())
        g_value_set_double(&values[2], y)
        var result = GValue()
        g_value_init(&result, gdk_content_provider_get_type())
        defer {
            for index in values.indices { g_value_unset(&values[index]) }
            g_value_unset(&result)
        }
        g_signal_emitv(&values, g_signal_lookup("prepare", gtk_drag_source_get_type()), 0, &result)
        return g_value_get_object(&result).map { Object(retaining: $0) }
    }
}

extension Signal where Handler == (Double, Double) -> UnsafeMutableRawPointer? {
    /// `GtkDragSource::prepare(x, y)`: the drag's `GdkContentProvider` (a new reference), or
    /// nil to refuse the drag.
    static var prepare: Self { Self("prepare") }
}

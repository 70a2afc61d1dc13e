import CGtk
import GtkShim

/// Lets a widget take files and images dropped from other programs (a file manager's files, an
/// image dragged out of a browser): a `GtkDropTarget` for `GdkFileList` and `GdkTexture`, run in
/// the capture phase so that it answers before the widget's own drop handling (a text view's,
/// which would insert the files' paths as text).
///
/// ```swift
/// FileDropTarget(on: textView) { dropped, x, y in
///     switch dropped { case .files(let paths): add(paths, at: x, y); case .texture(let image): add(image, at: x, y) }
///     return true
/// }
/// ```
///
/// The widget keeps the controller (and the drop closure) for its whole life; the closure
/// should not capture the widget strongly.
@MainActor
public final class FileDropTarget {
    /// What was dropped.
    public enum Dropped {
        /// Files, by their local paths (files without one are left out).
        case files([String])
        /// An image.
        case texture(Texture)
    }

    /// The `GtkDropTarget`.
    public let controller: Object

    /// A drop target on `widget` copying files and images; `drop` gets what was dropped and where
    /// (in the widget's coordinates), and returns whether it took it.
    public init(on widget: Widget, drop: @escaping @MainActor (Dropped, Double, Double) -> Bool) {
        controller = Object(owning: UnsafeMutableRawPointer(gtk_drop_target_new(0, GDK_ACTION_COPY)))
        var types = [gdk_file_list_get_type(), gdk_texture_get_type()]
        gtk_drop_target_set_gtypes(controller.opaquePointer, &types, gsize(types.count))
        gtk_event_controller_set_propagation_phase(controller.opaquePointer, GTK_PHASE_CAPTURE)
        controller.connect(.drop) { value, x, y in
            guard let dropped = value.flatMap({ Self.dropped(in: $0.assumingMemoryBound(to: GValue.self)) }) else { return false }
            return drop(dropped, x, y)
        }
        // gtk_widget_add_controller takes over a reference: give it one besides the wrapper's.
        g_object_ref(controller.objectPointer)
        gtk_widget_add_controller(widget.widgetPointer, controller.opaquePointer)
    }

    private static func dropped(in value: UnsafePointer<GValue>) -> Dropped? {
        let type = value.pointee.g_type
        if type == gdk_file_list_get_type(), let list = g_value_get_boxed(value) {
            return .files(FileList.paths(in: OpaquePointer(list)))
        }
        if g_type_is_a(type, gdk_texture_get_type()) != 0, let texture = g_value_get_object(value) {
            return .texture(Texture(retaining: texture))
        }
        return nil
    }

    /// Drops the files at `paths` at `x`, `y`, as GTK does when a file manager's drag ends over
    /// the widget: emits `drop` with a `GdkFileList` holding them. Returns whether the target
    /// took them.
    @discardableResult
    public func drop(files paths: [String], x: Double = 0, y: Double = 0) -> Bool {
        var dropped = GValue()
        g_value_init(&dropped, gdk_file_list_get_type())
        defer { g_value_unset(&dropped) }
        g_value_take_boxed(&dropped, UnsafeRawPointer(FileList(paths: paths).pointer))
        return DropTarget.emitDrop(on: controller, &dropped, x: x, y: y)
    }

    /// Drops `texture` at `x`, `y`, as GTK does when an image dragged from another program ends
    /// over the widget. Returns whether the target took it.
    @discardableResult
    public func drop(_ texture: Texture, x: Double = 0, y: Double = 0) -> Bool {
        var dropped = GValue()
        g_value_init(&dropped, gdk_texture_get_type())
        defer { g_value_unset(&dropped) }
        g_value_set_object(&dropped, texture.objectPointer)
        return DropTarget.emitDrop(on: controller, &dropped, x: x, y: y)
    }
}

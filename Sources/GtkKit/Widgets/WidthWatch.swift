import CGtk

/// A `GtkDrawingArea` that draws nothing and reports its width: placed across a window or a pane
/// (a row of no height in a vertical box), it tells when that space gets wider or narrower, which
/// is how a GTK 4.8 window adapts its layout (libadwaita 1.2 has no `AdwBreakpoint`).
///
/// ```swift
/// let watch = WidthWatch()
/// box.append(watch)
/// watch.widthChanged = { [weak self] width in self?.adapt(to: width) }
/// ```
@MainActor
public final class WidthWatch: Widget {
    public override class var gType: GType { gtk_drawing_area_get_type() }

    /// Called with the new width whenever the space is given another width, just after the
    /// allocation that gave it (so the handler may show, hide and resize widgets).
    public var widthChanged: (@MainActor (Int) -> Void)?

    private var report: Timeout?

    /// A watch of no height that stretches across its parent.
    public convenience init() {
        self.init(owning: gtk_drawing_area_new())
        gtk_widget_set_hexpand(widgetPointer, 1)
        gtk_widget_set_can_target(widgetPointer, 0)
        gtk_widget_set_can_focus(widgetPointer, 0)
        // `resize` comes during the window's size allocation: a widget shown, hidden or resized
        // there asks for a layout that GTK 4.8 can lose (the window then drew nothing but its
        // frame, "Trying to snapshot … without a current allocation", until its next resize).
        connect(Signal<(Int32, Int32) -> Void>("resize")) { [weak self] width, _ in
            self?.report = Timeout(milliseconds: 0, priority: .high) { [weak self] in self?.widthChanged?(Int(width)) }
        }
    }
}

import CGtk

/// A `GtkWidget`.
@MainActor
open class Widget: Object {
    open override class var gType: GType { gtk_widget_get_type() }

    /// The instance as a `GtkWidget *`.
    public var widgetPointer: UnsafeMutablePointer<GtkWidget> { pointer(as: GtkWidget.self) }

    /// The allocated width, 0 before the first layout.
    public var width: Int { Int(gtk_widget_get_width(widgetPointer)) }

    /// The allocated height, 0 before the first layout.
    public var height: Int { Int(gtk_widget_get_height(widgetPointer)) }

    /// Whether the widget is set to be shown.
    public var isVisible: Bool {
        get { gtk_widget_get_visible(widgetPointer) != 0 }
        set { gtk_widget_set_visible(widgetPointer, newValue ? 1 : 0) }
    }

    /// Adds the CSS class `name` when `isOn`, removes it otherwise (a state such as `error`).
    public func setStyleClass(_ name: String, on isOn: Bool) {
        if isOn { gtk_widget_add_css_class(widgetPointer, name) } else { gtk_widget_remove_css_class(widgetPointer, name) }
    }

    /// Whether the widget and all its ancestors are shown on screen.
    public var isMapped: Bool { gtk_widget_get_mapped(widgetPointer) != 0 }

    /// Activates an action reachable from this widget, such as `win.show-help-overlay` or
    /// `page.save`. Returns false if no such action is found.
    @discardableResult
    public func activateAction(_ detailedName: String) -> Bool {
        gtk_widget_activate_action_variant(widgetPointer, detailedName, nil) != 0
    }

    /// The widget's children in order.
    public var children: [Widget] {
        var children: [Widget] = []
        var child = gtk_widget_get_first_child(widgetPointer)
        while let current = child {
            children.append(Widget(retaining: current))
            child = gtk_widget_get_next_sibling(current)
        }
        return children
    }

    /// The widgets below this one, depth first, whose type is `type` or derives from it.
    public func descendants(ofType type: GType) -> [Widget] {
        children.flatMap { child in (child.isA(type) ? [child] : []) + child.descendants(ofType: type) }
    }

    /// Calls `body` once, after the widget's next frame has been drawn (for a widget not yet on
    /// screen: its first), when its size, layout and rendering are final: for screenshots and
    /// checks of what a person would see.
    public func afterNextFrame(_ body: @escaping @MainActor () -> Void) {
        let pending = OneShot()
        let connectToFrameClock: @MainActor () -> Void = { [weak self] in
            guard let self, let clock = gtk_widget_get_frame_clock(self.widgetPointer) else { return }
            pending.connection = Object(retaining: clock).connect(.afterPaint) {
                guard let connection = pending.connection else { return }
                pending.connection = nil
                connection.disconnect()
                // Outside the frame clock's emission, so the body may render, quit or destroy.
                Task { @MainActor in body() }
            }
        }
        if isMapped {
            connectToFrameClock()
        } else {
            pending.connection = connect(.map) {
                pending.connection?.disconnect()
                connectToFrameClock()
            }
        }
    }
}

/// The connection a one-shot handler removes when it first fires.
@MainActor
final class OneShot {
    var connection: SignalConnection?
}

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

    /// Whether the widget takes input; an insensitive widget is greyed out, and so is everything
    /// inside it.
    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(widgetPointer) != 0 }
        set { gtk_widget_set_sensitive(widgetPointer, newValue ? 1 : 0) }
    }

    /// The text of the widget's tooltip, nil for none. Setting the text it already has does
    /// nothing: GTK 4.8 asks the display server where the pointer is at every change (a round
    /// trip), which made binding each row of a list wait on the X server.
    public var tooltipText: String? {
        get { gtk_widget_get_tooltip_text(widgetPointer).map { String(cString: $0) } }
        set {
            guard newValue != tooltipText else { return }
            gtk_widget_set_tooltip_text(widgetPointer, newValue)
        }
    }

    /// Gives the widget a tooltip whose text `text` returns when the pointer comes to rest on it
    /// (nil: no tooltip then). For a tooltip that follows what a widget made by the hundred
    /// shows, such as a list row's badge: setting ``tooltipText`` on a shown widget makes GTK 4.8
    /// ask the display server where the pointer is (a round trip per row as a list opens), while
    /// this asks nothing until a tooltip is due.
    public func showsTooltip(_ text: @escaping @MainActor () -> String?) {
        gtk_widget_set_has_tooltip(widgetPointer, 1)
        connect(.queryTooltip) { _, _, _, tooltip in
            guard let tooltip, let text = text() else { return false }
            gtk_tooltip_set_text(OpaquePointer(tooltip), text)
            return true
        }
    }

    /// Sets what a screen reader calls the widget: an icon-only button has no text of its own,
    /// and without a label GTK 4.8 names it by its type ("GtkImage"). Write-only: GTK 4.8 has
    /// no getter; the accessibility tests read it back over AT-SPI.
    public func setAccessibleLabel(_ label: String) {
        setAccessibleProperty(GTK_ACCESSIBLE_PROPERTY_LABEL, label)
    }

    /// Sets what a screen reader says after the name: what the widget does or shows, where a
    /// sighted reader has a tooltip or a subtitle. Write-only, as ``setAccessibleLabel(_:)``.
    public func setAccessibleDescription(_ description: String) {
        setAccessibleProperty(GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description)
    }

    private func setAccessibleProperty(_ property: GtkAccessibleProperty, _ text: String) {
        var property = property
        var value = GValue()
        g_value_init(&value, String.valueType)
        text.store(in: &value)
        gtk_accessible_update_property_value(OpaquePointer(widgetPointer), 1, &property, &value)
        g_value_unset(&value)
    }

    /// Adds the CSS class `name` when `isOn`, removes it otherwise (a state such as `error`).
    public func setStyleClass(_ name: String, on isOn: Bool) {
        if isOn { gtk_widget_add_css_class(widgetPointer, name) } else { gtk_widget_remove_css_class(widgetPointer, name) }
    }

    /// Whether the widget has the CSS class `name`.
    public func hasStyleClass(_ name: String) -> Bool {
        gtk_widget_has_css_class(widgetPointer, name) != 0
    }

    // MARK: Layout

    /// The space above the widget, in pixels.
    public var marginTop: Int {
        get { Int(gtk_widget_get_margin_top(widgetPointer)) }
        set { gtk_widget_set_margin_top(widgetPointer, gint(newValue)) }
    }

    /// The space below the widget, in pixels.
    public var marginBottom: Int {
        get { Int(gtk_widget_get_margin_bottom(widgetPointer)) }
        set { gtk_widget_set_margin_bottom(widgetPointer, gint(newValue)) }
    }

    /// The space before the widget at its start (left in left-to-right text), in pixels.
    public var marginStart: Int {
        get { Int(gtk_widget_get_margin_start(widgetPointer)) }
        set { gtk_widget_set_margin_start(widgetPointer, gint(newValue)) }
    }

    /// The space after the widget at its end, in pixels.
    public var marginEnd: Int {
        get { Int(gtk_widget_get_margin_end(widgetPointer)) }
        set { gtk_widget_set_margin_end(widgetPointer, gint(newValue)) }
    }

    /// Whether the widget takes the horizontal space its parent has to spare.
    public var expandsHorizontally: Bool {
        get { gtk_widget_get_hexpand(widgetPointer) != 0 }
        set { gtk_widget_set_hexpand(widgetPointer, newValue ? 1 : 0) }
    }

    /// Whether the widget takes the vertical space its parent has to spare.
    public var expandsVertically: Bool {
        get { gtk_widget_get_vexpand(widgetPointer) != 0 }
        set { gtk_widget_set_vexpand(widgetPointer, newValue ? 1 : 0) }
    }

    /// Whether the widget sits centred in the height its parent gives it, at its own height,
    /// instead of filling it (an entry beside a taller row of chips).
    public var centersVertically: Bool {
        get { gtk_widget_get_valign(widgetPointer) == GTK_ALIGN_CENTER }
        set { gtk_widget_set_valign(widgetPointer, newValue ? GTK_ALIGN_CENTER : GTK_ALIGN_FILL) }
    }

    /// The size `text` takes in the widget's font, in pixels (to size a text column, say).
    public func size(ofText text: String) -> (width: Int, height: Int) {
        let layout = gtk_widget_create_pango_layout(widgetPointer, text)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        return (Int(width), Int(height))
    }

    /// The least width the widget can be given, in pixels: what it asks of its window.
    public var minimumWidth: Int {
        var minimum: gint = 0
        gtk_widget_measure(widgetPointer, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, nil, nil, nil)
        return Int(minimum)
    }

    /// Asks GTK to draw the widget again in the next frame.
    public func queueDraw() { gtk_widget_queue_draw(widgetPointer) }

    // MARK: Focus

    /// Whether the widget has the keyboard focus of its window.
    public var hasFocus: Bool { gtk_widget_has_focus(widgetPointer) != 0 }

    /// Moves the keyboard focus to the widget (or into it, for a widget that passes focus on to
    /// a child). Returns false when the widget cannot take it.
    @discardableResult
    public func grabFocus() -> Bool { gtk_widget_grab_focus(widgetPointer) != 0 }

    /// Moves the keyboard focus into the widget as Tab would arrive there: to its first
    /// focusable child (a list box's selected row, a list view's current item). Returns false
    /// when nothing inside can take it.
    @discardableResult
    public func focusFirstChild() -> Bool { gtk_widget_child_focus(widgetPointer, GTK_DIR_TAB_FORWARD) != 0 }

    /// Whether the widget is somewhere inside `ancestor` (not `ancestor` itself).
    public func isInside(_ ancestor: Widget) -> Bool {
        gtk_widget_is_ancestor(widgetPointer, ancestor.widgetPointer) != 0
    }

    /// Whether the widget and all its ancestors are shown on screen.
    public var isMapped: Bool { gtk_widget_get_mapped(widgetPointer) != 0 }

    /// Activates the widget as Enter or a click would: a button is clicked, a list row is
    /// activated. Returns false for a widget that cannot be activated.
    @discardableResult
    public func activate() -> Bool { gtk_widget_activate(widgetPointer) != 0 }

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

    /// The widgets below this one, depth first, that are `T`s: `row.descendants(ofType: Label.self)`.
    public func descendants<T: Widget>(ofType type: T.Type) -> [T] {
        descendants(ofType: type.gType).map { T(retaining: $0.objectPointer) }
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

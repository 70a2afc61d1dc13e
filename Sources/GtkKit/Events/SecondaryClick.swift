import CGtk

extension Widget {
    /// Calls `handler` with the point (in the widget's coordinates) of each secondary (right)
    /// click on the widget or a widget inside it, before they see the press: the place to open a
    /// context menu. Returns the `GtkGestureClick`, which the widget keeps.
    @discardableResult
    public func onSecondaryClick(atPoint handler: @escaping @MainActor (Double, Double) -> Void) -> Object {
        let gesture = Object(owning: UnsafeMutableRawPointer(gtk_gesture_click_new()))
        gtk_gesture_single_set_button(OpaquePointer(gesture.objectPointer), UInt32(GDK_BUTTON_SECONDARY))
        gtk_event_controller_set_propagation_phase(gesture.opaquePointer, GTK_PHASE_CAPTURE)
        gesture.connect(Signal<(Int32, Double, Double) -> Void>("pressed")) { _, x, y in handler(x, y) }
        // gtk_widget_add_controller takes over a reference: give it one besides the wrapper's.
        g_object_ref(gesture.objectPointer)
        gtk_widget_add_controller(widgetPointer, gesture.opaquePointer)
        return gesture
    }
}

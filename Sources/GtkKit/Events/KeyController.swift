import CGtk

/// A key the writer pressed: its name as GDK spells it (`Return`, `Tab`, `ISO_Left_Tab`, `b`)
/// and the modifiers held.
public struct KeyPress: Sendable, Hashable {
    /// Modifier keys held with a key.
    public struct Modifiers: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Shift.
        public static let shift = Modifiers(rawValue: GDK_SHIFT_MASK.rawValue)
        /// Control.
        public static let control = Modifiers(rawValue: GDK_CONTROL_MASK.rawValue)
        /// Alt.
        public static let alt = Modifiers(rawValue: GDK_ALT_MASK.rawValue)
        /// Super (the logo key).
        public static let superKey = Modifiers(rawValue: GDK_SUPER_MASK.rawValue)
    }

    /// The key's name, such as `Return`.
    public var name: String
    /// Shift, Control, Alt and Super as held; other modifier bits are left out.
    public var modifiers: Modifiers

    /// A key press.
    public init(name: String, modifiers: Modifiers = []) {
        self.name = name
        self.modifiers = modifiers
    }
}

/// A `GtkEventControllerKey` on a widget, run before the widget's own key handling (the capture
/// phase): for keys a text view would otherwise take, such as Return continuing a list.
///
/// ```swift
/// KeyController(on: textView) { [weak self] key in
///     key.name == "Return" && key.modifiers.isEmpty && (self?.continueList() ?? false)
/// }
/// ```
@MainActor
public final class KeyController {
    private let controller: Object

    /// Adds the controller to `widget`, which holds it; `handler` returns true for a key it
    /// handled (the widget then never sees it).
    @discardableResult
    public convenience init(on widget: Widget, _ handler: @escaping @MainActor (KeyPress) -> Bool) {
        self.init(on: widget, pressed: { key, _, _ in handler(key) })
    }

    /// As ``init(on:_:)``; `handler` may also hand the key on to another widget's own key
    /// handling, as if it had been sent there, with its second argument (true when that widget
    /// took it).
    @discardableResult
    public convenience init(on widget: Widget, handingOn handler: @escaping @MainActor (KeyPress, _ handOn: (Widget) -> Bool) -> Bool) {
        self.init(on: widget, pressed: { key, _, handOn in handler(key, handOn) })
    }

    /// As ``init(on:_:)``, with the time the display server gave each key press, in milliseconds
    /// of its clock (`gtk_event_controller_get_current_event_time`): when the writer pressed the
    /// key, however long the main loop was busy before handling it. Xvfb and Xorg count it on
    /// `CLOCK_MONOTONIC`, wrapping at 2³² ms.
    @discardableResult
    public convenience init(on widget: Widget, timed handler: @escaping @MainActor (KeyPress, UInt32) -> Bool) {
        self.init(on: widget, pressed: { key, time, _ in handler(key, time) })
    }

    private init(on widget: Widget, pressed handler: @escaping @MainActor (KeyPress, UInt32, _ handOn: (Widget) -> Bool) -> Bool) {
        controller = Object(owning: UnsafeMutableRawPointer(gtk_event_controller_key_new()))
        // Not retained: the controller outlives its own handler.
        let pointer = controller.opaquePointer
        gtk_event_controller_set_propagation_phase(pointer, GTK_PHASE_CAPTURE)
        controller.connect(Signal<(UInt32, UInt32, GdkModifierType) -> Bool>("key-pressed")) { keyval, _, state in
            let name = gdk_keyval_name(keyval).map { String(cString: $0) } ?? ""
            let held = KeyPress.Modifiers(rawValue: state.rawValue).intersection([.shift, .control, .alt, .superKey])
            return handler(KeyPress(name: name, modifiers: held), gtk_event_controller_get_current_event_time(pointer)) { target in
                gtk_event_controller_key_forward(pointer, target.widgetPointer) != 0
            }
        }
        // gtk_widget_add_controller takes over a reference: give it one besides the wrapper's.
        g_object_ref(controller.objectPointer)
        gtk_widget_add_controller(widget.widgetPointer, controller.opaquePointer)
    }
}

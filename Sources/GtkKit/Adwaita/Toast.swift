import CGtk

/// An `AdwToast`: a short message at the bottom of a window (on its ``ToastOverlay``), with an
/// optional button that activates an action.
///
/// ```swift
/// let toast = Toast(title: "“Notes” moved to Trash")
/// toast.buttonLabel = "_Undo"
/// toast.setAction("win.undo-trash", target: id.uuidString)
/// overlay.add(toast)
/// ```
@MainActor
public final class Toast: Object {
    public override class var gType: GType { adw_toast_get_type() }

    /// A new toast saying `title`, plain text (escaped for the toast, which reads markup), shown
    /// for five seconds.
    public convenience init(title: String) {
        self.init(owning: UnsafeMutableRawPointer(adw_toast_new(Markup.escape(title))))
    }

    private var toastPointer: OpaquePointer { opaquePointer }

    /// The title as the toast holds it: Pango markup.
    public var titleMarkup: String { String(cString: adw_toast_get_title(toastPointer)) }

    /// The label of the toast's button, nil for no button; an underscore marks the mnemonic.
    /// Clicking it emits ``Signal/buttonClicked`` and activates the toast's action, if any.
    public var buttonLabel: String? {
        get { adw_toast_get_button_label(toastPointer).map { String(cString: $0) } }
        set { adw_toast_set_button_label(toastPointer, newValue) }
    }

    /// How long the toast stays, in seconds; 0 keeps it until it is dismissed.
    public var timeout: UInt32 {
        get { adw_toast_get_timeout(toastPointer) }
        set { adw_toast_set_timeout(toastPointer, newValue) }
    }

    /// Makes the button activate `action` (a detailed name such as `win.undo-trash`) with `target`
    /// as its parameter.
    public func setAction<Target: VariantValue>(_ action: String, target: Target) {
        adw_toast_set_action_name(toastPointer, action)
        adw_toast_set_action_target_value(toastPointer, target.makeVariant())
    }

    /// The action the button activates, nil for none.
    public var actionName: String? { adw_toast_get_action_name(toastPointer).map { String(cString: $0) } }

    /// The parameter the button passes to its action, if it is a `Target`.
    public func actionTarget<Target: VariantValue>(as type: Target.Type) -> Target? {
        Target.value(in: adw_toast_get_action_target_value(toastPointer))
    }

    /// Takes the toast away (it emits ``Signal/dismissed``).
    public func dismiss() { adw_toast_dismiss(toastPointer) }
}

/// An `AdwToastOverlay`: where a window's toasts appear, over its content.
@MainActor
open class ToastOverlay: Widget {
    open override class var gType: GType { adw_toast_overlay_get_type() }

    /// A new overlay; give it a child with ``child``.
    public convenience init() {
        self.init(owning: adw_toast_overlay_new())
    }

    /// The content under the toasts.
    public var child: Widget? {
        get { adw_toast_overlay_get_child(opaquePointer).map { Widget(retaining: $0) } }
        set { adw_toast_overlay_set_child(opaquePointer, newValue?.widgetPointer) }
    }

    /// Shows `toast` (after the toasts before it). The overlay keeps it until it is dismissed.
    public func add(_ toast: Toast) {
        // The overlay takes over a reference: give it one besides the wrapper's.
        g_object_ref(toast.objectPointer)
        adw_toast_overlay_add_toast(opaquePointer, toast.opaquePointer)
    }
}

extension Signal where Handler == () -> Void {
    /// `AdwToast::dismissed`: the toast timed out, was closed or replaced, or its button was clicked.
    public static var dismissed: Self { Self("dismissed") }
    /// `AdwToast::button-clicked`.
    public static var buttonClicked: Self { Self("button-clicked") }
}

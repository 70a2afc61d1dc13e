import CGtk

/// A `GtkButton`. Most buttons activate an action (`action-name` in the `.ui` file); code
/// connects ``Signal/clicked`` only where a button is not an action.
@MainActor
open class Button: Widget {
    open override class var gType: GType { gtk_button_get_type() }

    /// A new button with a text label (an underscore marks its mnemonic).
    public convenience init(label: String) {
        self.init(owning: gtk_button_new_with_mnemonic(label))
    }

    /// The label as set, nil for a button showing something else (an icon).
    public var label: String? {
        get { gtk_button_get_label(pointer(as: GtkButton.self)).map { String(cString: $0) } }
        set { gtk_button_set_label(pointer(as: GtkButton.self), newValue) }
    }
}

/// A `GtkToggleButton`: a button that stays pressed, alone or as one of a linked group (the
/// conflict dialog's Mine, Theirs, Both).
@MainActor
open class ToggleButton: Button {
    open override class var gType: GType { gtk_toggle_button_get_type() }

    /// A new toggle button with a text label (an underscore marks its mnemonic), not pressed.
    public convenience init(label: String) {
        self.init(owning: gtk_toggle_button_new_with_mnemonic(label))
    }

    /// Whether the button is pressed. Setting it emits ``Signal/toggled`` when it changes.
    public var isActive: Bool {
        get { gtk_toggle_button_get_active(pointer(as: GtkToggleButton.self)) != 0 }
        set { gtk_toggle_button_set_active(pointer(as: GtkToggleButton.self), newValue ? 1 : 0) }
    }
}

/// A `GtkMenuButton`: opens a menu or popover.
@MainActor
open class MenuButton: Widget {
    open override class var gType: GType { gtk_menu_button_get_type() }

    /// A new menu button with nothing to open yet.
    public convenience init() {
        self.init(owning: gtk_menu_button_new())
    }

    /// The menu it opens (a ``Menu`` built in code, or a ``MenuModel`` from a builder file).
    public var menuModel: MenuModel? {
        get { gtk_menu_button_get_menu_model(opaquePointer).map { MenuModel(retaining: $0) } }
        set { gtk_menu_button_set_menu_model(opaquePointer, newValue?.pointer(as: GMenuModel.self)) }
    }

    /// The popover it opens instead of a menu.
    public var popover: Popover? {
        get { gtk_menu_button_get_popover(opaquePointer).map { Popover(retaining: $0) } }
        set { gtk_menu_button_set_popover(opaquePointer, newValue?.widgetPointer) }
    }

    /// Opens its menu or popover, as a click would.
    public func popup() { gtk_menu_button_popup(opaquePointer) }
}

/// A `GtkSwitch`: on or off.
@MainActor
open class Switch: Widget {
    open override class var gType: GType { gtk_switch_get_type() }

    /// Whether it is on. Changing it notifies `active` (``Signal/notify(_:)``).
    public var isActive: Bool {
        get { gtk_switch_get_active(opaquePointer) != 0 }
        set { gtk_switch_set_active(opaquePointer, newValue ? 1 : 0) }
    }
}

extension Signal where Handler == () -> Void {
    /// `GtkToggleButton::toggled`, after the button was pressed or released.
    public static var toggled: Self { Self("toggled") }
}

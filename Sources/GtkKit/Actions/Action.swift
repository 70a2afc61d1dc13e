import CGtk

/// A `GSimpleAction`: something the writer can do, reached from menus, buttons and keyboard
/// shortcuts by its detailed name (`app.quit`, `win.show-sidebar`).
///
/// Every menu item is an action, so each can be tested and bound to a key. Add actions to an
/// ``ActionMap`` with their accelerators beside them.
@MainActor
public final class Action: Object {
    public override class var gType: GType { g_simple_action_get_type() }

    /// An action without parameter or state that calls `activate`.
    public convenience init(name: String, _ activate: @escaping @MainActor () -> Void) {
        self.init(owning: g_simple_action_new(name, nil))
        connect(.activateAction) { _ in activate() }
    }

    /// A toggle: an action with a boolean state. Activating it flips the state and calls
    /// `changed` with the new value; menus show it as a check item.
    public convenience init(name: String, state: Bool, changed: @escaping @MainActor (Bool) -> Void) {
        self.init(owning: g_simple_action_new_stateful(name, nil, g_variant_new_boolean(state ? 1 : 0)))
        // The handler only runs while the action exists, so an unretained pointer is safe and
        // avoids a cycle through the wrapper.
        let action = opaquePointer
        connect(.changeState) { requested in
            guard let requested else { return }
            let variant = OpaquePointer(requested)
            g_simple_action_set_state(action, variant)
            changed(g_variant_get_boolean(variant) != 0)
        }
    }

    private var actionPointer: OpaquePointer { opaquePointer }

    /// The name without prefix, such as `quit`.
    public var name: String { String(cString: g_action_get_name(actionPointer)) }

    /// Whether the action can be activated; menus grey out disabled actions.
    public var isEnabled: Bool {
        get { g_action_get_enabled(actionPointer) != 0 }
        set { g_simple_action_set_enabled(actionPointer, newValue ? 1 : 0) }
    }

    /// The state of a toggle, nil for an action without a boolean state.
    public var state: Bool? {
        guard let state = g_action_get_state(actionPointer) else { return nil }
        defer { g_variant_unref(state) }
        guard String(cString: g_variant_get_type_string(state)) == "b" else { return nil }
        return g_variant_get_boolean(state) != 0
    }

    /// Activates the action as a menu item or shortcut would (nothing if disabled).
    public func activate() { g_action_activate(actionPointer, nil) }
}

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

    /// An action with a parameter: `win.move-to-folder` activated with a folder's name, from a
    /// menu item's target or ``activate(with:)``.
    public convenience init<Value: VariantValue>(
        name: String, parameter: Value.Type, _ activate: @escaping @MainActor (Value) -> Void
    ) {
        self.init(owning: Value.withVariantType { g_simple_action_new(name, $0) })
        connect(.activateAction) { parameter in
            guard let value = Value.value(in: parameter.map(OpaquePointer.init)) else { return }
            activate(value)
        }
    }

    /// An action with a state. A `Bool` state makes a toggle: activating it flips the state, and
    /// menus show it as a check item. Any other type makes a choice among values (menus show radio
    /// items, each with its value as target): activating it with a value asks for that state.
    ///
    /// A requested state that `accepting` refuses is ignored; otherwise the state changes and
    /// `changed` is called with it. ``setState(_:)`` changes the state without calling `changed`.
    ///
    /// ```swift
    /// let sidebar = Action(name: "show-sidebar", state: true) { shown in showSidebar(shown) }
    /// let sort = Action(name: "sort", state: "updated", accepting: { Order(rawValue: $0) != nil }) { sort(by: $0) }
    /// ```
    public convenience init<Value: VariantValue>(
        name: String, state: Value, accepting: @escaping @MainActor (Value) -> Bool = { _ in true },
        changed: @escaping @MainActor (Value) -> Void
    ) {
        let initial = state.makeVariant()
        if Value.self == Bool.self {
            self.init(owning: g_simple_action_new_stateful(name, nil, initial))
        } else {
            self.init(owning: Value.withVariantType { g_simple_action_new_stateful(name, $0, initial) })
        }
        // The handler only runs while the action exists, so an unretained pointer is safe and
        // avoids a cycle through the wrapper.
        let action = opaquePointer
        connect(.changeState) { requested in
            guard let variant = requested.map(OpaquePointer.init), let value = Value.value(in: variant), accepting(value)
            else { return }
            g_simple_action_set_state(action, variant)
            changed(value)
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
    public var state: Bool? { state(as: Bool.self) }

    /// The state as a `Value`, nil for an action without a state of that type.
    public func state<Value: VariantValue>(as type: Value.Type) -> Value? {
        guard let state = g_action_get_state(actionPointer) else { return nil }
        defer { g_variant_unref(state) }
        return Value.value(in: state)
    }

    /// Sets the state without calling the action's `changed` (to show a state that changed
    /// elsewhere, such as the open article's star).
    public func setState<Value: VariantValue>(_ value: Value) {
        precondition(g_action_get_state_type(actionPointer) != nil, "\(name) has no state")
        g_simple_action_set_state(actionPointer, value.makeVariant())
    }

    /// Activates the action as a menu item or shortcut would (nothing if disabled).
    public func activate() { g_action_activate(actionPointer, nil) }

    /// Activates the action with a parameter, as a menu item with that target would.
    public func activate<Value: VariantValue>(with value: Value) { g_action_activate(actionPointer, value.makeVariant()) }
}

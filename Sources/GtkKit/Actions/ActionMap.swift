import CGtk

/// A set of actions reached under one prefix: the ``Application`` (`app`), an
/// ``ApplicationWindow`` (`win`) or a widget's ``ActionGroup`` (`page`, `editor`, ...).
///
/// ```swift
/// window.addAction("show-sidebar", accelerators: ["F9"]) { [weak self] in self?.toggleSidebar() }
/// ```
@MainActor
public protocol ActionMap: AnyObject {
    /// The prefix of the actions' detailed names.
    var actionPrefix: String { get }
    /// The `GActionMap *` (which is also a `GActionGroup *`).
    var actionMapPointer: OpaquePointer { get }
    /// Binds keyboard shortcuts to the action `NAME` of this map.
    func setAccelerators(_ accelerators: [String], forAction name: String)
}

extension ActionMap {
    /// Adds an action, replacing one of the same name, and binds its shortcuts.
    public func add(_ action: Action, accelerators: [String] = []) {
        g_action_map_add_action(actionMapPointer, action.opaquePointer)
        if !accelerators.isEmpty { setAccelerators(accelerators, forAction: action.name) }
    }

    /// Adds an action that calls `activate`, and binds its shortcuts.
    @discardableResult
    public func addAction(
        _ name: String, accelerators: [String] = [], _ activate: @escaping @MainActor () -> Void
    ) -> Action {
        let action = Action(name: name, activate)
        add(action, accelerators: accelerators)
        return action
    }

    /// The action of that name, if it is a `GSimpleAction` in this map.
    public func action(named name: String) -> Action? {
        guard let action = g_action_map_lookup_action(actionMapPointer, name),
            g_type_check_instance_is_a(UnsafeMutablePointer(action), Action.gType) != 0
        else { return nil }
        return Action(retaining: action)
    }

    /// Activates the action `name` of this map (without prefix), as a menu item would.
    /// Returns false if there is no such enabled action.
    @discardableResult
    public func activateAction(named name: String) -> Bool {
        // Through GActionMap, not GActionGroup: GApplication answers group queries only once
        // it is registered.
        guard let action = g_action_map_lookup_action(actionMapPointer, name), g_action_get_enabled(action) != 0
        else { return false }
        g_action_activate(action, nil)
        return true
    }
}

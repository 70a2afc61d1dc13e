import CGtk

/// Actions of one widget, reached as `PREFIX.NAME` from the widget and everything inside it,
/// with their keyboard shortcuts beside them (a shortcut controller on the widget, active while
/// the focus is inside it).
///
/// ```swift
/// let page = ActionGroup(prefix: "page", on: editorPane)
/// page.addAction("save", accelerators: ["<Control>s"]) { [weak self] in self?.save() }
/// ```
@MainActor
public final class ActionGroup: ActionMap {
    public let actionPrefix: String
    /// The widget the group is inserted into.
    public let widget: Widget
    private let group: Object
    /// The controller holding the group's shortcuts (a `GListModel` of `GtkShortcut`).
    let shortcutController: Object

    /// A new group inserted into `widget` under `prefix`.
    public init(prefix: String, on widget: Widget) {
        actionPrefix = prefix
        self.widget = widget
        group = Object(owning: g_simple_action_group_new())
        gtk_widget_insert_action_group(widget.widgetPointer, prefix, group.opaquePointer)
        shortcutController = Object(owning: gtk_shortcut_controller_new())
        // gtk_widget_add_controller takes over a reference: give it one besides the wrapper's.
        g_object_ref(shortcutController.objectPointer)
        gtk_widget_add_controller(widget.widgetPointer, shortcutController.opaquePointer)
    }

    public var actionMapPointer: OpaquePointer { group.opaquePointer }

    /// The shortcuts bound in this group, as trigger strings (`<Control>s`) by action name.
    public private(set) var accelerators: [String: [String]] = [:]

    /// Binds shortcuts to `PREFIX.NAME` on the group's widget.
    public func setAccelerators(_ accelerators: [String], forAction name: String) {
        for accelerator in accelerators {
            guard let trigger = gtk_shortcut_trigger_parse_string(accelerator) else {
                preconditionFailure("'\(accelerator)' is not a valid accelerator")
            }
            let shortcut = gtk_shortcut_new(trigger, gtk_named_action_new("\(actionPrefix).\(name)"))
            gtk_shortcut_controller_add_shortcut(shortcutController.opaquePointer, shortcut)
        }
        self.accelerators[name, default: []].append(contentsOf: accelerators)
    }
}

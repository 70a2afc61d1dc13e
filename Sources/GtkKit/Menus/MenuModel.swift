import CGtk

/// A `GMenuModel`, such as a primary menu defined in a `.ui` file.
@MainActor
public class MenuModel: Object {
    public override class var gType: GType { g_menu_model_get_type() }

    /// One item of a menu, with sections and submenus flattened away.
    public struct Item: Equatable, Sendable {
        /// The label as written, with its mnemonic underscore (`_Quit`).
        public var label: String?
        /// The detailed action name, such as `app.quit`.
        public var action: String?
        /// The action's parameter, when it is a string (`win.sort` with `title`).
        public var target: String?

        /// An item as a menu would hold it.
        public init(label: String?, action: String?, target: String? = nil) {
            self.label = label
            self.action = action
            self.target = target
        }
    }

    private var modelPointer: UnsafeMutablePointer<GMenuModel> { pointer(as: GMenuModel.self) }

    /// Every item in order, including those in sections and submenus.
    public var items: [Item] {
        (0..<g_menu_model_get_n_items(modelPointer)).flatMap { index -> [Item] in
            var items: [Item] = []
            let label = string(attribute: "label", at: index)
            let action = string(attribute: "action", at: index)
            let target = string(attribute: "target", at: index)
            if label != nil || action != nil { items.append(Item(label: label, action: action, target: target)) }
            for link in ["section", "submenu"] {
                if let linked = g_menu_model_get_item_link(modelPointer, index, link) {
                    items += MenuModel(owning: linked).items
                }
            }
            return items
        }
    }

    private func string(attribute: String, at index: gint) -> String? {
        guard let value = g_menu_model_get_item_attribute_value(modelPointer, index, attribute, nil) else { return nil }
        defer { g_variant_unref(value) }
        guard String(cString: g_variant_get_type_string(value)) == "s" else { return nil }
        return String(cString: g_variant_get_string(value, nil))
    }
}

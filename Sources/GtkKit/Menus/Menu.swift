import CGtk

/// A `GMenu` built in code: items that activate actions, sections and submenus, for a menu that
/// changes with the library (the folders of "Move to Folder", say). Static menus live in `.ui`
/// files.
///
/// ```swift
/// let menu = Menu()
/// menu.append("No Folder", action: "win.move-to-folder", target: "")
/// for name in folderNames { menu.append(name, action: "win.move-to-folder", target: name) }
/// moveButton.menuModel = menu
/// ```
@MainActor
public final class Menu: MenuModel {
    public override class var gType: GType { g_menu_get_type() }

    /// A new, empty menu.
    public convenience init() {
        self.init(owning: UnsafeMutableRawPointer(g_menu_new()))
    }

    private var menuPointer: OpaquePointer { opaquePointer }

    /// Adds an item that activates `action` (a detailed name such as `win.save`).
    public func append(_ label: String, action: String) {
        g_menu_append(menuPointer, label, action)
    }

    /// Adds an item that activates `action` with `target` as its parameter; for an action with a
    /// state of that type the item shows as a radio item, checked when the state is `target`.
    public func append<Target: VariantValue>(_ label: String, action: String, target: Target) {
        let item = g_menu_item_new(label, nil)!
        defer { g_object_unref(UnsafeMutableRawPointer(item)) }
        g_menu_item_set_action_and_target_value(item, action, target.makeVariant())
        g_menu_append_item(menuPointer, item)
    }

    /// Adds a section: its items, set apart by separators, with an optional heading.
    public func appendSection(_ section: MenuModel, label: String? = nil) {
        g_menu_append_section(menuPointer, label, section.pointer(as: GMenuModel.self))
    }

    /// Adds a submenu under `label`.
    public func appendSubmenu(_ label: String, _ submenu: Menu) {
        g_menu_append_submenu(menuPointer, label, submenu.pointer(as: GMenuModel.self))
    }

    /// Removes every item.
    public func removeAll() { g_menu_remove_all(menuPointer) }
}

import CGtk
import GtkTestSupport
import XCTest

@testable import GtkKit

final class MenuTests: GtkTestCase, @unchecked Sendable {
    func testAMenuBuiltInCodeHoldsItsItemsTargetsSectionsAndSubmenus() {
        MainActor.assumeIsolated {
            let menu = Menu()
            menu.append("No Folder", action: "win.move-to-folder", target: "")
            menu.append("Notes", action: "win.move-to-folder", target: "Notes")
            let section = Menu()
            section.append("_Save", action: "win.save")
            menu.appendSection(section)
            let submenu = Menu()
            submenu.append("By Title", action: "win.sort", target: "title")
            menu.appendSubmenu("_Sort", submenu)
            XCTAssertEqual(menu.items, [
                MenuModel.Item(label: "No Folder", action: "win.move-to-folder", target: ""),
                MenuModel.Item(label: "Notes", action: "win.move-to-folder", target: "Notes"),
                MenuModel.Item(label: "_Save", action: "win.save"),
                MenuModel.Item(label: "_Sort", action: nil),
                MenuModel.Item(label: "By Title", action: "win.sort", target: "title"),
            ])
            menu.removeAll()
            XCTAssertEqual(menu.items, [])
        }
    }

    func testAMenuButtonKeepsItsMenu() {
        MainActor.assumeIsolated {
            let button = MenuButton(owning: gtk_menu_button_new())
            var menu: Menu? = Menu()
            menu!.append("Notes", action: "win.move-to-folder", target: "Notes")
            let instance = WeakObjectReference(menu!.objectPointer)
            button.menuModel = menu
            menu = nil
            XCTAssertNotNil(instance.withObject { $0 }, "the button holds the menu")
            XCTAssertEqual(button.menuModel?.items.first?.target, "Notes")
            button.menuModel = nil
            XCTAssertNil(instance.withObject { $0 }, "and lets it go when replaced")
        }
    }
}

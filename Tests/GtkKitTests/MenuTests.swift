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

/// Context menus: a right click's point reaches the handler, and a popover menu attached to a
/// widget opens there and is kept by the widget until detached.
final class ContextMenuTests: GtkTestCase, @unchecked Sendable {
    func testASecondaryClickReportsItsPointAndAPopoverMenuOpensThere() {
        MainActor.assumeIsolated {
            let window = Window()
            defer { window.destroy() }
            let box = Box(.vertical)
            box.append(Label("Row"))
            window.child = box
            window.present()
            spinMainLoop { window.isMapped }

            let menu = Menu()
            menu.append("_Rename…", action: "win.rename", target: "Row")
            var popover: PopoverMenu? = PopoverMenu(menu: menu)
            popover!.attach(to: box)
            let instance = WeakObjectReference(popover!.objectPointer)
            var points: [[Double]] = []
            let gesture = box.onSecondaryClick(atPoint: { [weak popover] x, y in
                points.append([x, y])
                popover?.point(atX: x, y: y)
                popover?.popup()
            })
            XCTAssertEqual(gtk_gesture_single_get_button(OpaquePointer(gesture.objectPointer)), UInt32(GDK_BUTTON_SECONDARY))
            emit("pressed", on: gesture, [.int(1), .double(12.5), .double(4)])
            XCTAssertEqual(points, [[12.5, 4]])
            spinMainLoop { popover!.isVisible }
            var pointed = GdkRectangle()
            XCTAssertNotEqual(gtk_popover_get_pointing_to(popover!.pointer(as: GtkPopover.self), &pointed), 0)
            XCTAssertEqual([pointed.x, pointed.y], [12, 4])
            XCTAssertEqual(popover!.menuModel?.items.map(\.action), ["win.rename"])
            popover!.popdown()

            let attached = popover!
            popover = nil
            XCTAssertNotNil(instance.withObject { $0 }, "the widget it is attached to keeps it")
            XCTAssertTrue(box.descendants(ofType: Popover.self).contains { $0.widgetPointer == attached.widgetPointer })
            attached.detach()
            XCTAssertNil(gtk_widget_get_parent(attached.widgetPointer))
            XCTAssertFalse(box.descendants(ofType: Popover.self).contains { $0.widgetPointer == attached.widgetPointer })
        }
    }
}

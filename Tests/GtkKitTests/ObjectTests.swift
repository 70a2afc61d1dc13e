import CGtk
import GtkShim
import GtkTestSupport
import XCTest

@testable import GtkKit

final class ObjectTests: GtkTestCase, @unchecked Sendable {
    func testFloatingReferenceIsSunkAndDroppedWithTheWrapper() {
        MainActor.assumeIsolated {
            let label = gtk_label_new("Draft")!
            XCTAssertNotEqual(g_object_is_floating(label), 0)
            var wrapper: Widget? = Widget(owning: label)
            let instance = WeakObjectReference(wrapper!.objectPointer)
            XCTAssertEqual(g_object_is_floating(label), 0)
            XCTAssertEqual(wrapper!.referenceCount, 1)
            wrapper = nil
            XCTAssertNil(instance.withObject { $0 }, "the label was finalized with its only wrapper")
        }
    }

    func testRetainingAddsAReferenceOfItsOwn() {
        MainActor.assumeIsolated {
            let owner = Object(owning: g_object_new_with_properties(gtkshim_type_object(), 0, nil, nil))
            XCTAssertEqual(owner.referenceCount, 1)
            var second: Object? = Object(retaining: owner.objectPointer)
            XCTAssertEqual(owner.referenceCount, 2)
            XCTAssertEqual(second?.objectPointer, owner.objectPointer)
            second = nil
            XCTAssertEqual(owner.referenceCount, 1)
        }
    }

    func testWidgetAddedToAParentOutlivesItsWrapper() {
        MainActor.assumeIsolated {
            let box = Widget(owning: gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
            var label: Widget? = Widget(owning: gtk_label_new("Title"))
            let instance = WeakObjectReference(label!.objectPointer)
            gtk_box_append(box.pointer(as: GtkBox.self), label!.widgetPointer)
            label = nil
            XCTAssertNotNil(instance.withObject { $0 }, "the box holds the label")
            XCTAssertEqual(box.children.count, 1)
            XCTAssertEqual(box.children.first?.typeName, "GtkLabel")
        }
    }

    func testTypedPropertiesRoundTrip() {
        MainActor.assumeIsolated {
            let window = Window()
            window.setProperty("title", "Quire")
            XCTAssertEqual(window.property("title", as: String.self), "Quire")
            XCTAssertEqual(window.title, "Quire")
            window.setProperty("default-width", Int32(640))
            XCTAssertEqual(window.property("default-width", as: Int32.self), 640)
            window.setProperty("modal", true)
            XCTAssertTrue(window.property("modal", as: Bool.self))
            window.destroy()

            let adjustment = Object(owning: gtk_adjustment_new(0, 0, 100, 1, 10, 0))
            adjustment.setProperty("value", 42.5)
            XCTAssertEqual(adjustment.property("value", as: Double.self), 42.5)

            let label = Widget(owning: gtk_label_new("x"))
            // A guint property written and read as UInt32.
            label.setProperty("lines", Int32(3))
            XCTAssertEqual(label.property("lines", as: Int32.self), 3)
        }
    }

    func testTypeChecksAndDescendants() {
        MainActor.assumeIsolated {
            let window = Window()
            XCTAssertTrue(window.isA(gtk_widget_get_type()))
            XCTAssertFalse(window.isA(gtk_label_get_type()))
            XCTAssertEqual(window.typeName, "GtkWindow")
            let box = Widget(owning: gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
            gtk_box_append(box.pointer(as: GtkBox.self), gtk_label_new("a"))
            gtk_box_append(box.pointer(as: GtkBox.self), gtk_button_new_with_label("b"))
            gtk_window_set_child(window.windowPointer, box.widgetPointer)
            XCTAssertEqual(window.descendants(ofType: gtk_label_get_type()).count, 2, "the button's own label counts")
            XCTAssertEqual(window.descendants(ofType: gtk_button_get_type()).map(\.typeName), ["GtkButton"])
            window.destroy()
        }
    }

    func testDestroyedDialogOutlivingItsParentIsUnlinkedFromIt() {
        MainActor.assumeIsolated {
            var parent: Window? = Window()
            let dialog = Window()
            dialog.transientFor = parent
            XCTAssertEqual(dialog.transientFor?.objectPointer, parent?.objectPointer)
            var destroyed = 0
            dialog.onDestroyed { destroyed += 1 }
            dialog.destroy()
            XCTAssertEqual(destroyed, 1)
            XCTAssertNil(dialog.transientFor, "unlinked while both were alive")
            parent?.destroy()
            parent = nil
            // The dialog is freed after its parent; GTK must not touch the freed parent.
        }
    }

    func testKeepAliveHoldsTheOwnerUntilTheWindowIsDestroyed() {
        MainActor.assumeIsolated {
            final class Controller {}
            let window = Window()
            weak var controller: Controller?
            do {
                let owner = Controller()
                controller = owner
                window.keepAlive(owner)
            }
            XCTAssertNotNil(controller)
            window.destroy()
            XCTAssertNil(controller)
        }
    }
}

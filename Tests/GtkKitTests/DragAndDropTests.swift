import CGtk
import GtkShim
import GtkTestSupport
import XCTest

@testable import GtkKit

/// Drag and drop inside the process: the boxed content type, the drag source's content as GTK
/// asks for it (`prepare`), and the drop target's `drop` with the value GDK reads from it.
final class DragAndDropTests: GtkTestCase, @unchecked Sendable {
    func testContentTypeIsRegisteredOnceAndItsProviderGivesTheStringBack() throws {
        try MainActor.assumeIsolated {
            let type = DragContentType(named: "GtkKitTestsCard")
            XCTAssertEqual(DragContentType(named: "GtkKitTestsCard"), type, "registered once per process")
            XCTAssertEqual(type.name, "GtkKitTestsCard")
            XCTAssertEqual(g_type_fundamental(type.gType), gtkshim_type_boxed())

            let provider = type.contentProvider(for: "card-17 “ünïcode”")
            let formats = gdk_content_provider_ref_formats(provider.pointer(as: GdkContentProvider.self))!
            defer { gdk_content_formats_unref(formats) }
            XCTAssertNotEqual(gdk_content_formats_contain_gtype(formats, type.gType), 0)
            XCTAssertEqual(gdk_content_formats_contain_gtype(formats, gtkshim_type_string()), 0, "not offered as text")
            XCTAssertEqual(try type.string(from: provider), "card-17 “ünïcode”")

            // Another type's content is not this one's.
            let other = DragContentType(named: "GtkKitTestsOtherCard")
            XCTAssertNotEqual(other.gType, type.gType)
            XCTAssertThrowsError(try type.string(from: other.contentProvider(for: "card-17")))
        }
    }

    func testDragSourceGivesItsContentWhenADragBeginsOrRefusesIt() throws {
        try MainActor.assumeIsolated {
            let type = DragContentType(named: "GtkKitTestsCard")
            let card = Widget(owning: gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
            let offered = Offer(string: "card-1")
            let source = DragSource(on: card) { offered.string.map(type.contentProvider(for:)) }
            XCTAssertEqual(controllers(of: card), [source.controller.objectPointer])
            XCTAssertEqual(gtk_drag_source_get_actions(source.controller.opaquePointer), GDK_ACTION_MOVE)

            let provider = try XCTUnwrap(source.prepare(atX: 4, y: 2))
            XCTAssertEqual(try type.string(from: provider), "card-1")
            offered.string = "card-2"
            XCTAssertEqual(try type.string(from: XCTUnwrap(source.prepare())), "card-2", "asked again for each drag")
            offered.string = nil
            XCTAssertNil(source.prepare(), "no content: no drag")
        }
    }

    func testDropTargetTakesContentOfItsTypeFromADragSource() throws {
        try MainActor.assumeIsolated {
            let type = DragContentType(named: "GtkKitTestsCard")
            let row = Widget(owning: gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
            let dropped = Drops()
            let target = DropTarget(on: row, accepting: type) { string in
                dropped.strings.append(string)
                return string != "refused"
            }
            XCTAssertEqual(controllers(of: row), [target.controller.objectPointer])
            let formats = gtk_drop_target_get_formats(target.controller.opaquePointer)!
            XCTAssertNotEqual(gdk_content_formats_contain_gtype(formats, type.gType), 0)
            XCTAssertEqual(gtk_drop_target_get_actions(target.controller.opaquePointer), GDK_ACTION_MOVE)

            let card = Widget(owning: gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
            let source = DragSource(on: card) { type.contentProvider(for: "card-9") }
            XCTAssertTrue(try target.drop(XCTUnwrap(source.prepare()), x: 3, y: 5))
            XCTAssertEqual(dropped.strings, ["card-9"])
            XCTAssertFalse(try target.drop(type.contentProvider(for: "refused")), "the handler's answer is the drop's")
            XCTAssertThrowsError(try target.drop(DragContentType(named: "GtkKitTestsOtherCard").contentProvider(for: "x")))
            XCTAssertEqual(dropped.strings, ["card-9", "refused"])
        }
    }

    func testWidgetKeepsTheHandlersAndReleasesThemWhenFinalized() {
        MainActor.assumeIsolated {
            let type = DragContentType(named: "GtkKitTestsCard")
            weak var sentinel: Sentinel?
            var widget: Widget? = Widget(owning: gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
            let finalized = WeakObjectReference(widget!.objectPointer)
            do {
                let captured = Sentinel()
                sentinel = captured
                _ = DragSource(on: widget!) { withExtendedLifetime(captured) { nil } }
                _ = DropTarget(on: widget!, accepting: type) { _ in withExtendedLifetime(captured) { true } }
            }
            XCTAssertNotNil(sentinel, "the widget's controllers hold the closures after the wrappers are gone")
            widget = nil
            XCTAssertNil(finalized.withObject { $0 })
            XCTAssertNil(sentinel, "finalizing the widget released both closures")
        }
    }

    /// The event controllers on a widget.
    @MainActor
    private func controllers(of widget: Widget) -> [UnsafeMutablePointer<GObject>] {
        let list = gtk_widget_observe_controllers(widget.widgetPointer)!
        defer { g_object_unref(UnsafeMutableRawPointer(list)) }
        return (0..<g_list_model_get_n_items(list)).compactMap { index in
            guard let item = g_list_model_get_item(list, index) else { return nil }
            g_object_unref(item)
            return item.assumingMemoryBound(to: GObject.self)
        }
    }

    /// What a drag source in a test offers.
    @MainActor
    private final class Offer {
        var string: String?
        init(string: String?) { self.string = string }
    }

    /// What a drop target in a test received.
    @MainActor
    private final class Drops {
        var strings: [String] = []
    }
}

import CGtk
import GtkShim
import GtkTestSupport
import XCTest

@testable import GtkKit

final class SignalTests: GtkTestCase, @unchecked Sendable {
    func testClosureBoxIsReleasedWhenItsObjectIsFinalized() {
        MainActor.assumeIsolated {
            let counter = Counter()
            weak var sentinel: Sentinel?
            var button: Widget? = Widget(owning: gtk_button_new())
            let finalized = WeakObjectReference(button!.objectPointer)
            do {
                let captured = Sentinel()
                sentinel = captured
                button!.connect(.clicked) { withExtendedLifetime(captured) { counter.value += 1 } }
            }
            emit("clicked", on: button!, [])
            XCTAssertEqual(counter.value, 1)
            XCTAssertNotNil(sentinel, "the connection holds its closure")

            button = nil
            XCTAssertNil(finalized.withObject { $0 }, "the wrapper held the only reference")
            XCTAssertNil(sentinel, "finalizing the button released the closure box")
        }
    }

    func testDisconnectReleasesTheBoxAndStopsTheHandler() {
        MainActor.assumeIsolated {
            let counter = Counter()
            weak var sentinel: Sentinel?
            let button = Widget(owning: gtk_button_new())
            let connection: SignalConnection
            do {
                let captured = Sentinel()
                sentinel = captured
                connection = button.connect(.clicked) { withExtendedLifetime(captured) { counter.value += 1 } }
            }
            XCTAssertTrue(connection.isConnected)
            connection.disconnect()
            XCTAssertFalse(connection.isConnected)
            XCTAssertNil(sentinel, "disconnecting released the closure box at once")
            emit("clicked", on: button, [])
            XCTAssertEqual(counter.value, 0)
            connection.disconnect()  // a second time is harmless
        }
    }

    func testHandlersCannotFireAfterTheirOwnerDied() {
        /// An owner that keeps its connections and refers to itself unretained from them.
        @MainActor
        final class Owner {
            let connections = SignalConnections()
            let counter: Counter
            init(button: Widget, counter: Counter) {
                self.counter = counter
                button.connect(.clicked) { [unowned self] in self.counter.value += 1 }.store(in: connections)
            }
        }
        MainActor.assumeIsolated {
            let counter = Counter()
            let button = Widget(owning: gtk_button_new())
            var owner: Owner? = Owner(button: button, counter: counter)
            weak let weakOwner = owner
            emit("clicked", on: button, [])
            XCTAssertEqual(counter.value, 1)

            owner = nil
            XCTAssertNil(weakOwner)
            // With the handler still connected this would touch a dead `unowned self` and crash.
            emit("clicked", on: button, [])
            XCTAssertEqual(counter.value, 1)
        }
    }

    func testConnectionOutlivingItsObjectReportsDisconnected() {
        MainActor.assumeIsolated {
            var button: Widget? = Widget(owning: gtk_button_new())
            let connection = button!.connect(.clicked) {}
            button = nil
            XCTAssertFalse(connection.isConnected)
            connection.disconnect()  // the instance is gone: must not touch freed memory
        }
    }

    func testBooleanResultVetoesCloseRequest() {
        MainActor.assumeIsolated {
            let window = Window()
            let keepOpen = Counter()
            keepOpen.value = 1
            var requests = 0
            window.connect(.closeRequest) {
                requests += 1
                return keepOpen.value == 1
            }
            window.present()
            window.close()
            XCTAssertEqual(requests, 1)
            XCTAssertTrue(Self.isToplevel(window), "returning true kept the window")
            keepOpen.value = 0
            window.close()
            XCTAssertEqual(requests, 2)
            XCTAssertFalse(Self.isToplevel(window), "returning false let it close")
        }
    }

    func testDoubleArgumentsAndBooleanResult() {
        MainActor.assumeIsolated {
            let scroll = Object(owning: gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES))
            var deltas: [Double] = []
            scroll.connect(Signal<(Double, Double) -> Bool>("scroll")) { dx, dy in
                deltas = [dx, dy]
                return true
            }
            let handled = emit("scroll", on: scroll, [.double(-1.5), .double(2.25)], returns: gtkshim_type_boolean())
            XCTAssertEqual(deltas, [-1.5, 2.25])
            XCTAssertEqual(handled, 1, "the closure's true reached the emitter")

            let click = Object(owning: gtk_gesture_click_new())
            var press: (Int32, Double, Double)?
            click.connect(Signal<(Int32, Double, Double) -> Void>("pressed")) { count, x, y in press = (count, x, y) }
            emit("pressed", on: click, [.int(2), .double(10.5), .double(-3)])
            XCTAssertEqual(press?.0, 2)
            XCTAssertEqual(press?.1, 10.5)
            XCTAssertEqual(press?.2, -3)

            let motion = Object(owning: gtk_event_controller_motion_new())
            var position: [Double] = []
            motion.connect(Signal<(Double, Double) -> Void>("motion")) { x, y in position = [x, y] }
            emit("motion", on: motion, [.double(7), .double(8.5)])
            XCTAssertEqual(position, [7, 8.5])

            let zoom = Object(owning: gtk_gesture_zoom_new())
            var scale = 0.0
            zoom.connect(Signal<(Double) -> Void>("scale-changed")) { scale = $0 }
            emit("scale-changed", on: zoom, [.double(1.75)])
            XCTAssertEqual(scale, 1.75)
        }
    }

    func testUnsignedArgumentsFromListModel() {
        MainActor.assumeIsolated {
            let store = Object(owning: g_list_store_new(gtkshim_type_object()))
            var changes: [[UInt32]] = []
            store.connect(Signal<(UInt32, UInt32, UInt32) -> Void>("items-changed")) { position, removed, added in
                changes.append([position, removed, added])
            }
            let item = Object(owning: g_object_new_with_properties(gtkshim_type_object(), 0, nil, nil))
            g_list_store_append(store.opaquePointer, item.objectPointer)
            g_list_store_append(store.opaquePointer, item.objectPointer)
            g_list_store_remove(store.opaquePointer, 0)
            XCTAssertEqual(changes, [[0, 0, 1], [1, 0, 1], [0, 1, 0]])
        }
    }

    func testStringAndPointerArguments() {
        MainActor.assumeIsolated {
            let dialog = Window(retaining: adw_message_dialog_new(nil, "Discard the draft?", nil))
            var responses: [String] = []
            dialog.connect(.response) { responses.append($0) }
            adw_message_dialog_add_response(dialog.pointer(as: AdwMessageDialog.self), "keep", "Keep")
            adw_message_dialog_response(dialog.pointer(as: AdwMessageDialog.self), "keep")
            XCTAssertEqual(responses, ["keep"])
            dialog.destroy()

            let window = Window()
            var changed: [String] = []
            window.connect(.notify("title")) { spec in
                changed.append(String(cString: g_param_spec_get_name(spec!.assumingMemoryBound(to: GParamSpec.self))))
            }
            window.title = "Draft"
            window.defaultSize = (300, 200)  // another property: not reported
            XCTAssertEqual(changed, ["title"])
            window.destroy()
        }
    }

    func testAfterRunsAfterTheDefaultHandler() {
        MainActor.assumeIsolated {
            let window = Window()
            var order: [String] = []
            window.connect(.notify("title"), after: true) { _ in order.append("after") }
            window.connect(.notify("title")) { _ in order.append("normal") }
            window.title = "Draft"
            XCTAssertEqual(order, ["normal", "after"])
            window.destroy()
        }
    }

    // MARK: Helpers

    @MainActor
    private static func isToplevel(_ window: Window) -> Bool {
        let toplevels = Object(retaining: gtk_window_get_toplevels())
        let model = toplevels.opaquePointer
        return (0..<g_list_model_get_n_items(model)).contains { index in
            let item = g_list_model_get_item(model, index)
            defer { g_object_unref(item) }
            return item == UnsafeMutableRawPointer(window.objectPointer)
        }
    }
}

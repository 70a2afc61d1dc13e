import CGtk
import GtkTestSupport
import XCTest

@testable import GtkKit

final class ActionTests: GtkTestCase, @unchecked Sendable {
    func testApplicationActionsActivateAndCarryTheirAccelerators() {
        MainActor.assumeIsolated {
            let counter = Counter()
            var accelerators: [String] = []
            var disabledActivated = true
            let status = runApplication { application, finish in
                let action = application.addAction("save", accelerators: ["<Control>s", "<Shift><Control>s"]) {
                    counter.value += 1
                }
                XCTAssertEqual(action.name, "save")
                XCTAssertTrue(application.activateAction(named: "save"))
                accelerators = application.accelerators(forDetailedAction: "app.save")
                XCTAssertEqual(application.action(named: "save")?.objectPointer, action.objectPointer)
                XCTAssertNil(application.action(named: "missing"))
                XCTAssertFalse(application.activateAction(named: "missing"))

                action.isEnabled = false
                disabledActivated = application.activateAction(named: "save")
                action.activate()
                finish()
            }
            XCTAssertEqual(status, 0)
            XCTAssertEqual(counter.value, 1, "activated once; a disabled action does nothing")
            XCTAssertFalse(disabledActivated)
            XCTAssertEqual(accelerators, ["<Control>s", "<Shift><Control>s"])
        }
    }

    func testToggleFlipsItsStateAndReportsIt() {
        MainActor.assumeIsolated {
            var reported: [Bool] = []
            let toggle = Action(name: "show-sidebar", state: false) { reported.append($0) }
            XCTAssertEqual(toggle.state, false)
            toggle.activate()
            XCTAssertEqual(toggle.state, true)
            toggle.activate()
            XCTAssertEqual(toggle.state, false)
            XCTAssertEqual(reported, [true, false])
            XCTAssertNil(Action(name: "plain") {}.state)
        }
    }

    func testAnActionWithAParameterGetsItsValue() {
        MainActor.assumeIsolated {
            var moved: [String] = []
            let move = Action(name: "move-to-folder", parameter: String.self) { moved.append($0) }
            move.activate(with: "Notes")
            move.activate(with: "")
            XCTAssertEqual(moved, ["Notes", ""])
            XCTAssertNil(move.state(as: String.self), "an action with a parameter has no state")
        }
    }

    func testAChoiceTakesOnlyTheStatesItAccepts() {
        MainActor.assumeIsolated {
            var sorted: [String] = []
            let sort = Action(name: "sort", state: "updated", accepting: { ["updated", "title"].contains($0) }) { sorted.append($0) }
            XCTAssertEqual(sort.state(as: String.self), "updated")
            XCTAssertNil(sort.state, "not a toggle")
            sort.activate(with: "title")
            sort.activate(with: "nonsense")
            XCTAssertEqual(sort.state(as: String.self), "title", "a refused state is ignored")
            XCTAssertEqual(sorted, ["title"])
            sort.setState("updated")
            XCTAssertEqual(sort.state(as: String.self), "updated")
            XCTAssertEqual(sorted, ["title"], "setState does not call the handler")

            var starred: [Bool] = []
            let favorite = Action(name: "favorite", state: false) { starred.append($0) }
            favorite.setState(true)
            XCTAssertEqual(favorite.state, true)
            favorite.activate()
            XCTAssertEqual(starred, [false], "activating flips the state set from outside")
        }
    }

    func testActionWithoutOwnerIsReleasedWithItsMap() {
        MainActor.assumeIsolated {
            weak var sentinel: Sentinel?
            var application: Application? = Application(id: "org.quire.GtkKitTests.Release", flags: .nonUnique)
            do {
                let captured = Sentinel()
                sentinel = captured
                application!.addAction("keep") { withExtendedLifetime(captured) {} }
            }
            XCTAssertNotNil(sentinel)
            application = nil
            XCTAssertNil(sentinel, "no cycle keeps the action's closure alive")
        }
    }

    func testWidgetActionGroupIsReachedFromInsideTheWidget() {
        MainActor.assumeIsolated {
            let window = Window()
            let box = Widget(owning: gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
            let button = Widget(owning: gtk_button_new())
            gtk_box_append(box.pointer(as: GtkBox.self), button.widgetPointer)
            gtk_window_set_child(window.windowPointer, box.widgetPointer)

            let page = ActionGroup(prefix: "page", on: box)
            let counter = Counter()
            page.addAction("save", accelerators: ["<Control>s"]) { counter.value += 1 }
            XCTAssertTrue(button.activateAction("page.save"), "found from a child")
            XCTAssertEqual(counter.value, 1)
            XCTAssertFalse(window.activateAction("page.save"), "not found from outside the widget")
            XCTAssertEqual(page.accelerators, ["save": ["<Control>s"]])
            XCTAssertEqual(g_list_model_get_n_items(page.shortcutController.opaquePointer), 1)
            window.destroy()
        }
    }
}

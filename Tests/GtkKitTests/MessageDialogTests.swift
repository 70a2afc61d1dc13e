import CGtk
import GtkTestSupport
import XCTest

@testable import GtkKit

final class MessageDialogTests: GtkTestCase, @unchecked Sendable {
    func testResponsesAreLabelledAndAnswered() {
        MainActor.assumeIsolated {
            let parent = Window()
            defer { parent.destroy() }
            let dialog = MessageDialog(heading: "Replace “a.md”?", body: "A file <b>named</b> a.md exists.", over: parent)
            XCTAssertEqual(dialog.transientFor?.objectPointer, parent.objectPointer)
            XCTAssertEqual(dialog.heading, "Replace “a.md”?")
            XCTAssertEqual(dialog.body, "A file <b>named</b> a.md exists.")
            dialog.addResponse("cancel", label: "_Cancel")
            dialog.addResponse("replace", label: "_Replace", appearance: .destructive)
            dialog.defaultResponse = "cancel"
            dialog.closeResponse = "cancel"
            XCTAssertTrue(dialog.hasResponse("replace"))
            XCTAssertFalse(dialog.hasResponse("keep"))
            XCTAssertEqual(dialog.label(ofResponse: "replace"), "_Replace")
            XCTAssertNil(dialog.label(ofResponse: "keep"))
            dialog.setLabel("_Overwrite", ofResponse: "replace")
            XCTAssertEqual(dialog.label(ofResponse: "replace"), "_Overwrite")
            XCTAssertEqual(dialog.defaultResponse, "cancel")
            XCTAssertEqual(dialog.closeResponse, "cancel")

            let details = Expander(label: "Details")
            details.child = Label("errno 28")
            dialog.extraChild = details
            XCTAssertEqual(dialog.descendants(ofType: Expander.self).first?.label, "Details")
            XCTAssertFalse(details.isExpanded)
            details.isExpanded = true
            XCTAssertTrue(details.isExpanded)

            var answers: [String] = []
            dialog.connect(.response) { answers.append($0) }
            dialog.present()
            let button = dialog.descendants(ofType: Button.self).first { $0.label == "_Overwrite" }
            XCTAssertEqual(button?.activate(), true)
            spinMainLoop { !dialog.isOpen }
            XCTAssertEqual(answers, ["replace"], "a button answers once and closes the dialog")
        }
    }

    func testRespondEmitsTheResponseAndLeavesTheDialogOpen() {
        MainActor.assumeIsolated {
            let parent = Window()
            defer { parent.destroy() }
            let dialog = MessageDialog(heading: "Recover?", body: "", over: parent)
            defer { if dialog.isOpen { dialog.destroy() } }
            dialog.addResponse("later", label: "_Later")
            var answers: [String] = []
            dialog.connect(.response) { answers.append($0) }
            dialog.present()
            dialog.respond("later")
            XCTAssertEqual(answers, ["later"])
            XCTAssertTrue(dialog.isOpen, "only a button closes the dialog too")
        }
    }
}

import CGtk
import GtkTestSupport
import XCTest

@testable import GtkKit

final class ToastTests: GtkTestCase, @unchecked Sendable {
    func testATitleIsShownAsWrittenAndTheActionCarriesItsTarget() {
        MainActor.assumeIsolated {
            let toast = Toast(title: "“R&D <notes>” moved to Trash")
            XCTAssertEqual(toast.titleMarkup, "“R&amp;D &lt;notes&gt;” moved to Trash")
            XCTAssertEqual(Markup.escape("a < b & c"), "a &lt; b &amp; c")
            toast.buttonLabel = "_Undo"
            toast.timeout = 8
            toast.setAction("win.undo-trash", target: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
            XCTAssertEqual(toast.buttonLabel, "_Undo")
            XCTAssertEqual(toast.timeout, 8)
            XCTAssertEqual(toast.actionName, "win.undo-trash")
            XCTAssertEqual(toast.actionTarget(as: String.self), "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
            XCTAssertNil(toast.actionTarget(as: Bool.self), "the target is a string")
        }
    }

    func testTheOverlayKeepsAToastUntilItIsDismissed() {
        MainActor.assumeIsolated {
            let window = Window()
            defer { window.destroy() }
            let overlay = ToastOverlay()
            overlay.child = Label("content")
            window.child = overlay
            window.present()
            var toast: Toast? = Toast(title: "Exported 2 articles")
            let instance = WeakObjectReference(toast!.objectPointer)
            var dismissed = 0
            toast!.connect(.dismissed) { dismissed += 1 }
            overlay.add(toast!)
            toast = nil
            XCTAssertNotNil(instance.withObject { $0 }, "the overlay holds the toast")
            instance.withObject { Toast(retaining: $0).dismiss() }
            spinMainLoop { dismissed == 1 }
            spinMainLoop { instance.withObject { $0 } == nil }
        }
    }
}

import CGtk
import GtkTestSupport
import XCTest

@testable import GtkKit

final class ListOwnershipTests: GtkTestCase, @unchecked Sendable {
    /// The model, selection, factory and list view hold no cycle: when the window goes and the
    /// last wrapper with it, the list state, the source and the row views go too.
    func testEverythingIsReleasedWithItsLastOwner() {
        MainActor.assumeIsolated {
            weak var presented: PresentedList<ArraySource>?
            weak var source: ArraySource?
            let rowsBefore = ArticleTitleRow.alive
            do {
                let fixture = ListViewFixture(rows: 1_000)
                presented = fixture.model.presented
                source = fixture.source
                fixture.window.present()
                var drawn = false
                fixture.window.afterNextFrame { drawn = true }
                spinMainLoop { drawn }
                XCTAssertGreaterThan(ArticleTitleRow.alive, rowsBefore + 20)
                fixture.window.destroy()
            }
            let later = Timeout(milliseconds: 50) {}
            spinMainLoop { later.hasFired }
            XCTAssertNil(presented, "the list state was released")
            XCTAssertNil(source, "the source was released")
            XCTAssertEqual(ArticleTitleRow.alive, rowsBefore, "the row views were released")
        }
    }
}

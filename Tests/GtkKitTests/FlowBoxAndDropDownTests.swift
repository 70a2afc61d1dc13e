import CGtk
import GtkTestSupport
import XCTest

@testable import GtkKit

final class FlowBoxAndDropDownTests: GtkTestCase, @unchecked Sendable {
    func testAFlowBoxListsWhatWasAppendedAndEmpties() {
        MainActor.assumeIsolated {
            let chips = FlowBox()
            for name in ["essay", "harbour", "draft ideas"] { chips.append(Label(name)) }
            XCTAssertEqual(chips.items.map { Label(retaining: $0.objectPointer).text }, ["essay", "harbour", "draft ideas"])
            XCTAssertEqual(chips.items.first?.typeName, "GtkLabel", "the item, not the GtkFlowBoxChild around it")
            chips.maximumChildrenPerLine = 30
            XCTAssertEqual(chips.maximumChildrenPerLine, 30)
            chips.removeAll()
            XCTAssertTrue(chips.items.isEmpty)
        }
    }

    func testADropDownOffersItsChoicesAndNotifiesASelection() {
        MainActor.assumeIsolated {
            let status = DropDown(choices: ["Draft", "Ready", "Published"])
            XCTAssertEqual(status.choices, ["Draft", "Ready", "Published"])
            XCTAssertEqual(status.selectedIndex, 0)
            XCTAssertEqual(status.selectedChoice, "Draft")
            var notified: [Int] = []
            status.connect(.notify("selected")) { _ in notified.append(status.selectedIndex) }
            status.selectedIndex = 2
            status.selectedIndex = 2
            XCTAssertEqual(notified, [2], "a change notifies once, the same choice again not at all")
            XCTAssertEqual(status.selectedChoice, "Published")
        }
    }
}

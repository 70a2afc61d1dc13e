import CGtk
import GtkTestSupport
import XCTest

@testable import GtkKit

final class ListBoxTests: GtkTestCase, @unchecked Sendable {
    func testRowsAreListedSelectedAndRemoved() {
        MainActor.assumeIsolated {
            let list = ListBox(owning: gtk_list_box_new())
            for title in ["All Articles", "Notes", "Trash"] {
                let row = ListBoxRow()
                row.child = Label(title)
                list.append(row)
            }
            XCTAssertEqual(list.row(at: 1)?.index, 1)
            XCTAssertEqual(list.row(at: 2)?.child?.typeName, "GtkLabel")
            XCTAssertNil(list.row(at: 3))

            var selected: [Int?] = []
            list.connect(.rowSelected) { row in selected.append(row?.index) }
            list.select(list.row(at: 2)!)
            list.select(list.row(at: 0)!)
            XCTAssertEqual(selected, [2, 0], "the handler gets the row as a typed wrapper")

            list.removeAll()
            XCTAssertNil(list.row(at: 0))
            XCTAssertEqual(selected.last, .some(nil), "removing the selected row selects none")
        }
    }

    func testActivatingARowNamesIt() {
        MainActor.assumeIsolated {
            let window = Window()
            defer { window.destroy() }
            let list = ListBox(owning: gtk_list_box_new())
            let rows = (0..<3).map { _ in ListBoxRow() }
            for row in rows { list.append(row) }
            window.child = list
            var activated: [UnsafeMutablePointer<GObject>?] = []
            list.connect(.rowActivated) { row in activated.append(row?.objectPointer) }
            XCTAssertTrue(rows[1].activate())
            XCTAssertEqual(activated, [rows[1].objectPointer])
        }
    }
}

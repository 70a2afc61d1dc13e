import CGtk
import GtkTestSupport
import XCTest

@testable import GtkKit

final class EditableTests: GtkTestCase, @unchecked Sendable {
    func testTextChangesAreReportedAndLoadingCannotBeUndone() {
        MainActor.assumeIsolated {
            let entry = Entry()
            var changes: [String] = []
            entry.connect(.changed) { [unowned entry] in changes.append(entry.text) }
            entry.text = "Notes"
            XCTAssertEqual(changes, ["Notes"])
            XCTAssertTrue(entry.enablesUndo)
            entry.load("Field notes")
            XCTAssertEqual(entry.text, "Field notes")
            XCTAssertTrue(entry.enablesUndo, "undo is on again after loading")
            entry.isEditable = false
            XCTAssertFalse(entry.isEditable)
            entry.cursorPosition = -1
            XCTAssertEqual(entry.cursorPosition, "Field notes".count)
        }
    }

    func testEveryKindOfEntryIsEditable() throws {
        try MainActor.assumeIsolated {
            let builder = try Builder(string: """
                <interface>
                  <object class="GtkText" id="text"/>
                  <object class="GtkSearchEntry" id="search"/>
                  <object class="AdwEntryRow" id="row"><property name="title">Server</property></object>
                  <object class="AdwPasswordEntryRow" id="token"/>
                </interface>
                """)
            let editables: [any Editable] = [
                try builder.object("text", as: Text.self), try builder.object("search", as: SearchEntry.self),
                try builder.object("row", as: EntryRow.self), try builder.object("token", as: PasswordEntryRow.self),
            ]
            for editable in editables {
                editable.text = "typed"
                XCTAssertEqual(editable.text, "typed", editable.typeName)
            }
            XCTAssertEqual(try builder.object("row", as: EntryRow.self).title, "Server")
            XCTAssertThrowsError(try builder.object("text", as: Entry.self), "a GtkText is not a GtkEntry")
        }
    }

    func testASearchBarShowsAndHidesItsEntry() {
        MainActor.assumeIsolated {
            let bar = SearchBar(owning: gtk_search_bar_new())
            let entry = SearchEntry()
            bar.connect(entry: entry)
            var modes: [Bool] = []
            bar.connect(.notify("search-mode-enabled")) { [unowned bar] _ in modes.append(bar.isSearchModeEnabled) }
            bar.isSearchModeEnabled = true
            bar.isSearchModeEnabled = false
            XCTAssertEqual(modes, [true, false])
        }
    }

    func testComboRowsOfferTheirLabels() throws {
        try MainActor.assumeIsolated {
            let builder = try Builder(string: """
                <interface><object class="AdwComboRow" id="format"><property name="title">Format</property></object></interface>
                """)
            let row = try builder.object("format", as: ComboRow.self)
            var selections: [Int] = []
            row.connect(.notify("selected")) { [unowned row] _ in selections.append(row.selected) }
            row.setItems(["Markdown", "HTML", "PDF"], selected: 1)
            XCTAssertEqual(row.selected, 1)
            row.selected = 2
            XCTAssertEqual(selections.last, 2)
            row.subtitle = "One file per article"
            XCTAssertEqual(row.subtitle, "One file per article")
            let plain = ActionRow(title: "a <b>", subtitle: "c & d")
            XCTAssertFalse(plain.usesMarkup, "titles from files are text, not markup")
            XCTAssertEqual([plain.title, plain.subtitle], ["a <b>", "c & d"])
        }
    }
}

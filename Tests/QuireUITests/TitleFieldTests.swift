import CGtk
import Foundation
import GtkKit
import XCTest

@testable import QuireUI

/// The title field on real key presses (XTEST through `xdotool`) under Xvfb: a long title wraps
/// onto more lines instead of scrolling out of sight, Return moves on to the body, and a newline
/// pasted into it becomes a space.
final class TitleFieldTests: QuireTestCase, @unchecked Sendable {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try requireXdotool()
        MainActor.assumeIsolated { settleAnimations() }
    }

    /// Shows `editor` with `title` loaded, the cursor at the title's end and the focus in it.
    @MainActor
    private func focusTitleEnd(of editor: EditorPane, title: String, in window: Window) {
        editor.load(title: title, body: "The boats sat high against the wall.")
        editor.focusTitle()
        let end = editor.titleField.buffer.characterCount
        editor.titleField.buffer.select(end..<end)
        spinMainLoop { gtk_window_is_active(window.windowPointer) != 0 && editor.titleField.view.hasFocus }
    }

    func testALongTitleWrapsAndReturnMovesToTheBody() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor, width: 700)
            defer { window.destroy() }
            focusTitleEnd(of: editor, title: "Notes", in: window)
            spinMainLoop { editor.titleField.view.height > 0 }
            let oneLine = editor.titleField.view.height
            var titles: [String] = []
            editor.titleChanged = { titles.append($0) }

            let typed = " from the harbour at dawn, when the tide came in early and the first ferry turned"
            try press(["type", "--delay", "5", typed])
            spinMainLoop { editor.title == "Notes" + typed }
            XCTAssertEqual(editor.title, "Notes" + typed)
            XCTAssertEqual(titles.last, "Notes" + typed, "the title the draft saves is the one typed")
            XCTAssertEqual(editor.saveState, .unsaved)

            // The title grows downwards within the text column instead of scrolling sideways.
            spinMainLoop { editor.titleField.view.height >= 2 * oneLine }
            XCTAssertGreaterThanOrEqual(editor.titleField.view.height, 2 * oneLine, "the long title wraps")
            XCTAssertLessThanOrEqual(editor.titleField.view.width, editor.textColumn.width)
            try render(window, to: screenshotFolder().appending(path: "title-wrapped.png").path)

            try press(["key", "Return"])
            spinMainLoop { editor.bodyView.hasFocus }
            XCTAssertTrue(editor.bodyView.hasFocus, "Return moves on to the body")
            XCTAssertEqual(editor.buffer.selection, 0..<0, "at the start of the body")
            XCTAssertEqual(editor.title, "Notes" + typed, "Return adds nothing to the title")
            XCTAssertEqual(editor.body, "The boats sat high against the wall.")

            // Shift+Return too: a title has no second paragraph.
            editor.focusTitle()
            spinMainLoop { editor.titleField.view.hasFocus }
            try press(["key", "shift+Return"])
            spinMainLoop { editor.bodyView.hasFocus }
            XCTAssertEqual(editor.title, "Notes" + typed)
        }
    }

    func testAPastedNewlineBecomesASpaceInOneUndoStep() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            focusTitleEnd(of: editor, title: "Harbour", in: window)
            var titles: [String] = []
            editor.titleChanged = { titles.append($0) }
            gdk_clipboard_set_text(gtk_widget_get_clipboard(editor.titleField.view.widgetPointer), " notes\nat dawn\r\nand dusk")

            try press(["key", "ctrl+v"])
            spinMainLoop { editor.title != "Harbour" }
            XCTAssertEqual(editor.title, "Harbour notes at dawn and dusk")
            XCTAssertEqual(titles, ["Harbour notes at dawn and dusk"], "one change, already without line breaks")

            try press(["key", "ctrl+z"])
            spinMainLoop { editor.title == "Harbour" }
            XCTAssertEqual(editor.title, "Harbour", "one Ctrl+Z undoes the paste")

            // Loading never shows a line break in the title either (a title from an import, say).
            editor.load(title: "Two\nlines", body: "")
            XCTAssertEqual(editor.title, "Two lines")
        }
    }
}

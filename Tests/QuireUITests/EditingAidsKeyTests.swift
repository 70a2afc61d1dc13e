import CGtk
import Foundation
import GtkKit
import XCTest

@testable import QuireUI

/// The Markdown editing aids on real key presses (XTEST through `xdotool`) in the editor under
/// Xvfb: each shortcut and each list continuation changes the text, and one Ctrl+Z undoes it.
final class EditingAidsKeyTests: QuireTestCase, @unchecked Sendable {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try requireXdotool()
        MainActor.assumeIsolated { settleAnimations() }
    }

    /// Loads `body` with `selection` selected in a focused editor, presses `keys`, checks the
    /// body becomes `expected`, then presses Ctrl+Z once and checks it is `body` again.
    @MainActor
    private func check(
        _ body: String, selecting selection: Range<Int>, press keys: [[String]], gives expected: String,
        in editor: EditorPane, window: Window, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        editor.load(title: "Keys", body: body)
        editor.focusBody()
        spinMainLoop { gtk_window_is_active(window.windowPointer) != 0 && editor.bodyView.hasFocus }
        // On a loaded machine the selection made right after the load was once found collapsed
        // to its cursor when the key arrived: select, let a frame pass, until it holds.
        spinMainLoop(until: {
            editor.buffer.select(selection)
            var drawn = false
            window.queueDraw()
            window.afterNextFrame { drawn = true }
            spinMainLoop { drawn }
            return editor.buffer.selection == selection
        }, file: file, line: line)
        for key in keys { try press(key, file: file, line: line) }
        spinMainLoop(until: { editor.body == expected }, file: file, line: line)
        XCTAssertEqual(editor.body, expected, file: file, line: line)
        try press(["key", "ctrl+z"], file: file, line: line)
        spinMainLoop(until: { editor.body == body }, file: file, line: line)
        XCTAssertEqual(editor.body, body, "one Ctrl+Z undoes it", file: file, line: line)
    }

    func testShortcutsMarkTheSelectionAndEachIsOneUndoStep() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            let text = "The tide turned."
            try check(text, selecting: 4..<8, press: [["key", "ctrl+b"]], gives: "The **tide** turned.", in: editor, window: window)
            try check(text, selecting: 4..<8, press: [["key", "ctrl+i"]], gives: "The _tide_ turned.", in: editor, window: window)
            try check(text, selecting: 4..<8, press: [["key", "ctrl+grave"]], gives: "The `tide` turned.", in: editor, window: window)
            try check(text, selecting: 4..<8, press: [["key", "ctrl+d"]], gives: "The ~~tide~~ turned.", in: editor, window: window)
            try check("The **tide** turned.", selecting: 6..<10, press: [["key", "ctrl+b"]], gives: text, in: editor, window: window)
            try check(text, selecting: 2..<2, press: [["key", "ctrl+2"]], gives: "## The tide turned.", in: editor, window: window)
            try check("## The tide", selecting: 5..<5, press: [["key", "ctrl+0"]], gives: "The tide", in: editor, window: window)
            try check(
                text, selecting: 4..<8, press: [["key", "ctrl+k"], ["type", "--delay", "20", "https://tides.example"], ["key", "Return"]],
                gives: "The [tide](https://tides.example) turned.", in: editor, window: window)
        }
    }

    func testReturnContinuesListsAndQuotesAndTabIndents() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            try check("- one", selecting: 5..<5, press: [["key", "Return"]], gives: "- one\n- ", in: editor, window: window)
            try check("- [x] one", selecting: 9..<9, press: [["key", "Return"]], gives: "- [x] one\n- [ ] ", in: editor, window: window)
            try check("> said", selecting: 6..<6, press: [["key", "Return"]], gives: "> said\n> ", in: editor, window: window)
            try check(
                "1. one\n2. two", selecting: 6..<6, press: [["key", "Return"]], gives: "1. one\n2. \n3. two", in: editor, window: window)
            try check("- one\n- ", selecting: 8..<8, press: [["key", "Return"]], gives: "- one\n", in: editor, window: window)
            try check("- one\n- two", selecting: 11..<11, press: [["key", "Tab"]], gives: "- one\n  - two", in: editor, window: window)
            try check("- one\n  - two", selecting: 13..<13, press: [["key", "shift+Tab"]], gives: "- one\n- two", in: editor, window: window)
        }
    }

    func testTheOutlineListsTheHeadingsAndJumpsToOne() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            let body = "# Harbour\n\nText.\n\n```\n# not a heading\n```\n\n## Tides\n\nMore.\n"
            editor.load(title: "Outline", body: body)
            editor.focusBody()
            spinMainLoop { gtk_window_is_active(window.windowPointer) != 0 }
            try press(["key", "ctrl+shift+o"])
            let outline = try XCTUnwrap(editor.outline)
            spinMainLoop { outline.listedHeadings.count == 2 }
            XCTAssertEqual(outline.listedHeadings.map(\.text), ["Harbour", "Tides"])
            XCTAssertEqual(outline.listedHeadings.map(\.line), [0, 8])
            let row = try XCTUnwrap(outline.list.row(at: 1))
            row.activate()
            spinMainLoop { editor.buffer.selection == editor.buffer.offset(ofLine: 8)..<editor.buffer.offset(ofLine: 8) }
        }
    }
}

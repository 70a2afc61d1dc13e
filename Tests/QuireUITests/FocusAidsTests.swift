import CGtk
import Foundation
import GtkKit
import XCTest

@testable import QuireUI

/// The focus-mode aids in the editor under Xvfb, each a preference: typewriter scrolling keeps
/// the cursor's line at the middle of the view, and dimming leaves only the cursor's paragraph
/// at full strength.
final class FocusAidsTests: QuireTestCase, @unchecked Sendable {
    override func setUpWithError() throws {
        try super.setUpWithError()
        MainActor.assumeIsolated { settleAnimations() }
    }

    /// How far the middle of the cursor's line is from the middle of the view, in pixels.
    @MainActor
    private func cursorOffsetFromMiddle(_ editor: EditorPane) -> Double {
        var cursor = editor.buffer.iter(at: editor.buffer.selection.lowerBound)
        var location = GdkRectangle()
        let view = editor.bodyView.pointer(as: GtkTextView.self)
        gtk_text_view_get_iter_location(view, &cursor, &location)
        // Where the line shows in the view, which is as tall as the scroller's page.
        var shownX: gint = 0
        var shownY: gint = 0
        gtk_text_view_buffer_to_window_coords(view, GTK_TEXT_WINDOW_WIDGET, location.x, location.y, &shownX, &shownY)
        return Double(shownY) + Double(location.height) / 2 - editor.scroller.verticalAdjustment.pageSize / 2
    }

    /// The height of a line of the body, in pixels.
    @MainActor
    private func lineHeight(_ editor: EditorPane) -> Double {
        var start = editor.buffer.iter(at: 0)
        var location = GdkRectangle()
        gtk_text_view_get_iter_location(editor.bodyView.pointer(as: GtkTextView.self), &start, &location)
        return Double(location.height)
    }

    func testTypewriterScrollingKeepsTheCursorLineAtTheMiddle() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            let body = (1...200).map { "Line \($0) of the log." }.joined(separator: "\n")
            editor.load(title: "Log", body: body)
            let adjustment = editor.scroller.verticalAdjustment
            spinMainLoop { adjustment.upper > 3 * adjustment.pageSize }
            editor.focusBody()

            // Without it, moving the cursor leaves the view where it is.
            editor.buffer.select(editor.buffer.offset(ofLine: 100)..<editor.buffer.offset(ofLine: 100))
            for _ in 0..<20 { g_main_context_iteration(nil, 0) }
            XCTAssertEqual(adjustment.value, 0)

            var appearance = editor.appearance
            appearance.typewriterScrolling = true
            editor.appearance = appearance
            let tolerance = lineHeight(editor)
            spinMainLoop { abs(cursorOffsetFromMiddle(editor)) <= tolerance }
            XCTAssertLessThanOrEqual(abs(cursorOffsetFromMiddle(editor)), tolerance, "line 100 at the middle")

            for line in [150, 0, 199] {
                editor.buffer.select(editor.buffer.offset(ofLine: line)..<editor.buffer.offset(ofLine: line))
                spinMainLoop { abs(cursorOffsetFromMiddle(editor)) <= tolerance }
                XCTAssertLessThanOrEqual(
                    abs(cursorOffsetFromMiddle(editor)), tolerance, "line \(line) at the middle (the margins let the first and last get there)")
            }
        }
    }

    func testDimmingLeavesOnlyTheCursorsParagraphAtFullStrength() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            let first = "The tide came in early.\nThe boats sat high."
            let second = "Gulls argued over the nets."
            let third = "The first ferry turned in the channel."
            editor.load(title: "Harbour", body: [first, second, third].joined(separator: "\n\n"))
            let secondStart = first.unicodeScalars.count + 2
            let secondEnd = secondStart + second.unicodeScalars.count
            let thirdStart = secondEnd + 2
            let end = editor.buffer.characterCount
            editor.buffer.select(secondStart + 3..<secondStart + 3)
            XCTAssertEqual(editor.buffer.ranges(ofTag: EditorPane.dimTag), [], "off by default")

            var appearance = editor.appearance
            appearance.dimsOtherParagraphs = true
            editor.appearance = appearance
            XCTAssertEqual(editor.buffer.ranges(ofTag: EditorPane.dimTag), [0..<secondStart, secondEnd..<end])

            // The first paragraph's second line: the whole paragraph lights up, across its lines.
            editor.buffer.select(30..<30)
            spinMainLoop { editor.buffer.ranges(ofTag: EditorPane.dimTag) == [first.unicodeScalars.count..<end] }
            XCTAssertEqual(editor.buffer.ranges(ofTag: EditorPane.dimTag), [first.unicodeScalars.count..<end])

            editor.buffer.select(end..<end)
            spinMainLoop { editor.buffer.ranges(ofTag: EditorPane.dimTag) == [0..<thirdStart] }
            XCTAssertEqual(editor.buffer.ranges(ofTag: EditorPane.dimTag), [0..<thirdStart])

            appearance.dimsOtherParagraphs = false
            editor.appearance = appearance
            XCTAssertEqual(editor.buffer.ranges(ofTag: EditorPane.dimTag), [], "turned off, nothing stays dimmed")
        }
    }
}

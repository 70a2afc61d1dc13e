import CGtk
import GtkTestSupport
import XCTest

@testable import GtkKit

final class TextBufferTests: GtkTestCase, @unchecked Sendable {
    @MainActor
    private func makeBuffer() -> TextBuffer {
        TextBuffer(owning: UnsafeMutableRawPointer(gtk_text_buffer_new(nil)))
    }

    func testLoadingIsNotAnEditAndReplacingIsOne() {
        MainActor.assumeIsolated {
            let buffer = makeBuffer()
            var changes = 0
            buffer.connect(.changed) { changes += 1 }
            buffer.load("Low tide at six.\nHigh at noon.")
            XCTAssertEqual(buffer.text, "Low tide at six.\nHigh at noon.")
            XCTAssertFalse(buffer.canUndo, "loading cannot be undone")
            XCTAssertEqual(buffer.selection, 0..<0, "the cursor starts at the start")
            XCTAssertEqual(buffer.characterCount, 30)

            buffer.replace(4..<8, with: "water")
            XCTAssertEqual(buffer.text, "Low water at six.\nHigh at noon.")
            XCTAssertTrue(buffer.canUndo)
            buffer.undo()
            XCTAssertEqual(buffer.text, "Low tide at six.\nHigh at noon.", "one undo takes the whole replacement back")
            XCTAssertTrue(buffer.canRedo)
            buffer.redo()
            XCTAssertEqual(buffer.text(in: 4..<9), "water")
            XCTAssertGreaterThan(changes, 0)
        }
    }

    func testRewrittenInsertionsLandWhereTheOriginalWouldInOneUndoStep() {
        MainActor.assumeIsolated {
            let buffer = makeBuffer()
            var inserted: [String] = []
            buffer.connect(Signal<(UnsafeMutableRawPointer?, String, Int32) -> Void>("insert-text"), after: true) { _, text, _ in
                inserted.append(text)
            }
            buffer.rewriteInsertions { $0.replacingOccurrences(of: "\n", with: " ") }
            buffer.load("Low\ntide")
            XCTAssertEqual(buffer.text, "Low tide", "loading is rewritten too")

            buffer.select(3..<8)
            buffer.replace(3..<8, with: " water\nat six")
            XCTAssertEqual(buffer.text, "Low water at six")
            XCTAssertEqual(buffer.selection, 16..<16, "the cursor after the rewritten text, as after the original")
            buffer.insertAtCursor("!")
            XCTAssertEqual(buffer.text, "Low water at six!", "the iterator the caller holds is still valid")
            XCTAssertEqual(inserted, ["Low tide", " water at six", "!"], "only the rewritten text reaches the buffer")
            buffer.undo()
            buffer.undo()
            XCTAssertEqual(buffer.text, "Low tide", "the rewritten replacement is one undo step")
        }
    }

    func testOffsetsCountCharactersAndNULBecomesAReplacementCharacter() {
        MainActor.assumeIsolated {
            let buffer = makeBuffer()
            buffer.load("é\u{0}ü")
            XCTAssertEqual(buffer.text, "é\u{FFFD}ü", "a NUL would make GTK drop the whole text")
            buffer.select(1..<3)
            XCTAssertEqual(buffer.selection, 1..<3)
            XCTAssertEqual(buffer.text(in: buffer.selection), "\u{FFFD}ü")
            XCTAssertEqual(buffer.iter(at: 2).offset, 2)
            XCTAssertEqual(buffer.iter(at: 99).offset, 3, "past the end is the end")
            buffer.select(3..<3)
            buffer.insertAtCursor("!")
            XCTAssertEqual(buffer.text, "é\u{FFFD}ü!")
        }
    }

    func testTagsCoverTheirRangesAndMarksMoveWithTheText() {
        MainActor.assumeIsolated {
            let buffer = makeBuffer()
            buffer.load("one\ntwo\nthree\n")
            buffer.addLineTag("changed", background: "rgba(53, 132, 228, 0.16)")
            buffer.applyTag("changed", to: 0..<3)
            buffer.applyTag("changed", to: 8..<13)
            XCTAssertEqual(buffer.ranges(ofTag: "changed"), [0..<3, 8..<13])
            XCTAssertEqual(buffer.ranges(ofTag: "missing"), [])
            buffer.addCharacterTag("changed-word", background: "rgba(53, 132, 228, 0.4)")
            buffer.applyTag("changed-word", to: 4..<6)
            XCTAssertEqual(buffer.ranges(ofTag: "changed-word"), [4..<6], "a character tag covers the characters, not the line")
            XCTAssertEqual(buffer.ranges(ofTag: "changed"), [0..<3, 8..<13], "beside the line tag")

            let start = buffer.addMark(at: 4, leftGravity: true)
            let end = buffer.addMark(at: 4, leftGravity: false)
            buffer.replace(4..<4, with: "TWO ")
            XCTAssertEqual(buffer.offset(of: start), 4, "left gravity stays before inserted text")
            XCTAssertEqual(buffer.offset(of: end), 8, "right gravity moves after it")
            buffer.move(start, to: 0)
            XCTAssertEqual(buffer.offset(of: start), 0)
            buffer.select(5..<5)
            XCTAssertEqual(buffer.offset(of: buffer.cursorMark), 5)
        }
    }

    func testATextViewScrollsToAMarkAndTakesMargins() {
        MainActor.assumeIsolated {
            let window = Window()
            defer { window.destroy() }
            window.defaultSize = (300, 120)
            let view = TextView(owning: gtk_text_view_new())
            let buffer = TextBuffer(retaining: UnsafeMutableRawPointer(gtk_text_view_get_buffer(view.pointer(as: GtkTextView.self))))
            buffer.load((1...200).map { "Line \($0)" }.joined(separator: "\n"))
            let scrolled = ScrolledWindow(owning: gtk_scrolled_window_new())
            scrolled.child = view
            window.child = scrolled
            view.leftMargin = 24
            view.rightMargin = 12
            XCTAssertEqual([view.leftMargin, view.rightMargin], [24, 12])
            view.isEditable = false
            XCTAssertFalse(view.isEditable)
            window.present()
            // GTK lays the lines out a few at a time; scrolling goes by the lines laid out.
            let lineHeight = Double(view.size(ofText: "Line 200").height)
            spinMainLoop { scrolled.verticalAdjustment.upper >= 200 * lineHeight }
            let mark = buffer.addMark(at: buffer.characterCount, leftGravity: true)
            view.scroll(to: mark, alignment: (x: 0, y: 0.1))
            spinMainLoop { scrolled.verticalAdjustment.value > 0 }
            XCTAssertGreaterThan(scrolled.verticalAdjustment.upper, scrolled.verticalAdjustment.pageSize)
        }
    }
}

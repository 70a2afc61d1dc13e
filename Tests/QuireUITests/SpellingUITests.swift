import CGtk
import Foundation
import GtkKit
import XCTest

@testable import QuireUI

/// Spell checking in the editor under Xvfb, with real enchant and Debian's dictionaries:
/// misspelled words underlined (never in code or URLs) as the text changes, the context menu's
/// suggestions replacing a word as one undo step, Add to Dictionary and Ignore, the language
/// menu, and a screenshot of an underlined word with the menu open.
final class SpellingUITests: QuireTestCase, @unchecked Sendable {
    static let article = """
        # A heading with a mispeled word

        The writer will recieve the `lettt` code and a [link](https://exmaple.org/tpyo).

        A secnod paragraph.

        """

    @MainActor
    private func underlinedWords(_ editor: EditorPane) -> [String] {
        editor.spelling.underlinedRanges.map { editor.buffer.text(in: $0) }
    }

    @MainActor
    private func waitForCheck(_ editor: EditorPane, until condition: () -> Bool) {
        spinMainLoop { !editor.spelling.isPending && condition() }
    }

    func testMisspelledWordsAreUnderlinedAndASuggestionReplacesOneAsOneUndoStep() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            editor.spelling.language = "en_US"
            editor.load(title: "Notes", body: Self.article)
            waitForCheck(editor) { underlinedWords(editor).count == 3 }
            XCTAssertEqual(underlinedWords(editor), ["mispeled", "recieve", "secnod"], "not in code, not in the link's target")

            // Typing a misspelled word underlines it; fixing it takes the underline away.
            editor.focusBody()
            editor.buffer.select(editor.buffer.characterCount..<editor.buffer.characterCount)
            type("Anothr word", into: editor.bodyView)
            waitForCheck(editor) { underlinedWords(editor).contains("Anothr") }

            // The menu of a right-click on "recieve": suggestions, Add to Dictionary, Ignore, Language.
            let recieve = try XCTUnwrap(editor.spelling.underlinedRanges.first { editor.buffer.text(in: $0) == "recieve" })
            editor.spelling.prepareMenu(at: recieve.lowerBound + 2)
            let items = editor.spelling.menu.items
            let suggestions = items.filter { $0.action == "editor.spelling-replace" }.map(\.target)
            XCTAssertEqual(suggestions.first, "receive")
            XCTAssertLessThanOrEqual(suggestions.count, 5)
            XCTAssertTrue(items.contains { $0.label == "Add to Dictionary" } && items.contains { $0.label == "Ignore" })
            XCTAssertTrue(items.contains { $0.action == "editor.spelling-language" && $0.target == "de_DE" }, "installed dictionaries listed")

            let before = editor.body
            editor.actions.action(named: "spelling-replace")?.activate(with: "receive")
            XCTAssertTrue(editor.body.contains("will receive the"))
            waitForCheck(editor) { !underlinedWords(editor).contains("recieve") && !underlinedWords(editor).contains("receive") }
            editor.undo()
            XCTAssertEqual(editor.body, before, "one undo step brings the word back")
        }
    }

    func testAddToDictionaryAndIgnoreAndTheLanguage() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            var added: [String] = []
            var chosen: [String] = []
            editor.spelling.wordAdded = { added.append("\($1):\($0)") }
            editor.spelling.languageChosen = { chosen.append($0) }
            editor.spelling.language = "en_US"
            editor.load(title: "Notes", body: "Zorbleflux and Quirelike met a Straße.\n")
            waitForCheck(editor) { underlinedWords(editor).count == 3 }

            editor.spelling.prepareMenu(at: 1)
            editor.actions.action(named: "spelling-add")?.activate()
            XCTAssertEqual(added, ["en_US:Zorbleflux"])
            waitForCheck(editor) { underlinedWords(editor) == ["Quirelike", "Straße"] }

            let quirelike = try XCTUnwrap(editor.spelling.underlinedRanges.first)
            editor.spelling.prepareMenu(at: quirelike.lowerBound)
            editor.actions.action(named: "spelling-ignore")?.activate()
            waitForCheck(editor) { underlinedWords(editor) == ["Straße"] }

            // German from the language menu: the text is checked again in German.
            editor.actions.action(named: "spelling-language")?.activate(with: "de_DE")
            XCTAssertEqual(chosen, ["de_DE"])
            waitForCheck(editor) { !underlinedWords(editor).contains("Straße") && underlinedWords(editor).contains("met") }

            // A language without a dictionary: the menu names the package, nothing is underlined.
            editor.spelling.language = "nl_NL"
            waitForCheck(editor) { underlinedWords(editor).isEmpty }
            editor.spelling.prepareMenu(at: nil)
            XCTAssertTrue(editor.spelling.menu.items.contains { $0.label?.contains("install hunspell-nl") == true })
        }
    }

    func testTheScreenshotShowsAnUnderlinedWordAndTheMenu() throws {
        try MainActor.assumeIsolated {
            settleAnimations()
            let editor = try EditorPane()
            let window = show(editor, width: 760, height: 760)
            defer { window.destroy() }
            editor.spelling.language = "en_US"
            editor.load(title: "Notes from the harbour", body: "The tide came in erly and the boats sat high against the wall.\n")
            waitForCheck(editor) { underlinedWords(editor) == ["erly"] }
            let word = editor.spelling.underlinedRanges[0]
            editor.focusBody()
            editor.buffer.select(word.lowerBound + 1..<word.lowerBound + 1)
            editor.spelling.prepareMenu(at: word.lowerBound + 1)
            // What a right-click does after the menu is prepared: the view's context menu at the cursor.
            XCTAssertTrue(gtk_widget_activate_action_variant(editor.bodyView.widgetPointer, "menu.popup", nil) != 0)
            let popover = try XCTUnwrap(editor.bodyView.descendants(ofType: gtk_popover_menu_get_type()).first)
            spinMainLoop { gtk_widget_get_mapped(popover.widgetPointer) != 0 && gtk_widget_get_height(popover.widgetPointer) > 0 }

            let path = try screenshotFolder().appending(path: "spelling-context-menu.png").path
            try compose(window: window, popover: popover, to: path)
            // The open menu holds the pointer and keyboard: close it before the window goes, so
            // that later tests on this display get their key presses.
            gtk_popover_popdown(popover.pointer(as: GtkPopover.self))
            spinMainLoop { gtk_widget_get_mapped(popover.widgetPointer) == 0 }
            let image = try Texture(contentsOfFile: path)
            XCTAssertEqual(image.width, window.width)
            XCTAssertGreaterThan(Set(image.pixels()).count, 64, "text, underline and menu are drawn")
            // The underline's red is in the picture.
            XCTAssertTrue(image.pixels().contains { pixel in
                let (red, green, blue) = ((pixel >> 16) & 0xFF, (pixel >> 8) & 0xFF, pixel & 0xFF)
                return red > 180 && green < 90 && blue < 90
            })
        }
    }

    /// Writes the window with the popover drawn over it where it stands on screen (a popover is a
    /// surface of its own, which rendering the window leaves out).
    @MainActor
    private func compose(window: Window, popover: Widget, to path: String) throws {
        let windowPath = path + ".window.png"
        let popoverPath = path + ".popover.png"
        try render(window, to: windowPath)
        try popover.renderTexture().savePNG(to: popoverPath)
        let background = try Texture(contentsOfFile: windowPath)
        let menu = try Texture(contentsOfFile: popoverPath)
        var pixels = background.pixels()
        // Where the popover's surface sits relative to the window's.
        let (originX, originY) = surfaceOffset(of: popover, in: window)
        let menuPixels = menu.pixels()
        for row in 0..<menu.height {
            for column in 0..<menu.width {
                let (x, y) = (originX + column, originY + row)
                guard x >= 0, y >= 0, x < background.width, y < background.height else { continue }
                let pixel = menuPixels[row * menu.width + column]
                if pixel >> 24 > 0x80 { pixels[y * background.width + x] = pixel }
            }
        }
        let bytes = pixels.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        let texture = Texture(owning: UnsafeMutableRawPointer(gdk_memory_texture_new(
            Int32(background.width), Int32(background.height), GDK_MEMORY_B8G8R8A8_PREMULTIPLIED, bytes, gsize(background.width * 4))))
        try texture.savePNG(to: path)
        try? FileManager.default.removeItem(atPath: windowPath)
        try? FileManager.default.removeItem(atPath: popoverPath)
    }

    /// The popover's position in window pixels: where it points at (the cursor in the text view),
    /// less the part of its surface above and left of that.
    @MainActor
    private func surfaceOffset(of popover: Widget, in window: Window) -> (Int, Int) {
        var rect = GdkRectangle()
        _ = gtk_popover_get_pointing_to(popover.pointer(as: GtkPopover.self), &rect)
        guard let parent = gtk_widget_get_parent(popover.widgetPointer) else { return (0, 0) }
        var x = 0.0
        var y = 0.0
        _ = gtk_widget_translate_coordinates(parent, window.widgetPointer, Double(rect.x), Double(rect.y + rect.height), &x, &y)
        return (Int(x) - Int(gtk_widget_get_width(popover.widgetPointer)) / 2 + Int(rect.width) / 2, Int(y))
    }
}

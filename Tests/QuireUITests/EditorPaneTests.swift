import CGtk
import CGtkSource
import Foundation
import GtkKit
import Library
import XCTest

@testable import QuireUI

/// The article editor under Xvfb: loading, the writer's typing (through the same keybinding
/// signal a key press and the input method use), word count, undo, find and replace, read-only.
final class EditorPaneTests: QuireTestCase, @unchecked Sendable {
    override func setUpWithError() throws {
        try super.setUpWithError()
        MainActor.assumeIsolated { settleAnimations() }
    }

    static let article = """
        # Field notes

        The cat sat on the mat. A second cat watched the first cat.

        - Dogs bark
        - Cats purr

        """

    // MARK: Loading

    func testLoadingShowsTheArticleWithoutCallbacksOrUndoHistory() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            var changes: [String] = []
            editor.titleChanged = { changes.append("title: \($0)") }
            editor.bodyChanged = { changes.append("body: \(editor.body)") }
            editor.saveState = .unsaved

            editor.load(title: "Field notes", body: Self.article)

            XCTAssertEqual(editor.title, "Field notes")
            XCTAssertEqual(editor.body, Self.article)
            XCTAssertEqual(changes, [], "loading is not an edit of the writer's")
            XCTAssertFalse(editor.buffer.canUndo, "loading leaves nothing to undo")
            XCTAssertEqual(editor.saveState, .saved)
            XCTAssertEqual(editor.saveStateText, "Saved")
            XCTAssertEqual(editor.buffer.selection, 0..<0, "the cursor starts at the top")

            // Undo in the body and in the title leaves the loaded article as it is.
            editor.actions.activateAction(named: "undo")
            editor.focusTitle()
            editor.undo()
            XCTAssertEqual(editor.body, Self.article)
            XCTAssertEqual(editor.title, "Field notes")

            // Loading a second article replaces the first one's history too.
            let window = show(editor)
            defer { window.destroy() }
            editor.focusBody()
            type(" More.", into: editor.bodyView)
            editor.load(title: "Second", body: "Other text")
            XCTAssertFalse(editor.buffer.canUndo)
            editor.actions.activateAction(named: "undo")
            XCTAssertEqual(editor.body, "Other text")
        }
    }

    func testLoadingTextWithANulCharacterKeepsEverythingElse() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            editor.load(title: "T", body: "before\0after")
            XCTAssertEqual(editor.body, "before\u{FFFD}after", "GtkTextBuffer cannot hold NUL; nothing else is lost")
        }
    }

    // MARK: Typing

    func testTypingInTheBodyReportsTheNewBody() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            editor.load(title: "Notes", body: "Hello")
            var bodies: [String] = []
            var titles: [String] = []
            editor.bodyChanged = { bodies.append(editor.body) }
            editor.titleChanged = { titles.append($0) }
            editor.focusBody()
            editor.buffer.select(5..<5)

            type(" world", into: editor.bodyView)

            XCTAssertEqual(bodies, ["Hello world"])
            XCTAssertEqual(titles, [])
            XCTAssertEqual(editor.body, "Hello world")
            XCTAssertEqual(editor.saveState, .unsaved)
            XCTAssertEqual(editor.saveStateText, "Unsaved changes")

            editor.saveState = .saving
            XCTAssertEqual(editor.saveStateText, "Saving…")
            editor.saveState = .saved
            XCTAssertEqual(editor.saveStateText, "Saved")
        }
    }

    func testTypingInTheTitleReportsTheNewTitle() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            editor.load(title: "Draft", body: "Body")
            var titles: [String] = []
            var bodies: [String] = []
            editor.titleChanged = { titles.append($0) }
            editor.bodyChanged = { bodies.append(editor.body) }
            editor.focusTitle()
            editor.titleField.buffer.select(5..<5)

            type(" two", into: editor.titleField.view)

            XCTAssertEqual(titles, ["Draft two"])
            XCTAssertEqual(bodies, [])
            XCTAssertEqual(editor.saveState, .unsaved)
        }
    }

    func testWordCountFollowsTheText() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            editor.load(title: "Count", body: Self.article)
            XCTAssertEqual(editor.wordCount, 19)
            XCTAssertEqual(editor.wordCountText, "19 words")

            editor.focusBody()
            editor.buffer.select(editor.buffer.characterCount..<editor.buffer.characterCount)
            type("Two more", into: editor.bodyView)
            spinMainLoop { editor.wordCount == 21 }
            XCTAssertEqual(editor.wordCountText, "21 words")

            editor.load(title: "One", body: "Single")
            XCTAssertEqual(editor.wordCountText, "1 word")
        }
    }

    /// A book-length body is counted off the main thread; a count that finishes after a newer
    /// text was loaded is dropped, whichever finishes first.
    func testALongBodyIsCountedInTheBackgroundAndAStaleCountIsDropped() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            let book = String(repeating: "The tide came in early. ", count: 30_000)
            let chapter = String(repeating: "Boats sat high. ", count: 3_000)
            XCTAssertGreaterThan(chapter.utf8.count, EditorPane.backgroundCountBytes)

            editor.load(title: "Book", body: book)
            editor.load(title: "Chapter", body: chapter)
            spinMainLoop { editor.wordCountsRunning == 0 }
            XCTAssertEqual(editor.wordCount, 9_000)

            editor.load(title: "Book", body: book)
            spinMainLoop { editor.wordCountsRunning == 0 }
            XCTAssertEqual(editor.wordCount, 150_000)

            // Typed into, the book is counted again by block (``BlockTally``), as a whole count would.
            editor.focusBody()
            editor.buffer.select(1_000..<1_000)
            type("\n\nA new paragraph, typed. ```\nand a fence\n\nin it\n\n", into: editor.bodyView)
            editor.buffer.select(2_000..<2_010)
            type("two words", into: editor.bodyView)
            spinMainLoop { editor.wordCountUpdate?.isPending != true && editor.wordCountsRunning == 0 }
            XCTAssertEqual(editor.wordCount, ArticleText.read(editor.body).wordCount)
        }
    }

    /// The word count, the spell check and the preview's rendering run on a thread the kernel
    /// gives less time than the main thread, so that they never take the core a keystroke waits for.
    func testTheEditorsPassesOverTheTextRunBelowTheMainThreadsPriority() {
        MainActor.assumeIsolated {
            // Relative to the main thread's nice value, whatever the test runs under (`nice -n 19`
            // on a shared machine): 10 higher, or 19 where that is as high as it goes.
            let main = TextPassWorker.mainThreadNiceness
            var niceness: [Int32] = []
            Task { @MainActor in
                for worker in [TextPassWorker.wordCount, .spelling, .preview] { niceness.append(await worker.currentNiceness()) }
            }
            spinMainLoop { niceness.count == 3 }
            XCTAssertEqual(niceness, Array(repeating: min(19, main + 10), count: 3), "the main thread is at \(main)")
            if main < 19 {
                XCTAssertTrue(niceness.allSatisfy { $0 > main }, "below the main thread's priority")
            }
            XCTAssertEqual(TextPassWorker.mainThreadNiceness, main, "the main thread keeps its priority")
        }
    }

    func testAPassIsTenNicerThanTheMainThreadUpToTheKernelsLimit() {
        XCTAssertEqual(TextPassWorker.niceness(over: 0, by: 10), 10)
        XCTAssertEqual(TextPassWorker.niceness(over: -5, by: 10), 5)
        XCTAssertEqual(TextPassWorker.niceness(over: 12, by: 10), 19)
        XCTAssertEqual(TextPassWorker.niceness(over: 19, by: 10), 19)
    }

    func testStatusLineCountsCharactersReadingTimeAndTheSelectedWords() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            // 450 one-letter words: 899 characters, and past two minutes at the library's pace.
            editor.load(title: "Long", body: Array(repeating: "a", count: 450).joined(separator: " "))
            XCTAssertEqual(editor.wordCountText, "450 words")
            XCTAssertEqual(editor.characterCountLabel.text, "899 characters")
            XCTAssertEqual(editor.readingTimeLabel.text, "\(ReadingTime.minutes(forWords: 450)) min read")
            XCTAssertGreaterThan(ReadingTime.minutes(forWords: 450), 1)
            XCTAssertFalse(editor.selectionLabel.isVisible)

            editor.buffer.select(0..<9)
            XCTAssertEqual(editor.selectionLabel.text, "5 words selected")
            XCTAssertTrue(editor.selectionLabel.isVisible)
            editor.buffer.select(3..<3)
            XCTAssertFalse(editor.selectionLabel.isVisible)

            editor.load(title: "Empty", body: "")
            XCTAssertEqual(editor.readingTimeLabel.text, "No reading time")
        }
    }

    // MARK: Undo

    func testUndoAndRedoTheWritersTyping() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            editor.load(title: "Undo", body: "Start")
            var bodies: [String] = []
            editor.bodyChanged = { bodies.append(editor.body) }
            editor.focusBody()
            editor.buffer.select(5..<5)
            type(" typed", into: editor.bodyView)
            XCTAssertTrue(editor.buffer.canUndo)

            XCTAssertTrue(editor.actions.activateAction(named: "undo"))
            XCTAssertEqual(editor.body, "Start")
            XCTAssertFalse(editor.buffer.canUndo, "the load is not in the history")
            XCTAssertTrue(editor.actions.activateAction(named: "redo"))
            XCTAssertEqual(editor.body, "Start typed")
            XCTAssertEqual(bodies, ["Start typed", "Start", "Start typed"], "undo and redo are edits too")
        }
    }

    func testUndoWithTheFocusInTheTitleUndoesTheTitle() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            editor.load(title: "Title", body: "Body")
            editor.focusBody()
            editor.buffer.select(4..<4)
            type(" text", into: editor.bodyView)
            editor.focusTitle()
            editor.titleField.buffer.select(5..<5)
            type(" changed", into: editor.titleField.view)

            editor.actions.activateAction(named: "undo")
            XCTAssertEqual(editor.title, "Title")
            XCTAssertEqual(editor.body, "Body text", "the body keeps its edit")
            editor.actions.activateAction(named: "redo")
            XCTAssertEqual(editor.title, "Title changed")
        }
    }

    // MARK: Find and replace

    func testFindCountsMatchesAndStepsThroughThem() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            editor.load(title: "Find", body: Self.article)
            editor.focusBody()
            XCTAssertFalse(editor.isSearchVisible)

            XCTAssertTrue(editor.actions.activateAction(named: "find"))
            XCTAssertTrue(editor.isSearchVisible)
            XCTAssertFalse(editor.search.isReplaceVisible)
            editor.search.searchText = "cat"
            spinMainLoop { editor.search.matchCount != nil && editor.search.matchSummary.contains("of") }
            // "cat" three times and "Cats" once: the search is not case sensitive by default.
            XCTAssertEqual(editor.search.matchCount, 4)
            XCTAssertEqual(editor.search.matchSummary, "1 of 4")
            XCTAssertFalse(editor.search.showsError)
            XCTAssertEqual(selectedText(editor), "cat")

            editor.actions.activateAction(named: "find-next")
            XCTAssertEqual(editor.search.matchSummary, "2 of 4")
            editor.actions.activateAction(named: "find-previous")
            editor.actions.activateAction(named: "find-previous")
            XCTAssertEqual(editor.search.matchSummary, "4 of 4", "finding wraps around")
            XCTAssertEqual(selectedText(editor), "Cat")

            editor.actions.activateAction(named: "search-case-sensitive")
            spinMainLoop { editor.search.matchCount == 3 }
            editor.actions.activateAction(named: "search-whole-words")
            spinMainLoop { editor.search.matchCount == 3 }
            editor.search.searchText = "Cats"
            spinMainLoop { editor.search.matchCount == 1 }
            editor.search.searchText = "dragon"
            spinMainLoop { editor.search.matchSummary == "No matches" }
            XCTAssertTrue(editor.search.showsError)

            editor.actions.activateAction(named: "search-regex")
            editor.search.searchText = "c[at"
            spinMainLoop { editor.search.matchSummary == "Invalid pattern" }
        }
    }

    func testReplaceOneMatchThenAllInOneUndoableEdit() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            let text = "one fish two fish red fish blue fish"
            editor.load(title: "Fish", body: text)
            editor.focusBody()
            var bodies: [String] = []
            editor.bodyChanged = { bodies.append(editor.body) }

            XCTAssertTrue(editor.actions.activateAction(named: "find-replace"))
            XCTAssertTrue(editor.search.isReplaceVisible)
            editor.search.searchText = "fish"
            editor.search.replacementText = "cat"
            spinMainLoop { editor.search.matchCount == 4 }

            XCTAssertTrue(editor.actions.activateAction(named: "replace"))
            XCTAssertEqual(editor.body, "one cat two fish red fish blue fish")
            XCTAssertEqual(selectedText(editor), "fish", "the next match is selected")
            spinMainLoop { editor.search.matchCount == 3 }

            XCTAssertEqual(editor.search.replaceAll(), 3)
            XCTAssertEqual(editor.body, "one cat two cat red cat blue cat")
            XCTAssertEqual(bodies.last, editor.body)
            spinMainLoop { editor.search.matchSummary == "No matches" }
            XCTAssertTrue(editor.search.showsError)

            editor.actions.activateAction(named: "undo")
            XCTAssertEqual(editor.body, "one cat two fish red fish blue fish", "replace all is one edit")

            // A replacement GRegex cannot read (an unterminated group reference) is refused and said so.
            editor.actions.activateAction(named: "search-regex")
            editor.search.searchText = "f(i)sh"
            editor.search.replacementText = "\\g<1"
            spinMainLoop { editor.search.matchCount == 3 }
            XCTAssertEqual(editor.search.replaceAll(), 0)
            XCTAssertEqual(editor.search.matchSummary, "Invalid replacement")
            XCTAssertEqual(editor.body, "one cat two fish red fish blue fish")
            editor.search.replacementText = "c\\1t"
            XCTAssertEqual(editor.search.replaceAll(), 3)
            XCTAssertEqual(editor.body, "one cat two cit red cit blue cit")
        }
    }

    func testEscapeClosesTheSearchBarOnlyWhileItIsOpen() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            editor.load(title: "Escape", body: "Some text")
            let hide = try XCTUnwrap(editor.actions.action(named: "hide-search"))
            XCTAssertFalse(hide.isEnabled, "a closed bar leaves Escape to the window")

            editor.actions.activateAction(named: "find")
            XCTAssertTrue(hide.isEnabled)
            XCTAssertTrue(editor.actions.activateAction(named: "hide-search"))
            XCTAssertFalse(editor.isSearchVisible)
            XCTAssertFalse(hide.isEnabled)
            XCTAssertTrue(gtk_widget_has_focus(editor.bodyView.widgetPointer) != 0, "the focus returns to the text")
        }
    }

    func testFindStartsWithTheSelectedWords() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            editor.load(title: "Seed", body: "alpha beta gamma")
            editor.buffer.select(6..<10)
            editor.actions.activateAction(named: "find")
            XCTAssertEqual(editor.search.searchText, "beta")
        }
    }

    func testShortcutsFollowGNOMEConventions() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let accelerators = editor.actions.accelerators
            XCTAssertEqual(accelerators["find"], ["<Control>f"])
            XCTAssertEqual(accelerators["find-replace"], ["<Control>h"])
            XCTAssertEqual(accelerators["find-next"], ["<Control>g"])
            XCTAssertEqual(accelerators["find-previous"], ["<Control><Shift>g"])
            XCTAssertEqual(accelerators["hide-search"], ["Escape"])
            XCTAssertEqual(accelerators["undo"], ["<Control>z"])
            XCTAssertEqual(accelerators["redo"], ["<Control><Shift>z"])
            for name in accelerators.keys {
                XCTAssertNotNil(editor.actions.action(named: name), "\(name) is an action of the pane")
            }
        }
    }

    func testRealKeyPressesReachTheShortcuts() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            editor.load(title: "Keys", body: "The cat.")
            editor.focusBody()
            editor.buffer.select(8..<8)
            spinMainLoop { gtk_window_is_active(window.windowPointer) != 0 }

            try press(["type", "--delay", "20", " Hi"])
            spinMainLoop { editor.body == "The cat. Hi" }
            try press(["key", "ctrl+z"])
            spinMainLoop { editor.body == "The cat." }
            try press(["key", "ctrl+shift+z"])
            spinMainLoop { editor.body == "The cat. Hi" }

            try press(["key", "ctrl+f"])
            spinMainLoop { editor.isSearchVisible }
            try press(["type", "--delay", "20", "cat"])
            spinMainLoop { editor.search.matchCount == 1 }
            try press(["key", "Escape"])
            spinMainLoop { !editor.isSearchVisible }

            try press(["key", "ctrl+h"])
            spinMainLoop { editor.isSearchVisible && editor.search.isReplaceVisible }
        }
    }

    // MARK: Read-only

    func testReadOnlyRefusesEditsAndSaysWhy() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            editor.load(title: "Trashed", body: "cat text")
            var changes = 0
            editor.bodyChanged = { changes += 1 }
            editor.titleChanged = { _ in changes += 1 }

            editor.readOnlyReason = "This article is in the Trash."
            XCTAssertTrue(editor.isReadOnly)
            editor.focusBody()
            type("typed", into: editor.bodyView)
            editor.focusTitle()
            type("typed", into: editor.titleField.view)
            XCTAssertEqual(editor.body, "cat text")
            XCTAssertEqual(editor.title, "Trashed")
            XCTAssertEqual(changes, 0)
            XCTAssertFalse(try XCTUnwrap(editor.actions.action(named: "undo")).isEnabled)
            XCTAssertFalse(try XCTUnwrap(editor.actions.action(named: "replace-all")).isEnabled)
            let banner = try XCTUnwrap(editor.widget.descendants(ofType: gtk_revealer_get_type()).first {
                gtk_revealer_get_reveal_child($0.opaquePointer) != 0
            })
            let labels = banner.descendants(ofType: gtk_label_get_type()).map { String(cString: gtk_label_get_label($0.opaquePointer)) }
            XCTAssertEqual(labels, ["This article is in the Trash."])

            // Finding still works; replacing does not.
            editor.actions.activateAction(named: "find-replace")
            XCTAssertFalse(editor.search.isReplaceVisible)
            editor.search.searchText = "cat"
            editor.search.replacementText = "dog"
            spinMainLoop { editor.search.matchCount == 1 }
            XCTAssertEqual(editor.search.replaceAll(), 0)
            XCTAssertEqual(editor.body, "cat text")

            editor.readOnlyReason = nil
            editor.focusBody()
            editor.buffer.select(0..<0)
            type("My ", into: editor.bodyView)
            XCTAssertEqual(editor.body, "My cat text")
            XCTAssertEqual(changes, 1)
        }
    }

    // MARK: Look

    func testStyleSchemeFollowsLightAndDark() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            editor.load(title: "Look", body: "# Heading\n")
            let manager = adw_style_manager_get_default()
            defer { adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_DEFAULT) }
            adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_FORCE_DARK)
            XCTAssertEqual(schemeID(editor.buffer), "Adwaita-dark")
            adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_FORCE_LIGHT)
            XCTAssertEqual(schemeID(editor.buffer), "Adwaita")
            let language = try XCTUnwrap(gtk_source_buffer_get_language(editor.buffer.sourceBuffer))
            XCTAssertEqual(String(cString: gtk_source_language_get_id(language)), "markdown")
        }
    }

    func testTextColumnIsCentredInAWideWindowAndTitleAlignsWithIt() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor, width: 1400)
            defer { window.destroy() }
            editor.load(title: "Wide", body: Self.article)
            spinMainLoop { editor.textMargin > 100 }
            XCTAssertEqual(editor.titleMargin, editor.textMargin, "title and text start at the same place")
            let column = editor.bodyView.width
            XCTAssertLessThan(column, 1000, "about 70 characters, not the window's width")

            window.defaultSize = (480, 600)
            // The pane hears of its width just after the allocation that gave it, and folds its
            // status line to the word count.
            spinMainLoop { editor.textMargin == 18 && !editor.characterCountLabel.isVisible }
            XCTAssertLessThan(editor.widget.minimumWidth, 360, "a narrow window can take the editor")
        }
    }

    func testScreenshotsOfTheEditorLightAndDark() throws {
        let folder = try screenshotFolder()
        try MainActor.assumeIsolated {
            let manager = adw_style_manager_get_default()
            defer { adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_DEFAULT) }
            for (scheme, name) in [(ADW_COLOR_SCHEME_FORCE_LIGHT, "editor-light"), (ADW_COLOR_SCHEME_FORCE_DARK, "editor-dark")] {
                adw_style_manager_set_color_scheme(manager, scheme)
                let editor = try EditorPane()
                let window = show(editor, width: 1000, height: 700)
                defer { window.destroy() }
                editor.load(title: "Notes from the Field", body: Self.screenshotArticle)
                editor.focusBody()
                if name == "editor-light" {
                    editor.saveState = .unsaved
                    editor.actions.activateAction(named: "find-replace")
                    editor.search.replacementText = "version"
                } else {
                    editor.readOnlyReason = "This article is in the Trash. Restore it to edit it."
                    editor.actions.activateAction(named: "find")
                }
                editor.search.searchText = "draft"
                spinMainLoop { editor.search.matchCount == 4 && editor.textMargin > 36 }
                let path = folder.appending(path: "\(name).png").path
                try render(window, to: path)
                let image = try Texture(contentsOfFile: path)
                XCTAssertEqual(image.width, window.width)
                XCTAssertGreaterThan(Set(image.pixels()).count, 64, "text, highlighting and widgets are drawn")
            }
        }
    }

    static let screenshotArticle = """
        Writers trust Quire with their only copy of a **draft**, so it keeps every keystroke safe on \
        this machine first and syncs later.

        ## What changed

        - Autosave after one second of *idle*
        - A recovered draft is offered back after a crash
        - Conflicts are resolved by the writer, never silently

        > Offline first: the network is a bonus, not a requirement.

        Each draft moves through `draft`, `ready` and `published`. See [the design](https://example.org/design).

        """

    // MARK: Helpers

}

/// Sends real key presses to the focused window through the X server (XTEST), as a keyboard
/// does, running the main loop while `xdotool` works.
@MainActor
func press(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws {
    let process = Process()
    process.executableURL = URL(filePath: "/usr/bin/env")
    process.arguments = ["xdotool"] + arguments
    try process.run()
    let watchdog = Timeout(milliseconds: QuireTestCase.watchdogMilliseconds) {}
    while process.isRunning && !watchdog.hasFired { g_main_context_iteration(nil, 0) }
    XCTAssertEqual(process.terminationStatus, 0, "xdotool \(arguments.joined(separator: " "))", file: file, line: line)
}

/// Types `text` at the cursor of a text view or text field as a key press or the input method
/// does: through the widget's `insert-at-cursor` keybinding signal, which honours read-only.
@MainActor
func type(_ text: String, into widget: Widget) {
    let type = g_type_from_name(widget.typeName)
    var values = [GValue](repeating: GValue(), count: 2)
    g_value_init(&values[0], type)
    g_value_set_object(&values[0], widget.objectPointer)
    g_value_init(&values[1], g_type_from_name("gchararray"))
    g_value_set_string(&values[1], text)
    defer { for index in values.indices { g_value_unset(&values[index]) } }
    g_signal_emitv(&values, g_signal_lookup("insert-at-cursor", type), 0, nil)
}

@MainActor
private func selectedText(_ editor: EditorPane) -> String {
    editor.buffer.text(in: editor.buffer.selection)
}

@MainActor
private func schemeID(_ buffer: SourceBuffer) -> String? {
    gtk_source_buffer_get_style_scheme(buffer.sourceBuffer).map { String(cString: gtk_source_style_scheme_get_id($0)) }
}

extension QuireTestCase {
    /// Shows `editor` in a new window of the given size, below a header bar as in the app, and
    /// waits for its first frame.
    @MainActor
    func show(_ editor: EditorPane, width: Int = 900, height: Int = 640) -> Window {
        let window = Window(retaining: adw_window_new())
        window.defaultSize = (width, height)
        window.title = "Quire"
        let box = Widget(owning: gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
        gtk_box_append(box.pointer(), adw_header_bar_new())
        gtk_box_append(box.pointer(), editor.widget.widgetPointer)
        adw_window_set_content(window.pointer(), box.widgetPointer)
        window.present()
        var drawn = false
        window.afterNextFrame { drawn = true }
        spinMainLoop { drawn }
        return window
    }

    /// Turns GTK's animations off, so revealers and focus rings are in their final state at once
    /// and screenshots show what a person sees once things settle.
    @MainActor
    func settleAnimations() {
        Object(retaining: UnsafeMutableRawPointer(gtk_settings_get_default()!)).setProperty("gtk-enable-animations", false)
    }
}

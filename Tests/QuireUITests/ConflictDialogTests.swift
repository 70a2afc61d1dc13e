import CGtk
import Foundation
import GtkKit
import Library
import XCTest

@testable import QuireUI

/// The conflict dialog under Xvfb: every action's resolution, per-change choices and the merged
/// result they build, highlighting, the base, edit versus delete; and its pure parts.
final class ConflictDialogTests: QuireTestCase, @unchecked Sendable {
    override func setUpWithError() throws {
        try super.setUpWithError()
        MainActor.assumeIsolated { settleAnimations() }
    }

    static let base = ArticleContent(
        title: "Field notes",
        body: """
            # Field notes

            The cat sat on the mat.

            Dogs bark at night.

            Birds sing at dawn.

            """,
        folder: "Drafts", tags: ["nature"], status: .draft)

    /// This device: a new title, the cat's mat warmed, the birds' time changed, status ready.
    static let mine = ArticleContent(
        title: "Field notes, revised",
        body: """
            # Field notes

            The cat sat on the warm mat.

            Dogs bark at night.

            Birds sing at first light.

            """,
        folder: "Drafts", tags: ["nature"], status: .ready, isFavorite: true)

    /// The server: another title, a black cat, the dogs' line (which merges cleanly), louder
    /// birds, a new folder (clean too) and status published.
    static let theirs = ArticleContent(
        title: "Field notes (second draft)",
        body: """
            # Field notes

            The black cat sat on the mat.

            Dogs bark at the moon.

            Birds sing loudly at dawn.

            """,
        folder: "Essays", tags: ["nature", "animals"], status: .published)

    static let now = Date()
    static var conflict: ConflictDialog.Conflict {
        .edited(
            base: base,
            mine: ConflictDialog.Version(content: mine, device: "This device", time: now.addingTimeInterval(-120)),
            theirs: ConflictDialog.Version(content: theirs, device: "Laptop", time: now.addingTimeInterval(-3600)))
    }

    // MARK: Actions

    func testEachActionReturnsItsResolutionOnceAndClosesTheDialog() throws {
        try MainActor.assumeIsolated {
            for (action, expected) in [
                ("keep-mine", ConflictDialog.Decision.resolve(.keepMine)), ("keep-theirs", .resolve(.keepTheirs)), ("keep-both", .resolve(.keepBoth)),
                ("decide-later", .decideLater),
            ] {
                let dialog = try ConflictDialog(conflict: Self.conflict, over: nil)
                var reported: [ConflictDialog.Decision] = []
                dialog.decided = { reported.append($0) }
                dialog.present()
                XCTAssertTrue(dialog.window.isOpen)

                let view = try XCTUnwrap(dialog.editView)
                XCTAssertTrue(view.actions.activateAction(named: action), action)
                XCTAssertEqual(reported, [expected], action)
                XCTAssertEqual(dialog.decision, expected)
                XCTAssertFalse(dialog.window.isOpen, "\(action) closes the dialog")
                view.actions.activateAction(named: "keep-mine")
                XCTAssertEqual(reported, [expected], "a decision is made once")
            }
        }
    }

    func testEscapeDecidesLater() throws {
        try MainActor.assumeIsolated {
            let dialog = try ConflictDialog(conflict: Self.conflict, over: nil)
            XCTAssertEqual(dialog.editView?.actions.accelerators["decide-later"], ["Escape"])
            dialog.present()
            spinMainLoop { gtk_window_is_active(dialog.window.windowPointer) != 0 }
            try press(["key", "Escape"])
            spinMainLoop { dialog.decision != nil }
            XCTAssertEqual(dialog.decision, .decideLater)
            XCTAssertFalse(dialog.window.isOpen)
        }
    }

    func testClosingTheWindowDecidesLater() throws {
        try MainActor.assumeIsolated {
            let dialog = try ConflictDialog(conflict: Self.conflict, over: nil)
            dialog.present()
            dialog.window.close()
            XCTAssertEqual(dialog.decision, .decideLater)
            XCTAssertFalse(dialog.window.isOpen)
        }
    }

    func testResolutionCanBeAwaited() throws {
        try MainActor.assumeIsolated {
            let dialog = try ConflictDialog(conflict: Self.conflict, over: nil)
            dialog.present()
            var awaited: ConflictDialog.Decision?
            Task { @MainActor in awaited = await dialog.awaitDecision() }
            // Let the task start waiting before the writer decides.
            spinMainLoop { true }
            for _ in 0..<10 { g_main_context_iteration(nil, 0) }
            dialog.editView?.actions.activateAction(named: "keep-theirs")
            spinMainLoop { awaited != nil }
            XCTAssertEqual(awaited, .resolve(.keepTheirs))
        }
    }

    func testDialogIsReleasedOnceClosed() throws {
        try MainActor.assumeIsolated {
            weak var released: ConflictDialog?
            do {
                let dialog = try ConflictDialog(conflict: Self.conflict, over: nil)
                released = dialog
                dialog.present()
                dialog.editView?.actions.activateAction(named: "keep-mine")
            }
            spinMainLoop { released == nil }
        }
    }

    // MARK: Merging

    func testSavingTheUntouchedMergeKeepsBothSidesOfEveryBodyChange() throws {
        try MainActor.assumeIsolated {
            let dialog = try ConflictDialog(conflict: Self.conflict, over: nil)
            let view = try XCTUnwrap(dialog.editView)
            XCTAssertEqual(view.rows.map(\.row).map { $0.property("title", as: String.self) }, ["Title", "Status", "“The cat sat on the warm mat.”", "“Birds sing at first light.”"])
            XCTAssertEqual(view.rows[0].row.property("subtitle", as: String.self), "“Field notes, revised” on this device, “Field notes (second draft)” on Laptop")
            XCTAssertEqual(view.rows[1].row.property("subtitle", as: String.self), "Ready on this device, Published on Laptop")
            XCTAssertEqual(view.rows[2].row.property("subtitle", as: String.self), "Line 3 · Both sides changed these lines")
            XCTAssertEqual(view.rows.map(\.side), [.mine, .mine, .both, .both])
            XCTAssertEqual(view.rows.map { Set($0.buttons.keys) }, [[.mine, .theirs], [.mine, .theirs], [.mine, .theirs, .both], [.mine, .theirs, .both]])

            view.actions.activateAction(named: "save-merged")
            XCTAssertEqual(dialog.decision, .resolve(.merged(ArticleContent(
                title: "Field notes, revised",
                body: """
                    # Field notes

                    The cat sat on the warm mat.
                    The black cat sat on the mat.

                    Dogs bark at the moon.

                    Birds sing at first light.
                    Birds sing loudly at dawn.

                    """,
                folder: "Essays", tags: ["nature", "animals"], status: .ready, isFavorite: true))))
        }
    }

    func testEachChoiceUpdatesTheMergedResult() throws {
        try MainActor.assumeIsolated {
            let dialog = try ConflictDialog(conflict: Self.conflict, over: nil)
            dialog.present()
            defer { dialog.window.destroy() }
            let view = try XCTUnwrap(dialog.editView)

            click(view.rows[0], .theirs)
            XCTAssertEqual(view.mergedContent.title, "Field notes (second draft)")
            click(view.rows[1], .theirs)
            XCTAssertEqual(view.mergedContent.status, .published)
            click(view.rows[2], .theirs)
            click(view.rows[3], .mine)
            let expected = """
                # Field notes

                The black cat sat on the mat.

                Dogs bark at the moon.

                Birds sing at first light.

                """
            XCTAssertEqual(view.mergedBuffer.text, expected)
            click(view.rows[2], .mine)
            XCTAssertTrue(view.mergedBuffer.text.contains("The cat sat on the warm mat.\n\nDogs"))
            click(view.rows[2], .both)
            XCTAssertTrue(view.mergedBuffer.text.contains("warm mat.\nThe black cat sat on the mat.\n\nDogs"))
            click(view.rows[2], .theirs)
            XCTAssertEqual(view.mergedBuffer.text, expected)
            XCTAssertEqual(view.rows.map(\.side), [.theirs, .theirs, .theirs, .mine])
            // The places the choices filled stay highlighted in the merged result.
            XCTAssertEqual(highlighted(EditConflictView.conflictingTag, in: view.mergedBuffer), [
                "The black cat sat on the mat.\n", "Birds sing at first light.\n",
            ])

            view.actions.activateAction(named: "save-merged")
            XCTAssertEqual(dialog.decision, .resolve(.merged(ArticleContent(
                title: "Field notes (second draft)", body: expected, folder: "Essays", tags: ["nature", "animals"],
                status: .published, isFavorite: true))))
        }
    }

    func testTheWritersEditsOfTheMergedResultSurviveLaterChoices() throws {
        try MainActor.assumeIsolated {
            let dialog = try ConflictDialog(conflict: Self.conflict, over: nil)
            dialog.present()
            defer { dialog.window.destroy() }
            let view = try XCTUnwrap(dialog.editView)
            click(view.rows[2], .theirs)

            // The writer types a line below the heading, outside the places the choices fill, and
            // edits the dogs' line, which merged cleanly.
            view.mergedBuffer.select("# Field notes\n".count..<"# Field notes\n".count)
            type("A new first sentence.\n", into: view.mergedView)
            let dogs = view.mergedBuffer.text.unicodeScalars.count - "Dogs bark at the moon.\n\nBirds sing at first light.\nBirds sing loudly at dawn.\n".unicodeScalars.count
            view.mergedBuffer.select(dogs..<dogs)
            type("Loud ", into: view.mergedView)
            gtk_editable_set_text(view.mergedTitle.opaquePointer, "My own title")

            click(view.rows[3], .theirs)
            click(view.rows[2], .mine)
            view.actions.activateAction(named: "save-merged")
            guard case .resolve(.merged(let content)) = dialog.decision else { return XCTFail("not merged: \(String(describing: dialog.decision))") }
            XCTAssertEqual(content.title, "My own title", "a typed title wins over the choices made before")
            XCTAssertEqual(content.body, """
                # Field notes
                A new first sentence.

                The cat sat on the warm mat.

                Loud Dogs bark at the moon.

                Birds sing loudly at dawn.

                """)
        }
    }

    // MARK: Showing

    func testVersionsAreLabelledAndTheirChangesHighlighted() throws {
        try MainActor.assumeIsolated {
            let dialog = try ConflictDialog(conflict: Self.conflict, over: nil)
            dialog.present()
            defer { dialog.window.destroy() }
            let view = try XCTUnwrap(dialog.editView)
            XCTAssertEqual(view.mineBuffer.text, Self.mine.body)
            XCTAssertEqual(view.theirsBuffer.text, Self.theirs.body)

            let labels = dialog.window.descendants(ofType: gtk_label_get_type()).map { String(cString: gtk_label_get_label($0.opaquePointer)) }
            XCTAssertTrue(labels.contains("This device"))
            XCTAssertTrue(labels.contains("Edited " + VersionTime.phrase(for: Self.now.addingTimeInterval(-120))))
            XCTAssertTrue(labels.contains("Laptop"))
            XCTAssertTrue(labels.contains("Field notes, revised"))
            XCTAssertTrue(labels.contains("Field notes (second draft)"))
            XCTAssertTrue(labels.contains("4 Changes to Decide"))
            XCTAssertTrue(labels.contains("This article was changed on this device and on Laptop."))

            XCTAssertEqual(highlighted(EditConflictView.conflictingTag, in: view.mineBuffer), [
                "The cat sat on the warm mat.\n", "Birds sing at first light.\n",
            ])
            XCTAssertEqual(highlighted(EditConflictView.conflictingTag, in: view.theirsBuffer), [
                "The black cat sat on the mat.\n", "Birds sing loudly at dawn.\n",
            ])
            // The dogs' line only the server changed: highlighted as a change, not a conflict.
            XCTAssertTrue(highlighted(EditConflictView.changedTag, in: view.theirsBuffer).contains("Dogs bark at the moon.\n"))
            XCTAssertFalse(highlighted(EditConflictView.changedTag, in: view.mineBuffer).contains { $0.contains("Dogs") })
            // Inside the changed lines, the words that differ: not two yellow lines, the words.
            let trimmed = { (tag: String, buffer: SourceBuffer) in
                self.highlighted(tag, in: buffer).map { $0.trimmingCharacters(in: .whitespaces) }
            }
            XCTAssertEqual(trimmed(EditConflictView.changedWordTag, view.mineBuffer), ["warm", "first light"])
            XCTAssertEqual(trimmed(EditConflictView.changedWordTag, view.theirsBuffer), ["black", "the moon", "loudly"])
        }
    }

    func testTheBaseIsShownOnRequest() throws {
        try MainActor.assumeIsolated {
            let dialog = try ConflictDialog(conflict: Self.conflict, over: nil)
            dialog.present()
            defer { dialog.window.destroy() }
            let view = try XCTUnwrap(dialog.editView)
            XCTAssertFalse(view.baseColumn.isVisible)
            XCTAssertEqual(view.baseBuffer.text, Self.base.body)
            view.actions.activateAction(named: "show-base")
            XCTAssertTrue(view.baseColumn.isVisible)
            XCTAssertEqual(highlighted(EditConflictView.conflictingTag, in: view.baseBuffer), [
                "The cat sat on the mat.\n", "Birds sing at dawn.\n",
            ])
            view.actions.activateAction(named: "show-base")
            XCTAssertFalse(view.baseColumn.isVisible)
        }
    }

    // MARK: Edit versus delete

    func testEditVersusDeleteOffersRestoreMineAcceptDeleteOrLater() throws {
        try MainActor.assumeIsolated {
            let parent = Window()
            defer { parent.destroy() }
            for (response, expected) in [
                ("_Restore Mine", ConflictDialog.Decision.resolve(.restoreMine)), ("_Accept Delete", .resolve(.acceptDelete)), ("_Decide Later", .decideLater),
            ] {
                let dialog = try ConflictDialog(conflict: Self.deletion, over: parent)
                XCTAssertNil(dialog.editView)
                XCTAssertTrue(dialog.window.isA(adw_message_dialog_get_type()))
                XCTAssertEqual(dialog.window.transientFor?.objectPointer, parent.objectPointer)
                let body = dialog.window.property("body", as: String.self)
                XCTAssertTrue(body.contains("“Field notes, revised” was deleted on Laptop"), body)
                dialog.present()
                let button = try XCTUnwrap(dialog.window.descendants(ofType: gtk_button_get_type()).first {
                    gtk_button_get_label($0.pointer()).map { String(cString: $0) } == response
                })
                emitClicked(button)
                XCTAssertEqual(dialog.decision, expected, response)
                spinMainLoop { !dialog.window.isOpen }
            }
            let dialog = try ConflictDialog(conflict: Self.deletion, over: parent)
            dialog.present()
            dialog.window.close()
            spinMainLoop { !dialog.window.isOpen }
            XCTAssertEqual(dialog.decision, .decideLater, "closing decides later")
        }
    }

    static var deletion: ConflictDialog.Conflict {
        .deleted(
            mine: ConflictDialog.Version(content: mine, device: "This device", time: now), device: "Laptop",
            time: now.addingTimeInterval(-600))
    }

    // MARK: Screenshots

    func testScreenshotsOfTheConflictDialogs() throws {
        let folder = try screenshotFolder()
        try MainActor.assumeIsolated {
            let manager = adw_style_manager_get_default()
            defer { adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_DEFAULT) }
            for (scheme, suffix) in [(ADW_COLOR_SCHEME_FORCE_LIGHT, "light"), (ADW_COLOR_SCHEME_FORCE_DARK, "dark")] {
                adw_style_manager_set_color_scheme(manager, scheme)
                let dialog = try ConflictDialog(conflict: Self.conflict, over: nil)
                if suffix == "dark" { dialog.editView?.actions.activateAction(named: "show-base") }
                dialog.present()
                defer { dialog.window.destroy() }
                try checkScreenshot(of: dialog.window, to: folder.appending(path: "conflict-\(suffix).png").path)
            }

            adw_style_manager_set_color_scheme(manager, ADW_COLOR_SCHEME_FORCE_LIGHT)
            let parent = Window()
            parent.defaultSize = (900, 640)
            parent.present()
            defer { parent.destroy() }
            let dialog = try ConflictDialog(conflict: Self.deletion, over: parent)
            dialog.present()
            defer { dialog.window.destroy() }
            try checkScreenshot(of: dialog.window, to: folder.appending(path: "conflict-deleted.png").path)
        }
    }

    @MainActor
    private func checkScreenshot(of window: Window, to path: String) throws {
        var drawn = false
        window.afterNextFrame { drawn = true }
        spinMainLoop { drawn }
        try render(window, to: path)
        let image = try Texture(contentsOfFile: path)
        XCTAssertEqual(image.width, window.width)
        XCTAssertGreaterThan(Set(image.pixels()).count, 64, "text, highlights and widgets are drawn")
    }

    // MARK: Pure parts

    func testChoicesStartSafeAndBuildTheContent() {
        let merge = ArticleMerge(base: Self.base, mine: Self.mine, theirs: Self.theirs)
        var choices = MergeChoices(merge: merge)
        XCTAssertEqual(choices.changes.count, 4)
        XCTAssertEqual(choices.changes.map { MergeChoices.sides(for: $0).count }, [2, 2, 3, 3])
        XCTAssertEqual(choices.body.text, merge.body.resolved { _ in .mineThenTheirs })
        XCTAssertEqual(choices.title, "Field notes, revised")

        choices.choose(.both, for: choices.changes[0])
        XCTAssertEqual(choices.side(for: choices.changes[0]), .mine, "a title cannot hold both")
        for change in choices.changes { choices.choose(.theirs, for: change) }
        let (text, places) = choices.body
        XCTAssertEqual(text, merge.body.resolved { _ in .theirs })
        let scalars = Array(text.unicodeScalars)
        XCTAssertEqual(places.keys.sorted(), [0, 1])
        XCTAssertEqual(String(String.UnicodeScalarView(scalars[places[0]!])), "The black cat sat on the mat.\n")
        XCTAssertEqual(String(String.UnicodeScalarView(scalars[places[1]!])), "Birds sing loudly at dawn.\n")
        XCTAssertEqual(choices.content(title: choices.title, body: text), merge.resolved(
            title: { _ in .theirs }, body: { _ in .theirs }, folder: .theirs, status: .theirs))
    }

    func testPlacesCountCharactersNotBytes() {
        let base = "é\nmiddle\nend\n"
        let merge = ArticleMerge(
            base: ArticleContent(title: "t", body: base), mine: ArticleContent(title: "t", body: "é\nmïddle 🐈\nend\n"),
            theirs: ArticleContent(title: "t", body: "é\nmiddle 漢字\nend\n"))
        let choices = MergeChoices(merge: merge)
        let (text, places) = choices.body
        let scalars = Array(text.unicodeScalars)
        XCTAssertEqual(String(String.UnicodeScalarView(scalars[places[0]!])), "mïddle 🐈\nmiddle 漢字\n")
    }

    func testHighlightedLinesMapToCharactersWhateverTheLineEndings() {
        let lines = LineOffsets("one\r\ntwo\nthree")
        XCTAssertEqual(lines.lineCount, 3)
        XCTAssertEqual(lines.characters(of: 0..<1), 0..<5)
        XCTAssertEqual(lines.characters(of: 1..<3), 5..<14)
        XCTAssertEqual(lines.characters(of: 2..<9), 9..<14, "clamped to the text")
        XCTAssertEqual(LineOffsets("").characters(of: 0..<1), 0..<0)

        let merge = TextMerge.merge(base: "a\nb\nc\n", mine: "a\nB\nc\nd\n", theirs: "a\nb!\nc\n")
        XCTAssertEqual(ChangeHighlights.mine(of: merge, base: "a\nb\nc\n", mine: "a\nB\nc\nd\n"),
                       ChangeHighlights(changed: [1..<2, 3..<4], conflicting: [1..<2], words: [2..<3, 6..<8]))
        XCTAssertEqual(ChangeHighlights.base(of: merge, base: "a\nb\nc\n", mine: "a\nB\nc\nd\n", theirs: "a\nb!\nc\n"),
                       ChangeHighlights(changed: [1..<2, 1..<2], conflicting: [1..<2], words: [2..<3]))
    }

    func testConflictedCopyTitle() {
        XCTAssertEqual(ConflictResolution.conflictedCopyTitle(of: "Field notes"), "Field notes (conflicted copy)")
        XCTAssertEqual(ConflictResolution.conflictedCopyTitle(of: "  "), "Untitled (conflicted copy)")
    }

    func testVersionTimesReadAsAWriterSaysThem() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try XCTUnwrap(TimeZone(identifier: "UTC"))
        let locale = Locale(identifier: "en_GB")
        let now = try XCTUnwrap(Timestamp.date(from: "2026-03-05T15:00:00Z"))
        func phrase(_ text: String) throws -> String {
            VersionTime.phrase(for: try XCTUnwrap(Timestamp.date(from: text)), now: now, calendar: calendar, locale: locale)
        }
        XCTAssertEqual(try phrase("2026-03-05T14:02:00Z"), "today at 14:02")
        XCTAssertEqual(try phrase("2026-03-04T09:15:00Z"), "yesterday at 09:15")
        XCTAssertEqual(try phrase("2026-03-01T18:40:00Z"), "on 1 Mar 2026 at 18:40")
    }

    // MARK: Helpers

    /// Clicks a change's button for `side`, as the writer does.
    @MainActor
    private func click(_ row: ConflictChangeRow, _ side: MergeChoices.Side) {
        guard let button = row.buttons[side] else { return XCTFail("no \(side) button") }
        emitClicked(button)
    }

    /// Emits a button's `clicked`, as a click with the pointer ends.
    @MainActor
    private func emitClicked(_ button: Widget) {
        var value = GValue()
        g_value_init(&value, g_type_from_name(button.typeName))
        g_value_set_object(&value, button.objectPointer)
        defer { g_value_unset(&value) }
        g_signal_emitv(&value, g_signal_lookup("clicked", g_type_from_name(button.typeName)), 0, nil)
    }

    @MainActor
    private func highlighted(_ tag: String, in buffer: SourceBuffer) -> [String] {
        buffer.ranges(ofTag: tag).map { buffer.text(in: $0) }
    }
}

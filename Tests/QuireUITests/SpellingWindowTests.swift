import Foundation
import GtkKit
import Library
import XCTest

@testable import QuireUI

/// Spelling in the real application window under Xvfb: the Spelling rows of Preferences › Editor
/// (each writes its GSettings key, the switch takes the open article's underlines away and brings
/// them back, a new article takes the chosen default language), and Ignore, which lasts for the
/// article (kept in the library) and for it only.
final class SpellingWindowTests: MainWindowTestCase, @unchecked Sendable {
    @MainActor
    private func underlinedWords(_ editor: EditorPane) -> [String] {
        editor.spelling.isPending ? ["(checking)"] : editor.spelling.underlinedRanges.map { editor.buffer.text(in: $0) }
    }

    /// The app upgrades a library from before languages (V3) giving its articles the default
    /// language chosen in Preferences, not the locale's.
    func testAnUpgradeGivesArticlesTheDefaultLanguageOfPreferences() throws {
        let fixture = Self.packageRoot.appending(path: "Tests/LibraryTests/Fixtures/library-v3.quire")
        let url = try makeTemporaryFolder().appending(path: "library.quire")
        try FileManager.default.copyItem(at: fixture, to: url)
        // A language the locale would not give, so that only Preferences can have given it.
        let chosen = ArticleLanguage.preferred == "de_DE" ? "fr" : "de_DE"
        let keyFile = try makeTemporaryFolder().appending(path: "settings.ini").path
        let schemas = try Self.schemaFolder.get().path
        MainActor.assumeIsolated {
            let settings = try! XCTUnwrap(Settings.lookup(schemaID: Quire.settingsSchemaID, inDirectory: schemas, keyFile: keyFile))
            XCTAssertTrue(settings.set(chosen, forKey: "default-language"))
            let status = runQuire(settings: settings, libraryURL: url) { quire, _ in
                quire.application.activateAction(named: "quit")
            }
            XCTAssertEqual(status, 0)
        }
        let languages = try blocking {
            let library = try Library(url: url)
            defer { library.close() }
            var languages: [String] = []
            for query in [ArticleQuery(), ArticleQuery(filter: .trash)] {
                for summary in try await library.articles(matching: query) {
                    languages.append(try await library.article(summary.id).language ?? "(none)")
                }
            }
            return languages
        }
        XCTAssertFalse(languages.isEmpty, "the fixture has articles")
        XCTAssertEqual(Set(languages), [chosen])
    }

    func testTheSpellingRowsWriteTheirKeysTurnUnderlinesOffAndGiveNewArticlesTheLanguage() throws {
        let url = try makeLibrary { library in
            _ = try await library.createArticle(ArticleContent(title: "Letter", body: "The writer will recieve it.\n", language: "en_US"))
        }
        let keyFile = try makeTemporaryFolder().appending(path: "settings.ini").path
        let schemas = try Self.schemaFolder.get().path
        MainActor.assumeIsolated {
            let settings = try! XCTUnwrap(Settings.lookup(schemaID: Quire.settingsSchemaID, inDirectory: schemas, keyFile: keyFile))
            let status = runQuire(settings: settings, libraryURL: url) { quire, window in
                Task { @MainActor in
                    do {
                        try self.open("Letter", in: window)
                        let editor = window.editor
                        try await self.until { self.underlinedWords(editor) == ["recieve"] }

                        window.showPreferences()
                        let page = try XCTUnwrap(window.shownEditorPreferences)
                        XCTAssertTrue(page.spellCheckSwitch.isActive)
                        XCTAssertEqual(page.languageRow.selected, 0, "the locale's language until one is chosen")
                        XCTAssertEqual(page.languageChoices.first, "")
                        XCTAssertTrue(page.languageChoices.contains("de_DE") && page.languageChoices.contains("en_GB"),
                                      "the installed dictionaries are listed: \(page.languageChoices)")

                        page.spellCheckSwitch.isActive = false
                        XCTAssertFalse(settings.bool(forKey: "spell-check"))
                        try await self.until { self.underlinedWords(editor).isEmpty }
                        page.spellCheckSwitch.isActive = true
                        XCTAssertTrue(settings.bool(forKey: "spell-check"))
                        try await self.until { self.underlinedWords(editor) == ["recieve"] }
                        page.spellCheckSwitch.isActive = false

                        page.languageRow.selected = try XCTUnwrap(page.languageChoices.firstIndex(of: "de_DE"))
                        XCTAssertEqual(settings.string(forKey: "default-language"), "de_DE")
                        window.newArticle()
                        XCTAssertEqual(window.session?.article.language, "de_DE")
                        XCTAssertEqual(editor.spelling.language, "de_DE")
                        XCTAssertFalse(editor.spelling.isEnabled, "spell checking stays off for the next article")
                    } catch {
                        XCTFail("\(error)")
                    }
                    Settings.sync()
                    quire.application.activateAction(named: "quit")
                }
            }
            XCTAssertEqual(status, 0)
        }
        let stored = try String(contentsOfFile: keyFile, encoding: .utf8)
        XCTAssertTrue(stored.contains("spell-check=false") && stored.contains("default-language='de_DE'"), stored)

        // A new start shows the stored choices.
        MainActor.assumeIsolated {
            let settings = try! XCTUnwrap(Settings.lookup(schemaID: Quire.settingsSchemaID, inDirectory: schemas, keyFile: keyFile))
            let status = runQuire(settings: settings, libraryURL: url) { quire, window in
                do {
                    XCTAssertFalse(window.editor.spelling.isEnabled)
                    window.showPreferences()
                    let page = try XCTUnwrap(window.shownEditorPreferences)
                    XCTAssertFalse(page.spellCheckSwitch.isActive)
                    XCTAssertEqual(page.languageChoices[page.languageRow.selected], "de_DE")
                } catch {
                    XCTFail("\(error)")
                }
                quire.application.activateAction(named: "quit")
            }
            XCTAssertEqual(status, 0)
        }
    }

    func testIgnoreLastsForTheArticleAndForItOnly() throws {
        let url = try makeLibrary { library in
            _ = try await library.createArticle(ArticleContent(title: "Letter", body: "We recieve Quirelike letters.\n", language: "en_US"))
            _ = try await library.createArticle(ArticleContent(title: "Note", body: "Quirelike notes.\n", language: "en_US"))
        }
        drive(url) { window in
            let editor = window.editor
            try self.open("Letter", in: window)
            try await self.until { self.underlinedWords(editor) == ["recieve", "Quirelike"] }
            let word = try XCTUnwrap(editor.spelling.underlinedRanges.last)
            editor.spelling.prepareMenu(at: word.lowerBound + 1)
            editor.actions.action(named: "spelling-ignore")?.activate()
            try await self.until { self.underlinedWords(editor) == ["recieve"] }

            try self.open("Note", in: window)
            try await self.until { self.underlinedWords(editor) == ["Quirelike"] }
            try self.open("Letter", in: window)
            try await self.until { self.underlinedWords(editor) == ["recieve"] }
            let id = try XCTUnwrap(window.session?.articleID)
            let stored = try await window.library.ignoredWords(in: id)
            XCTAssertEqual(stored, ["Quirelike"])
        }
    }
}

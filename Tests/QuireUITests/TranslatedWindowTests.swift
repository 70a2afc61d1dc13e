import CGtk
import Foundation
import GtkKit
import Library
import Platform
import SyncProtocol
import QuireTestSupport
import XCTest

@testable import QuireUI

/// The window in another language, end to end: `po/de.po` compiled as `run.sh` compiles it, a
/// process started with `LANGUAGE=de` (GLib decides once per process, on the first translated
/// string, whether to translate at all, so this needs a process of its own), and the strings of
/// the `.ui` files (GtkBuilder) and of the Swift code (gettext) both German on screen.
final class TranslatedWindowTests: MainWindowTestCase, @unchecked Sendable {
    private static let entryVariable = "QUIRE_TRANSLATED_WINDOW_SCREENSHOT"

    func testTheWindowSpeaksTheLanguageOfLANGUAGE() throws {
        let folder = try screenshotFolder()
        let locale = try makeTemporaryFolder().appending(path: "locale")
        _ = try Tool.run(Self.packageRoot.appending(path: "meson-helpers/compile-translations.sh").path, [locale.path])
        // Hebrew has no Quire catalogue; GTK's own (Debian's gtk40.mo) makes the layout right to left.
        for (language, shot) in [("de", "window-de.png"), ("fr", "window-fr.png"), ("he", "window-rtl.png")] {
            let screenshot = folder.appending(path: shot)
            let child = try ProgramRun(
                URL(filePath: "/proc/self/exe").resolvingSymlinksInPath(),
                ["QuireUITests.TranslatedWindowTests/testEntryPointShowsTheWindowInItsLanguage"],
                environment: [
                    Self.entryVariable: screenshot.path, "LANGUAGE": language, "LANG": "C.UTF-8", "LC_ALL": nil, "LC_MESSAGES": nil,
                    "QUIRE_LOCALE_DIR": locale.path,
                ])
            XCTAssertEqual(child.status, 0, child.output + child.error)
            XCTAssertTrue((child.output + child.error).contains("Executed 1 test, with 0 failures"), child.output + child.error)
            XCTAssertTrue(try PNGCheck.hasSignature(screenshot.path), "\(language): the window was saved")
        }
    }

    /// In the child: the main window over a small library, its visible labels read from the widget
    /// tree. Only its language's strings may show where the English ones would; under a right to
    /// left language the window mirrors, the sidebar right of the article list.
    func testEntryPointShowsTheWindowInItsLanguage() throws {
        guard let screenshot = ProcessInfo.processInfo.environment[Self.entryVariable] else {
            throw XCTSkip("entry point of the child process that testTheWindowSpeaksTheLanguageOfLANGUAGE starts")
        }
        Translation.start()
        let language = ProcessInfo.processInfo.environment["LANGUAGE"] ?? ""
        // One string from a .ui file (GtkBuilder's domain), two from Swift (gettext, ngettext).
        let expected: [String: [String]] = [
            "de": ["Kein Artikel ausgewählt", "Alle Artikel", "Papierkorb"],
            "fr": ["Aucun article sélectionné", "Tous les articles", "Corbeille"],
        ]
        let english = ["No Article Selected", "All Articles", "Trash"]
        // Library's reasons and SyncProtocol's (English only) inside the app's sentences are in
        // the reader's language; the description the log and --json carry stays English.
        let article = UUID()
        let invalidTag = LibraryError.invalidName(kind: "tag", name: "a\tb", reason: .controlCharacters)
        let nul = LibraryError.invalidContent(article: article, violation: try XCTUnwrap(ArticlePayload(title: "x", body: "a\u{0}b").violation()))
        let sentences: [(LibraryError, english: String, [String: String])] = [
            (invalidTag, "the tag name 'a\tb' contains control characters", [
                "de": "„a\tb“ kann kein Schlagwort sein: Der Name enthält Steuerzeichen.",
                "fr": "«\u{A0}a\tb\u{A0}» ne peut pas être une étiquette\u{A0}: le nom contient des caractères de contrôle.",
            ]),
            (nul, "article \(article.uuidString.lowercased()): body must not contain U+0000", [
                "de": "Der Artikel kann so nicht gespeichert werden: Das Feld „Text“ enthält das Zeichen U+0000, das sich nicht synchronisieren lässt.",
                "fr": "L’article ne peut pas être enregistré tel quel\u{A0}: son champ «\u{A0}Texte\u{A0}» contient le caractère U+0000, qui ne peut pas être synchronisé.",
            ]),
        ]
        for (error, english, translations) in sentences {
            if let sentence = translations[language] { XCTAssertEqual(ErrorExplanation(error, libraryPath: "").sentence, sentence) }
            XCTAssertEqual(error.description, english)
        }
        let url = try makeLibrary { library in
            _ = try await library.createArticle(ArticleContent(title: "Grüße", body: "Ein kurzer Text."))
        }
        drive(url) { window in
            try await self.resize(window, to: 1200)
            if language == "he" {
                XCTAssertEqual(gtk_widget_get_direction(window.window.widgetPointer), GTK_TEXT_DIR_RTL)
                // The sidebar right of the list, the editor left of it (`resize` waits for the panes).
                let sidebar = try XCTUnwrap(Self.frame(of: window.sidebarPane, in: window.window))
                let list = try XCTUnwrap(Self.frame(of: window.listPane, in: window.window))
                let editor = try XCTUnwrap(Self.frame(of: window.editorStack, in: window.window))
                XCTAssertGreaterThan(sidebar.left, list.left)
                XCTAssertGreaterThan(list.left, editor.left)
            } else {
                try await self.until {
                    let labels = Self.labels(of: window.window)
                    return (expected[language] ?? ["?"]).allSatisfy(labels.contains)
                }
                let labels = Self.labels(of: window.window)
                for word in english { XCTAssertFalse(labels.contains(word), "“\(word)” is still English in \(labels)") }
            }
            // The empty editor's placeholder lies whole inside the window, in every language.
            let placeholders = window.editorStack.descendants(ofType: StatusPage.self)
            XCTAssertFalse(placeholders.isEmpty)
            for placeholder in placeholders {
                let frame = try XCTUnwrap(Self.frame(of: placeholder, in: window.window))
                XCTAssertGreaterThanOrEqual(frame.left, 0, "\(language): the placeholder starts left of the window")
                XCTAssertLessThanOrEqual(frame.left + Double(frame.width), Double(window.window.width), "\(language): the placeholder is cut off")
            }
            try await self.renderWhenDrawn(window.window, to: screenshot)
        }
    }

    /// Where `widget` starts, from the window's left edge, and how wide it is.
    @MainActor
    private static func frame(of widget: Widget, in window: Window) -> (left: Double, width: Int)? {
        var x = 0.0
        var y = 0.0
        guard gtk_widget_translate_coordinates(widget.widgetPointer, window.widgetPointer, 0, 0, &x, &y) != 0 else { return nil }
        return (x, widget.width)
    }

    @MainActor
    private static func labels(of window: Window) -> Set<String> {
        Set(window.descendants(ofType: gtk_label_get_type()).map { String(cString: gtk_label_get_label($0.opaquePointer)) })
    }
}

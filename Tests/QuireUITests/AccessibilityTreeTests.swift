import Foundation
import Library
import QuireTestSupport
import XCTest

@testable import QuireUI

/// The window as a screen reader reads it: the real program over a demo library, with GTK's
/// accessibility on, its tree read over AT-SPI (Debian's at-spi2-core and python3-pyatspi) by
/// `meson-helpers/accessibility-names.py`, before and after Ctrl+N opens a new article. Every
/// visible button, text field, text view and list has a name a person can hear, and every list
/// row says what it shows (an article row: title, date, status and tags, sync state).
final class AccessibilityTreeTests: QuireTestCase, @unchecked Sendable {
    func testEveryVisibleButtonHasANameAndEveryRowSaysWhatItShows() throws {
        try requireXdotool()
        try requireSessionBus()
        let folder = try makeTemporaryFolder()
        let library = folder.appending(path: "library.quire").path
        let demo = try ProgramRun(Self.quireExecutable, ["demo", "--library", library, "--articles", "5"])
        XCTAssertEqual(demo.status, 0, demo.error)
        // Debian's own python3, where python3-pyatspi installs the AT-SPI bindings.
        let (probe, report) = try Self.probe(library)
        XCTAssertGreaterThan(report["nodes"] as? Int ?? 0, 100, "the window's tree was read: \(report)")
        XCTAssertEqual((report["unnamedButtons"] as? [Any])?.count, 0, "buttons without a name: \(report)")
        XCTAssertGreaterThanOrEqual(report["rows"] as? Int ?? 0, 5, "the sidebar's and the five articles' rows were read: \(report)")
        XCTAssertEqual((report["silentRows"] as? [Any])?.count, 0, "rows that say nothing: \(report)")
        XCTAssertEqual((report["unnamedFields"] as? [Any])?.count, 0, "fields and lists without a name: \(report)")
        XCTAssertEqual((report["badNames"] as? [Any])?.count, 0, "names with an underscore or said twice: \(report)")
        // The places a writer works in, by the names a screen reader says.
        let fields = Set((report["fields"] as? [[String: String]] ?? []).compactMap { $0["name"] })
        for name in ["Folders and tags", "Articles", "Title", "Article text", "Add a tag"] {
            XCTAssertTrue(fields.contains(name), "no field or list named \(name): \(report)")
        }
        XCTAssertEqual(probe.status, 0, probe.error)
    }

    /// The conflict dialog as a screen reader reads it, over AT-SPI: the window is described by
    /// its summary, each side's text is labelled by its device and described by its time, the
    /// merged result and the list of changes by their headings (`labelled-by`, `described-by` in
    /// `ConflictDialog.ui`), every target with words.
    func testTheConflictDialogRelatesItsTextsToTheirHeadings() throws {
        try requireXdotool()
        try requireSessionBus()
        let library = try makeTemporaryFolder().appending(path: "library.quire")
        try blocking {
            let store = try Library(url: library)
            let base = ArticleContent(title: "Field notes", body: "First line.\nThe shared line.\nLast line.\n")
            let mine = ArticleContent(title: "Field notes", body: "First line.\nThe shared line, as I wrote it.\nLast line.\n")
            let theirs = ArticleContent(title: "Field notes", body: "First line.\nThe shared line, as the server has it.\nLast line.\n")
            let notes = try await store.createArticle(mine)
            try await store.recordConflict(articleID: notes.id, base: base, local: mine, remote: theirs, baseRevision: 1, remoteRevision: 2)
        }
        let (probe, report) = try Self.probe(library.path, "--conflict-dialog")
        XCTAssertEqual(probe.status, 0, "\(report) \(probe.error)")
        // Each button is named once, as shown ("Keep Both", not "Keep B_oth Keep Both").
        XCTAssertEqual((report["badNames"] as? [Any])?.count, 0, "names with an underscore or said twice: \(report)")
        let buttons = Set(report["buttons"] as? [String] ?? [])
        for name in ["Keep Both", "Save Merged", "Decide Later", "Show Base"] {
            XCTAssertTrue(buttons.contains(name), "no button named \(name): \(report)")
        }
        let relations = report["relations"] as? [[String: Any]] ?? []
        let said = relations.map { relation in
            (role: relation["role"] as? String ?? "", name: relation["name"] as? String ?? "", relation: relation["relation"] as? String ?? "",
             targets: relation["targets"] as? [String] ?? [])
        }
        XCTAssertTrue(said.allSatisfy { !$0.targets.isEmpty && $0.targets.allSatisfy { !$0.isEmpty } }, "a relation to nothing a reader can say: \(report)")
        XCTAssertTrue(said.contains { $0.relation == "described-by" && $0.name == "Resolve Conflict" }, "the window's summary: \(report)")
        // The two sides' texts by their device and time (the base is hidden until Show Base), the
        // merged result by its heading, the list of changes by its heading and hint.
        let texts = said.filter { $0.role == "text" }
        for side in ["This device", "Server"] {
            XCTAssertTrue(texts.contains { $0.relation == "labelled-by" && $0.targets == [side] }, "\(side)'s text: \(report)")
            XCTAssertTrue(texts.contains { $0.relation == "described-by" && $0.name == side }, "\(side)'s time: \(report)")
        }
        XCTAssertTrue(texts.contains { $0.relation == "labelled-by" && $0.targets == ["Merged Result"] }, "the merged result: \(report)")
        XCTAssertTrue(said.contains { $0.role == "list" && $0.relation == "described-by" }, "the changes' hint: \(report)")
    }

    /// Preferences as a screen reader reads them, page by page (each tab clicked over AT-SPI):
    /// every focusable control has a name, said once (a row's switch or spin button by the
    /// row's title), every row says what it is, and the window's own parts that libadwaita makes
    /// are named too (the token's reveal button, each page's scrolling area, a choice's lists).
    func testPreferencesNameEveryControlOnce() throws {
        try requireXdotool()
        try requireSessionBus()
        let library = try makeTemporaryFolder().appending(path: "library.quire").path
        let demo = try ProgramRun(Self.quireExecutable, ["demo", "--library", library, "--articles", "2"])
        XCTAssertEqual(demo.status, 0, demo.error)
        let (probe, report) = try Self.probe(library, "--preferences")
        XCTAssertEqual(report["pages"] as? [String], ["Sync", "Editor"], "both pages were read: \(report)")
        for key in ["unnamedControls", "unnamedButtons", "unnamedFields", "silentRows", "badNames"] {
            XCTAssertEqual((report[key] as? [Any])?.count, 0, "\(key): \(report)")
        }
        let fields = Set((report["fields"] as? [[String: String]] ?? []).compactMap { $0["name"] })
        for name in ["Server URL", "Token", "Size", "Line Spacing", "Column Width", "Share of the Library", "At Least", "Text"] {
            XCTAssertTrue(fields.contains(name), "no field named \(name): \(report)")
        }
        XCTAssertTrue((report["buttons"] as? [String] ?? []).contains("Show Text"), "the token's reveal button: \(report)")
        XCTAssertEqual(probe.status, 0, probe.error)
    }

    /// The rename dialog a folder's menu opens (its menu button and Rename clicked over AT-SPI):
    /// its field is named by the heading, its buttons once, as shown.
    func testTheRenameDialogNamesItsFieldAndButtonsOnce() throws {
        try requireXdotool()
        try requireSessionBus()
        let library = try makeTemporaryFolder().appending(path: "library.quire")
        try blocking {
            let store = try Library(url: library)
            try await store.createArticle(ArticleContent(title: "Harbour", body: "Boats.\n", folder: "Field notes"))
        }
        let (probe, report) = try Self.probe(library.path, "--rename-dialog")
        for key in ["unnamedControls", "unnamedButtons", "unnamedFields", "badNames"] {
            XCTAssertEqual((report[key] as? [Any])?.count, 0, "\(key): \(report)")
        }
        let fields = (report["fields"] as? [[String: String]] ?? []).compactMap { $0["name"] }
        XCTAssertEqual(fields, ["Rename Folder"], "\(report)")
        XCTAssertEqual(Set(report["buttons"] as? [String] ?? []), ["Cancel", "Rename"], "\(report)")
        XCTAssertEqual(probe.status, 0, probe.error)
    }

    // MARK: Helpers

    private func requireSessionBus() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("needs a session bus for the accessibility bus: run under dbus-run-session (meson-helpers/test.sh does)")
        }
    }

    /// Runs `meson-helpers/accessibility-names.py` on the real program over `library` with
    /// `options`; returns its run and its JSON report.
    private static func probe(_ library: String, _ options: String...) throws -> (run: ProgramRun, report: [String: Any]) {
        // Debian's own python3, where python3-pyatspi installs the AT-SPI bindings.
        let probe = try ProgramRun(
            URL(filePath: "/usr/bin/python3"),
            [packageRoot.appending(path: "meson-helpers/accessibility-names.py").path, quireExecutable.path, library] + options,
            environment: ["GSETTINGS_SCHEMA_DIR": try schemaFolder.get().path, "GSETTINGS_BACKEND": "memory"])
        let report = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(probe.output.utf8)) as? [String: Any], "\(probe.output)\(probe.error)")
        return (probe, report)
    }
}

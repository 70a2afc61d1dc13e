import Foundation
import Library
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
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("needs a session bus for the accessibility bus: run under dbus-run-session (meson-helpers/test.sh does)")
        }
        let folder = try makeTemporaryFolder()
        let library = folder.appending(path: "library.quire").path
        let demo = try Self.run(Self.quireExecutable, ["demo", "--library", library, "--articles", "5"])
        XCTAssertEqual(demo.status, 0, demo.errors)
        // Debian's own python3, where python3-pyatspi installs the AT-SPI bindings.
        let probe = try Self.run(
            URL(filePath: "/usr/bin/python3"),
            [Self.packageRoot.appending(path: "meson-helpers/accessibility-names.py").path, Self.quireExecutable.path, library],
            environment: ["GSETTINGS_SCHEMA_DIR": try Self.schemaFolder.get().path, "GSETTINGS_BACKEND": "memory"])
        let report = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(probe.output.utf8)) as? [String: Any], "\(probe.output)\(probe.errors)")
        XCTAssertGreaterThan(report["nodes"] as? Int ?? 0, 100, "the window's tree was read: \(report)")
        XCTAssertEqual((report["unnamedButtons"] as? [Any])?.count, 0, "buttons without a name: \(report)")
        XCTAssertGreaterThanOrEqual(report["rows"] as? Int ?? 0, 5, "the sidebar's and the five articles' rows were read: \(report)")
        XCTAssertEqual((report["silentRows"] as? [Any])?.count, 0, "rows that say nothing: \(report)")
        XCTAssertEqual((report["unnamedFields"] as? [Any])?.count, 0, "fields and lists without a name: \(report)")
        // The places a writer works in, by the names a screen reader says.
        let fields = Set((report["fields"] as? [[String: String]] ?? []).compactMap { $0["name"] })
        for name in ["Folders and tags", "Articles", "Title", "Article text", "Add a tag"] {
            XCTAssertTrue(fields.contains(name), "no field or list named \(name): \(report)")
        }
        XCTAssertEqual(probe.status, 0, probe.errors)
    }

    /// The conflict dialog as a screen reader reads it, over AT-SPI: the window is described by
    /// its summary, each side's text is labelled by its device and described by its time, the
    /// merged result and the list of changes by their headings (`labelled-by`, `described-by` in
    /// `ConflictDialog.ui`), every target with words.
    func testTheConflictDialogRelatesItsTextsToTheirHeadings() throws {
        try requireXdotool()
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("needs a session bus for the accessibility bus: run under dbus-run-session (meson-helpers/test.sh does)")
        }
        let library = try makeTemporaryFolder().appending(path: "library.quire")
        try blocking {
            let store = try Library(url: library)
            let base = ArticleContent(title: "Field notes", body: "First line.\nThe shared line.\nLast line.\n")
            let mine = ArticleContent(title: "Field notes", body: "First line.\nThe shared line, as I wrote it.\nLast line.\n")
            let theirs = ArticleContent(title: "Field notes", body: "First line.\nThe shared line, as the server has it.\nLast line.\n")
            let notes = try await store.createArticle(mine)
            try await store.recordConflict(articleID: notes.id, base: base, local: mine, remote: theirs, baseRevision: 1, remoteRevision: 2)
        }
        let probe = try Self.run(
            URL(filePath: "/usr/bin/python3"),
            [Self.packageRoot.appending(path: "meson-helpers/accessibility-names.py").path, Self.quireExecutable.path, library.path,
             "--conflict-dialog"],
            environment: ["GSETTINGS_SCHEMA_DIR": try Self.schemaFolder.get().path, "GSETTINGS_BACKEND": "memory"])
        let report = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(probe.output.utf8)) as? [String: Any], "\(probe.output)\(probe.errors)")
        XCTAssertEqual(probe.status, 0, "\(report) \(probe.errors)")
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
}

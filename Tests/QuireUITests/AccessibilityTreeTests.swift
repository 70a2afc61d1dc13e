import Foundation
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
}

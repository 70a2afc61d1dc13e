import GtkTestSupport
import XCTest

@testable import GtkKit

final class SettingsTests: GtkTestCase, @unchecked Sendable {
    private func compileSchema() throws -> URL {
        let folder = try makeTemporaryFolder()
        try """
            <schemalist>
              <schema id="org.quire.GtkKitTests" path="/org/quire/GtkKitTests/">
                <key name="width" type="i"><default>800</default><summary>Width</summary></key>
                <key name="maximized" type="b"><default>false</default><summary>Maximized</summary></key>
                <key name="library" type="s"><default>''</default><summary>Library</summary></key>
              </schema>
            </schemalist>
            """.write(to: folder.appending(path: "org.quire.GtkKitTests.gschema.xml"), atomically: true, encoding: .utf8)
        try runTool(["glib-compile-schemas", "--strict", folder.path])
        return folder
    }

    func testKeysReadDefaultsAndRoundTripWrites() throws {
        let folder = try compileSchema()
        try MainActor.assumeIsolated {
            let settings = try XCTUnwrap(Settings.lookup(schemaID: "org.quire.GtkKitTests", inDirectory: folder.path))
            XCTAssertEqual(settings.schemaID, "org.quire.GtkKitTests")
            XCTAssertEqual(settings.int(forKey: "width"), 800)
            XCTAssertFalse(settings.bool(forKey: "maximized"))
            XCTAssertEqual(settings.string(forKey: "library"), "")

            XCTAssertTrue(settings.set(Int32(1200), forKey: "width"))
            XCTAssertTrue(settings.set(true, forKey: "maximized"))
            XCTAssertTrue(settings.set("/home/writer/Quire", forKey: "library"))
            XCTAssertEqual(settings.int(forKey: "width"), 1200)
            XCTAssertTrue(settings.bool(forKey: "maximized"))
            XCTAssertEqual(settings.string(forKey: "library"), "/home/writer/Quire")

            settings.reset("width")
            XCTAssertEqual(settings.int(forKey: "width"), 800)
            XCTAssertTrue(settings.hasKey("library"))
            XCTAssertFalse(settings.hasKey("height"))
        }
    }

    func testMissingSchemaIsNilInsteadOfAnAbort() throws {
        let folder = try compileSchema()
        try MainActor.assumeIsolated {
            XCTAssertNil(Settings.lookup(schemaID: "org.quire.GtkKitTests.Missing"))
            XCTAssertNil(try Settings.lookup(schemaID: "org.quire.GtkKitTests.Missing", inDirectory: folder.path))
        }
    }

    func testUnreadableSchemaFolderThrows() throws {
        try MainActor.assumeIsolated {
            XCTAssertThrowsError(try Settings.lookup(schemaID: "org.quire.GtkKitTests", inDirectory: "/nonexistent/schemas")) {
                error in
                XCTAssertEqual((error as? GLibError)?.operation, "reading GSettings schemas in /nonexistent/schemas")
            }
        }
    }
}

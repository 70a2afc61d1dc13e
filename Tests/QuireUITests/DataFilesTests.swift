import Foundation
import QuireTestSupport
import XCTest

@testable import QuireUI

/// The files in `data/` that the meson build installs: valid for their validators, and naming
/// Quire the way the code does.
final class DataFilesTests: QuireTestCase, @unchecked Sendable {
    private static let data = packageRoot.appending(path: "data")
    private static let desktopFile = data.appending(path: "\(Quire.applicationID).desktop")
    private static let metainfo = data.appending(path: "\(Quire.applicationID).metainfo.xml")
    private static let schema = data.appending(path: "\(Quire.applicationID).gschema.xml")
    private static let icon = data.appending(path: "icons/hicolor/scalable/apps/\(Quire.applicationID).svg")
    private static let symbolicIcon = data.appending(path: "icons/hicolor/symbolic/apps/\(Quire.applicationID)-symbolic.svg")

    func testDesktopFileValidates() throws {
        _ = try Tool.run("desktop-file-validate", [Self.desktopFile.path])
    }

    func testMetainfoValidates() throws {
        _ = try Tool.run("appstreamcli", ["validate", "--no-net", Self.metainfo.path])
    }

    /// The metainfo a packager installs with `-Dscreenshot_url=…` (meson-helpers/metainfo-screenshots.py)
    /// validates and names screenshots the tests saved in data/screenshots/. The address is
    /// example.org's (reserved for examples): this checks the file's shape, not a served address.
    func testMetainfoWithScreenshotsValidatesAndNamesSavedScreenshots() throws {
        let folder = try makeTemporaryFolder()
        let output = folder.appending(path: "\(Quire.applicationID).metainfo.xml")
        let base = "https://example.org/quire/data/screenshots/"
        _ = try Tool.run("python3", [
            Self.packageRoot.appending(path: "meson-helpers/metainfo-screenshots.py").path, base, Self.metainfo.path, output.path,
        ])
        _ = try Tool.run("appstreamcli", ["validate", "--no-net", output.path])
        let text = try String(contentsOf: output, encoding: .utf8)
        let images = text.components(separatedBy: "<image>").dropFirst().compactMap { $0.components(separatedBy: "</image>").first }
        XCTAssertEqual(images.count, 4)
        for image in images {
            XCTAssertTrue(image.hasPrefix(base), image)
            let file = Self.data.appending(path: "screenshots/\(image.dropFirst(base.count))")
            XCTAssertTrue(try PNGCheck.hasSignature(file.path), "\(file.path) is a saved screenshot")
        }
    }

    func testSchemaCompilesStrictly() throws {
        let folder = try makeTemporaryFolder()
        try FileManager.default.copyItem(at: Self.schema, to: folder.appending(path: Self.schema.lastPathComponent))
        _ = try Tool.run("glib-compile-schemas", ["--strict", "--dry-run", folder.path])
    }

    func testEveryFileNamesTheApplicationID() throws {
        let id = Quire.applicationID
        let desktop = try String(contentsOf: Self.desktopFile, encoding: .utf8)
        XCTAssertTrue(desktop.contains("\nIcon=\(id)\n"))
        XCTAssertTrue(desktop.contains("\nExec=quire\n"))

        let metainfo = try String(contentsOf: Self.metainfo, encoding: .utf8)
        XCTAssertTrue(metainfo.contains("<id>\(id)</id>"))
        XCTAssertTrue(metainfo.contains("<launchable type=\"desktop-id\">\(id).desktop</launchable>"))
        XCTAssertTrue(metainfo.contains("<binary>quire</binary>"))

        let schema = try String(contentsOf: Self.schema, encoding: .utf8)
        XCTAssertTrue(schema.contains("<schema id=\"\(Quire.settingsSchemaID)\" path=\"\(Quire.resourcePath)\">"))

        XCTAssertTrue(FileManager.default.fileExists(atPath: Self.icon.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: Self.symbolicIcon.path))
        XCTAssertEqual(Quire.resourcePath, "/org/quire/Quire/")
    }

    func testVersionIsTheSameInMesonAndMetainfo() throws {
        let meson = try String(contentsOf: Self.packageRoot.appending(path: "meson-helpers/meson.build"), encoding: .utf8)
        XCTAssertTrue(meson.contains("version: '\(Quire.version)'"), "meson.build's project version")
        let metainfo = try String(contentsOf: Self.metainfo, encoding: .utf8)
        let newestRelease = try XCTUnwrap(metainfo.range(of: "<release version=\"").map { metainfo[$0.upperBound...] })
        XCTAssertTrue(newestRelease.hasPrefix("\(Quire.version)\""), "the metainfo's newest release")
    }
}

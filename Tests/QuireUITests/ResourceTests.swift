import GtkKit
import XCTest

@testable import QuireUI

/// The GResource bundle compiled into QuireUI.
final class ResourceTests: QuireTestCase, @unchecked Sendable {
    func testBundleHoldsTheFilesGTKLooksUpByPath() {
        let bundle = QuireResources.bundle
        XCTAssertTrue(bundle.contains(Quire.resourcePath + "gtk/help-overlay.ui"))
        XCTAssertTrue(bundle.contains(Quire.resourcePath + "icons/scalable/apps/\(Quire.applicationID).svg"))
        XCTAssertTrue(bundle.contains(Quire.resourcePath + "icons/symbolic/apps/\(Quire.applicationID)-symbolic.svg"))
    }

    func testEveryUIFileLoads() throws {
        try MainActor.assumeIsolated {
            QuireResources.register()
            let files = QuireResources.bundle.files(under: Quire.resourcePath).filter { $0.hasSuffix(".ui") }
            // Every .ui file in the source tree is in the bundle, so none is forgotten in the manifest.
            XCTAssertEqual(files.count, Self.uiFilesInSourceTree().count)
            for file in files {
                XCTAssertNoThrow(try Builder(resource: file), file)
            }
        }
    }

    private static func uiFilesInSourceTree() -> [URL] {
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/QuireUI")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? []
        return files.filter { $0.pathExtension == "ui" }
    }
}

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
            XCTAssertEqual(files.count, 10)
            for file in files {
                XCTAssertNoThrow(try Builder(resource: file), file)
            }
        }
    }
}

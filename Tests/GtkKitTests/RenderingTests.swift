import CGtk
import GtkTestSupport
import XCTest

@testable import GtkKit

final class RenderingTests: GtkTestCase, @unchecked Sendable {
    func testWindowRendersAtItsSizeAfterTheFirstFrame() throws {
        let folder = try makeTemporaryFolder()
        let path = folder.appending(path: "window.png").path
        try MainActor.assumeIsolated {
            let window = Window()
            defer { window.destroy() }
            window.title = "Rendering"
            window.defaultSize = (320, 200)
            gtk_window_set_child(window.windowPointer, gtk_label_new("A draft worth keeping"))
            XCTAssertThrowsError(try window.renderTexture()) { error in
                XCTAssertEqual(error as? RenderError, .notRealized(widget: "GtkWindow"))
            }

            var texture: Texture?
            var framesSeen = 0
            window.afterNextFrame {
                framesSeen += 1
                texture = try? window.renderTexture()
            }
            window.present()
            spinMainLoop { texture != nil }
            let rendered = try XCTUnwrap(texture)
            XCTAssertEqual(framesSeen, 1)
            XCTAssertGreaterThan(window.width, 0)
            XCTAssertEqual(rendered.width, window.width)
            XCTAssertEqual(rendered.height, window.height)
            XCTAssertGreaterThan(Set(rendered.pixels()).count, 1, "the label and background differ")

            try rendered.savePNG(to: path)
            let loaded = try Texture(contentsOfFile: path)
            XCTAssertEqual(loaded.width, rendered.width)
            XCTAssertEqual(loaded.height, rendered.height)
            XCTAssertEqual(loaded.pixels(), rendered.pixels(), "PNG is lossless")

            XCTAssertThrowsError(try rendered.savePNG(to: "/nonexistent/folder/window.png")) { error in
                XCTAssertEqual(error as? RenderError, .cannotWritePNG(path: "/nonexistent/folder/window.png"))
            }
            XCTAssertThrowsError(try Texture(contentsOfFile: folder.appending(path: "missing.png").path))
        }
    }

    func testTimeoutFiresOnceUnlessCancelled() {
        MainActor.assumeIsolated {
            var fired = 0
            let timeout = Timeout(milliseconds: 10) { fired += 1 }
            var cancelledFired = false
            let cancelled = Timeout(milliseconds: 10) { cancelledFired = true }
            cancelled.cancel()
            XCTAssertTrue(timeout.isPending)
            spinMainLoop { timeout.hasFired }
            let later = Timeout(milliseconds: 30) {}
            spinMainLoop { later.hasFired }
            XCTAssertEqual(fired, 1)
            XCTAssertFalse(timeout.isPending)
            XCTAssertFalse(cancelledFired)
            XCTAssertFalse(cancelled.hasFired)
        }
    }
}

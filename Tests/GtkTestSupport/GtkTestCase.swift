import CGtk
import Foundation
import Glibc
import GtkKit
import XCTest

/// Base of every GTK test class (GtkKitTests, GtkWebKitTests, QuireUITests): GTK set up for a test
/// under Xvfb, the main loop run until a condition holds, temporary folders, screenshots.
///
/// XCTest runs test methods on the main thread, where GTK lives; test bodies enter the main actor
/// with `MainActor.assumeIsolated` (an `@MainActor` XCTestCase crashes the Linux XCTest runner).
/// GTK is initialized once per process, the first time any GTK test runs, and needs a display: run
/// the tests under `xvfb-run` as `meson-helpers/suite.sh` does.
open class GtkTestCase: XCTestCase, @unchecked Sendable {
    /// How long a main loop may run before the test gives up on it.
    public static let watchdogMilliseconds: UInt32 = 20_000

    open override func setUpWithError() throws {
        try super.setUpWithError()
        // Never write to the user's real settings.
        setenv("GSETTINGS_BACKEND", "memory", 0)
        try MainActor.assumeIsolated {
            try GtkRuntime.initialize()
            MainLoopBridge.install()
        }
    }

    open override func tearDownWithError() throws {
        MainActor.assumeIsolated { Self.resetDisplay() }
        try super.tearDownWithError()
    }

    /// Leaves the display as the next test expects it: no window of this test left open. A window
    /// left open with a menu or popover holds a keyboard grab, and the next test's real key presses
    /// (XTEST) then go to it (seen with a spelling menu left open; TitleFieldTests' and
    /// WritingSurfaceTests' key presses went missing once in a flake hunt, cause not pinned down).
    @MainActor
    private static func resetDisplay() {
        let toplevels = gtk_window_get_toplevels()
        let leftovers = (0..<g_list_model_get_n_items(toplevels)).compactMap { g_list_model_get_item(toplevels, $0) }
        for window in leftovers {
            gtk_window_destroy(window.assumingMemoryBound(to: GtkWindow.self))
            g_object_unref(window)
        }
        // Let GTK unmap them (bounded: a repeating idle source would keep the loop busy forever).
        var iterations = 0
        while iterations < 1000, g_main_context_iteration(nil, 0) != 0 { iterations += 1 }
        if let display = gdk_display_get_default() { gdk_display_sync(display) }
    }

    /// Runs the default main context until `done` returns true; fails the test if the watchdog
    /// fires first.
    @MainActor
    public func spinMainLoop(until done: () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        let watchdog = Timeout(milliseconds: Self.watchdogMilliseconds) {}
        while !done() && !watchdog.hasFired {
            g_main_context_iteration(nil, 1)
        }
        if !done() { XCTFail("the main loop ran out of time", file: file, line: line) }
    }

    /// A new folder that is removed after the test.
    public func makeTemporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "gtk-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// Where screenshots go: `$QUIRE_TEST_SCREENSHOTS` when set (to look at them, or to refresh
    /// the README's), otherwise a temporary folder.
    public func screenshotFolder() throws -> URL {
        guard let path = ProcessInfo.processInfo.environment["QUIRE_TEST_SCREENSHOTS"] else { return try makeTemporaryFolder() }
        let folder = URL(filePath: path)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Renders `window` after its next frame and writes it as a PNG.
    @MainActor
    public func render(_ window: Window, to path: String) throws {
        var result: Result<Void, Error>?
        gtk_widget_queue_draw(window.widgetPointer)
        window.afterNextFrame { result = Result { try window.renderTexture().savePNG(to: path) } }
        spinMainLoop { result != nil }
        try result?.get()
    }
}

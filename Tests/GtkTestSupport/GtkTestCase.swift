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
        GLibWarnings.install()
        try MainActor.assumeIsolated {
            try GtkRuntime.initialize()
            MainLoopBridge.install()
        }
        // What came before this test is not its doing.
        _ = GLibWarnings.take()
    }

    open override func tearDownWithError() throws {
        MainActor.assumeIsolated { Self.resetDisplay() }
        // Its windows are gone, so what their closing logged counts too.
        for warning in GLibWarnings.take() { XCTFail("GLib logged a warning during the test: \(warning)") }
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

    /// Renders `widget` as drawn and writes it as a PNG (``drawnTexture(of:)``), spinning the main
    /// loop while it waits: for tests that do not run inside the application's own loop.
    @MainActor
    @discardableResult
    public func render(_ widget: Widget, to path: String) throws -> Texture {
        var result: Result<Texture, DrawnFrameError>?
        renderDrawnFrame(of: widget, attempts: Self.frameAttempts) { result = $0 }
        spinMainLoop { result != nil }
        let texture = try XCTUnwrap(result).get()
        try texture.savePNG(to: path)
        return texture
    }

    /// ``render(_:to:)`` for tests that run inside the application's main loop (which keeps running
    /// while this waits).
    @MainActor
    @discardableResult
    public func renderWhenDrawn(_ widget: Widget, to path: String) async throws -> Texture {
        let texture = try await drawnTexture(of: widget)
        try texture.savePNG(to: path)
        return texture
    }

    /// The widget as it is drawn on screen. A widget's picture exists only between a frame that
    /// drew it and the next change that asks for a redraw (GTK drops the widget's render node
    /// then, and rendering it gives nothing): so it is rendered in the turn of the main loop right
    /// after its frame, and again after the next frame until it holds the widget's content (more
    /// than a few colours: a window whose layout was still pending draws as a bare background).
    @MainActor
    public func drawnTexture(of widget: Widget) async throws -> Texture {
        try await withCheckedThrowingContinuation { continuation in
            renderDrawnFrame(of: widget, attempts: Self.frameAttempts) { continuation.resume(with: $0) }
        }
    }

    /// Waits until `widget` has drawn a frame from now on (a redraw is asked for, so one comes).
    @MainActor
    public func nextFrame(of widget: Widget) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let once = FrameWait<Void>(widget) { continuation.resume(with: $0) }
            widget.queueDraw()
            widget.afterNextFrame { once.finish(.success(())) }
        }
    }

    /// Waits until `widget` keeps its size from one frame to the next (a window still taking its
    /// size from the X server, or a sidebar still growing, moves it for some frames, more of them
    /// on a busy machine); returns that size. Gives up after ``frameAttempts`` frames.
    @MainActor
    @discardableResult
    public func settledSize(of widget: Widget) async throws -> (width: Int, height: Int) {
        var size = (width: widget.width, height: widget.height)
        for _ in 0..<Self.frameAttempts {
            try await nextFrame(of: widget)
            let now = (width: widget.width, height: widget.height)
            if now == size, now.width > 0 { return now }
            size = now
        }
        throw DrawnFrameError(what: "\(widget.typeName) kept changing its size", frames: Self.frameAttempts)
    }

    /// Frames a render waits for at most before it gives up on the widget being drawn.
    static let frameAttempts = 50

    /// Renders `widget` after its next frame; when that picture is empty (a redraw asked for
    /// between the frame and the render) or bare, after the frame after, up to `attempts` frames.
    /// `done` gets the picture, or the failure, once; the watchdog bounds the whole wait.
    @MainActor
    private func renderDrawnFrame(
        of widget: Widget, attempts: Int, _ done: @escaping @MainActor (Result<Texture, DrawnFrameError>) -> Void
    ) {
        let once = FrameWait(widget, done)
        var left = attempts
        var lastFailure = "no frame was drawn"
        func attempt() {
            widget.queueDraw()
            widget.afterNextFrame {
                guard !once.isFinished else { return }
                do {
                    let texture = try widget.renderTexture()
                    if Set(texture.pixels()).count > Self.drawnColours { return once.finish(.success(texture)) }
                    lastFailure = "\(widget.typeName) drew only its background"
                } catch {
                    lastFailure = String(describing: error)
                }
                left -= 1
                guard left > 0 else { return once.finish(.failure(DrawnFrameError(what: lastFailure, frames: attempts))) }
                attempt()
            }
        }
        attempt()
    }

    /// More colours than this in a picture: the widgets are drawn, not only a background.
    static let drawnColours = 16
}

/// A widget that was not drawn within the frames or the time a test waits for it.
public struct DrawnFrameError: Error, CustomStringConvertible {
    var what: String
    var frames: Int

    public var description: String { "\(what) (after \(frames) frames or \(GtkTestCase.watchdogMilliseconds) ms)" }
}

/// One wait for a widget's frame: finishes once, with its result or with the watchdog's failure.
@MainActor
private final class FrameWait<Success> {
    private var done: ((Result<Success, DrawnFrameError>) -> Void)?
    private var watchdog: Timeout?

    init(_ widget: Widget, _ done: @escaping @MainActor (Result<Success, DrawnFrameError>) -> Void) {
        self.done = done
        let name = widget.typeName
        watchdog = Timeout(milliseconds: GtkTestCase.watchdogMilliseconds) { [weak self] in
            self?.finish(.failure(DrawnFrameError(what: "\(name) drew no frame", frames: 0)))
        }
    }

    var isFinished: Bool { done == nil }

    func finish(_ result: Result<Success, DrawnFrameError>) {
        guard let done else { return }
        self.done = nil
        watchdog?.cancel()
        watchdog = nil
        done(result)
    }
}

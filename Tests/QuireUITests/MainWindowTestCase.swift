import CGtk
import Foundation
import GtkKit
import Library
import ObjectGraph
import XCTest

@testable import QuireUI

/// Base of the tests that drive the real application's library window over a temporary library.
class MainWindowTestCase: QuireTestCase, @unchecked Sendable {
    /// A library in `folder` (a temporary folder by default), filled by `fill`.
    func makeLibrary(in folder: URL? = nil, _ fill: @escaping @Sendable (Library) async throws -> Void) throws -> URL {
        let url = try (folder ?? makeTemporaryFolder()).appending(path: "library.quire")
        try blocking { try await fill(try Library(url: url)) }
        return url
    }

    /// Runs the application over the library, runs `body` once the window is open, then quits.
    /// The window must have shown no error but those under `expectedErrorHeadings`, in order
    /// (`body` checks what they say). With `windowSize`, the window opens at that size, saved in
    /// settings of its own (a new key file, every other key at its default), instead of its
    /// built-in one.
    func drive(
        _ url: URL, windowSize: (width: Int32, height: Int32)? = nil, expectedErrorHeadings: [String] = [],
        file: StaticString = #filePath, line: UInt = #line,
        _ body: @escaping @MainActor (MainWindow) async throws -> Void
    ) {
        MainActor.assumeIsolated {
            var settings: Settings?
            if let windowSize {
                settings = try? Settings.lookup(
                    schemaID: Quire.settingsSchemaID, inDirectory: Self.schemaFolder.get().path,
                    keyFile: makeTemporaryFolder().appending(path: "settings.ini").path)
                XCTAssertNotNil(settings, "Quire's settings schema", file: file, line: line)
                settings?.set(windowSize.width, forKey: "window-width")
                settings?.set(windowSize.height, forKey: "window-height")
            }
            let status = runQuire(settings: settings, libraryURL: url, file: file, line: line) { quire, window in
                Task { @MainActor in
                    do {
                        try await body(window)
                    } catch {
                        XCTFail("\(error); sidebar: \(window.sidebar.items), folders: \(window.sidebar.folders), errors: \(window.shownErrors)", file: file, line: line)
                    }
                    let shown = window.shownErrors.map { error in expectedErrorHeadings.first { error.hasPrefix($0 + ": ") } ?? error }
                    XCTAssertEqual(shown, expectedErrorHeadings, file: file, line: line)
                    quire.application.activateAction(named: "quit")
                }
            }
            XCTAssertEqual(status, 0, file: file, line: line)
        }
    }

    /// Waits, letting the main loop run, until `condition` holds (at most ten seconds).
    @MainActor
    func until(_ line: UInt = #line, _ condition: @MainActor () async throws -> Bool) async throws {
        for _ in 0..<500 {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw WaitTimedOut(what: "the condition on line \(line)")
    }

    /// Selects the listed article with this title, which opens it.
    @MainActor
    func open(_ title: String, in window: MainWindow) throws {
        let index = try XCTUnwrap(titles(window).firstIndex(of: title), "\(title) is listed")
        XCTAssertTrue(window.articleList.select(window.articleList.article(at: index).objectID))
        XCTAssertEqual(window.session?.article.title, title)
    }

    @MainActor
    func titles(_ window: MainWindow) -> [String] {
        (0..<window.articleList.count).map { window.articleList.article(at: $0).title }
    }

    /// Gives the window's content `width` × `height` pixels once it is on screen. Without a
    /// compositor (Xvfb) GTK gives the window a solid frame to resize it by, so the content is
    /// narrower than the default size; and a window gets only as narrow as its widgets let it at
    /// the moment (folded, they let it narrower), so ask until it is so.
    @MainActor
    func resize(_ window: MainWindow, to width: Int, height: Int = 800) async throws {
        // The window's own size comes with its first frame; a size asked before it is lost.
        try await until { window.window.width > 0 }
        let frame = window.window.defaultSize.width - window.window.width
        try await until {
            if window.window.width != width { window.window.defaultSize = (width + frame, height) }
            return window.window.width == width
        }
        // A width that folds or unfolds the leaflet animates its panes into place; until they are,
        // a pane reaches past the window's edge (a screenshot then cut the editor's placeholder).
        try await until { Self.panesAreInPlace(in: window.leaflet) }
    }

    /// Gives the window the keyboard as a window manager would, and waits until it has it: for
    /// real key presses, and after a dialog over it closes (without a window manager the X server
    /// hands a closed dialog's keyboard to its X parent, the root window).
    ///
    /// Not `present()`: on a shown window it asks for the keyboard stamped with the display's last
    /// user time, and the X server ignores a focus request stamped later than its own clock.
    /// After `EditorAttachmentXEventTests`' drop from a GTK 4 program that time is garbage, days
    /// ahead (GTK 4.8's X11 drag source emits `drop-performed` without the time its handler puts
    /// in XdndDrop, and the drop target takes that time as its user time), and no later key press
    /// moves it back. The window asks with the server's own time, as a window manager does.
    @MainActor
    func giveKeyboard(to window: MainWindow) async throws {
        gdk_toplevel_focus(gtk_native_get_surface(OpaquePointer(window.window.widgetPointer)), UInt32(GDK_CURRENT_TIME))
        try await until { gtk_window_is_active(window.window.windowPointer) != 0 }
    }

    /// Whether every pane the leaflet shows lies inside it, as once its fold animation has ended
    /// (its other children, the shadows of the animation, may lie outside).
    @MainActor
    static func panesAreInPlace(in leaflet: Leaflet) -> Bool {
        let panes = leaflet.children.filter { $0.isMapped && adw_leaflet_get_page(leaflet.opaquePointer, $0.widgetPointer) != nil }
        return panes.allSatisfy { pane in
            var x = 0.0
            var y = 0.0
            guard gtk_widget_translate_coordinates(pane.widgetPointer, leaflet.widgetPointer, 0, 0, &x, &y) != 0 else { return false }
            return x >= 0 && Int(x) + pane.width <= leaflet.width
        }
    }

    /// The whole X screen as a PNG at `path`, captured with ImageMagick's `import -window root`:
    /// every surface is in it, popovers too (each is a surface of its own, which rendering its
    /// window leaves out).
    @MainActor
    func captureScreen(to path: String) throws -> Texture {
        let capture = Process()
        capture.executableURL = URL(fileURLWithPath: "/usr/bin/import")
        capture.arguments = ["-window", "root", path]
        try capture.run()
        capture.waitUntilExit()
        XCTAssertEqual(capture.terminationStatus, 0, "import -window root \(path)")
        return try Texture(contentsOfFile: path)
    }

    /// Captures the screen with `popover` open into `path` once it has drawn a frame, reads the
    /// texts of the labels it shows (mapped, in the widget tree's order), closes it with `close`,
    /// and captures the screen again once `window` has drawn without it (`…-closed.png`). Where
    /// the popover's surface stands on the screen (its position on the window's surface, which
    /// Xvfb without a window manager puts at the screen's corner), most pixels of the two pictures
    /// must differ: the popover is in the picture. Returns the labels.
    @MainActor
    func screenshotPopover(
        _ popover: Widget, over window: Window, to path: String, closing close: () async throws -> Void
    ) async throws -> [String] {
        try await until { popover.isMapped && popover.width > 0 }
        try await nextFrame(of: popover)
        let surface = try XCTUnwrap(gtk_widget_get_native(popover.widgetPointer).flatMap { gtk_native_get_surface($0) })
        let area = (
            x: Int(gdk_popup_get_position_x(surface)), y: Int(gdk_popup_get_position_y(surface)),
            width: Int(gdk_surface_get_width(surface)), height: Int(gdk_surface_get_height(surface)))
        let open = try captureScreen(to: path)
        let labels = popover.descendants(ofType: Label.self).filter(\.isMapped).map(\.text)
        try await close()
        try await until { !popover.isMapped }
        try await nextFrame(of: window)
        let closed = try captureScreen(to: path.replacingOccurrences(of: ".png", with: "-closed.png"))
        XCTAssertEqual(open.width, closed.width)
        XCTAssertEqual(open.height, closed.height)
        let (before, after) = (closed.pixels(), open.pixels())
        var (inside, differing) = (0, 0)
        for y in max(0, area.y)..<min(open.height, area.y + area.height) {
            for x in max(0, area.x)..<min(open.width, area.x + area.width) {
                inside += 1
                if after[y * open.width + x] != before[y * open.width + x] { differing += 1 }
            }
        }
        XCTAssertGreaterThan(inside, 0, "the popover's surface \(area) is on the screen")
        XCTAssertGreaterThan(Double(differing), 0.5 * Double(inside), "the popover's area \(area) shows it: \(path)")
        return labels
    }
}

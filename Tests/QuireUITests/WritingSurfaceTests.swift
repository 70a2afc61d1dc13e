import CGtk
import Foundation
import GtkKit
import Library
import QuireTestSupport
import XCTest

@testable import QuireUI

/// The writing surface in the real application window under Xvfb: focus mode and fullscreen on
/// real key presses, preferences applied live and read back after a restart, the window from
/// 360 pixels up, and the screenshots the README shows.
final class WritingSurfaceTests: MainWindowTestCase, @unchecked Sendable {
    static let article = """
        ## The harbour at dawn

        The tide came in early and the boats sat high against the wall. **Gulls** argued over
        the nets while the first ferry turned in the channel.

        | Boat | Left at |
        |------|--------:|
        | Marie | 05:40 |
        | Swift | 06:10 |

        - [x] Check the charts
        - [ ] Call the harbour master

        > The sea keeps its own hours.

        ```swift
        let tide = Tide(rising: true)
        ```

        """

    private func harbourLibrary() throws -> URL {
        try makeLibrary { library in
            _ = try await library.createArticle(ArticleContent(title: "Notes from the harbour", body: Self.article, folder: "Essays"))
            _ = try await library.createArticle(ArticleContent(title: "Ferry timetable", body: "Boats leave on the hour."))
        }
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try requireXdotool()
        MainActor.assumeIsolated { settleAnimations() }
    }

    @MainActor
    private func waitUntilActive(_ window: MainWindow) async throws {
        try await until { gtk_window_is_active(window.window.windowPointer) != 0 }
    }

    func testFocusModeLeavesOnlyTheTextAndEscapeBringsEverythingBack() throws {
        let url = try harbourLibrary()
        drive(url) { window in
            try self.open("Notes from the harbour", in: window)
            window.preferences.previewVisible = true
            try await self.waitUntilActive(window)
            window.editor.focusBody()
            try press(["key", "ctrl+shift+f"])
            try await self.until { window.isInFocusMode }
            for hidden in [window.headerBar, window.sidebarPane, window.listPane, window.editor.statusBar, window.editor.previewSlot] {
                XCTAssertFalse(hidden.isVisible, hidden.typeName)
            }
            XCTAssertTrue(window.editor.textColumn.isVisible)
            XCTAssertTrue(window.editor.bodyView.hasFocus, "the writer goes on typing")

            try press(["key", "Escape"])
            try await self.until { !window.isInFocusMode }
            for shown in [window.headerBar, window.sidebarPane, window.listPane, window.editor.statusBar] {
                XCTAssertTrue(shown.isVisible, shown.typeName)
            }
            XCTAssertFalse(window.focusActions.leave.isEnabled, "Escape belongs to the widgets again")
        }
    }

    func testF11AsksForFullscreenAndEscapeLeavesIt() throws {
        // Fullscreen is the window manager's to grant: run one on the test's display meanwhile.
        let manager = Process()
        manager.executableURL = URL(filePath: "/usr/bin/openbox")
        manager.arguments = ["--sm-disable"]
        manager.standardError = FileHandle.nullDevice
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openbox") else {
            throw XCTSkip("needs openbox (meson-helpers/packages.sh installs it)")
        }
        try manager.run()
        defer {
            manager.terminate()
            manager.waitUntilExit()
        }
        try waitUntil("the window manager runs") {
            try ProgramRun(URL(filePath: "/usr/bin/xdotool"), ["getactivewindow"]).status == 0
                || (try ProgramRun(URL(filePath: "/usr/bin/xprop"), ["-root", "_NET_SUPPORTING_WM_CHECK"]).output.contains("window id"))
        }
        let url = try harbourLibrary()
        drive(url) { window in
            try self.open("Notes from the harbour", in: window)
            try await self.waitUntilActive(window)
            try press(["key", "F11"])
            try await self.until { window.window.isFullscreen }
            XCTAssertEqual(window.focusActions.fullscreen.state, true)
            try press(["key", "Escape"])
            try await self.until { !window.window.isFullscreen }
            XCTAssertEqual(window.focusActions.fullscreen.state, false)
        }
    }

    func testPreferencesChangeTheEditorLiveAndAreThereAfterARestart() throws {
        let url = try harbourLibrary()
        let keyFile = try makeTemporaryFolder().appending(path: "settings.ini").path
        let schemas = try Self.schemaFolder.get().path
        defer { MainActor.assumeIsolated { StyleManager.shared.setColorScheme(.default) } }
        MainActor.assumeIsolated {
            let settings = try! XCTUnwrap(Settings.lookup(schemaID: Quire.settingsSchemaID, inDirectory: schemas, keyFile: keyFile))
            let status = runQuire(settings: settings, libraryURL: url) { quire, window in
                Task { @MainActor in
                    do {
                        try self.open("Notes from the harbour", in: window)
                        let narrowFont = window.editor.bodyView.size(ofText: "iiiiiiiiii").width
                        window.showPreferences()
                        let page = try XCTUnwrap(window.shownEditorPreferences)
                        page.fontRow.selected = EditorAppearance.Font.allCases.firstIndex(of: .monospace)!
                        page.sizeSpin.value = 16
                        page.styleRow.selected = StyleChoice.allCases.firstIndex(of: .dark)!
                        page.typewriterSwitch.isActive = true
                        // Live: the text is in a monospace font now ("i" as wide as "M"), and dark.
                        try await self.until {
                            window.editor.bodyView.size(ofText: "iiiiiiiiii").width == window.editor.bodyView.size(ofText: "MMMMMMMMMM").width
                        }
                        XCTAssertGreaterThan(window.editor.bodyView.size(ofText: "iiiiiiiiii").width, narrowFont)
                        XCTAssertTrue(StyleManager.shared.isDark)
                        XCTAssertEqual(window.editor.appearance.fontSize, 16)
                        XCTAssertTrue(window.editor.appearance.typewriterScrolling)
                    } catch {
                        XCTFail("\(error)")
                    }
                    Settings.sync()
                    quire.application.activateAction(named: "quit")
                }
            }
            XCTAssertEqual(status, 0)
            StyleManager.shared.setColorScheme(.default)
        }
        XCTAssertTrue(try String(contentsOfFile: keyFile, encoding: .utf8).contains("editor-font='monospace'"))

        // A new start reads the key file afresh.
        MainActor.assumeIsolated {
            let settings = try! XCTUnwrap(Settings.lookup(schemaID: Quire.settingsSchemaID, inDirectory: schemas, keyFile: keyFile))
            let status = runQuire(settings: settings, libraryURL: url) { quire, window in
                XCTAssertEqual(window.editor.appearance.font, .monospace)
                XCTAssertEqual(window.editor.appearance.fontSize, 16)
                XCTAssertTrue(window.editor.appearance.typewriterScrolling)
                XCTAssertEqual(window.preferences.style, .dark)
                XCTAssertTrue(StyleManager.shared.isDark)
                quire.application.activateAction(named: "quit")
            }
            XCTAssertEqual(status, 0)
        }
    }

    /// A writer's first look: at the size the window opens with, the sidebar, the list and the
    /// open article side by side (at 960 pixels their least widths did not fit, and the window
    /// opened folded to the sidebar alone).
    func testTheWindowOpensWithItsThreePanesSideBySide() throws {
        let url = try harbourLibrary()
        drive(url) { window in
            try self.open("Notes from the harbour", in: window)
            try await self.until { window.window.width > 0 && Self.panesAreInPlace(in: window.leaflet) }
            XCTAssertFalse(window.leaflet.isFolded)
            XCTAssertFalse(window.backButton.isVisible)
            for pane in [window.sidebarPane, window.listPane, window.editorStack] { XCTAssertTrue(pane.isMapped) }
        }
    }

    func testTheWindowFitsFromThreeHundredSixtyPixelsUpAndTheScreenshots() throws {
        let url = try harbourLibrary()
        let folder = try screenshotFolder()
        // GNOME's window buttons (close only; GTK's own default adds minimize and maximize).
        let gtkSettings = MainActor.assumeIsolated { Object(retaining: gtk_settings_get_default()!) }
        let layout: String = MainActor.assumeIsolated { gtkSettings.property("gtk-decoration-layout") }
        MainActor.assumeIsolated { gtkSettings.setProperty("gtk-decoration-layout", "appmenu:close") }
        defer {
            MainActor.assumeIsolated {
                StyleManager.shared.setColorScheme(.default)
                gtkSettings.setProperty("gtk-decoration-layout", layout)
            }
        }
        drive(url) { window in
            try self.open("Notes from the harbour", in: window)
            window.preferences.previewVisible = true
            // The writer's 360 pixels are the content inside the window's frame.
            @MainActor func resize(to width: Int, height: Int = 800) async throws {
                try await self.resize(window, to: width, height: height)
            }
            // The preview's page loads once, while it is on screen: beside the text, on a wide window.
            try await resize(to: 1400)
            try await self.until { window.editor.shownRendering == window.editor.latestRendering }
            for (width, name) in [(360, "window-360"), (800, "window-800"), (1400, "window-1400")] {
                try await resize(to: width)
                XCTAssertEqual(window.isNarrow, width < MainWindow.narrowWidth, "\(width)")
                XCTAssertEqual(window.primaryMenuButton.isVisible, !window.isNarrow, "one menu on a narrow window")
                XCTAssertEqual(window.leaflet.isFolded, width < 800 + 100, "\(width)")
                XCTAssertEqual(window.backButton.isVisible, window.leaflet.isFolded, "\(width)")
                if window.leaflet.isFolded { XCTAssertTrue(window.editor.widget.isMapped, "the open article is the folded page") }
                XCTAssertEqual(
                    window.editor.isPreviewShown, width >= EditorPane.sideBySideWidth, "the preview is beside the text on a wide pane only")
                try await self.renderAfterPreview(window, to: folder.appending(path: "\(name).png").path)
            }
            // On a narrow window Ctrl+Shift+P shows the preview instead of the text.
            try await resize(to: 360)
            window.editor.actions.activateAction(named: "preview")
            XCTAssertTrue(window.editor.isPreviewShown)
            XCTAssertFalse(window.editor.textColumn.isVisible)
            window.editor.actions.activateAction(named: "preview")
            XCTAssertTrue(window.editor.textColumn.isVisible)

            try await resize(to: 1400, height: 860)
            for (scheme, name) in [(StyleManager.ColorScheme.forceLight, "writing-surface-light"), (.forceDark, "writing-surface-dark")] {
                StyleManager.shared.setColorScheme(scheme)
                try await self.until { window.editor.isPreviewShown }
                // A rendering after the style's change, so the screenshot waits for it.
                window.editor.updatePreviewNow()
                try await self.renderAfterPreview(window, to: folder.appending(path: "\(name).png").path)
            }
        }
    }

    /// Renders the window once the preview (when shown) has drawn the article.
    @MainActor
    private func renderAfterPreview(_ window: MainWindow, to path: String) async throws {
        if window.editor.isPreviewShown {
            try await until { window.editor.shownRendering == window.editor.latestRendering }
        }
        // WebKit hands its frame to GTK one frame after it painted: render after a frame.
        try await renderWhenDrawn(window.window, to: path)
    }
}

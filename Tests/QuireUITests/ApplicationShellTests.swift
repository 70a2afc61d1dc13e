import CGtk
import XCTest

@testable import GtkKit
@testable import QuireUI

final class ApplicationShellTests: QuireTestCase, @unchecked Sendable {
    func testMainWindowHasTitleHeaderBarAndAPrimaryMenuOfActions() throws {
        try MainActor.assumeIsolated {
            let settings = try freshSettings()
            var checked = false
            let status = runQuire(settings: settings) { quire, mainWindow in
                let window = mainWindow.window
                XCTAssertEqual(window.title, "Quire")
                XCTAssertEqual(window.typeName, "AdwApplicationWindow")
                let headerBars = window.descendants(ofType: adw_header_bar_get_type())
                XCTAssertFalse(headerBars.isEmpty)
                let primaryButtons = window.descendants(ofType: gtk_menu_button_get_type())
                    .filter { $0.property("primary", as: Bool.self) }
                XCTAssertEqual(primaryButtons.count, 1, "F10 opens the one primary menu")
                XCTAssertTrue(headerBars.contains { bar in bar.descendants(ofType: gtk_menu_button_get_type()).contains { $0.objectPointer == primaryButtons.first?.objectPointer } })

                XCTAssertEqual(mainWindow.primaryMenu.items, [
                    MenuModel.Item(label: "Article _History…", action: "win.history"),
                    MenuModel.Item(label: "Insert _Image…", action: "win.insert-image"),
                    MenuModel.Item(label: "_New Folder…", action: "win.new-folder"),
                    MenuModel.Item(label: "_Rename Folder…", action: "win.rename-folder"),
                    MenuModel.Item(label: "_Empty Trash", action: "win.empty-trash"),
                    MenuModel.Item(label: "_Focus Mode", action: "win.focus-mode"),
                    MenuModel.Item(label: "F_ullscreen", action: "win.fullscreen"),
                    MenuModel.Item(label: "_Import…", action: "win.import"),
                    MenuModel.Item(label: "_Export…", action: "win.export"),
                    MenuModel.Item(label: "_Preferences", action: "win.preferences"),
                    MenuModel.Item(label: "_Keyboard Shortcuts", action: "win.show-help-overlay"),
                    MenuModel.Item(label: "_About Quire", action: "app.about"),
                    MenuModel.Item(label: "_Quit", action: "app.quit"),
                ])
                // Every menu item is an action that exists where its prefix says.
                for item in mainWindow.primaryMenu.items {
                    let action = try! XCTUnwrap(item.action)
                    let parts = action.split(separator: ".", maxSplits: 1).map(String.init)
                    let map: ActionMap = parts[0] == "app" ? quire.application : window
                    XCTAssertNotNil(
                        g_action_map_lookup_action(map.actionMapPointer, parts[1]), "\(action) has no action")
                }
                checked = true
                quire.application.activateAction(named: "quit")
            }
            XCTAssertEqual(status, 0)
            XCTAssertTrue(checked)
        }
    }

    func testWindowSizeIsRestoredOnStartAndSavedOnQuit() throws {
        try MainActor.assumeIsolated {
            let settings = try freshSettings()
            settings.set(Int32(700), forKey: "window-width")
            settings.set(Int32(500), forKey: "window-height")
            var openedSize: (width: Int, height: Int)?
            var windowClosed = false
            weak var controller: MainWindow?
            var window: WeakObjectReference?
            let status = runQuire(settings: settings) { quire, mainWindow in
                controller = mainWindow
                window = WeakObjectReference(mainWindow.window.objectPointer)
                openedSize = mainWindow.window.defaultSize
                mainWindow.window.defaultSize = (820, 560)
                mainWindow.window.connect(.destroy) { windowClosed = true }
                quire.application.activateAction(named: "quit")
            }
            XCTAssertEqual(status, 0)
            XCTAssertEqual(openedSize?.width, 700)
            XCTAssertEqual(openedSize?.height, 500)
            // GTK disposes a closed window when its last reference goes; work the window started
            // (looking for drafts to recover, starting sync) may still hold it for a moment.
            for _ in 0..<500 where !windowClosed {
                g_main_context_iteration(nil, 0)
                usleep(10_000)
            }
            XCTAssertTrue(windowClosed, "quitting closes the window")
            XCTAssertNil(controller, "the closed window released its controller")
            XCTAssertNil(window?.withObject { $0 }, "and was finalized: nothing keeps it in a cycle")
            XCTAssertEqual(settings.int(forKey: "window-width"), 820)
            XCTAssertEqual(settings.int(forKey: "window-height"), 560)
            XCTAssertFalse(settings.bool(forKey: "window-maximized"))
        }
    }

    func testWithoutSettingsTheWindowOpensAtTheSchemaDefaultSize() throws {
        try MainActor.assumeIsolated {
            let defaults = try freshSettings()
            var openedSize: (width: Int, height: Int)?
            let status = runQuire(settings: nil) { quire, mainWindow in
                openedSize = mainWindow.window.defaultSize
                quire.application.activateAction(named: "quit")
            }
            XCTAssertEqual(status, 0)
            // main-window.ui's size and the schema's defaults must agree.
            XCTAssertEqual(openedSize?.width, Int(defaults.int(forKey: "window-width")))
            XCTAssertEqual(openedSize?.height, Int(defaults.int(forKey: "window-height")))
        }
    }

    func testAboutActionOpensAboutQuireOverTheMainWindow() throws {
        try MainActor.assumeIsolated {
            let settings = try freshSettings()
            var about: Window?
            let status = runQuire(settings: settings) { quire, mainWindow in
                XCTAssertTrue(quire.application.activateAction(named: "about"))
                about = Window.toplevels.first { $0.isA(adw_about_window_get_type()) && $0.isVisible }
                XCTAssertEqual(about?.transientFor?.objectPointer, mainWindow.window.objectPointer)
                XCTAssertEqual(about?.isVisible, true)
                quire.application.activateAction(named: "quit")
            }
            XCTAssertEqual(status, 0)
            let window = try XCTUnwrap(about)
            XCTAssertEqual(window.property("application-name", as: String.self), "Quire")
            XCTAssertEqual(window.property("version", as: String.self), Quire.version)
            XCTAssertEqual(window.property("application-icon", as: String.self), Quire.applicationID)
            XCTAssertFalse(window.isOpen, "quitting closed it too")
        }
    }

    func testShortcutsWindowListsActionsThatHaveAccelerators() throws {
        try MainActor.assumeIsolated {
            let settings = try freshSettings()
            var shortcutActions: [String] = []
            var accelerators: [String: [String]] = [:]
            var literalShortcuts: [String] = []
            let status = runQuire(settings: settings) { quire, mainWindow in
                XCTAssertTrue(mainWindow.window.activateAction("win.show-help-overlay"))
                let overlay = gtk_application_window_get_help_overlay(
                    mainWindow.window.pointer(as: GtkApplicationWindow.self))
                let shortcutsWindow = Window(retaining: try! XCTUnwrap(overlay))
                XCTAssertTrue(shortcutsWindow.isVisible)
                XCTAssertEqual(shortcutsWindow.transientFor?.objectPointer, mainWindow.window.objectPointer)
                shortcutActions = shortcutsWindow.descendants(ofType: gtk_shortcuts_shortcut_get_type())
                    .map { $0.property("action-name", as: String.self) }.filter { !$0.isEmpty }
                for action in shortcutActions {
                    accelerators[action] = quire.application.accelerators(forDetailedAction: action)
                }
                literalShortcuts = shortcutsWindow.descendants(ofType: gtk_shortcuts_shortcut_get_type())
                    .map { $0.property("accelerator", as: String.self) }.filter { !$0.isEmpty }
                shortcutsWindow.close()
                quire.application.activateAction(named: "quit")
            }
            XCTAssertEqual(status, 0)
            // The shortcuts window's search page repeats every shortcut.
            XCTAssertEqual(
                Array(shortcutActions.prefix(14)),
                ["win.preferences", "win.show-help-overlay", "win.focus-next-pane", "win.focus-previous-pane", "window.close",
                 "app.quit", "win.new-article", "win.save", "win.search", "win.sync-now", "win.import", "win.export", "win.history",
                 "win.insert-image"])
            XCTAssertEqual(Set(shortcutActions).count, 14)
            XCTAssertEqual(accelerators["app.quit"], ["<Control>q"])
            XCTAssertEqual(accelerators["win.new-article"], ["<Control>n"])
            XCTAssertEqual(accelerators["win.save"], ["<Control>s"])
            XCTAssertEqual(accelerators["win.search"], ["<Control>f"])
            XCTAssertEqual(accelerators["win.sync-now"], ["<Control>r"])
            XCTAssertEqual(accelerators["win.preferences"], ["<Control>comma"])
            XCTAssertEqual(accelerators["win.import"], ["<Shift><Control>i"])
            XCTAssertEqual(accelerators["win.export"], ["<Shift><Control>e"])
            XCTAssertEqual(accelerators["win.history"], ["<Shift><Control>h"])
            XCTAssertEqual(accelerators["win.insert-image"], ["<Shift><Control>m"])
            XCTAssertEqual(accelerators["win.focus-next-pane"], ["F6"])
            XCTAssertEqual(accelerators["win.focus-previous-pane"], ["<Shift>F6"])
            // Shortcuts handled inside a widget (the list, the editor) are listed by their keys.
            XCTAssertTrue(Set(literalShortcuts).isSuperset(of: ["Delete", "<Control>z", "<Control><Shift>z"]), "\(literalShortcuts)")
            // The writing surface's: the Markdown aids, the preview, the outline, focus mode and fullscreen.
            XCTAssertTrue(Set(literalShortcuts).isSuperset(of: [
                "<Control>b", "<Control>i", "<Control>grave", "<Control>d", "<Control>k", "<Control>1...<Control>6", "<Control>0",
                "Tab", "<Shift>Tab", "<Control><Shift>p", "<Control><Shift>o", "<Control><Shift>f", "F11",
            ]), "\(literalShortcuts)")
            XCTAssertEqual(accelerators["window.close"], ["<Control>w"])
            XCTAssertEqual(accelerators["win.show-help-overlay"], ["<Control>question"])
        }
    }

    func testActivatingAgainPresentsTheSameWindow() throws {
        try MainActor.assumeIsolated {
            let settings = try freshSettings()
            var opened = 0
            var windowsAfterSecondActivation = 0
            let status = runQuire(settings: settings) { quire, mainWindow in
                opened += 1
                g_application_activate(quire.application.pointer(as: GApplication.self))
                windowsAfterSecondActivation = quire.application.windows.count
                XCTAssertTrue(quire.mainWindow === mainWindow)
                quire.application.activateAction(named: "quit")
            }
            XCTAssertEqual(status, 0)
            XCTAssertEqual(opened, 1)
            XCTAssertEqual(windowsAfterSecondActivation, 1)
        }
    }

    /// `app.quit` can arrive while the library is still opening (Ctrl+Q on a slow start, or over
    /// D-Bus from a second `quire`): the application then ends without ever opening its window.
    func testQuitWhileTheLibraryOpensEndsWithoutAWindow() throws {
        try MainActor.assumeIsolated {
            let url = try makeTemporaryFolder().appending(path: "library.quire")
            let quire = QuireApplication(libraryURL: url, settings: nil, flags: .nonUnique)
            var windowOpened = false
            quire.mainWindowOpened = { _ in windowOpened = true }
            // Connected after QuireApplication's own handler, so it runs once the opening has begun.
            quire.application.connect(.activate) { [unowned quire] in
                XCTAssertTrue(quire.application.activateAction(named: "quit"))
            }
            let watchdog = Timeout(milliseconds: Self.watchdogMilliseconds) { [unowned quire] in
                XCTFail("Quire did not quit in time")
                for window in quire.application.windows { window.destroy() }
                quire.application.quit()
            }
            let status = quire.run(arguments: ["quire"])
            watchdog.cancel()
            XCTAssertEqual(status, 0)
            XCTAssertFalse(windowOpened, "the main window opened after Quit")
        }
    }

    func testScreenshotIsAPNGOfTheWindowSizeAndNotOneColour() throws {
        let path = try makeTemporaryFolder().appending(path: "quire.png").path
        try MainActor.assumeIsolated {
            let settings = try freshSettings()
            var windowSize: (width: Int, height: Int)?
            let status = runQuire(settings: settings, screenshotPath: path) { _, mainWindow in
                // The screenshot closes the window right after it is written.
                mainWindow.window.connect(.closeRequest) {
                    windowSize = (mainWindow.window.width, mainWindow.window.height)
                    return false
                }
            }
            XCTAssertEqual(status, 0)
            XCTAssertTrue(try PNGCheck.hasSignature(path))
            let image = try Texture(contentsOfFile: path)
            let size = try XCTUnwrap(windowSize)
            XCTAssertGreaterThan(size.width, 300)
            XCTAssertEqual(image.width, size.width)
            XCTAssertEqual(image.height, size.height)
            XCTAssertGreaterThan(Set(image.pixels()).count, 16, "header bar, text and icon are drawn")
        }
    }

    func testScreenshotThatCannotBeWrittenEndsWithStatusOne() throws {
        try MainActor.assumeIsolated {
            let settings = try freshSettings()
            let status = runQuire(settings: settings, screenshotPath: "/nonexistent/folder/quire.png")
            XCTAssertEqual(status, 1)
        }
    }
}
